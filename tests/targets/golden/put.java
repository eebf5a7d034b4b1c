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
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("prod it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"))
                .build()) {
            PutItemResponse response = client.putItem(
                PutItemRequest.builder()
                    .tableName("Videos")
                    .item(Map.ofEntries(
                        Map.entry("PK", AttributeValue.fromS("P#it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001")),
                        Map.entry("SK", AttributeValue.fromS("ITEM")),
                        Map.entry("big", AttributeValue.fromN("12345678901234567890123456789012345678")),
                        Map.entry("blobs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(Base64.getDecoder().decode("eA==")), SdkBytes.fromByteArray(Base64.getDecoder().decode("AA=="))))),
                        Map.entry("bytes", AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAH/Ig==")))),
                        Map.entry("fraction", AttributeValue.fromN("-0.000000000000000000000000000000000001")),
                        Map.entry("it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001", AttributeValue.fromN("1")),
                        Map.entry("list", AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromS("two"), AttributeValue.fromL(List.of())))),
                        Map.entry("map", AttributeValue.fromM(Map.ofEntries(Map.entry("empty", AttributeValue.fromM(Map.ofEntries())), Map.entry("inner", AttributeValue.fromS("it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"))))),
                        Map.entry("nothing", AttributeValue.fromNul(true)),
                        Map.entry("scores", AttributeValue.fromNs(List.of("1", "2.5"))),
                        Map.entry("tags", AttributeValue.fromSs(List.of("a", "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001"))),
                        Map.entry("text", AttributeValue.fromS("it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\ud83d\ude00\u0001")),
                        Map.entry("yes", AttributeValue.fromBool(true))))
                    .conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.ofEntries(
                        Map.entry("#pk", "PK")))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .build());
            System.out.println(response);
        }
    }
}
