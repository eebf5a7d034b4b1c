//! The expression tree. Names and values are resolved (no placeholders inside), so that the
//! printer can alias every name and value afresh.

use aws_sdk_dynamodb::types::AttributeValue;

/// One step of a document path.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// An attribute or map key.
    Name(String),
    /// A list index, `[2]`.
    Index(u32),
}

/// A document path such as `a.b[2].c`; the first step is always a name.
#[derive(Debug, Clone, PartialEq)]
pub struct Path(pub Vec<Step>);

impl Path {
    /// A top-level attribute.
    pub fn attr(name: &str) -> Self {
        Self(vec![Step::Name(name.to_owned())])
    }

    /// The top-level attribute name.
    pub fn root(&self) -> &str {
        match self.0.first() {
            Some(Step::Name(n)) => n,
            _ => "",
        }
    }

    /// Whether one path is a prefix of the other (DynamoDB refuses overlapping paths in one
    /// update).
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a == b)
    }

    /// How the path reads, unaliased: `a.b[2].c`.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Name(n) if i == 0 => out.push_str(n),
                Step::Name(n) => {
                    out.push('.');
                    out.push_str(n);
                }
                Step::Index(k) => out.push_str(&format!("[{k}]")),
            }
        }
        out
    }
}

/// A value, and the placeholder it was written as (`:one`) when it was written as one.
#[derive(Debug, Clone)]
pub struct Value {
    /// The value.
    pub value: AttributeValue,
    /// The placeholder the text used; `None` for a literal (builder input) or a tree made in
    /// code. A printer may keep it (the builder keeps a person's own placeholders) or not.
    pub placeholder: Option<String>,
}

/// Two trees are the same expression whatever their placeholders are called.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl From<AttributeValue> for Value {
    fn from(value: AttributeValue) -> Self {
        Self {
            value,
            placeholder: None,
        }
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparator {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Comparator {
    /// The operator's text.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Eq => "=",
            Self::Ne => "<>",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
        }
    }
}

/// Something compared in a condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A document path.
    Path(Path),
    /// A value.
    Value(Value),
    /// `size(path)`.
    Size(Path),
}

/// A condition (also a filter or a key condition).
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// `a <op> b`
    Compare(Operand, Comparator, Operand),
    /// `a BETWEEN b AND c`
    Between(Operand, Operand, Operand),
    /// `a IN (b, c, …)`
    In(Operand, Vec<Operand>),
    /// `attribute_exists(path)`
    Exists(Path),
    /// `attribute_not_exists(path)`
    NotExists(Path),
    /// `attribute_type(path, :t)`
    Type(Path, Operand),
    /// `begins_with(path, :v)`
    BeginsWith(Path, Operand),
    /// `contains(path, :v)`
    Contains(Path, Operand),
    /// `a AND b`
    And(Box<Condition>, Box<Condition>),
    /// `a OR b`
    Or(Box<Condition>, Box<Condition>),
    /// `NOT a`
    Not(Box<Condition>),
}

/// An operand of a SET action.
#[derive(Debug, Clone, PartialEq)]
pub enum SetOperand {
    /// A path.
    Path(Path),
    /// A value.
    Value(Value),
    /// `if_not_exists(path, operand)`
    IfNotExists(Path, Box<SetOperand>),
    /// `list_append(a, b)`
    ListAppend(Box<SetOperand>, Box<SetOperand>),
}

/// The value assigned by a SET action.
#[derive(Debug, Clone, PartialEq)]
pub enum SetValue {
    /// One operand.
    Operand(SetOperand),
    /// `a + b`
    Plus(SetOperand, SetOperand),
    /// `a - b`
    Minus(SetOperand, SetOperand),
}

/// An update expression: its SET, REMOVE, ADD and DELETE actions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Update {
    /// `SET path = value, …`
    pub set: Vec<(Path, SetValue)>,
    /// `REMOVE path, …`
    pub remove: Vec<Path>,
    /// `ADD path value, …`
    pub add: Vec<(Path, Value)>,
    /// `DELETE path value, …`
    pub delete: Vec<(Path, Value)>,
}

impl Update {
    /// Whether applying the update twice leaves the item as applying it once: every SET puts a
    /// given value (or `if_not_exists` of one), REMOVE names no list element (removing `l[0]`
    /// twice removes two), ADD adds only set elements, DELETE removes set elements. Arithmetic,
    /// `list_append`, a number ADD and a value copied from another attribute are not.
    pub fn repeatable(&self) -> bool {
        let given = |operand: &SetOperand| match operand {
            SetOperand::Value(_) => true,
            SetOperand::IfNotExists(_, inner) => matches!(**inner, SetOperand::Value(_)),
            SetOperand::Path(_) | SetOperand::ListAppend(..) => false,
        };
        let set_element = |value: &Value| {
            matches!(
                value.value,
                AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
            )
        };
        self.set
            .iter()
            .all(|(_, value)| matches!(value, SetValue::Operand(o) if given(o)))
            && self
                .remove
                .iter()
                .all(|path| !path.0.iter().any(|step| matches!(step, Step::Index(_))))
            && self.add.iter().all(|(_, value)| set_element(value))
    }

    /// Every path the update writes, with its action.
    pub fn paths(&self) -> Vec<(&'static str, &Path)> {
        self.set
            .iter()
            .map(|(p, _)| ("SET", p))
            .chain(self.remove.iter().map(|p| ("REMOVE", p)))
            .chain(self.add.iter().map(|(p, _)| ("ADD", p)))
            .chain(self.delete.iter().map(|(p, _)| ("DELETE", p)))
            .collect()
    }
}
