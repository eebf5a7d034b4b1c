//! Placeholders for names and values: every name aliased (`#n0`) and every value a placeholder
//! (`:v0`), so that reserved words and odd characters never matter; a person's own kept.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

/// An expression with its placeholder maps, ready for a request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expression {
    /// The expression text.
    pub text: String,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
}

/// Hands out placeholders and remembers what they stand for.
#[derive(Debug, Default)]
pub struct Placeholders {
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
    /// A person's own name placeholders, `(placeholder, name)` sorted by spelling.
    own_names: Vec<(String, String)>,
    /// A person's own value placeholders.
    own_values: HashMap<String, AttributeValue>,
    next_name: usize,
    next_value: usize,
}

impl Placeholders {
    /// Placeholders that keep a person's own: a name they gave a placeholder is written with it
    /// (the first by spelling, when several stand for it), and a value they wrote as `:one`
    /// stays `:one` (see [`value_written`](Self::value_written)). The ones made up (`#n0`,
    /// `:v0`) never take a spelling of theirs.
    pub fn keeping(
        names: &HashMap<String, String>,
        values: &HashMap<String, AttributeValue>,
    ) -> Self {
        let mut own_names: Vec<(String, String)> =
            names.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        own_names.sort();
        Self {
            own_names,
            own_values: values.clone(),
            ..Self::default()
        }
    }

    /// The placeholder for attribute `name` (the same one each time it is asked for).
    pub fn name(&mut self, name: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, n)| *n == name) {
            return placeholder.clone();
        }
        let placeholder = match self.own_names.iter().find(|(_, n)| n == name) {
            Some((own, _)) => own.clone(),
            None => loop {
                let made = format!("#n{}", self.next_name);
                self.next_name += 1;
                if !self.own_names.iter().any(|(own, _)| *own == made) {
                    break made;
                }
            },
        };
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    /// A fresh placeholder for `value`.
    pub fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = loop {
            let made = format!(":v{}", self.next_value);
            self.next_value += 1;
            if !self.own_values.contains_key(&made) {
                break made;
            }
        };
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The placeholder for `value`, which the text wrote as `written`: kept when it is one of
    /// the person's own placeholders for this value, otherwise a fresh one.
    pub(crate) fn value_written(&mut self, written: Option<&str>, value: AttributeValue) -> String {
        if let Some(own) = written
            && self.own_values.get(own) == Some(&value)
        {
            self.values.insert(own.to_owned(), value);
            return own.to_owned();
        }
        self.value(value)
    }

    /// The name placeholders handed out so far, with the names they stand for.
    pub fn names(&self) -> impl Iterator<Item = (&String, &String)> {
        self.names.iter()
    }

    /// Whether `placeholder` is one the person wrote themselves.
    pub(crate) fn is_own(&self, placeholder: &str) -> bool {
        self.own_names.iter().any(|(own, _)| own == placeholder)
            || self.own_values.contains_key(placeholder)
    }

    /// Finish with the expression text.
    pub fn finish(self, text: String) -> Expression {
        Expression {
            text,
            names: self.names,
            values: self.values,
        }
    }
}
