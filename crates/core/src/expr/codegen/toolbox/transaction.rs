//! A transaction as dynamodb-toolbox writes it: one entity for its table (the key named by its
//! update or delete, a put's attributes in the same schema), each write a `PutTransaction`,
//! `UpdateTransaction` or `DeleteTransaction`, sent by `executeTransactWrite` with the
//! transaction's `clientRequestToken`.

use crate::error::Result;
use crate::expr::codegen::toolbox::words::{Schema, refused, string};
use crate::expr::codegen::toolbox::{
    Toolbox, client, entity, imports, key_kinds, key_order, table,
};
use crate::expr::codegen::{ClientSetup, Operation, Request, Transaction};
use crate::value::Item;

impl Transaction {
    /// The first write (its table every write's) and the key an update or a delete names, as a
    /// library writing one entity needs them; what is missing, in words.
    pub(in crate::expr::codegen) fn one_table(
        &self,
    ) -> std::result::Result<(&Request, &Item), &'static str> {
        let first = self.writes.first().ok_or("a transaction without a write")?;
        if self.writes.iter().any(|w| w.table != first.table) {
            return Err("a transaction over more than one table: dynoscope writes one entity");
        }
        let key = (self.writes.iter())
            .find_map(|w| match &w.operation {
                Operation::Update(key) | Operation::Delete(key) => Some(key),
                _ => None,
            })
            .ok_or("puts alone: which attributes are the table's key is not in the request")?;
        Ok((first, key))
    }

    /// The writes as dynamodb-toolbox transactions (the `Toolbox`'s call is them, a line each,
    /// comma-separated), connecting as `setup` says; refused in words where it cannot.
    pub(crate) fn toolbox(&self, setup: &ClientSetup, once: bool) -> Result<Toolbox> {
        let (first, key) = self.one_table().map_err(refused)?;
        let (names, guessed) = key_order(key);
        let keys = key_kinds(key, &names)?;
        let mut schema = Schema::default();
        let mut calls = Vec::new();
        let mut classes = vec!["Entity", "Table", "executeTransactWrite"];
        for write in &self.writes {
            let write = write.toolbox_write(&names, &mut schema)?;
            let class = match write.verb {
                "Put" => "PutTransaction",
                "Delete" => "DeleteTransaction",
                _ => "UpdateTransaction",
            };
            if !classes.contains(&class) {
                classes.push(class);
            }
            let options: Vec<String> = write.condition.iter().cloned().collect();
            calls.push(write.built(class, &options));
        }
        let body = format!(
            "{}{}\n",
            client(setup, once, &table(&first.table, &keys, guessed)?),
            entity(&keys, &schema)?
        );
        let names = imports(&classes, &keys, &schema);
        Ok(Toolbox {
            names,
            body,
            call: calls.join(",\n"),
        })
    }

    /// The transaction as the dynamodb-toolbox target shows it; what it cannot say, in words.
    pub(in crate::expr::codegen) fn toolbox_text(&self, setup: &ClientSetup) -> String {
        let code = match self.toolbox(setup, false) {
            Ok(code) => code,
            Err(error) => return super::commented(&error.to_string()),
        };
        let mut options = Vec::new();
        if let Some(token) = &self.token {
            options.push(format!("clientRequestToken: {}", string(token)));
        }
        if self.consumed_capacity {
            options.push("capacity: \"TOTAL\"".to_owned());
        }
        let writes = code.call.replace('\n', "\n  ");
        let options = if options.is_empty() {
            String::new()
        } else {
            format!("\n  {{ {} }},", options.join(", "))
        };
        format!(
            "{}\nconst response = await executeTransactWrite({options}\n  {writes},\n);\n",
            code.head(&[])
        )
    }
}
