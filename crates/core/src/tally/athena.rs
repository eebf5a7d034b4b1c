//! The same reconciliation as a query over an export in S3, for tables beyond one machine: an
//! Athena `CREATE EXTERNAL TABLE` over the export's JSON lines (`{"Item": {…}}`), and the
//! `GROUP BY` query giving every parent whose stored tally disagrees with its children.

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::table::{KeyAttr, TableInfo};
use crate::tally::{ChildSource, TallyRule};

/// A name quoted for Athena's DDL (backticks) — attribute names may hold any character.
fn ddl_name(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// A name quoted for Athena's queries (double quotes).
fn query_name(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A SQL string literal.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `item."PK"."S"`: a typed attribute of the export's item.
fn field(name: &str, tag: &str) -> String {
    format!("item.{}.{}", query_name(name), query_name(tag))
}

/// The Athena table name for an export of `table`: letters, digits and `_`, lower case.
pub fn athena_table(table: &str) -> String {
    let name: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}_export")
}

/// Refuse key types a counter rule cannot match: parents are matched on a text sort key (and a
/// text partition prefix), children on a text sort-key prefix, as the local check does.
fn check_text_keys(info: &TableInfo, rule: &TallyRule, sort: &KeyAttr) -> Result<()> {
    let pk = &info.partition;
    let text_key = |key: &KeyAttr, what: &str| {
        if key.kind == ScalarType::S {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "`{}` is {}: a counter rule matches {what} on text",
                key.name,
                key.kind.tag()
            )))
        }
    };
    text_key(sort, "the parents' sort key")?;
    if !rule.parents.partition_prefix.is_empty() {
        text_key(pk, "the partition prefix")?;
    }
    if let ChildSource::Index {
        index, sort_prefix, ..
    } = &rule.children
        && !sort_prefix.is_empty()
        && let Some((_, Some(isk))) = info.keys_of(Some(index))
    {
        text_key(isk, "the index's sort-key prefix")?;
    }
    Ok(())
}

/// The children's id and the condition choosing them, the attributes they read added to
/// `columns`.
fn children_query(
    info: &TableInfo,
    rule: &TallyRule,
    sort: &KeyAttr,
    columns: &mut Vec<(String, &'static str)>,
) -> Result<(String, String)> {
    let pk = &info.partition;
    Ok(match &rule.children {
        ChildSource::SortKeyPrefix(prefix) => (
            field(&pk.name, pk.kind.tag()),
            format!(
                "starts_with({}, {})",
                field(&sort.name, "S"),
                literal(prefix)
            ),
        ),
        ChildSource::Index {
            index, sort_prefix, ..
        } => {
            let (ipk, isk): (&KeyAttr, Option<&KeyAttr>) = info
                .keys_of(Some(index))
                .ok_or_else(|| Error::Invalid(format!("{} has no index {index}", info.name)))?;
            columns.push((ipk.name.clone(), ipk.kind.tag()));
            let mut clauses = vec![format!("{} IS NOT NULL", field(&ipk.name, ipk.kind.tag()))];
            if let Some(isk) = isk {
                columns.push((isk.name.clone(), isk.kind.tag()));
                clauses.push(format!("{} IS NOT NULL", field(&isk.name, isk.kind.tag())));
                if !sort_prefix.is_empty() {
                    clauses.push(format!(
                        "starts_with({}, {})",
                        field(&isk.name, "S"),
                        literal(sort_prefix)
                    ));
                }
            }
            (field(&ipk.name, ipk.kind.tag()), clauses.join(" AND "))
        }
    })
}

/// The parents' id: the rule's id attribute (added to `columns`), or the partition key.
fn parent_id(
    info: &TableInfo,
    rule: &TallyRule,
    columns: &mut Vec<(String, &'static str)>,
) -> String {
    let pk = &info.partition;
    match &rule.children {
        ChildSource::Index {
            id_attribute: Some(id),
            index,
            ..
        } => {
            let kind = info.keys_of(Some(index)).map_or("S", |(k, _)| k.kind.tag());
            columns.push((id.clone(), kind));
            field(id, kind)
        }
        _ => field(&pk.name, pk.kind.tag()),
    }
}

/// The condition choosing the parents: the rule's sort key, and its partition prefix if any.
fn parents_where(rule: &TallyRule, pk: &KeyAttr, sort: &KeyAttr) -> String {
    let mut parent_where = format!(
        "{} = {}",
        field(&sort.name, "S"),
        literal(&rule.parents.sort_key)
    );
    if !rule.parents.partition_prefix.is_empty() {
        parent_where += &format!(
            " AND starts_with({}, {})",
            field(&pk.name, "S"),
            literal(&rule.parents.partition_prefix)
        );
    }
    parent_where
}

/// The two statements Athena runs, each without its `;`: the export's items as an external
/// table, and the query of the drifted parents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AthenaStatements {
    /// `CREATE EXTERNAL TABLE … LOCATION '…'`.
    pub ddl: String,
    /// `WITH parents AS (…) … ORDER BY …`: `pk`, `stored`, `counted`, `drift` of each drifted
    /// parent.
    pub query: String,
    /// The rule in words, for the header.
    rule: String,
}

/// The Athena SQL reconciling `rule` over the export of table `info` at `location` (the
/// export's `data/` folder in S3, e.g. `s3://bucket/AWSDynamoDB/0169…/data/`), as table
/// `athena_table`.
pub fn athena_sql(
    info: &TableInfo,
    rule: &TallyRule,
    location: &str,
    athena_table: &str,
) -> Result<String> {
    let statements = athena_statements(info, rule, location, athena_table)?;
    Ok(format!(
        "-- {rule} over the DynamoDB export of {name}, in Amazon Athena.\n\
-- 1. The export's items as a table (only the attributes the check reads):\n\
{ddl};\n\n\
-- 2. Every parent whose stored tally is not its count of children (a missing tally is not 0):\n\
{query};\n",
        rule = comment_text(&statements.rule),
        name = comment_text(&info.name),
        ddl = statements.ddl,
        query = statements.query,
    ))
}

/// `text` as it may stand inside a `--` comment: a line break (or any control character, or a
/// Unicode line or paragraph separator) would end the comment and leave the rest of the text
/// live SQL, so each is written as `\uXXXX`.
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                format!("\\u{:04x}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// An S3 location Athena may be pointed at: an `s3://` address of a bucket (as the export
/// readers take it), no `.` or `..` part, no control character.
fn check_location(location: &str) -> Result<()> {
    let refused = |why: &str| {
        Err(Error::Invalid(format!(
            "`{}` is not an S3 location of an export ({why}): give s3://bucket/…/data/",
            location.escape_debug()
        )))
    };
    if location
        .chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return refused("it holds a control character");
    }
    let Some(parsed) = crate::transfer::S3Location::parse(location)? else {
        return refused("it does not start with s3://");
    };
    if parsed
        .prefix
        .split('/')
        .any(|part| part == "." || part == "..")
    {
        return refused("a part of it is `.` or `..`");
    }
    Ok(())
}

/// The export's folder or its `data/` folder, as the `data/` folder with its `/`: an export's
/// folder (`…/AWSDynamoDB/<ExportId>/`) holds its manifests beside `data/`, and a table over
/// the whole folder would read the manifests as items.
pub fn data_folder(location: &str) -> String {
    let trimmed = location.trim_end_matches('/');
    let parent = trimmed.rsplit_once('/').map_or("", |(p, _)| p);
    if parent.ends_with("/AWSDynamoDB") {
        format!("{trimmed}/data/")
    } else {
        format!("{trimmed}/")
    }
}

/// [`athena_sql`]'s two statements.
pub fn athena_statements(
    info: &TableInfo,
    rule: &TallyRule,
    location: &str,
    athena_table: &str,
) -> Result<AthenaStatements> {
    check_location(location)?;
    let sort = info.sort.as_ref().ok_or_else(|| {
        Error::Invalid(format!(
            "{} has no sort key, so it has no parent items",
            info.name
        ))
    })?;
    let pk = &info.partition;
    check_text_keys(info, rule, sort)?;
    // The attributes the query reads, each a struct of its one type.
    let mut columns: Vec<(String, &'static str)> = vec![
        (pk.name.clone(), pk.kind.tag()),
        (sort.name.clone(), sort.kind.tag()),
        (rule.tally.clone(), "N"),
    ];
    let (child_id, child_where) = children_query(info, rule, sort, &mut columns)?;
    let parent_id = parent_id(info, rule, &mut columns);
    let mut seen = std::collections::HashSet::new();
    columns.retain(|(name, _)| seen.insert(name.clone()));
    let fields: Vec<String> = columns
        .iter()
        .map(|(name, tag)| format!("{}:struct<{tag}:string>", ddl_name(name)))
        .collect();
    let parent_where = parents_where(rule, pk, sort);
    let tally = field(&rule.tally, "N");
    let table = query_name(athena_table);
    let ddl = format!(
        "CREATE EXTERNAL TABLE {ddl_table} (\n  item struct<{fields}>\n)\n\
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'\n\
LOCATION {location}",
        ddl_table = ddl_name(athena_table),
        fields = fields.join(", "),
        location = literal(&data_folder(location)),
    );
    let query = format!(
        "WITH parents AS (\n  SELECT {parent_id} AS id, {pk_field} AS pk, {tally} AS stored\n  FROM {table}\n  WHERE {parent_where}\n),\n\
children AS (\n  SELECT {child_id} AS id, COUNT(*) AS counted\n  FROM {table}\n  WHERE {child_where}\n  GROUP BY {child_id}\n)\n\
SELECT p.pk, p.stored, COALESCE(c.counted, 0) AS counted,\n  \
TRY_CAST(p.stored AS DECIMAL(38, 0)) - COALESCE(c.counted, 0) AS drift\n\
FROM parents p LEFT JOIN children c ON c.id = p.id\n\
-- DynamoDB keeps a number's text canonical (no leading or trailing zeros), so the exact test is\n\
-- on the text: 2.4 is not 2, and no digit is lost to a cast.\n\
WHERE p.stored IS NULL OR p.stored <> CAST(COALESCE(c.counted, 0) AS VARCHAR)\n\
ORDER BY p.stored IS NULL DESC, abs(TRY_CAST(p.stored AS DECIMAL(38, 0)) - COALESCE(c.counted, 0)) DESC NULLS FIRST, p.pk",
        pk_field = field(&pk.name, pk.kind.tag()),
    );
    Ok(AthenaStatements {
        ddl,
        query,
        rule: crate::tally::Rule::Tally(rule.clone()).describe(),
    })
}
