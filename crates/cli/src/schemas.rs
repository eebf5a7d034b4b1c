//! The JSON Schema of every report's one document, kept as a snapshot (`insta`): what the
//! CLI's `--json` prints and the MCP tools answer, so a change to a key, a type or a word a user
//! reads is a reviewed diff; every key of every document is snake_case. `tests/architecture/
//! schemas.rs` holds this list to every report.

#[cfg(test)]
mod tests {
    use dynoscope_core::report::Answered;
    use schemars::{JsonSchema, schema_for};

    /// `(name, schema)` of the document of report `T`, its `ending` beside its keys.
    fn schema<T: JsonSchema>(name: &'static str) -> (&'static str, serde_json::Value) {
        (name, schema_for!(Answered<T>).to_value())
    }

    /// Every key a schema names under `properties`, however deep.
    fn properties(schema: &serde_json::Value, keys: &mut Vec<String>) {
        match schema {
            serde_json::Value::Object(object) => {
                if let Some(serde_json::Value::Object(named)) = object.get("properties") {
                    keys.extend(named.keys().cloned());
                }
                object.values().for_each(|value| properties(value, keys));
            }
            serde_json::Value::Array(values) => values.iter().for_each(|v| properties(v, keys)),
            _ => {}
        }
    }

    #[test]
    fn report_schemas() {
        use dynoscope_core::{
            admin, clone, cost::reports, counter, diff, exports, import, likes, listed, metrics,
            partiql, places, purge, spec, stream, tally, watch,
        };
        let schemas: serde_json::Map<String, serde_json::Value> = [
            schema::<admin::AdminReport>("AdminReport"),
            schema::<admin::ChangeRun>("ChangeRun"),
            schema::<clone::CloneReport>("CloneReport"),
            schema::<counter::EditReport>("EditReport"),
            schema::<reports::PriceCard>("PriceCard"),
            schema::<reports::PricedAdvice>("PricedAdvice"),
            schema::<reports::PricedSize>("PricedSize"),
            schema::<diff::SnapshotDiff>("SnapshotDiff"),
            schema::<diff::TableDiff>("TableDiff"),
            schema::<diff::TallyDiff>("TallyDiff"),
            schema::<exports::ExportRun>("ExportRun"),
            schema::<exports::RoutePlan>("RoutePlan"),
            schema::<import::ImportRun>("ImportRun"),
            schema::<likes::LikeReport>("LikeReport"),
            schema::<likes::StormReport>("StormReport"),
            schema::<listed::Listed>("Listed"),
            schema::<listed::TableFacts<'static>>("TableFacts"),
            schema::<listed::TableNames>("TableNames"),
            schema::<metrics::insights_read::InsightsRead>("InsightsRead"),
            schema::<metrics::insights_read::InsightsSwitch>("InsightsSwitch"),
            schema::<metrics::TableMetrics>("TableMetrics"),
            schema::<partiql::StatementReport>("StatementReport"),
            schema::<places::Places>("Places"),
            schema::<purge::CountedPurge>("CountedPurge"),
            schema::<purge::PurgeRun>("PurgeRun"),
            schema::<spec::Compared>("Compared"),
            schema::<spec::DeleteDryRun>("DeleteDryRun"),
            schema::<spec::Got>("Got"),
            schema::<spec::ItemWrite>("ItemWrite"),
            schema::<spec::ItemsRead>("ItemsRead"),
            schema::<spec::ReconcileRun>("ReconcileRun"),
            schema::<spec::ShardSum>("ShardSum"),
            schema::<spec::SnapshotWritten>("SnapshotWritten"),
            schema::<spec::SqlAnswer>("SqlAnswer"),
            schema::<spec::StatementRead>("StatementRead"),
            schema::<spec::TallyCheck>("TallyCheck"),
            schema::<spec::TallyRepair>("TallyRepair"),
            schema::<spec::WindowReport>("WindowReport"),
            schema::<stream::EnableReport>("EnableReport"),
            schema::<tally::AthenaRun>("AthenaRun"),
            schema::<watch::Watched>("Watched"),
        ]
        .into_iter()
        .map(|(name, schema)| (name.to_owned(), schema))
        .collect();
        let mut keys = Vec::new();
        properties(&serde_json::Value::Object(schemas.clone()), &mut keys);
        let odd: Vec<&String> = (keys.iter())
            .filter(|key| {
                !key.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
            .collect();
        assert!(odd.is_empty(), "keys not in snake_case: {odd:?}");
        assert!(
            keys.len() > 300,
            "the documents' keys were read: {}",
            keys.len()
        );
        let text = serde_json::to_string_pretty(&schemas).unwrap();
        insta::assert_snapshot!("report_schemas", text);
    }
}
