//! `--start-key`: where `items` and `scan` go on from, taken in and printed when a read stops
//! early, ready to paste. One segment: `--start-key JSON`; a parallel scan: one
//! `--start-key SEGMENT=JSON` per segment to go on with (`SEGMENT={}` and `FIRST-LAST={}` for
//! segments from their beginning); the segments not given are done.

use dynoscope_core::error::{Error, Result};
use dynoscope_core::read::SegmentStarts;
use dynoscope_core::value::{self, Item};

/// A start key given as DynamoDB JSON; `{}` is the beginning.
pub(crate) fn parse_key(text: &str) -> Result<Option<Item>> {
    let key = value::item_from_dynamodb_json(text)
        .map_err(|e| Error::Invalid(format!("--start-key: {e}")))?;
    Ok((!key.is_empty()).then_some(key))
}

/// The starts of a scan of `total` segments: every segment from its beginning without
/// `--start-key`, else the segments given.
pub(crate) fn parse_segment_keys(total: usize, given: &[String]) -> Result<SegmentStarts> {
    if given.is_empty() {
        return SegmentStarts::all(total);
    }
    let mut left = Vec::new();
    for text in given {
        let (segments, json) = text.split_once('=').ok_or_else(|| {
            Error::Invalid(format!(
                "--start-key `{text}`: with --segments, give SEGMENT=JSON"
            ))
        })?;
        let number = |n: &str| {
            n.trim().parse::<usize>().map_err(|_| {
                Error::Invalid(format!(
                    "--start-key `{text}`: `{n}` is not a segment number"
                ))
            })
        };
        let key = parse_key(json)?;
        match segments.split_once('-') {
            None => left.push((number(segments)?, key)),
            Some((first, last)) if key.is_none() => {
                let (first, last) = (number(first)?, number(last)?);
                if first > last || last >= total {
                    return Err(Error::Invalid(format!(
                        "--start-key `{text}`: segments run from 0 to {}",
                        total - 1
                    )));
                }
                left.extend((first..=last).map(|segment| (segment, None)));
            }
            Some(_) => {
                return Err(Error::Invalid(format!(
                    "--start-key `{text}`: a range of segments starts from the beginning (`{{}}`)"
                )));
            }
        }
    }
    SegmentStarts::resume(total, left)
}

/// The arguments that go on with a single read from `key`.
pub(crate) fn key_args(key: &Item, key_names: &[String]) -> Vec<String> {
    vec![
        "--start-key".to_owned(),
        value::item_to_dynamodb_json(key, key_names, false),
    ]
}

/// The arguments that go on with a parallel scan: `--segments N` and one `--start-key` per
/// unfinished segment, runs of segments from their beginning as one range.
pub(crate) fn segment_args(left: &SegmentStarts, key_names: &[String]) -> Vec<String> {
    let mut args = vec!["--segments".to_owned(), left.total().to_string()];
    let mut run: Option<(usize, usize)> = None;
    let flush = |run: &mut Option<(usize, usize)>, args: &mut Vec<String>| {
        if let Some((first, last)) = run.take() {
            args.push("--start-key".to_owned());
            args.push(if first == last {
                format!("{first}={{}}")
            } else {
                format!("{first}-{last}={{}}")
            });
        }
    };
    for (segment, key) in left.unfinished() {
        match key {
            None => match &mut run {
                Some((_, last)) if *last + 1 == segment => *last = segment,
                _ => {
                    flush(&mut run, &mut args);
                    run = Some((segment, segment));
                }
            },
            Some(key) => {
                flush(&mut run, &mut args);
                args.push("--start-key".to_owned());
                let json = value::item_to_dynamodb_json(key, key_names, false);
                args.push(format!("{segment}={json}"));
            }
        }
    }
    flush(&mut run, &mut args);
    args
}

/// `args` as a shell would take them back: each quoted when it needs it.
pub(crate) fn shell_words(args: &[String]) -> String {
    let quote = |arg: &String| {
        let plain = arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:".contains(c));
        if plain && !arg.is_empty() {
            arg.clone()
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        }
    };
    args.iter().map(quote).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn key(pk: &str) -> Item {
        Item::from([("PK".to_owned(), AttributeValue::S(pk.to_owned()))])
    }

    #[test]
    fn segment_keys_round_trip() {
        let given: Vec<String> = ["1={\"PK\":{\"S\":\"it's\"}}", "3-5={}", "7={}"]
            .map(str::to_owned)
            .to_vec();
        let starts = parse_segment_keys(8, &given).unwrap();
        let left: Vec<_> = starts.unfinished().map(|(s, k)| (s, k.cloned())).collect();
        assert_eq!(
            left,
            [
                (1, Some(key("it's"))),
                (3, None),
                (4, None),
                (5, None),
                (7, None)
            ]
        );
        let args = segment_args(&starts, &["PK".to_owned()]);
        assert_eq!(args[..2], ["--segments", "8"]);
        let again: Vec<String> = args[2..].iter().skip(1).step_by(2).cloned().collect();
        assert_eq!(parse_segment_keys(8, &again).unwrap(), starts);
        let words = shell_words(&args);
        assert!(words.contains(r#"'1={"PK":{"S":"it'\''s"}}'"#), "{words}");
        assert!(
            words.contains("--start-key '3-5={}' --start-key '7={}'"),
            "{words}"
        );
    }

    #[test]
    fn bad_start_keys_are_refused() {
        let bad = [
            "{}",
            "9={}",
            "x={}",
            "1-2={\"PK\":{\"S\":\"a\"}}",
            "1=nope",
            "2-9={}",
        ];
        for bad in bad {
            assert!(parse_segment_keys(8, &[bad.to_owned()]).is_err(), "{bad}");
        }
        assert!(parse_segment_keys(8, &["1={}".into(), "1={}".into()]).is_err());
        assert_eq!(parse_key("{}").unwrap(), None);
        assert_eq!(parse_key(r#"{"PK":{"S":"a"}}"#).unwrap(), Some(key("a")));
    }
}

/// Where a read stopped early, said on stderr with JSON output: `{"resume": [ARGS]}`.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct Resume {
    /// The arguments that go on from where it stopped.
    resume: Vec<String>,
}

impl Resume {
    /// The arguments `args`.
    pub(crate) fn of(args: &[String]) -> Self {
        Self {
            resume: args.to_vec(),
        }
    }
}

/// A report that may have stopped early, with the arguments that go on from there (`null`
/// when it finished): the clone's JSON line.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Resumable<'a, R> {
    /// The report's document, its `ending` among its keys.
    #[serde(flatten)]
    pub(crate) report: &'a R,
    /// The arguments that go on from where it stopped; `null` when it finished.
    pub(crate) resume: Option<Vec<String>>,
}
