//! The stream reader's requests: DescribeStream (every page), GetShardIterator and GetRecords,
//! each sent again as the one retry policy allows after throttling or a lost connection.

use std::time::Duration;

use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_sdk_dynamodbstreams::config::retry::RetryConfig;
use aws_sdk_dynamodbstreams::types::ShardIteratorType;

use crate::cancel::CancelToken;
use crate::error::{Error, Result, throttle_words};
use crate::read::failed_on_the_way;
use crate::report::{resending_note, throttled_note};
use crate::retry::{Failure, Next, Retries};
use crate::stream::record::{SequenceNumber, StreamRecord};
use crate::stream::shards::{ShardInfo, ShardWalk};
use crate::stream::walk::{Followed, StartAt, StreamEvent, Tuning};
use crate::throttle::is_throttled;

/// One shard being read.
pub(super) struct ShardReader {
    pub(super) id: String,
    pub(super) iterator: Option<String>,
    /// The last record handed on from this shard: nothing at or before it is handed on again.
    pub(super) last: Option<SequenceNumber>,
    /// Where to take an iterator when there is none and no record was seen.
    pub(super) from: StartAt,
}

pub(super) enum Read {
    Records(usize),
    /// The iterator was taken away (expired, trimmed): read again with a new one, not idle.
    Again,
    Finished,
}

pub(super) struct Run<'a> {
    pub(super) streams: &'a StreamsClient,
    pub(super) arn: &'a str,
    pub(super) tuning: &'a Tuning,
    pub(super) cancel: &'a CancelToken,
    pub(super) followed: Followed,
}

/// What one call came to: its answer, a refusal to handle, or a cancel.
enum Called<T> {
    Answer(T),
    Failed(Error),
    Cancelled,
}

fn without_retries() -> aws_sdk_dynamodbstreams::config::Builder {
    aws_sdk_dynamodbstreams::Config::builder().retry_config(RetryConfig::disabled())
}

/// Whether a stream call that failed this way may succeed when sent again: as a page read
/// (`read::retry::failed_on_the_way`), and a timeout too — a follower waits for the stream, it
/// has no deadline of its own.
fn lost_on_the_way(error: &Error) -> bool {
    failed_on_the_way(error) || matches!(error, Error::Timeout { .. })
}

impl Run<'_> {
    pub(super) fn cancelled(&mut self) -> Followed {
        self.followed.cancelled = true;
        std::mem::take(&mut self.followed)
    }

    /// Send `call` again as the policy allows after throttling or a lost connection, saying
    /// each wait; any other error is handed back.
    async fn patiently<T, F, Fut>(
        &mut self,
        on_event: &mut impl FnMut(StreamEvent),
        mut call: F,
    ) -> Called<T>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T>>,
    {
        let mut retries = Retries::new(self.tuning.policy(), self.tuning.give_up_after);
        loop {
            self.followed.requests += 1;
            let sent = tokio::select! {
                sent = call() => sent,
                () = self.cancel.cancelled() => return Called::Cancelled,
            };
            let error = match sent {
                Ok(answer) => return Called::Answer(answer),
                Err(error) => error,
            };
            let failure = if is_throttled(&error) {
                Failure::Throttled
            } else if lost_on_the_way(&error) {
                Failure::Lost
            } else {
                return Called::Failed(error);
            };
            let Next::Resend(wait) = retries.next(failure, Duration::MAX) else {
                return Called::Failed(error);
            };
            let attempt = retries.attempts();
            on_event(StreamEvent::Waited(match failure {
                Failure::Throttled => format!(
                    "{}: {}",
                    error.op().unwrap_or("Streams"),
                    throttled_note(
                        attempt,
                        wait,
                        throttle_words(error.throttle_reasons()).as_deref()
                    )
                ),
                _ => resending_note(attempt, wait, &error.headline()),
            }));
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.cancel.cancelled() => return Called::Cancelled,
            }
        }
    }

    /// Every shard of the stream, every page of DescribeStream followed; `None` when cancelled.
    pub(super) async fn describe(
        &mut self,
        on_event: &mut impl FnMut(StreamEvent),
    ) -> Result<Option<ShardWalk>> {
        let mut walk = ShardWalk::new();
        let mut after: Option<String> = None;
        loop {
            let (streams, arn) = (self.streams, self.arn);
            let from = after.clone();
            let page = self
                .patiently(on_event, || {
                    let from = from.clone();
                    async move {
                        streams
                            .describe_stream()
                            .stream_arn(arn)
                            .set_exclusive_start_shard_id(from)
                            .customize()
                            .config_override(without_retries())
                            .send()
                            .await
                            .map_err(|e| Error::from_sdk("DescribeStream", e))
                    }
                })
                .await;
            let page = match page {
                Called::Answer(page) => page,
                Called::Failed(error) => return Err(error),
                Called::Cancelled => return Ok(None),
            };
            let Some(description) = page.stream_description else {
                return Ok(Some(walk));
            };
            walk.learn(description.shards().iter().filter_map(|shard| {
                let range = shard.sequence_number_range();
                Some(ShardInfo {
                    id: shard.shard_id()?.to_owned(),
                    parent: shard.parent_shard_id().map(str::to_owned),
                    starting: range
                        .and_then(|r| r.starting_sequence_number())
                        .map(|s| SequenceNumber(s.to_owned())),
                    ending: range
                        .and_then(|r| r.ending_sequence_number())
                        .map(|s| SequenceNumber(s.to_owned())),
                })
            }));
            // The next page starts after the last shard of this one; a server that pages no
            // further (or repeats itself) ends the listing.
            match description.last_evaluated_shard_id {
                Some(last) if Some(&last) != after.as_ref() => after = Some(last),
                _ => return Ok(Some(walk)),
            }
        }
    }

    /// An iterator for `reader`: after its last record, or where its walk starts.
    async fn iterator(
        &mut self,
        reader: &ShardReader,
        on_event: &mut impl FnMut(StreamEvent),
    ) -> Called<Option<String>> {
        let (kind, sequence) = match (&reader.last, &reader.from) {
            (Some(last), _) => (ShardIteratorType::AfterSequenceNumber, Some(last.clone())),
            (None, StartAt::Latest) => (ShardIteratorType::Latest, None),
            (None, StartAt::TrimHorizon) => (ShardIteratorType::TrimHorizon, None),
            (None, StartAt::At(s)) => (ShardIteratorType::AtSequenceNumber, Some(s.clone())),
            (None, StartAt::After(s)) => (ShardIteratorType::AfterSequenceNumber, Some(s.clone())),
        };
        let (streams, arn, shard) = (self.streams, self.arn, reader.id.clone());
        self.patiently(on_event, || {
            let (kind, sequence, shard) = (kind.clone(), sequence.clone(), shard.clone());
            async move {
                streams
                    .get_shard_iterator()
                    .stream_arn(arn)
                    .shard_id(shard)
                    .shard_iterator_type(kind)
                    .set_sequence_number(sequence.map(|s| s.0))
                    .customize()
                    .config_override(without_retries())
                    .send()
                    .await
                    .map(|out| out.shard_iterator)
                    .map_err(|e| Error::from_sdk("GetShardIterator", e))
            }
        })
        .await
    }

    /// One GetRecords of `reader`'s shard: its new records handed on, or the shard finished;
    /// `None` when cancelled.
    pub(super) async fn read_shard(
        &mut self,
        reader: &mut ShardReader,
        on_event: &mut impl FnMut(StreamEvent),
    ) -> Result<Option<Read>> {
        let iterator = match reader.iterator.clone() {
            Some(iterator) => iterator,
            None => match self.iterator(reader, on_event).await {
                Called::Answer(Some(iterator)) => iterator,
                // No iterator: the shard holds nothing more.
                Called::Answer(None) => return Ok(Some(Read::Finished)),
                // Where it was to go on was trimmed (older than 24 hours: a laptop asleep):
                // from the oldest record the shard holds, said.
                Called::Failed(error)
                    if error.code() == Some("TrimmedDataAccessException")
                        && reader.from != StartAt::TrimHorizon =>
                {
                    on_event(StreamEvent::Recovered(trimmed_note(&reader.id)));
                    reader.last = None;
                    reader.from = StartAt::TrimHorizon;
                    return Ok(Some(Read::Again));
                }
                Called::Failed(error) => return Err(error),
                Called::Cancelled => return Ok(None),
            },
        };
        let (streams, limit) = (self.streams, self.tuning.limit);
        let page = self
            .patiently(on_event, || {
                let iterator = iterator.clone();
                async move {
                    streams
                        .get_records()
                        .shard_iterator(iterator)
                        .limit(limit)
                        .customize()
                        .config_override(without_retries())
                        .send()
                        .await
                        .map_err(|e| Error::from_sdk("GetRecords", e))
                }
            })
            .await;
        let page = match page {
            Called::Answer(page) => page,
            Called::Cancelled => return Ok(None),
            Called::Failed(error) => return recover(reader, error, on_event),
        };
        let mut fresh = Vec::new();
        for record in page.records() {
            let Some(record) = StreamRecord::from_sdk(&reader.id, record) else {
                continue;
            };
            // A page read again (its answer lost, its iterator taken again) hands on nothing
            // twice.
            if reader
                .last
                .as_ref()
                .is_some_and(|last| record.sequence <= *last)
            {
                continue;
            }
            reader.last = Some(record.sequence.clone());
            fresh.push(record);
        }
        reader.iterator = page.next_shard_iterator;
        let handed = fresh.len();
        if handed > 0 {
            self.followed.records += handed as u64;
            self.followed.last.clone_from(&reader.last);
            on_event(StreamEvent::Records(fresh));
        }
        Ok(Some(if reader.iterator.is_none() {
            Read::Finished
        } else {
            Read::Records(handed)
        }))
    }
}

fn trimmed_note(shard: &str) -> String {
    format!(
        "records of shard {shard} were trimmed (older than 24 hours) before they were read; \
         reading on from the oldest record it holds"
    )
}

fn expired_note(reader: &ShardReader) -> String {
    match &reader.last {
        Some(last) => format!(
            "the iterator of shard {} expired; reading on after sequence {last}",
            reader.id
        ),
        None => format!(
            "the iterator of shard {} expired before any record; taken again where the walk started",
            reader.id
        ),
    }
}

/// A GetRecords that failed: an expired iterator taken again, records trimmed from under the
/// walk read from the shard's oldest (each said), any other error handed back.
fn recover(
    reader: &mut ShardReader,
    error: Error,
    on_event: &mut impl FnMut(StreamEvent),
) -> Result<Option<Read>> {
    match error.code() {
        Some("ExpiredIteratorException") => {
            on_event(StreamEvent::Recovered(expired_note(reader)));
            reader.iterator = None;
            Ok(Some(Read::Again))
        }
        Some("TrimmedDataAccessException") => {
            on_event(StreamEvent::Recovered(trimmed_note(&reader.id)));
            reader.iterator = None;
            reader.last = None;
            reader.from = StartAt::TrimHorizon;
            Ok(Some(Read::Again))
        }
        _ => Err(error),
    }
}
