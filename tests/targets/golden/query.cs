// AWS SDK for .NET (AWSSDK.DynamoDBv2); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
using System;
using System.Collections.Generic;
using System.IO;
using Amazon;
using Amazon.DynamoDBv2;
using Amazon.DynamoDBv2.Model;
using Amazon.Runtime;
using Amazon.Runtime.CredentialManagement;

var config = new AmazonDynamoDBConfig { RegionEndpoint = RegionEndpoint.GetBySystemName("us-west-2") };
using var client = new AmazonDynamoDBClient(config);
var response = await client.QueryAsync(new QueryRequest
{
    TableName = "Social",
    KeyConditionExpression = "#pk = :p AND begins_with(#sk, :c)",
    FilterExpression = "#at > :t",
    ProjectionExpression = "#pk, #sk, #at",
    ExpressionAttributeNames = new Dictionary<string, string>
    {
        ["#at"] = "likedAt",
        ["#pk"] = "PK",
        ["#sk"] = "SK",
    },
    ExpressionAttributeValues = new Dictionary<string, AttributeValue>
    {
        [":c"] = new AttributeValue { S = "LIKE#" },
        [":p"] = new AttributeValue { S = "POST#a91f" },
        [":t"] = new AttributeValue { N = "0" },
    },
});
Console.WriteLine(response.HttpStatusCode);
