<?php
// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
require __DIR__ . '/vendor/autoload.php';

use Aws\DynamoDb\DynamoDbClient;

$client = new DynamoDbClient([
    'region' => "us-east-1",
    'endpoint' => "http://localhost:8000",
    'credentials' => ['key' => "dynoscope", 'secret' => "dynoscope-local"],
]);
$response = $client->transactWriteItems([
    'TransactItems' => [["Update" => ["TableName" => "Social", "Key" => ["PK" => ["S" => "POST#a91f"], "SK" => ["S" => "META"]], "UpdateExpression" => "ADD #t :one", "ExpressionAttributeNames" => ["#t" => "likeTally"], "ExpressionAttributeValues" => [":one" => ["N" => "1"]]]], ["Put" => ["TableName" => "Social", "Item" => ["PK" => ["S" => "POST#a91f"], "SK" => ["S" => "LIKE#USER#7c20"]], "ConditionExpression" => "attribute_not_exists(#sk)", "ExpressionAttributeNames" => ["#sk" => "SK"]]]],
    'ReturnConsumedCapacity' => "TOTAL",
    'ClientRequestToken' => "tok-1",
]);
print_r($response->toArray());
