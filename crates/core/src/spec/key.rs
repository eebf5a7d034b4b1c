//! One item's key, given attribute by attribute as text.

use serde::{Deserialize, Deserializer, Serialize};

use crate::spec::InputError;
use crate::table::TableInfo;
use crate::value::{self, Item};

/// One item's key: each key attribute's value as text (`PK` = `POST#a91f`), parsed as that
/// attribute's type. Every key attribute is given, once, and only those.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct KeySpec {
    /// `(attribute, value)` in the order given.
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    #[serde(serialize_with = "pairs::serialize")]
    pub pairs: Vec<(String, String)>,
    /// The attributes whose value was given as a JSON number (`{"PK": 5}`): taken for a number
    /// attribute only, as DynamoDB takes no number for a string key.
    #[serde(skip)]
    #[schemars(skip)]
    pub given_as_numbers: Vec<String>,
}

impl<'de> Deserialize<'de> for KeySpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (pairs, given_as_numbers) = pairs::deserialize(deserializer)?;
        Ok(Self {
            pairs,
            given_as_numbers,
        })
    }
}

impl KeySpec {
    /// The key of `pairs`.
    pub fn new<N: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (N, V)>) -> Self {
        Self {
            pairs: pairs
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
            given_as_numbers: Vec::new(),
        }
    }

    /// The key as DynamoDB takes it, checked against `info`'s key attributes.
    pub fn plan(&self, info: &TableInfo) -> Result<Item, InputError> {
        let mut key = Item::new();
        for (name, text) in &self.pairs {
            let kind = [Some(&info.partition), info.sort.as_ref()]
                .into_iter()
                .flatten()
                .find(|k| &k.name == name)
                .map(|k| k.kind)
                .ok_or_else(|| {
                    InputError::new(
                        "key",
                        format!("`{name}` is not a key attribute of {}", info.name),
                    )
                })?;
            if kind != crate::condition::ScalarType::N && self.given_as_numbers.contains(name) {
                return Err(InputError::new(
                    "key",
                    format!(
                        "key `{name}` of {} is a {} attribute: give its value as text \
                         (\"{text}\"), not the number {text}",
                        info.name,
                        match kind {
                            crate::condition::ScalarType::B => "binary (B)",
                            _ => "string (S)",
                        }
                    ),
                ));
            }
            let value = kind
                .parse(text)
                .map_err(|e| InputError::from_error("key", e.at(&format!("key `{name}`"))))?;
            if let Some(before) = key.insert(name.clone(), value) {
                return Err(InputError::new(
                    "key",
                    format!(
                        "`{name}` is given twice ({name}={} and {name}={text}); give each key attribute once",
                        value::cell_text(&before)
                    ),
                ));
            }
        }
        for name in info.key_names() {
            if !key.contains_key(&name) {
                return Err(InputError::new(
                    "key",
                    format!("the key of {} needs `{name}` too", info.name),
                ));
            }
        }
        crate::validate::check_key(&key, info).map_err(|e| InputError::from_error("key", e))?;
        Ok(key)
    }
}

/// A key as a JSON object of texts (numbers are taken as their text), in the order given.
mod pairs {
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap as _;
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(
        pairs: &Vec<(String, String)>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(pairs.len()))?;
        for (name, value) in pairs {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }

    /// A key's `(attribute, text)` pairs in the order given, and the attributes whose value was
    /// a JSON number.
    pub(crate) type Given = (Vec<(String, String)>, Vec<String>);

    /// The pairs, and the names whose value was a JSON number.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Given, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Given;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of key attribute names and values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                let mut numbers = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, serde_json::Value>()? {
                    let text = match value {
                        serde_json::Value::String(s) => s,
                        serde_json::Value::Number(n) => {
                            numbers.push(name.clone());
                            n.to_string()
                        }
                        other => {
                            return Err(serde::de::Error::custom(format!(
                                "key `{name}`: give its value as text or a number, not {other}"
                            )));
                        }
                    };
                    pairs.push((name, text));
                }
                Ok((pairs, numbers))
            }
        }
        deserializer.deserialize_map(Pairs)
    }
}
