// AWS SDK for .NET (AWSSDK.DynamoDBv2); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
using System;
using System.Collections.Generic;
using System.IO;
using Amazon;
using Amazon.DynamoDBv2;
using Amazon.DynamoDBv2.Model;
using Amazon.Runtime;
using Amazon.Runtime.CredentialManagement;

var config = new AmazonDynamoDBConfig { ServiceURL = "http://localhost:8000", AuthenticationRegion = "us-east-1" };
using var client = new AmazonDynamoDBClient(new BasicAWSCredentials("dynoscope", "dynoscope-local"), config);
var response = await client.TransactWriteItemsAsync(new TransactWriteItemsRequest
{
    TransactItems = new List<TransactWriteItem>
    {
        new TransactWriteItem { Update = new Update
        {
            TableName = "Social",
            Key = new Dictionary<string, AttributeValue>
            {
                ["PK"] = new AttributeValue { S = "POST#a91f" },
                ["SK"] = new AttributeValue { S = "META" },
            },
            UpdateExpression = "ADD #t :one",
            ExpressionAttributeNames = new Dictionary<string, string>
            {
                ["#t"] = "likeTally",
            },
            ExpressionAttributeValues = new Dictionary<string, AttributeValue>
            {
                [":one"] = new AttributeValue { N = "1" },
            },
        } },
        new TransactWriteItem { Put = new Put
        {
            TableName = "Social",
            Item = new Dictionary<string, AttributeValue>
            {
                ["PK"] = new AttributeValue { S = "POST#a91f" },
                ["SK"] = new AttributeValue { S = "LIKE#USER#7c20" },
            },
            ConditionExpression = "attribute_not_exists(#sk)",
            ExpressionAttributeNames = new Dictionary<string, string>
            {
                ["#sk"] = "SK",
            },
        } },
    },
    ReturnConsumedCapacity = ReturnConsumedCapacity.TOTAL,
    ClientRequestToken = "tok-1",
});
Console.WriteLine(response.HttpStatusCode);
