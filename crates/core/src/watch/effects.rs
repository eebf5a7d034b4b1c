//! What one record does to a parent's counter: its tally read from the images, a child
//! counted in or out.

use bigdecimal::BigDecimal;

use crate::stream::{EventKind, StreamRecord};
use crate::watch::change::{Effect, number_of};
use crate::watch::parent::{Base, Before, MAX_TRACKED_CHILDREN, ParentWatch};

pub(super) fn parent_effect(
    parent: &mut ParentWatch,
    record: &StreamRecord,
    tally: &str,
) -> Effect {
    let parse = |t: Option<String>| t.and_then(|t| crate::number::parse(&t).ok());
    if parent.before == Before::Unknown {
        parent.before = match (&record.old, record.kind) {
            (Some(old), _) => match parse(number_of(Some(old), tally)) {
                Some(v) => Before::Value(v),
                None => Before::Missing,
            },
            // Written where no parent was: nothing liked before it.
            (None, EventKind::Insert) => Before::Value(BigDecimal::default()),
            // No old images (NEW_IMAGE): compared from this record's tally on.
            (None, _) => {
                parent.children_delta = 0;
                Before::Value(parse(number_of(record.new.as_ref(), tally)).unwrap_or_default())
            }
        };
    }
    let before_text = parent.tally().map(|t| crate::number::to_dynamodb(&t));
    let before_text = match &parent.tally_seen {
        Some(seen) => seen.as_ref().map(crate::number::to_dynamodb),
        None => before_text,
    };
    if record.kind == EventKind::Remove {
        parent.tally_seen = Some(None);
        return Effect::ParentRemoved;
    }
    let after = parse(number_of(record.new.as_ref(), tally));
    // A tally written where it was missing: compared from here on when nothing counted it.
    if after.is_some() && parent.before == Before::Missing && parent.base == Base::Deltas {
        parent.before = Before::Value(after.clone().unwrap_or_default());
        parent.children_delta = 0;
    }
    let after_text = after.as_ref().map(crate::number::to_dynamodb);
    parent.tally_seen = Some(after);
    if before_text == after_text {
        Effect::ParentTouched
    } else {
        Effect::Tally {
            before: before_text,
            after: after_text,
        }
    }
}

pub(super) fn child_effect(parent: &mut ParentWatch, record: &StreamRecord, child: &str) -> Effect {
    let tracked = parent.child_touches.len() < MAX_TRACKED_CHILDREN
        || parent.child_touches.contains_key(child);
    let mut touch = |inserted: bool| -> u32 {
        if !tracked {
            return 1;
        }
        let entry = parent.child_touches.entry(child.to_owned()).or_default();
        if inserted {
            entry.0 += 1;
            entry.0
        } else {
            entry.1 += 1;
            entry.1
        }
    };
    match record.kind {
        EventKind::Insert => {
            let times = touch(true);
            parent.children_delta += 1;
            Effect::ChildInserted { times }
        }
        EventKind::Remove => {
            let times = touch(false);
            parent.children_delta -= 1;
            Effect::ChildRemoved { times }
        }
        EventKind::Modify => Effect::ChildChanged,
    }
}
