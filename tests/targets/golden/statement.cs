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
var response = await client.ExecuteStatementAsync(new ExecuteStatementRequest
{
    Statement = "SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)",
    Parameters = new List<AttributeValue>
    {
        new AttributeValue { S = "POST#a91f" },
        new AttributeValue { S = "LIKE#" },
    },
});
Console.WriteLine(response.HttpStatusCode);
