use std::str::FromStr;

use bigdecimal::BigDecimal;

use super::*;

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

fn east(billing: Billing) -> Pricing {
    Pricing::for_connection(&PriceBook::shipped(), Some("us-east-1"), None, billing)
}

#[test]
fn on_demand_units_cost_their_price_per_million() {
    let pricing = east(Billing::default());
    let like = pricing.charge(Kind::Write, &d("4"));
    assert_eq!(like.amount, Some(d("0.0000025")));
    assert_eq!(like.text(), "4 WCU ≈ $0.0000025 on demand");
    assert_eq!(like.usd_json().to_string(), "0.0000025");
    let read = pricing.charge(Kind::Read, &d("0.5"));
    assert_eq!(read.amount, Some(d("0.0000000625")));
    assert_eq!(
        pricing.times(&like, 1_000_000).text(),
        "4,000,000 WCU ≈ $2.50 on demand"
    );
}

#[test]
fn standard_ia_is_priced_by_its_own_row() {
    let pricing = east(Billing {
        mode: Mode::OnDemand,
        class: Class::StandardIa,
    });
    let write = pricing.charge(Kind::Write, &d("1000000"));
    assert_eq!(write.amount, Some(d("0.78")));
    let read = pricing.charge(Kind::Read, &d("1000000"));
    assert_eq!(read.amount, Some(d("0.155")));
}

#[test]
fn provisioned_units_are_a_share_of_a_second_and_of_the_hour() {
    let pricing = east(Billing {
        mode: Mode::Provisioned {
            read: 20,
            write: 10,
        },
        class: Class::Standard,
    });
    let charge = pricing.charge(Kind::Write, &d("4"));
    // 4 of 10 WCU/s is 0.4 s of capacity; 10 WCU cost 10 × $0.00065 = $0.0065 an hour; the 4
    // units cost 4 × $0.00065 / 3600 when the capacity is fully used.
    assert_eq!(charge.amount, Some(d("4") * d("0.00065") / d("3600")));
    assert_eq!(
        charge.text(),
        "4 WCU ≈ $0.000000722 provisioned: 0.4 s of the table's 10 WCU/s, $0.0065/h"
    );
    let read = pricing.charge(Kind::Read, &d("1"));
    assert!(
        read.basis
            .contains("0.05 s of the table's 20 RCU/s, $0.0026/h"),
        "{}",
        read.basis
    );
}

#[test]
fn transactional_units_cost_twice_through_their_units() {
    // A like is a transaction of two writes (the child and the tally), each counted twice.
    let pricing = east(Billing::default());
    let one = units::write_units(200, units::WriteKind::Transactional);
    let like = pricing.charge(Kind::Write, &(&one + &one));
    assert_eq!(like.units, d("4"));
    assert_eq!(like.amount, Some(d("0.0000025")));
}

#[test]
fn the_sandbox_is_priced_as_us_east_1_and_says_so() {
    let pricing = Pricing::for_connection(&PriceBook::shipped(), None, None, Billing::default());
    assert_eq!(pricing.region, "us-east-1");
    let note = pricing.note();
    assert!(
        note.contains("Priced as us-east-1, on demand, Standard"),
        "{note}"
    );
    assert!(note.contains("no AWS region of its own"), "{note}");
    let picked = Pricing::for_connection(
        &PriceBook::shipped(),
        None,
        Some("eu-west-1"),
        Billing::default(),
    );
    let charge = picked.charge(Kind::Write, &d("4"));
    assert_eq!(charge.amount, None);
    assert_eq!(charge.text(), "4 WCU (no on-demand price for eu-west-1)");
    assert!(picked.note().contains("No prices known for eu-west-1"));
}

#[test]
fn china_is_priced_in_yuan() {
    let pricing = Pricing::for_connection(
        &PriceBook::shipped(),
        Some("cn-north-1"),
        None,
        Billing {
            mode: Mode::Provisioned {
                read: 50,
                write: 10,
            },
            class: Class::Standard,
        },
    );
    let charge = pricing.charge(Kind::Write, &d("3600"));
    assert_eq!(charge.amount, Some(d("0.0058")));
    assert_eq!(charge.currency, "CNY");
    assert_eq!(charge.usd_json(), serde_json::Value::Null);
    assert!(charge.text().contains("¥0.0058"), "{}", charge.text());
}

#[test]
fn reported_units_stay_exact() {
    assert_eq!(units_of(0.5), d("0.5"));
    assert_eq!(units_of(4.0), d("4"));
    assert_eq!(units_of(1234.5), d("1234.5"));
    assert_eq!(units_of(f64::NAN), d("0"));
}

#[test]
fn a_whole_table_read_is_half_a_unit_per_4_kb() {
    let pricing = east(Billing::default());
    assert_eq!(
        whole_read(Some(4096 * 300), Some(5_000), &pricing),
        "Reading all of it (as last reported: 1,228,800 bytes, item count 5,000): about 150 \
         RCU ≈ $0.0000188 on demand"
    );
    assert!(whole_read(None, None, &pricing).contains("not reported"));
}

#[test]
fn charges_add_up_across_kinds() {
    let pricing = east(Billing::default());
    let both = sum_text(&[pricing.read(2.0), pricing.write(4.0)]);
    assert_eq!(both, "≈ $0.00000275");
}

#[test]
fn a_provisioned_charge_times_over_says_its_own_share() {
    let pricing = east(Billing {
        mode: Mode::Provisioned {
            read: 50,
            write: 20,
        },
        class: Class::Standard,
    });
    let like = pricing.charge(Kind::Write, &d("4"));
    let million = pricing.times(&like, 1_000_000);
    assert!(
        million.basis.contains("200,000 s of the table's 20 WCU/s"),
        "{}",
        million.basis
    );
}
