<?php
// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
require __DIR__ . '/vendor/autoload.php';

use Aws\DynamoDb\DynamoDbClient;

$client = new DynamoDbClient([
    'region' => "us-east-1",
    'endpoint' => "http://localhost:8000",
    'credentials' => ['key' => "dynoscope", 'secret' => "dynoscope-local"],
]);
$response = $client->executeStatement([
    'Statement' => "SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)",
    'Parameters' => [["S" => "POST#a91f"], ["S" => "LIKE#"]],
]);
print_r($response->toArray());
