// AWS SDK for .NET (AWSSDK.DynamoDBv2); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
using System;
using System.Collections.Generic;
using System.IO;
using Amazon;
using Amazon.DynamoDBv2;
using Amazon.DynamoDBv2.Model;
using Amazon.Runtime;
using Amazon.Runtime.CredentialManagement;

var config = new AmazonDynamoDBConfig { RegionEndpoint = RegionEndpoint.GetBySystemName("eu-west-1") };
if (!new CredentialProfileStoreChain().TryGetAWSCredentials("prod it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001", out var credentials))
{
    throw new InvalidOperationException("no such profile");
}
using var client = new AmazonDynamoDBClient(credentials, config);
var response = await client.PutItemAsync(new PutItemRequest
{
    TableName = "Videos",
    Item = new Dictionary<string, AttributeValue>
    {
        ["PK"] = new AttributeValue { S = "P#it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001" },
        ["SK"] = new AttributeValue { S = "ITEM" },
        ["big"] = new AttributeValue { N = "12345678901234567890123456789012345678" },
        ["blobs"] = new AttributeValue { BS = new List<MemoryStream> { new MemoryStream(Convert.FromBase64String("eA==")), new MemoryStream(Convert.FromBase64String("AA==")) } },
        ["bytes"] = new AttributeValue { B = new MemoryStream(Convert.FromBase64String("AAH/Ig==")) },
        ["fraction"] = new AttributeValue { N = "-0.000000000000000000000000000000000001" },
        ["it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001"] = new AttributeValue { N = "1" },
        ["list"] = new AttributeValue { L = new List<AttributeValue> { new AttributeValue { N = "1" }, new AttributeValue { S = "two" }, new AttributeValue { IsLSet = true } } },
        ["map"] = new AttributeValue { M = new Dictionary<string, AttributeValue> { ["empty"] = new AttributeValue { IsMSet = true }, ["inner"] = new AttributeValue { S = "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001" } } },
        ["nothing"] = new AttributeValue { NULL = true },
        ["scores"] = new AttributeValue { NS = new List<string> { "1", "2.5" } },
        ["tags"] = new AttributeValue { SS = new List<string> { "a", "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001" } },
        ["text"] = new AttributeValue { S = "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u202e\U0001f600\u0001" },
        ["yes"] = new AttributeValue { BOOL = true },
    },
    ConditionExpression = "attribute_not_exists(#pk)",
    ExpressionAttributeNames = new Dictionary<string, string>
    {
        ["#pk"] = "PK",
    },
    ReturnConsumedCapacity = ReturnConsumedCapacity.TOTAL,
});
Console.WriteLine(response.HttpStatusCode);
