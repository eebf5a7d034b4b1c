//! Likes as reference-counter transactions, from the article: like and unlike built once and
//! copied through the code generator, sent with conflict retries, observed before and after,
//! and storms of simulated users.

mod report;
mod request;
mod send;
mod storm;
mod storm_document;
mod verdict;

pub use request::{LikeOp, LikeRequest, LikeTarget, fresh_token, like_request, now_secs};
pub use send::Snapshot;
pub use send::{LikeOutcome, LikeReport, Sent, like_and_observe, send, snapshot};
pub(crate) use storm::MAX_STORM_USERS;
pub use storm::{StormPlan, StormStats, run_id, storm, storm_plan};
pub use storm_document::StormDocument;
pub use verdict::{StormReport, run_storm};

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> LikeTarget {
        LikeTarget {
            table: "Social".into(),
            pk_name: "PK".into(),
            sk_name: "SK".into(),
            parent: "POST#a91f".into(),
            parent_sk: "META".into(),
            tally: "likeTally".into(),
            child_prefix: "LIKE#".into(),
            create_parent: false,
        }
    }

    fn here() -> crate::write::Destination {
        crate::write::Destination {
            connection: crate::connection::ConnectionId("test".into()),
            endpoint: "http://127.0.0.1:1".into(),
            setup: crate::connection::ClientSetup::default(),
            local: true,
            read_only: false,
            name: None,
            protected: false,
        }
    }

    #[test]
    fn the_article_transaction_as_json() {
        let like = like_request(
            &here(),
            LikeOp::Like,
            &target(),
            "USER#7c20",
            None,
            1_750_636_800,
        )
        .unwrap();
        let json: serde_json::Value = serde_json::from_str(&like.to_json()).unwrap();
        let put = &json["TransactItems"][0]["Put"];
        assert_eq!(put["Item"]["SK"]["S"], "LIKE#USER#7c20");
        assert_eq!(put["Item"]["likedAt"]["N"], "1750636800");
        assert_eq!(put["ConditionExpression"], "attribute_not_exists(#sk)");
        let update = &json["TransactItems"][1]["Update"];
        assert_eq!(update["UpdateExpression"], "ADD #t :one");
        assert_eq!(
            update["ConditionExpression"], "attribute_exists(#pk)",
            "a like never creates its parent unless asked to"
        );
        assert_eq!(update["ExpressionAttributeValues"][":one"]["N"], "1");
        let unlike = like_request(
            &here(),
            LikeOp::Unlike,
            &target(),
            "USER#7c20",
            Some("tok-1".into()),
            0,
        )
        .unwrap();
        let json: serde_json::Value = serde_json::from_str(&unlike.to_json()).unwrap();
        assert_eq!(
            json["TransactItems"][0]["Delete"]["ConditionExpression"],
            "attribute_exists(#sk)"
        );
        assert_eq!(
            json["TransactItems"][1]["Update"]["ExpressionAttributeValues"][":minusOne"]["N"],
            "-1"
        );
        assert_eq!(json["ClientRequestToken"], "tok-1");
        assert!(
            unlike
                .to_aws_cli()
                .contains("--client-request-token 'tok-1'")
        );
    }

    #[test]
    fn storm_plans_duplicates_and_unlikes() {
        assert_eq!(storm_plan(0), [LikeOp::Like, LikeOp::Like, LikeOp::Unlike]);
        assert_eq!(storm_plan(1), [LikeOp::Like]);
        assert_eq!(storm_plan(5), [LikeOp::Like, LikeOp::Like]);
        assert!(like_request(&here(), LikeOp::Like, &target(), " ", None, 0).is_err());
        assert!(
            like_request(
                &here(),
                LikeOp::Like,
                &target(),
                "u",
                Some("x".repeat(37)),
                0
            )
            .is_err()
        );
    }
}
