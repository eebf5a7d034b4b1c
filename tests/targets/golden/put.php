<?php
// AWS SDK for PHP 3 (composer require aws/aws-sdk-php); not compiled here: its SDK is in none of the registries dynoscope's tests reach; checked against golden files and for its structure.
require __DIR__ . '/vendor/autoload.php';

use Aws\DynamoDb\DynamoDbClient;

$client = new DynamoDbClient([
    'region' => "eu-west-1",
    'profile' => "prod it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}",
]);
$response = $client->putItem([
    'TableName' => "Videos",
    'Item' => ["PK" => ["S" => "P#it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}"], "SK" => ["S" => "ITEM"], "big" => ["N" => "12345678901234567890123456789012345678"], "blobs" => ['BS' => [base64_decode("eA=="), base64_decode("AA==")]], "bytes" => ['B' => base64_decode("AAH/Ig==")], "fraction" => ["N" => "-0.000000000000000000000000000000000001"], "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}" => ["N" => "1"], "list" => ["L" => [["N" => "1"], ["S" => "two"], ["L" => []]]], "map" => ["M" => ["empty" => ["M" => []], "inner" => ["S" => "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}"]]], "nothing" => ["NULL" => true], "scores" => ["NS" => ["1", "2.5"]], "tags" => ["SS" => ["a", "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}"]], "text" => ["S" => "it's \"q\" \$HOME \${x} #{y} \$(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}"], "yes" => ["BOOL" => true]],
    'ConditionExpression' => "attribute_not_exists(#pk)",
    'ExpressionAttributeNames' => ["#pk" => "PK"],
    'ReturnConsumedCapacity' => "TOTAL",
]);
print_r($response->toArray());
