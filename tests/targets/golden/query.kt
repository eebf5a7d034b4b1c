// AWS SDK for Kotlin (aws.sdk.kotlin:dynamodb); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider
import aws.sdk.kotlin.runtime.auth.credentials.StaticCredentialsProvider
import aws.sdk.kotlin.services.dynamodb.DynamoDbClient
import aws.sdk.kotlin.services.dynamodb.model.*
import aws.smithy.kotlin.runtime.net.url.Url
import java.util.Base64

suspend fun main() {
    DynamoDbClient {
        region = "us-west-2"
    }.use { client ->
        val response = client.query(
            QueryRequest {
                tableName = "Social"
                keyConditionExpression = "#pk = :p AND begins_with(#sk, :c)"
                filterExpression = "#at > :t"
                projectionExpression = "#pk, #sk, #at"
                expressionAttributeNames = mapOf(
                    "#at" to "likedAt",
                    "#pk" to "PK",
                    "#sk" to "SK",
                )
                expressionAttributeValues = mapOf(
                    ":c" to AttributeValue.S("LIKE#"),
                    ":p" to AttributeValue.S("POST#a91f"),
                    ":t" to AttributeValue.N("0"),
                )
            },
        )
        println(response)
    }
}
