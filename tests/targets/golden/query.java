// AWS SDK for Java 2.x (software.amazon.awssdk:dynamodb); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class Request {
    public static void main(String[] args) {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("us-west-2"))
                .build()) {
            QueryResponse response = client.query(
                QueryRequest.builder()
                    .tableName("Social")
                    .keyConditionExpression("#pk = :p AND begins_with(#sk, :c)")
                    .filterExpression("#at > :t")
                    .projectionExpression("#pk, #sk, #at")
                    .expressionAttributeNames(Map.ofEntries(
                        Map.entry("#at", "likedAt"),
                        Map.entry("#pk", "PK"),
                        Map.entry("#sk", "SK")))
                    .expressionAttributeValues(Map.ofEntries(
                        Map.entry(":c", AttributeValue.fromS("LIKE#")),
                        Map.entry(":p", AttributeValue.fromS("POST#a91f")),
                        Map.entry(":t", AttributeValue.fromN("0"))))
                    .build());
            System.out.println(response);
        }
    }
}
