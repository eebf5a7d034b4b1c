//! What the benches share: an empty table keyed `PK` and `SK` (both strings), on demand.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
};

/// Create `name`, keyed `PK` (partition) and `SK` (sort), both `S`, paid per request.
pub async fn create_table(client: &Client, name: &str) {
    let def = |n: &str| {
        AttributeDefinition::builder()
            .attribute_name(n)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .expect("definition")
    };
    let key = |n: &str, t| {
        KeySchemaElement::builder()
            .attribute_name(n)
            .key_type(t)
            .build()
            .expect("key")
    };
    client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(def("PK"))
        .attribute_definitions(def("SK"))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .send()
        .await
        .expect("create table");
}
