//! The profiles of the AWS config and credentials files, read as the AWS CLI reads them.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::files::{home_dir, home_words};

/// The profiles found, and the files that could not be read (a missing file is not a problem).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profiles {
    /// Profile names, sorted, `default` first.
    pub names: Vec<String>,
    /// Files that exist but could not be read.
    pub problems: Vec<Error>,
    /// The files looked in, as the SDK looks (`AWS_CONFIG_FILE` and
    /// `AWS_SHARED_CREDENTIALS_FILE` when set), and whether each exists.
    pub searched: Vec<(PathBuf, bool)>,
}

impl Profiles {
    /// The files looked in, in words: `/tmp/cfg (AWS_CONFIG_FILE, no such file) or
    /// ~/.aws/credentials`.
    pub(crate) fn searched_text(&self) -> String {
        let home = home_dir();
        let words: Vec<String> = self
            .searched
            .iter()
            .map(|(path, exists)| {
                let shown = path.display().to_string();
                let shown = match home.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
                    Some(rest) => format!(
                        "{}{}{}",
                        home_words(),
                        std::path::MAIN_SEPARATOR,
                        rest.display()
                    ),
                    None => shown,
                };
                if *exists {
                    shown
                } else {
                    format!("{shown} (no such file)")
                }
            })
            .collect();
        words.join(" or ")
    }
}

/// The AWS config and credentials files, each with what names it (its variable, or `~/.aws`).
pub(crate) fn aws_files() -> [(Option<PathBuf>, &'static str); 2] {
    let from = |var: &'static str| {
        if std::env::var_os(var).is_some() {
            var
        } else if cfg!(windows) {
            "%USERPROFILE%\\.aws, the AWS CLI's default"
        } else {
            "~/.aws, the AWS CLI's default"
        }
    };
    [
        (
            aws_dir_file("AWS_CONFIG_FILE", "config"),
            from("AWS_CONFIG_FILE"),
        ),
        (
            aws_dir_file("AWS_SHARED_CREDENTIALS_FILE", "credentials"),
            from("AWS_SHARED_CREDENTIALS_FILE"),
        ),
    ]
}

fn aws_dir_file(env_var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env_var) {
        return Some(PathBuf::from(path));
    }
    home_dir().map(|home| home.join(".aws").join(name))
}

/// Profile names from `~/.aws/config` and `~/.aws/credentials` (or the files named by
/// `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE`), sorted, `default` first; a file that
/// exists but cannot be read is reported, not skipped in silence.
pub fn read_profiles() -> Profiles {
    read_profiles_from(
        aws_dir_file("AWS_CONFIG_FILE", "config"),
        aws_dir_file("AWS_SHARED_CREDENTIALS_FILE", "credentials"),
    )
}

/// [`read_profiles`] of the config and credentials files given.
pub fn read_profiles_from(config: Option<PathBuf>, credentials: Option<PathBuf>) -> Profiles {
    let mut found = Profiles::default();
    for (path, config_file) in [(config, true), (credentials, false)] {
        let Some(path) = path else {
            continue;
        };
        found.searched.push((path.clone(), path.is_file()));
        match std::fs::read_to_string(&path) {
            Ok(text) => found.names.extend(profile_sections(&text, config_file)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => found.problems.push(Error::File {
                action: "reading",
                path: path.display().to_string(),
                detail: e.to_string(),
            }),
        }
    }
    found
        .names
        .sort_by(|a, b| (a != "default", a).cmp(&(b != "default", b)));
    found.names.dedup();
    found
}

/// Section names that are profiles. In the config file they are `[default]` and
/// `[profile name]`; `[sso-session x]` and `[services x]` are not profiles.
fn profile_sections(text: &str, config_file: bool) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
            if !config_file || inner == "default" {
                return Some(inner.to_owned());
            }
            inner
                .strip_prefix("profile")
                .filter(|rest| rest.starts_with(char::is_whitespace))
                .map(|rest| rest.trim().to_owned())
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// Whether any AWS configuration is present: credentials, profile, region or endpoint in the
/// environment, or a config or credentials file with a profile in it.
pub(crate) fn aws_configuration_present() -> bool {
    const VARS: [&str; 10] = [
        "AWS_ACCESS_KEY_ID",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_DYNAMODB",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ];
    VARS.iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
        || {
            // A file that exists but cannot be read is configuration too: the SDK will say why.
            let profiles = read_profiles();
            !profiles.names.is_empty() || !profiles.problems.is_empty()
        }
}

/// Refuse a `profile` that is in no configuration file, naming the files looked in (or what
/// kept one from being read, which says more than "not found").
pub(crate) fn check_known(profile: &str) -> Result<()> {
    let profiles = read_profiles();
    if profiles.names.iter().any(|name| name == profile) {
        return Ok(());
    }
    let searched = profiles.searched_text();
    Err(profiles
        .problems
        .into_iter()
        .next()
        .unwrap_or_else(|| Error::Connect(format!("profile `{profile}` is not in {searched}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_sections_follow_the_cli_rules() {
        let config = "[default]\nregion = eu-west-1\n[profile dev]\nsso_session = x\n[sso-session x]\n[services s]\n[profilex]\n";
        assert_eq!(profile_sections(config, true), ["default", "dev"]);
        let creds = "[default]\naws_access_key_id = A\n[ci]\n";
        assert_eq!(profile_sections(creds, false), ["default", "ci"]);
    }
}
