//! The shard arithmetic, case by case.

use std::str::FromStr;

use super::*;
use crate::cost::{Billing, PriceBook};

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

fn east() -> Pricing {
    Pricing::for_connection(&PriceBook::shipped(), None, None, Billing::default())
}

/// 500 likes a second, each a transaction of a small item: 2 WCU each, 1,000 WCU/s, which a
/// partition cannot take: two shards at least, 500 WCU/s each.
#[test]
fn five_hundred_transactional_likes_need_two_shards() {
    let advice = ShardAdvice::new(500, 200, WriteKind::Transactional).unwrap();
    assert_eq!(advice.units_per_write(), 2);
    assert_eq!(advice.wcu_per_second(), 1_000);
    assert_eq!(advice.minimum_shards(), 2);
    // 1,000 / 800 → 2, a power of two already.
    assert_eq!(advice.suggested_shards(), 2);
    assert_eq!(advice.wcu_per_shard(2), d("500"));
    let lines = advice.lines(None, &east());
    assert_eq!(
        lines[0],
        "500 writes/s × 2 WCU (tx) = 1,000 WCU/s ≥ one partition's 1,000 WCU/s: at least 2 shards"
    );
}

#[test]
fn a_slow_counter_needs_no_shards() {
    let advice = ShardAdvice::new(100, 1_024, WriteKind::Standard).unwrap();
    assert_eq!(advice.wcu_per_second(), 100);
    assert_eq!(advice.minimum_shards(), 1);
    assert_eq!(advice.suggested_shards(), 1);
    assert!(advice.lines(None, &east())[0].ends_with("one item keeps up, no shards needed"));
}

/// 3,000 writes/s of 1.5 KB items: 2 WCU each, 6,000 WCU/s → at least 7 shards (6 would run
/// each at its ceiling); 6,000 / 800 = 7.5 → 8 shards, 750 WCU/s each.
#[test]
fn big_items_cost_more_units_and_more_shards() {
    let advice = ShardAdvice::new(3_000, 1_536, WriteKind::Standard).unwrap();
    assert_eq!(advice.units_per_write(), 2);
    assert_eq!(advice.minimum_shards(), 7);
    assert_eq!(advice.suggested_shards(), 8);
    assert_eq!(advice.wcu_per_shard(8), d("750"));
    let lines = advice.lines(Some(4), &east());
    assert!(
        lines[2]
            .contains("with 4 shards spread evenly: 1,500 WCU/s each, at or above: it throttles"),
        "{lines:?}"
    );
}

/// Reading 8 shards of 1,000 B: 8 GetItems round each item up to 4 KB (8 RCU strong, 4
/// eventual); one Query sums 8,000 B and rounds once: 2 RCU strong, 1 eventual.
#[test]
fn reading_the_total_by_gets_or_one_query() {
    let advice = ShardAdvice::new(5_000, 1_000, WriteKind::Standard).unwrap();
    assert_eq!(advice.get_items_units(8, ReadKind::Strong), d("8"));
    assert_eq!(advice.get_items_units(8, ReadKind::Eventual), d("4"));
    assert_eq!(advice.query_units(8, ReadKind::Strong), d("2"));
    assert_eq!(advice.query_units(8, ReadKind::Eventual), d("1"));
    let json = advice.to_json(Some(8), &east());
    assert_eq!(json["read_total"]["query_strong"]["rcu"].to_string(), "2");
    // us-east-1 on demand: $0.125 per million read units, so 8 RCU is $0.000001.
    assert_eq!(
        json["read_total"]["get_items_strong"]["usd"].to_string(),
        "0.000001"
    );
    // 5,000 WCU a second at $0.625 per million.
    assert_eq!(json["write_usd_per_second"].to_string(), "0.003125");
    assert_eq!(json["minimum_shards"], 6);
    let lines = advice.lines(Some(8), &east());
    assert!(
        lines.iter().any(|l| l.starts_with(
            "or one Query of 8 sort keys under one partition key: 8 × 1,000 B ÷ 4,096 B, rounded up, = 2 RCU"
        )),
        "{lines:?}"
    );
}

#[test]
fn the_caveat_says_what_local_indexes_do() {
    let mut advice = ShardAdvice::new(2_000, 100, WriteKind::Standard).unwrap();
    let plain = advice.lines(None, &east());
    assert!(
        // 2,000 WCU/s: at least 3 shards, 4 suggested, and the 4 are what is read and named.
        plain.iter().any(|l| l.contains("STATS#TOTAL#0..3")),
        "{plain:?}"
    );
    assert!(
        plain
            .iter()
            .any(|l| l.starts_with("reading the total, 4 GetItems")),
        "{plain:?}"
    );
    assert!(!plain.iter().any(|l| l.contains("this table")));
    advice.has_lsi = Some(true);
    let lsi = advice.lines(None, &east());
    assert!(lsi.iter().any(|l| l.contains("never splits")), "{lsi:?}");
    assert!(lsi.last().unwrap().starts_with("Priced as us-east-1"));
}

#[test]
fn bad_input_is_refused_in_words() {
    assert!(ShardAdvice::new(0, 100, WriteKind::Standard).is_err());
    assert!(ShardAdvice::new(1, 0, WriteKind::Standard).is_err());
    let err = ShardAdvice::new(1, 409_601, WriteKind::Standard).unwrap_err();
    assert!(err.to_string().contains("409,600"), "{err}");
    // A rate that overflows the units saturates instead of panicking.
    let huge = ShardAdvice::new(u64::MAX, 409_600, WriteKind::Transactional).unwrap();
    assert_eq!(huge.wcu_per_second(), u64::MAX);
    assert!(huge.suggested_shards() >= huge.minimum_shards());
}

#[test]
fn shares_and_rates_of_observed_shards() {
    let values = [Some(d("300")), Some(d("100")), None, Some(d("600"))];
    let shares = shares(&values);
    assert_eq!(shares[0], Some(d("30.0")));
    assert_eq!(shares[2], None);
    assert_eq!(shares[3], Some(d("60.0")));
    assert_eq!(super::shares(&[Some(d("0"))]), vec![None]);
}

/// VID#c0de at 1,500 writes a second: its 8 shards hold uneven counts (STATS#TOTAL#3 has 9,876
/// of 18,312). The suggested 2 is for an even spread, and the hot shard is said with what
/// lowers it — not more shards.
#[test]
fn an_uneven_spread_is_said_beside_the_suggestion_not_against_it() {
    let advice = ShardAdvice::new(1_500, 1_024, WriteKind::Standard)
        .unwrap()
        .spread_as("STATS#TOTAL#3", d("9876") / d("18312"));
    let lines = advice.lines(Some(8), &east());
    assert!(
        lines[1].starts_with("suggested: 2 shards if the writes spread evenly (750 WCU/s each"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("with 8 shards spread evenly: 187.5 WCU/s each"),
        "{lines:?}"
    );
    assert!(
        lines[3].starts_with(
            "but the writes do not spread evenly: STATS#TOTAL#3 took 53.9% of them, so at this \
             rate it takes 809 WCU/s (81% of the ceiling) whatever the count"
        ),
        "{lines:?}"
    );
    // An even spread says nothing more.
    let even = ShardAdvice::new(1_500, 1_024, WriteKind::Standard)
        .unwrap()
        .spread_as("STATS#TOTAL#0", d("1") / d("8"));
    assert!(
        !even
            .lines(Some(8), &east())
            .iter()
            .any(|l| l.contains("do not spread"))
    );
}
