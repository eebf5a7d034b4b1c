//! What a write needs before it is sent: nothing, one question, the connection's name typed,
//! or never (read-only).

use crate::error::{Error, Result};

/// What a write needs before it may be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Nothing: the sandbox, or an endpoint on this machine.
    NotNeeded,
    /// One confirmation; the question names the table, the item and the endpoint.
    Ask(String),
    /// Never: the connection is read-only.
    Refused(Error),
    /// The connection is protected: confirmed only by typing its name.
    Typed {
        /// What is asked (the table, the item, the connection).
        question: String,
        /// What must be typed.
        name: String,
    },
}

impl Confirmation {
    /// Whether the write may be sent, given whether the user `confirmed` it: the one reading of
    /// a confirmation, for the gateway and for runs (storms, the lab, the CLI) that ask once.
    pub fn check(self, confirmed: bool) -> Result<()> {
        match self {
            Self::NotNeeded => Ok(()),
            Self::Ask(_) | Self::Typed { .. } if confirmed => Ok(()),
            Self::Ask(question) | Self::Typed { question, .. } => {
                Err(Error::NotConfirmed { question })
            }
            Self::Refused(error) => Err(error),
        }
    }

    /// The question to answer, and the name to type for it when the connection is protected;
    /// `None` when nothing is asked.
    pub fn question(&self) -> Option<(&str, Option<&str>)> {
        match self {
            Self::Ask(question) => Some((question, None)),
            Self::Typed { question, name } => Some((question, Some(name))),
            Self::NotNeeded | Self::Refused(_) => None,
        }
    }

    /// Whether `typed` answers it: anything for a plain question, the connection's name
    /// (surrounding spaces aside) for a protected one.
    pub fn typed_answers(name: Option<&str>, typed: &str) -> bool {
        name.is_none_or(|name| typed.trim() == name)
    }
}
