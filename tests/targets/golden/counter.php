<?php
// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
require __DIR__ . '/vendor/autoload.php';

use Aws\DynamoDb\DynamoDbClient;

$client = new DynamoDbClient([
    'region' => "us-east-1",
    'endpoint' => "http://localhost:8000",
    'credentials' => ['key' => "dynoscope", 'secret' => "dynoscope-local"],
]);
$response = $client->updateItem([
    'TableName' => "Videos",
    'Key' => ["PK" => ["S" => "VID#9f3a"], "SK" => ["S" => "STATS#TOTAL"]],
    'UpdateExpression' => "ADD #n0 :d",
    'ConditionExpression' => "#n0 < :max",
    'ExpressionAttributeNames' => ["#n0" => "play_count"],
    'ExpressionAttributeValues' => [":d" => ["N" => "5"], ":max" => ["N" => "1000000000"]],
    'ReturnValues' => "UPDATED_NEW",
    'ReturnConsumedCapacity' => "TOTAL",
    'ReturnValuesOnConditionCheckFailure' => "ALL_OLD",
]);
print_r($response->toArray());
