//! A transaction as ElectroDB writes it: one entity for its table in a `Service`, each write
//! `item.put(…)`, `item.update(…)` or `item.delete(…)` ending `.commit()`, sent by
//! `service.transaction.write(…).go({ token })`.

use crate::error::Result;
use crate::expr::codegen::electro::{
    Attributes, Electro, WRITES_MORE, client, entity, key_names, refused,
};
use crate::expr::codegen::toolbox::words::string;
use crate::expr::codegen::{ClientSetup, Transaction};

impl Transaction {
    /// The head (imports, client, entity, service) and the writes, a `.commit()`ed call each
    /// (the `Electro`'s call: them, comma-separated, a line each).
    pub(crate) fn electro(&self, setup: &ClientSetup, once: bool) -> Result<Electro> {
        let (first, key) = self.one_table().map_err(refused)?;
        let keys = key_names(key);
        let mut attributes = Attributes::default();
        let mut calls = Vec::new();
        for write in &self.writes {
            let (method, object, chain) = write.electro_write(&keys, &mut attributes)?;
            let mut lines = vec![format!("item\n  .{method}({object})")];
            lines.extend(chain.iter().map(|c| format!("  {c}")));
            lines.push("  .commit()".to_owned());
            calls.push(lines.join("\n"));
        }
        attributes.distinct()?;
        let head = format!(
            "{WRITES_MORE}{}{}const service = new Service({{ item: entity }});\n",
            client(setup, once, ", Service"),
            entity(&first.table, &attributes, &keys)
        );
        Ok(Electro {
            head,
            call: calls.join(",\n"),
        })
    }
}

impl Transaction {
    /// The transaction as the ElectroDB target shows it; what it cannot say, in words.
    pub(in crate::expr::codegen) fn electro_text(&self, setup: &ClientSetup) -> String {
        let code = match self.electro(setup, false) {
            Ok(code) => code,
            Err(error) => return super::commented(&error.to_string()),
        };
        let token = (self.token.as_deref())
            .map(|t| format!("{{ token: {} }}", string(t)))
            .unwrap_or_default();
        format!(
            "{}\nconst response = await service.transaction\n  .write(({{ item }}) => [\n    {},\n  ])\n  .go({token});\n",
            code.head,
            code.call.replace('\n', "\n    ")
        )
    }
}
