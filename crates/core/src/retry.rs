//! The one retry policy, for the reader and the write gateway alike: after a failed attempt,
//! [`Retries::next`] says send again after a wait, or stop. It is pure: what it decides depends
//! on the failures so far and the time left, which the caller passes in, never on a clock, so
//! every schedule is unit-tested without I/O. Which failures may be sent again at all (a write
//! whose answer was lost only when it is repeatable) is the caller's to decide; how often and
//! after how long is decided here.

use std::time::Duration;

/// A failed attempt, as far as sending it again goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The server refused with a throttling code: nothing was applied or read.
    Throttled,
    /// A transaction cancelled for conflicts with other transactions alone: nothing written.
    Conflict,
    /// A batch's items the server left unprocessed.
    Unprocessed,
    /// The answer was lost on the way (a 5xx, a connection lost, an unreadable answer): sent
    /// again only by a caller for whom it changes nothing (a read, a repeatable write).
    Lost,
}

impl Failure {
    const ALL: [Self; 4] = [
        Self::Throttled,
        Self::Conflict,
        Self::Unprocessed,
        Self::Lost,
    ];

    fn index(self) -> usize {
        match self {
            Self::Throttled => 0,
            Self::Conflict => 1,
            Self::Unprocessed => 2,
            Self::Lost => 3,
        }
    }
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Wait this long, then send again.
    Resend(Duration),
    /// Do not send again: the failure is the outcome.
    Stop,
}

/// How one kind of failure is sent again: waits of `first`, doubling up to `longest`, at most
/// `times` re-sends, and at most `budget` of waiting in all when there is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The first wait.
    pub first: Duration,
    /// The longest single wait.
    pub longest: Duration,
    /// Re-sends at most (`u32::MAX`: as many as the budget allows).
    pub times: u32,
    /// The most waiting for this kind in all, when it has its own budget.
    pub budget: Option<Duration>,
    /// Whether its waits count against the operation's timeout. A read's throttling has its own
    /// budget instead: a throttled read changes nothing and is worth waiting for.
    pub on_the_clock: bool,
}

impl Rule {
    /// Never sent again.
    pub(crate) const NEVER: Self = Self {
        first: Duration::ZERO,
        longest: Duration::ZERO,
        times: 0,
        budget: None,
        on_the_clock: true,
    };

    /// The wait before the `n`-th re-send (from 1): `first · 2^(n-1)`, at most `longest`.
    pub fn wait(&self, n: u32) -> Duration {
        let doublings = n.saturating_sub(1).min(30);
        self.first
            .saturating_mul(1u32 << doublings)
            .min(self.longest)
    }
}

/// A rule for each kind of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    pub throttled: Rule,
    pub conflict: Rule,
    pub unprocessed: Rule,
    pub lost: Rule,
}

impl Policy {
    /// The write gateway's: throttling 100 ms doubling, 3 times; a transaction conflict 40 ms
    /// doubling, 5 times; unprocessed items 50 ms doubling to 1.6 s, 8 rounds; a lost answer of
    /// a repeatable write 200 ms doubling, 2 times. Every wait is on the write's one deadline.
    pub(crate) const WRITES: Self = Self {
        throttled: Rule {
            first: Duration::from_millis(100),
            longest: Duration::from_mins(1),
            times: 3,
            budget: None,
            on_the_clock: true,
        },
        conflict: Rule {
            first: Duration::from_millis(40),
            longest: Duration::from_secs(20),
            times: 5,
            budget: None,
            on_the_clock: true,
        },
        unprocessed: Rule {
            first: Duration::from_millis(50),
            longest: Duration::from_millis(1600),
            times: 8,
            budget: None,
            on_the_clock: true,
        },
        lost: Rule {
            first: Duration::from_millis(200),
            longest: Duration::from_mins(1),
            times: 2,
            budget: None,
            on_the_clock: true,
        },
    };

    fn rule(&self, failure: Failure) -> &Rule {
        match failure {
            Failure::Throttled => &self.throttled,
            Failure::Conflict => &self.conflict,
            Failure::Unprocessed => &self.unprocessed,
            Failure::Lost => &self.lost,
        }
    }
}

/// Whether waiting `wait` and then sending again still leaves the attempt a fair share of the
/// time (a quarter of the `timeout`), with `left` of it left: an attempt sure to time out is
/// not worth sending, since its timeout would leave a refusal's outcome unknown.
pub fn fits(left: Duration, wait: Duration, timeout: Duration) -> bool {
    left >= wait + timeout / 4
}

/// One operation's re-sends so far, under one [`Policy`] and one timeout.
#[derive(Debug, Clone)]
pub(crate) struct Retries {
    policy: Policy,
    timeout: Duration,
    resent: [u32; 4],
    waited: [Duration; 4],
}

impl Retries {
    /// An operation not yet failed, given `timeout` in all.
    pub(crate) fn new(policy: Policy, timeout: Duration) -> Self {
        Self {
            policy,
            timeout,
            resent: [0; 4],
            waited: [Duration::ZERO; 4],
        }
    }

    /// After an attempt failed with `failure`, `left` of the operation's timeout left: send
    /// again after a wait (counted), or stop.
    pub(crate) fn next(&mut self, failure: Failure, left: Duration) -> Next {
        let rule = *self.policy.rule(failure);
        let i = failure.index();
        if self.resent[i] >= rule.times {
            return Next::Stop;
        }
        let wait = rule.wait(self.resent[i] + 1);
        if rule
            .budget
            .is_some_and(|budget| self.waited[i] + wait > budget)
        {
            return Next::Stop;
        }
        if rule.on_the_clock && !fits(left, wait, self.timeout) {
            return Next::Stop;
        }
        self.resent[i] += 1;
        self.waited[i] += wait;
        Next::Resend(wait)
    }

    /// The re-sends made after `failure`.
    pub(crate) fn resent(&self, failure: Failure) -> u32 {
        self.resent[failure.index()]
    }

    /// Attempts made so far, counting the one about to be sent after the last [`Next::Resend`].
    pub(crate) fn attempts(&self) -> u32 {
        1 + Failure::ALL.iter().map(|f| self.resent(*f)).sum::<u32>()
    }

    /// Whether `failure`'s waits count against the operation's timeout.
    pub(crate) fn on_the_clock(&self, failure: Failure) -> bool {
        self.policy.rule(failure).on_the_clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLENTY: Duration = Duration::from_hours(1);

    fn schedule(retries: &mut Retries, failure: Failure, left: Duration) -> Vec<u128> {
        std::iter::from_fn(|| match retries.next(failure, left) {
            Next::Resend(wait) => Some(wait.as_millis()),
            Next::Stop => None,
        })
        .collect()
    }

    #[test]
    fn a_write_is_sent_again_a_few_times_with_doubling_waits() {
        let mut retries = Retries::new(Policy::WRITES, Duration::from_mins(1));
        assert_eq!(
            schedule(&mut retries, Failure::Throttled, PLENTY),
            [100, 200, 400]
        );
        assert_eq!(
            schedule(&mut retries, Failure::Conflict, PLENTY),
            [40, 80, 160, 320, 640]
        );
        assert_eq!(
            schedule(&mut retries, Failure::Unprocessed, PLENTY),
            [50, 100, 200, 400, 800, 1600, 1600, 1600]
        );
        assert_eq!(schedule(&mut retries, Failure::Lost, PLENTY), [200, 400]);
        // Each kind keeps its own count; the attempts add up.
        assert_eq!(retries.resent(Failure::Conflict), 5);
        assert_eq!(retries.attempts(), 1 + 3 + 5 + 8 + 2);
    }

    #[test]
    fn nothing_is_sent_again_that_would_not_fit_in_the_time_left() {
        let timeout = Duration::from_secs(2);
        let mut retries = Retries::new(Policy::WRITES, timeout);
        // 600 ms left: a 100 ms wait leaves 500 ms, at least a quarter of 2 s.
        assert_eq!(
            retries.next(Failure::Throttled, Duration::from_millis(600)),
            Next::Resend(Duration::from_millis(100))
        );
        // The next wait (200 ms) would leave 400 ms: not a fair share. Not counted either.
        assert_eq!(
            retries.next(Failure::Throttled, Duration::from_millis(600)),
            Next::Stop
        );
        assert_eq!(retries.resent(Failure::Throttled), 1);
        assert_eq!(retries.next(Failure::Lost, Duration::ZERO), Next::Stop);
        assert!(fits(
            Duration::from_millis(600),
            Duration::from_millis(100),
            timeout
        ));
        assert!(!fits(
            Duration::from_millis(600),
            Duration::from_millis(101),
            timeout
        ));
    }

    #[test]
    fn a_budget_of_waiting_ends_a_rule_that_is_off_the_clock() {
        let throttled = Rule {
            first: Duration::from_millis(50),
            longest: Duration::from_secs(5),
            times: u32::MAX,
            budget: Some(Duration::from_mins(2)),
            on_the_clock: false,
        };
        let policy = Policy {
            throttled,
            ..Policy::WRITES
        };
        let mut retries = Retries::new(policy, Duration::from_secs(1));
        // Off the clock: no time left does not stop it; two minutes of waiting does.
        let waits = schedule(&mut retries, Failure::Throttled, Duration::ZERO);
        assert_eq!(waits.len(), 29, "2 minutes of throttling is 29 waits");
        assert_eq!(waits[..9], [50, 100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        assert!(waits.iter().sum::<u128>() <= 120_000);
        assert!(!retries.on_the_clock(Failure::Throttled));
    }

    #[test]
    fn a_rule_never_resends_and_waits_never_overflow() {
        let policy = Policy {
            lost: Rule::NEVER,
            ..Policy::WRITES
        };
        let mut retries = Retries::new(policy, Duration::from_secs(10));
        assert_eq!(retries.next(Failure::Lost, PLENTY), Next::Stop);
        assert_eq!(retries.attempts(), 1);
        assert_eq!(
            Policy::WRITES.throttled.wait(u32::MAX),
            Duration::from_mins(1)
        );
    }
}
