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
        val response = client.updateItem(
            UpdateItemRequest {
                tableName = "Videos"
                key = mapOf(
                    "PK" to AttributeValue.S("VID#9f3a"),
                    "SK" to AttributeValue.S("STATS#TOTAL"),
                )
                updateExpression = "ADD #n0 :d"
                conditionExpression = "#n0 < :max"
                expressionAttributeNames = mapOf(
                    "#n0" to "play_count",
                )
                expressionAttributeValues = mapOf(
                    ":d" to AttributeValue.N("5"),
                    ":max" to AttributeValue.N("1000000000"),
                )
                returnValues = ReturnValue.UpdatedNew
                returnConsumedCapacity = ReturnConsumedCapacity.Total
                returnValuesOnConditionCheckFailure = ReturnValuesOnConditionCheckFailure.AllOld
            },
        )
        println(response)
    }
}
