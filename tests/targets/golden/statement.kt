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
        val response = client.executeStatement(
            ExecuteStatementRequest {
                statement = "SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)"
                parameters = listOf(
                    AttributeValue.S("POST#a91f"),
                    AttributeValue.S("LIKE#"),
                )
            },
        )
        println(response)
    }
}
