//! How a counter change is sent: ADD, SET from zero, or exactly.

/// How the change is sent: the one mode of the app's editor, the CLI's `--mode` and the MCP
/// server's `mode` (`add`, `set`, `exact`).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum EditMode {
    /// `ADD #a :d` — atomic; a missing attribute starts from 0. Never retried once sent.
    #[default]
    Add,
    /// `SET #a = if_not_exists(#a, :zero) + :d` — the same effect written as SET.
    #[serde(rename = "set")]
    SetFromZero,
    /// `SET #a = :next` if `#a = :current` — exact and safe to retry; fails if someone else
    /// changed the value in between.
    Exact,
}

impl EditMode {
    /// Every mode, in the order offered.
    pub const ALL: [Self; 3] = [Self::Add, Self::SetFromZero, Self::Exact];

    /// A short name.
    pub fn label(self) -> &'static str {
        match self {
            Self::Add => "ADD",
            Self::SetFromZero => "SET if_not_exists + d",
            Self::Exact => "Exact (conditional SET)",
        }
    }

    /// One line on what the mode does.
    pub fn explain(self) -> &'static str {
        match self {
            Self::Add => {
                "Atomic server-side add; a missing attribute starts from 0. Not idempotent: never re-sent blindly. A typed new value is sent only if the value is still the one shown."
            }
            Self::SetFromZero => {
                "SET #a = if_not_exists(#a, :zero) + :d: the same atomic add, written as SET. A typed new value is sent only if the value is still the one shown."
            }
            Self::Exact => {
                "SET #a = :next only if #a still equals the value you saw; safe to retry, fails on a race."
            }
        }
    }

    /// Whether the SDK may retry the request by itself.
    pub(crate) fn retry_is_safe(self) -> bool {
        self == Self::Exact
    }

    /// The CLI spelling.
    pub(crate) fn cli_name(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::SetFromZero => "set",
            Self::Exact => "exact",
        }
    }
}

impl std::str::FromStr for EditMode {
    type Err = String;

    /// The CLI spelling back: `add`, `set` or `exact`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|mode| mode.cli_name() == text)
            .ok_or_else(|| format!("`{text}` is not a mode: add, set or exact"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_for_the_cli_and_json() {
        for mode in EditMode::ALL {
            let json = serde_json::to_value(mode).unwrap();
            assert_eq!(json, mode.cli_name());
            assert_eq!(mode.cli_name().parse::<EditMode>(), Ok(mode));
            assert_eq!(serde_json::from_value::<EditMode>(json).unwrap(), mode);
        }
        assert!("SetFromZero".parse::<EditMode>().is_err());
    }
}
