// AWS SDK for Kotlin (aws.sdk.kotlin:dynamodb); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider
import aws.sdk.kotlin.runtime.auth.credentials.StaticCredentialsProvider
import aws.sdk.kotlin.services.dynamodb.DynamoDbClient
import aws.sdk.kotlin.services.dynamodb.model.*
import aws.smithy.kotlin.runtime.net.url.Url
import java.util.Base64

suspend fun main() {
    DynamoDbClient {
        region = "eu-west-1"
        credentialsProvider = ProfileCredentialsProvider(profileName = "prod it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001")
    }.use { client ->
        val response = client.putItem(
            PutItemRequest {
                tableName = "Videos"
                item = mapOf(
                    "PK" to AttributeValue.S("P#it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"),
                    "SK" to AttributeValue.S("ITEM"),
                    "big" to AttributeValue.N("12345678901234567890123456789012345678"),
                    "blobs" to AttributeValue.Bs(listOf(Base64.getDecoder().decode("eA=="), Base64.getDecoder().decode("AA=="))),
                    "bytes" to AttributeValue.B(Base64.getDecoder().decode("AAH/Ig==")),
                    "fraction" to AttributeValue.N("-0.000000000000000000000000000000000001"),
                    "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001" to AttributeValue.N("1"),
                    "list" to AttributeValue.L(listOf(AttributeValue.N("1"), AttributeValue.S("two"), AttributeValue.L(listOf()))),
                    "map" to AttributeValue.M(mapOf("empty" to AttributeValue.M(mapOf()), "inner" to AttributeValue.S("it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"))),
                    "nothing" to AttributeValue.Null(true),
                    "scores" to AttributeValue.Ns(listOf("1", "2.5")),
                    "tags" to AttributeValue.Ss(listOf("a", "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001")),
                    "text" to AttributeValue.S("it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"),
                    "yes" to AttributeValue.Bool(true),
                )
                conditionExpression = "attribute_not_exists(#pk)"
                expressionAttributeNames = mapOf(
                    "#pk" to "PK",
                )
                returnConsumedCapacity = ReturnConsumedCapacity.Total
            },
        )
        println(response)
    }
}
