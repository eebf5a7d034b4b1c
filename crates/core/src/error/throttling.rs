//! Why the server throttled a request: the `ThrottlingReasons` DynamoDB sends with
//! `ThrottlingException`, `ProvisionedThroughputExceededException` and `RequestLimitExceeded`
//! (`{"reason": "TableWriteKeyRangeThroughputExceeded", "resource": "arn:…:table/Social"}`),
//! read from the answer's body so that every operation's error gives them alike, and said in
//! words: which limit, read or write, on which table or index.

use serde::Deserialize;

/// One reason the server gave for throttling a request, as it sent it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ThrottleReason {
    /// `ResourceType + OperationType + LimitType`, e.g. `IndexReadKeyRangeThroughputExceeded`.
    #[serde(default)]
    pub reason: String,
    /// The ARN of the table or index throttled (`arn:aws:dynamodb:…:table/T/index/I`).
    #[serde(default)]
    pub resource: String,
}

#[derive(Deserialize)]
struct Body {
    #[serde(rename = "ThrottlingReasons", default)]
    reasons: Vec<ThrottleReason>,
}

/// The reasons in an error answer's JSON body; none when it has no list or is not JSON.
pub(crate) fn reasons_in(body: &[u8]) -> Vec<ThrottleReason> {
    serde_json::from_slice::<Body>(body)
        .map(|body| body.reasons)
        .unwrap_or_default()
}

/// Which limit a reason names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    KeyRange,
    Provisioned,
    MaxOnDemand,
    Account,
}

impl ThrottleReason {
    /// A reason for `resource`.
    pub fn new(reason: &str, resource: &str) -> Self {
        Self {
            reason: reason.to_owned(),
            resource: resource.to_owned(),
        }
    }

    /// Table or index, read or write, and the limit, when the reason is one DynamoDB documents.
    fn parts(&self) -> Option<(bool, bool, Limit)> {
        let (index, rest) = if let Some(rest) = self.reason.strip_prefix("Table") {
            (false, rest)
        } else {
            (true, self.reason.strip_prefix("Index")?)
        };
        let (write, rest) = if let Some(rest) = rest.strip_prefix("Read") {
            (false, rest)
        } else {
            (true, rest.strip_prefix("Write")?)
        };
        let limit = match rest {
            "KeyRangeThroughputExceeded" => Limit::KeyRange,
            "ProvisionedThroughputExceeded" => Limit::Provisioned,
            "MaxOnDemandThroughputExceeded" => Limit::MaxOnDemand,
            "AccountLimitExceeded" => Limit::Account,
            _ => return None,
        };
        Some((index, write, limit))
    }

    /// Whether it is about writes (`false`: reads, or a reason not known).
    pub fn is_write(&self) -> bool {
        self.parts().is_some_and(|(_, write, _)| write)
    }

    /// The table and, for an index, the index its resource ARN names
    /// (`…:table/Social/index/GSI1`).
    pub(crate) fn table_and_index(&self) -> Option<(&str, Option<&str>)> {
        let path = self.resource.split_once(":table/")?.1;
        let mut parts = path.split('/');
        let table = parts.next().filter(|t| !t.is_empty())?;
        let index = match (parts.next(), parts.next()) {
            (Some("index"), Some(index)) if !index.is_empty() => Some(index),
            _ => None,
        };
        Some((table, index))
    }

    /// Where: `table Social`, `index GSI1 of table Social`, the resource as sent when it is
    /// not a table's ARN, nothing when there is none.
    fn place(&self) -> Option<String> {
        match self.table_and_index() {
            Some((table, None)) => Some(format!("table {table}")),
            Some((table, Some(index))) => Some(format!("index {index} of table {table}")),
            None if self.resource.is_empty() => None,
            None => Some(self.resource.clone()),
        }
    }

    /// The limit in words: `this key range's write limit (1,000 WCU/s per partition) on table
    /// Social`, `the provisioned read capacity on index GSI1 of table Social`, `the on-demand
    /// maximum write throughput on table Social`, `the account's per-table read quota on table
    /// Social`; a reason this version does not know as the server sent it.
    pub fn words(&self) -> String {
        let limit = match self.parts() {
            None => self.reason.clone(),
            Some((_, write, limit)) => {
                let (way, ceiling) = if write {
                    ("write", "1,000 WCU/s")
                } else {
                    ("read", "3,000 RCU/s")
                };
                match limit {
                    Limit::KeyRange => {
                        format!("this key range's {way} limit ({ceiling} per partition)")
                    }
                    Limit::Provisioned => format!("the provisioned {way} capacity"),
                    Limit::MaxOnDemand => format!("the on-demand maximum {way} throughput"),
                    Limit::Account => format!("the account's per-table {way} quota"),
                }
            }
        };
        match self.place() {
            Some(place) => format!("{limit} on {place}"),
            None => limit,
        }
    }
}

/// Every reason in words, joined by `and`; `None` when there are none.
pub(crate) fn in_words(reasons: &[ThrottleReason]) -> Option<String> {
    (!reasons.is_empty()).then(|| {
        reasons
            .iter()
            .map(ThrottleReason::words)
            .collect::<Vec<_>>()
            .join(" and ")
    })
}

/// The server's message and, when it said why it throttled, `; throttled by …` after it (the
/// message's closing full stop dropped, so the sentence goes on).
pub(super) fn with_reasons(message: &str, reasons: &[ThrottleReason]) -> String {
    match in_words(reasons) {
        Some(words) => format!("{}; throttled by {words}", message.trim_end_matches('.')),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "arn:aws:dynamodb:us-east-1:123456789012:table/Social";
    const INDEX: &str = "arn:aws:dynamodb:us-east-1:123456789012:table/Social/index/GSI1";

    fn said(reason: &str, resource: &str) -> String {
        ThrottleReason::new(reason, resource).words()
    }

    #[test]
    fn the_body_gives_its_reasons_and_none_without_a_list() {
        let body = br#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException",
            "message":"Throughput exceeds the current capacity",
            "ThrottlingReasons":[{"reason":"TableWriteKeyRangeThroughputExceeded",
            "resource":"arn:aws:dynamodb:us-east-1:123456789012:table/Social"}]}"#;
        assert_eq!(
            reasons_in(body),
            [ThrottleReason::new(
                "TableWriteKeyRangeThroughputExceeded",
                TABLE
            )]
        );
        let without = br#"{"__type":"x#ProvisionedThroughputExceededException","message":"m"}"#;
        assert!(reasons_in(without).is_empty());
        assert!(reasons_in(b"<html>busy</html>").is_empty());
        assert!(
            reasons_in(br#"{"ThrottlingReasons":[{}]}"#)[0]
                .words()
                .is_empty()
        );
        assert_eq!(in_words(&[]), None);
        assert_eq!(with_reasons("As sent.", &[]), "As sent.");
    }

    /// Every reason DynamoDB documents, on the resource it names, and its words.
    const DOCUMENTED: [(&str, &str, &str); 16] = [
        (
            "TableWriteKeyRangeThroughputExceeded",
            TABLE,
            "this key range's write limit (1,000 WCU/s per partition) on table Social",
        ),
        (
            "TableReadKeyRangeThroughputExceeded",
            TABLE,
            "this key range's read limit (3,000 RCU/s per partition) on table Social",
        ),
        (
            "IndexWriteKeyRangeThroughputExceeded",
            INDEX,
            "this key range's write limit (1,000 WCU/s per partition) on index GSI1 of table Social",
        ),
        (
            "IndexReadKeyRangeThroughputExceeded",
            INDEX,
            "this key range's read limit (3,000 RCU/s per partition) on index GSI1 of table Social",
        ),
        (
            "TableReadProvisionedThroughputExceeded",
            TABLE,
            "the provisioned read capacity on table Social",
        ),
        (
            "TableWriteProvisionedThroughputExceeded",
            TABLE,
            "the provisioned write capacity on table Social",
        ),
        (
            "IndexReadProvisionedThroughputExceeded",
            INDEX,
            "the provisioned read capacity on index GSI1 of table Social",
        ),
        (
            "IndexWriteProvisionedThroughputExceeded",
            INDEX,
            "the provisioned write capacity on index GSI1 of table Social",
        ),
        (
            "TableReadMaxOnDemandThroughputExceeded",
            TABLE,
            "the on-demand maximum read throughput on table Social",
        ),
        (
            "TableWriteMaxOnDemandThroughputExceeded",
            TABLE,
            "the on-demand maximum write throughput on table Social",
        ),
        (
            "IndexReadMaxOnDemandThroughputExceeded",
            INDEX,
            "the on-demand maximum read throughput on index GSI1 of table Social",
        ),
        (
            "IndexWriteMaxOnDemandThroughputExceeded",
            INDEX,
            "the on-demand maximum write throughput on index GSI1 of table Social",
        ),
        (
            "TableReadAccountLimitExceeded",
            TABLE,
            "the account's per-table read quota on table Social",
        ),
        (
            "TableWriteAccountLimitExceeded",
            TABLE,
            "the account's per-table write quota on table Social",
        ),
        (
            "IndexReadAccountLimitExceeded",
            INDEX,
            "the account's per-table read quota on index GSI1 of table Social",
        ),
        (
            "IndexWriteAccountLimitExceeded",
            INDEX,
            "the account's per-table write quota on index GSI1 of table Social",
        ),
    ];

    #[test]
    fn every_documented_reason_in_words() {
        for (reason, resource, words) in DOCUMENTED {
            assert_eq!(said(reason, resource), words, "{reason}");
            assert_eq!(
                ThrottleReason::new(reason, resource).is_write(),
                reason.contains("Write")
            );
        }
    }

    #[test]
    fn unknown_reasons_and_resources_are_kept_as_sent() {
        assert_eq!(
            said("TableWriteSomethingNewExceeded", TABLE),
            "TableWriteSomethingNewExceeded on table Social"
        );
        assert_eq!(said("IndexRead", ""), "IndexRead");
        assert_eq!(
            said("TableReadKeyRangeThroughputExceeded", ""),
            "this key range's read limit (3,000 RCU/s per partition)"
        );
        assert_eq!(
            said("TableWriteProvisionedThroughputExceeded", "somewhere"),
            "the provisioned write capacity on somewhere"
        );
        let two = [
            ThrottleReason::new("TableWriteKeyRangeThroughputExceeded", TABLE),
            ThrottleReason::new("IndexWriteProvisionedThroughputExceeded", INDEX),
        ];
        assert_eq!(
            with_reasons("Throughput exceeds the current capacity.", &two),
            "Throughput exceeds the current capacity; throttled by this key range's write limit (1,000 WCU/s per partition) on table \
             Social and the provisioned write capacity on index GSI1 of table Social"
        );
    }

    #[test]
    fn the_error_says_its_reasons_in_its_text_and_its_json() {
        let error = super::super::Error::Service {
            op: "UpdateItem",
            code: "ThrottlingException".into(),
            message: "Throughput exceeds the current capacity".into(),
            throttled: vec![ThrottleReason::new(
                "TableWriteKeyRangeThroughputExceeded",
                TABLE,
            )],
        };
        assert_eq!(
            error.to_string(),
            "UpdateItem failed: ThrottlingException: Throughput exceeds the current capacity; \
             throttled by this key range's write limit (1,000 WCU/s per partition) on table Social"
        );
        let json = error.to_json();
        assert_eq!(
            json["throttled"][0]["reason"],
            "TableWriteKeyRangeThroughputExceeded"
        );
        assert_eq!(json["throttled"][0]["resource"], TABLE);
        assert_eq!(
            json["throttled"][0]["words"],
            "this key range's write limit (1,000 WCU/s per partition) on table Social"
        );
        let plain = super::super::Error::Service {
            op: "UpdateItem",
            code: "ThrottlingException".into(),
            message: "Throughput exceeds the current capacity".into(),
            throttled: Vec::new(),
        };
        assert!(plain.to_json().get("throttled").is_none());
        assert!(plain.to_string().ends_with("capacity"));
    }
}
