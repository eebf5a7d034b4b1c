//! Changes to a table as asked, the same for the app's settings and `dynoscope table update`:
//! each wish made into the change DynamoDB takes against the table as described (a billing
//! change names the table's global indexes, a new index takes the table's billing, TTL turned
//! off names the attribute it was on), in one order, checked in one set of words.

use crate::error::{Error, Result};
use crate::schema::{BillingSpec, ClassSpec, IndexSpec, StreamView, TableChange, TableSpec};

/// The changes asked of one table; each `None` leaves that setting as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableChangeSpec {
    /// The billing mode (and provisioned capacity).
    pub billing: Option<BillingSpec>,
    /// A global index to add.
    pub add_global: Option<IndexSpec>,
    /// The name of a global index to delete.
    pub delete_global: Option<String>,
    /// TTL: on for this attribute (`Some(Some(…))`), or off (`Some(None)`).
    pub ttl: Option<Option<String>>,
    /// The stream: on with this view, or off (`Some(None)`).
    pub stream: Option<Option<StreamView>>,
    /// Deletion protection on or off.
    pub deletion_protection: Option<bool>,
    /// The table class.
    pub class: Option<ClassSpec>,
    /// Point-in-time recovery on or off.
    pub pitr: Option<bool>,
}

impl TableChangeSpec {
    /// The changes, in the order they are sent, against `table` as described; refused when
    /// nothing is asked, or TTL is turned off on a table that has none.
    pub fn plan(&self, table: &TableSpec) -> Result<Vec<TableChange>> {
        let mut changes = Vec::new();
        if let Some(billing) = self.billing {
            let indexes = table.global.iter().map(|g| g.name.clone()).collect();
            changes.push(TableChange::Billing { billing, indexes });
        }
        if let Some(index) = &self.add_global {
            changes.push(TableChange::AddGlobal {
                index: index.clone(),
                billing: table.billing,
            });
        }
        changes.extend(self.delete_global.clone().map(TableChange::DeleteGlobal));
        match &self.ttl {
            Some(Some(attribute)) => changes.push(TableChange::Ttl {
                attribute: attribute.clone(),
                enabled: true,
            }),
            Some(None) => {
                let attribute = table
                    .ttl
                    .clone()
                    .ok_or_else(|| Error::Invalid(format!("{}: TTL is not on", table.name)))?;
                changes.push(TableChange::Ttl {
                    attribute,
                    enabled: false,
                });
            }
            None => {}
        }
        changes.extend(self.stream.map(TableChange::Stream));
        changes.extend(
            self.deletion_protection
                .map(TableChange::DeletionProtection),
        );
        changes.extend(self.class.map(TableChange::Class));
        changes.extend(self.pitr.map(TableChange::Pitr));
        if changes.is_empty() {
            return Err(Error::Invalid(format!(
                "nothing to change on {}: ask for the billing, a global index added or deleted, \
                 TTL, the stream, deletion protection, the class or point-in-time recovery",
                table.name
            )));
        }
        Ok(changes)
    }

    /// The one change this spec asks of `table` (the app asks one at a time).
    pub fn one(self, table: &TableSpec) -> Result<TableChange> {
        let mut changes = self.plan(table)?;
        match changes.len() {
            1 => Ok(changes.remove(0)),
            n => Err(Error::Invalid(format!(
                "one change at a time here: {n} were asked"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::parse_key;

    fn table() -> TableSpec {
        let mut table = TableSpec::new("Social", parse_key("PK:S").unwrap(), None);
        table.global = vec![crate::schema::parse_index("ByUser=user:S").unwrap()];
        table
    }

    #[test]
    fn each_wish_takes_what_it_needs_from_the_table_as_described() {
        let spec = TableChangeSpec {
            billing: Some(BillingSpec::OnDemand),
            add_global: Some(crate::schema::parse_index("ByDay=day:S").unwrap()),
            stream: Some(None),
            pitr: Some(true),
            ..TableChangeSpec::default()
        };
        let changes = spec.plan(&table()).unwrap();
        assert_eq!(
            changes[0],
            TableChange::Billing {
                billing: BillingSpec::OnDemand,
                indexes: vec!["ByUser".into()]
            }
        );
        assert!(
            matches!(&changes[1], TableChange::AddGlobal { billing, .. } if *billing == table().billing)
        );
        assert_eq!(
            changes[2..],
            [TableChange::Stream(None), TableChange::Pitr(true)]
        );
        assert!(spec.clone().one(&table()).is_err(), "four at once");
    }

    #[test]
    fn nothing_asked_and_ttl_off_without_ttl_are_refused() {
        let nothing = TableChangeSpec::default().plan(&table()).unwrap_err();
        assert!(nothing.to_string().contains("nothing to change on Social"));
        let off = TableChangeSpec {
            ttl: Some(None),
            ..TableChangeSpec::default()
        };
        assert!(
            off.plan(&table())
                .unwrap_err()
                .to_string()
                .contains("TTL is not on")
        );
        let mut with_ttl = table();
        with_ttl.ttl = Some("expiresAt".into());
        assert_eq!(
            off.one(&with_ttl).unwrap(),
            TableChange::Ttl {
                attribute: "expiresAt".into(),
                enabled: false
            }
        );
    }
}
