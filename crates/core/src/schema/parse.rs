//! A table's parts as written on the command line: `PK:S`, `GSI1=GSI1PK:S,GSI1SK:S:ALL`,
//! `ByUser=user:S:INCLUDE(likedAt,title)`, `team=social`.

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::schema::{IndexSpec, ProjectionSpec};
use crate::table::KeyAttr;

/// A key attribute, `NAME:TYPE` with TYPE `S`, `N` or `B`.
pub fn parse_key(text: &str) -> Result<KeyAttr> {
    let Some((name, letter)) = text.trim().rsplit_once(':') else {
        return Err(Error::Invalid(format!(
            "key `{text}`: write it as NAME:TYPE, e.g. PK:S (types S, N, B)"
        )));
    };
    let kind = ScalarType::from_key_letter(letter.trim()).ok_or_else(|| {
        Error::Invalid(format!(
            "key `{text}`: the type `{letter}` is not a key type (S, N or B)"
        ))
    })?;
    if name.trim().is_empty() {
        return Err(Error::Invalid(format!("key `{text}` has no name")));
    }
    Ok(KeyAttr::new(name.trim(), kind))
}

/// An index, `NAME=PK:T[,SK:T][:PROJECTION]`, PROJECTION being `ALL` (the default),
/// `KEYS_ONLY` or `INCLUDE(a,b)`.
pub fn parse_index(text: &str) -> Result<IndexSpec> {
    let bad = |why: &str| {
        Error::Invalid(format!(
            "index `{text}`: {why} (write NAME=PK:T[,SK:T][:ALL|:KEYS_ONLY|:INCLUDE(a,b)])"
        ))
    };
    let (name, rest) = text.trim().split_once('=').ok_or_else(|| bad("no `=`"))?;
    let (keys, projection) = split_projection(rest.trim()).map_err(|why| bad(&why))?;
    let mut parts = keys.split(',');
    let partition = parse_key(parts.next().unwrap_or_default())?;
    let sort = parts.next().map(parse_key).transpose()?;
    if parts.next().is_some() {
        return Err(bad("an index has at most two keys"));
    }
    Ok(IndexSpec {
        name: name.trim().to_owned(),
        partition,
        sort,
        projection,
    })
}

/// The keys part and the projection, split at a trailing `:ALL`, `:KEYS_ONLY` or
/// `:INCLUDE(…)`.
fn split_projection(rest: &str) -> std::result::Result<(&str, ProjectionSpec), String> {
    if let Some(keys) = rest.strip_suffix(":ALL") {
        return Ok((keys, ProjectionSpec::All));
    }
    if let Some(keys) = rest.strip_suffix(":KEYS_ONLY") {
        return Ok((keys, ProjectionSpec::KeysOnly));
    }
    if let Some(open) = rest.rfind(":INCLUDE(") {
        let inside = rest[open + ":INCLUDE(".len()..]
            .strip_suffix(')')
            .ok_or("INCLUDE( is not closed by a `)` at the end")?;
        let names: Vec<String> = inside
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect();
        if names.is_empty() {
            return Err("INCLUDE names no attribute".to_owned());
        }
        return Ok((&rest[..open], ProjectionSpec::Include(names)));
    }
    Ok((rest, ProjectionSpec::All))
}

/// A tag, `KEY=VALUE` (the value may be empty).
pub fn parse_tag(text: &str) -> Result<(String, String)> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| Error::Invalid(format!("tag `{text}`: write it as KEY=VALUE")))?;
    Ok((key.trim().to_owned(), value.trim().to_owned()))
}
