<?php
// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
require __DIR__ . '/vendor/autoload.php';

use Aws\DynamoDb\DynamoDbClient;

$client = new DynamoDbClient([
    'region' => "us-west-2",
]);
$response = $client->query([
    'TableName' => "Social",
    'KeyConditionExpression' => "#pk = :p AND begins_with(#sk, :c)",
    'FilterExpression' => "#at > :t",
    'ProjectionExpression' => "#pk, #sk, #at",
    'ExpressionAttributeNames' => ["#at" => "likedAt", "#pk" => "PK", "#sk" => "SK"],
    'ExpressionAttributeValues' => [":c" => ["S" => "LIKE#"], ":p" => ["S" => "POST#a91f"], ":t" => ["N" => "0"]],
]);
print_r($response->toArray());
