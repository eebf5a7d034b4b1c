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
                .endpointOverride(URI.create("http://localhost:8000"))
                .region(Region.of("us-east-1"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("dynoscope", "dynoscope-local")))
                .build()) {
            ExecuteStatementResponse response = client.executeStatement(
                ExecuteStatementRequest.builder()
                    .statement("SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)")
                    .parameters(AttributeValue.fromS("POST#a91f"), AttributeValue.fromS("LIKE#"))
                    .build());
            System.out.println(response);
        }
    }
}
