//! The flags that name a second connection: a clone's destination, a diff's side B.

use std::path::PathBuf;

use clap::Args;

use dynoscope_core::connection::ConnectionSpec;
use dynoscope_core::error::{Error, Result};

/// A second connection, as the AWS CLI spells one: a clone's destination, a diff's side B.
/// Declared once, flattened where taken.
#[derive(Debug, Clone, Default, Args)]
#[expect(
    clippy::struct_field_names,
    reason = "clap names each flag after its field: --to-endpoint, --to-profile, …"
)]
pub struct ToConnectionFlags {
    /// The other side: a DynamoDB-compatible endpoint (DynamoDB Local, `dynoscope sandbox`).
    #[arg(long, value_name = "URL")]
    pub to_endpoint: Option<String>,
    /// The other side: a named AWS profile (another account).
    #[arg(long, value_name = "PROFILE")]
    pub to_profile: Option<String>,
    /// The other side's region (with --to-profile, --to-endpoint, or alone: the default
    /// credentials in another region).
    #[arg(long, value_name = "REGION")]
    pub to_region: Option<String>,
    /// The other side: a sandbox kept in this SQLite file (seeded when the file is new).
    #[arg(long, value_name = "PATH")]
    pub to_sandbox_db: Option<PathBuf>,
    /// Refuse every write to the other side (the global --read-only does too).
    #[arg(long)]
    pub to_read_only: bool,
}

impl ToConnectionFlags {
    /// The connection the flags choose, `None` when none is named.
    pub fn chosen(&self) -> Result<Option<ConnectionSpec>> {
        let named = [
            self.to_endpoint.is_some(),
            self.to_profile.is_some(),
            self.to_region.is_some(),
            self.to_sandbox_db.is_some(),
        ];
        if !named.contains(&true) {
            return Ok(None);
        }
        if self.to_sandbox_db.is_some() && named.iter().filter(|n| **n).count() > 1 {
            return Err(Error::Invalid(
                "--to-sandbox-db and the other --to-… flags choose different destinations: give \
                 one of them"
                    .into(),
            ));
        }
        Ok(Some(ConnectionSpec::from_flags(
            false,
            self.to_sandbox_db.clone(),
            self.to_profile.clone(),
            self.to_region.clone(),
            self.to_endpoint.clone(),
        )))
    }

    /// The connection the flags choose; one must be named.
    pub fn named(&self) -> Result<ConnectionSpec> {
        self.chosen()?.ok_or_else(|| {
            Error::Invalid(
                "name the destination: --to-endpoint URL, --to-profile PROFILE, --to-region \
                 REGION or --to-sandbox-db PATH"
                    .into(),
            )
        })
    }
}
