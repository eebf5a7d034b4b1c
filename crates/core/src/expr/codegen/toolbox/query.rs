//! A query as dynamodb-toolbox writes it: the partition key's equality and the sort key's
//! range from the key condition, the filter as a condition object. A projection is refused:
//! dynamodb-toolbox v2 drops `attributes` from a query that has no entity.

use crate::error::Result;
use crate::expr::ast::{Comparator, Condition, Operand, Path};
use crate::expr::codegen::ClientSetup;
use crate::expr::codegen::Request;
use crate::expr::codegen::toolbox::words::{
    Kind, Schema, checked_key, condition, refused, root, value,
};
use crate::expr::codegen::toolbox::{Toolbox, client, imports, options, table};
use crate::expr::parser::{Maps, parse_condition};

/// The `range` of a query's key condition, as dynamodb-toolbox writes it.
fn range(c: &Condition) -> Result<KeyPart> {
    let of = |o: &Operand| match o {
        Operand::Value(v) => Ok((value(&v.value)?, Kind::of(&v.value))),
        _ => Err(refused("a key condition compares its key with a value")),
    };
    let name = |p: &Path| Ok::<_, crate::error::Error>(checked_key(root(p)?)?.to_owned());
    Ok(match c {
        Condition::Compare(Operand::Path(p), op, v) if *op != Comparator::Ne => {
            let (v, kind) = of(v)?;
            let word = match op {
                Comparator::Lt => "lt",
                Comparator::Le => "lte",
                Comparator::Gt => "gt",
                Comparator::Ge => "gte",
                _ => "eq",
            };
            (name(p)?, format!("{{ {word}: {v} }}"), kind)
        }
        Condition::Between(Operand::Path(p), low, high) => {
            let ((low, kind), (high, _)) = (of(low)?, of(high)?);
            (name(p)?, format!("{{ between: [{low}, {high}] }}"), kind)
        }
        Condition::BeginsWith(p, v) => {
            let (v, kind) = of(v)?;
            (name(p)?, format!("{{ beginsWith: {v} }}"), kind)
        }
        _ => return Err(refused("a key condition dynamodb-toolbox does not write")),
    })
}

/// A key attribute's condition: its name, the condition's text and the value's kind.
type KeyPart = (String, String, Kind);

/// The partition key's name, value and kind, and the sort key's range when there is one.
fn key_condition(c: &Condition) -> Result<(String, String, Kind, Option<KeyPart>)> {
    let partition = |c: &Condition| match c {
        Condition::Compare(Operand::Path(p), Comparator::Eq, Operand::Value(v)) => Ok((
            checked_key(root(p)?)?.to_owned(),
            value(&v.value)?,
            Kind::of(&v.value),
        )),
        _ => Err(refused(
            "a key condition starts with its partition key = a value",
        )),
    };
    match c {
        Condition::And(a, b) => {
            let (a, b) = if partition(a).is_ok() { (a, b) } else { (b, a) };
            let (name, v, kind) = partition(a)?;
            Ok((name, v, kind, Some(range(b)?)))
        }
        other => {
            let (name, v, kind) = partition(other)?;
            Ok((name, v, kind, None))
        }
    }
}

impl Request {
    /// A query of the table: its partition, its sort key's range, its filter and projection.
    /// `paged`: its options begin with `exclusiveStartKey`, a variable the program keeps.
    pub(super) fn toolbox_query(
        &self,
        setup: &ClientSetup,
        once: bool,
        paged: bool,
    ) -> Result<Toolbox> {
        let maps = Maps::strict(&self.names, &self.values);
        let read = |text: &Option<String>| -> Result<Option<Condition>> {
            (text.as_deref())
                .map(|t| parse_condition(t, maps).map_err(|e| refused(&e.to_string())))
                .transpose()
        };
        let Some(key_text) = read(&self.key_condition)? else {
            return Err(refused("a query without a key condition"));
        };
        let (partition, partition_value, kind, range) = key_condition(&key_text)?;
        let mut keys = vec![(partition, kind)];
        let mut query = vec![format!("partition: {partition_value}")];
        if let Some((name, text, kind)) = range {
            keys.push((name, kind));
            query.push(format!("range: {text}"));
        }
        let mut fields = Vec::new();
        if paged {
            fields.push("exclusiveStartKey".to_owned());
        }
        if let Some(filter) = read(&self.filter)? {
            let mut unused = Schema::default();
            fields.push(format!("filter: {}", condition(&filter, &mut unused)?));
        }
        if self.projection.is_some() {
            return Err(refused(
                "a projection: dynamodb-toolbox v2 leaves a query's `attributes` out when it has \
                 no entity (its code says TODO), so every attribute would be read",
            ));
        }
        if self.returns.consumed_capacity {
            fields.push("capacity: \"TOTAL\"".to_owned());
        }
        let names = imports(&["QueryCommand", "Table"], &keys, &Schema::default());
        let body = client(setup, once, &table(&self.table, &keys, false)?);
        let call = format!(
            "table\n  .build(QueryCommand)\n  .query({{ {} }}){}\n  .send()",
            query.join(", "),
            options(&fields)
        );
        Ok(Toolbox { names, body, call })
    }
}
