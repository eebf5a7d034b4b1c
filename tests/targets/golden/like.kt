// AWS SDK for Kotlin (aws.sdk.kotlin:dynamodb); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider
import aws.sdk.kotlin.runtime.auth.credentials.StaticCredentialsProvider
import aws.sdk.kotlin.services.dynamodb.DynamoDbClient
import aws.sdk.kotlin.services.dynamodb.model.*
import aws.smithy.kotlin.runtime.net.url.Url
import java.util.Base64

suspend fun main() {
    DynamoDbClient {
        region = "us-east-1"
        endpointUrl = Url.parse("http://localhost:8000")
        credentialsProvider = StaticCredentialsProvider {
            accessKeyId = "dynoscope"
            secretAccessKey = "dynoscope-local"
        }
    }.use { client ->
        val response = client.transactWriteItems(
            TransactWriteItemsRequest {
                transactItems = listOf(
                    TransactWriteItem {
                        update = Update {
                            tableName = "Social"
                            key = mapOf(
                                "PK" to AttributeValue.S("POST#a91f"),
                                "SK" to AttributeValue.S("META"),
                            )
                            updateExpression = "ADD #t :one"
                            expressionAttributeNames = mapOf(
                                "#t" to "likeTally",
                            )
                            expressionAttributeValues = mapOf(
                                ":one" to AttributeValue.N("1"),
                            )
                        }
                    },
                    TransactWriteItem {
                        put = Put {
                            tableName = "Social"
                            item = mapOf(
                                "PK" to AttributeValue.S("POST#a91f"),
                                "SK" to AttributeValue.S("LIKE#USER#7c20"),
                            )
                            conditionExpression = "attribute_not_exists(#sk)"
                            expressionAttributeNames = mapOf(
                                "#sk" to "SK",
                            )
                        }
                    },
                )
                returnConsumedCapacity = ReturnConsumedCapacity.Total
                clientRequestToken = "tok-1"
            },
        )
        println(response)
    }
}
