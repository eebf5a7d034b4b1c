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
var response = await client.UpdateItemAsync(new UpdateItemRequest
{
    TableName = "Videos",
    Key = new Dictionary<string, AttributeValue>
    {
        ["PK"] = new AttributeValue { S = "VID#9f3a" },
        ["SK"] = new AttributeValue { S = "STATS#TOTAL" },
    },
    UpdateExpression = "ADD #n0 :d",
    ConditionExpression = "#n0 < :max",
    ExpressionAttributeNames = new Dictionary<string, string>
    {
        ["#n0"] = "play_count",
    },
    ExpressionAttributeValues = new Dictionary<string, AttributeValue>
    {
        [":d"] = new AttributeValue { N = "5" },
        [":max"] = new AttributeValue { N = "1000000000" },
    },
    ReturnValues = ReturnValue.UPDATED_NEW,
    ReturnConsumedCapacity = ReturnConsumedCapacity.TOTAL,
    ReturnValuesOnConditionCheckFailure = ReturnValuesOnConditionCheckFailure.ALL_OLD,
});
Console.WriteLine(response.HttpStatusCode);
