//! What a load under way is doing: for a parallel scan, each segment's items and whether it is
//! done or waiting out throttling; for any read, the last wait the reader reported, in the
//! core's words ("throttled, waiting 800 ms before attempt 5").

use egui::{Color32, Ui};

/// One segment of a parallel scan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SegmentState {
    /// Items read from it.
    pub items: usize,
    /// Read to its end.
    pub done: bool,
    /// Waiting before sending again (throttled, or re-sending after a failure).
    pub waiting: bool,
}

/// A load's progress.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadProgress {
    /// The segments of a parallel scan (empty for a single read).
    pub segments: Vec<SegmentState>,
    /// The last wait reported, until the next page arrives.
    pub note: Option<String>,
}

impl LoadProgress {
    /// A parallel scan of `total` segments, none read yet.
    pub fn segmented(total: usize) -> Self {
        Self {
            segments: vec![SegmentState::default(); total],
            note: None,
        }
    }

    /// Segment `segment` handed over `items` items.
    pub fn page(&mut self, segment: usize, items: usize) {
        self.note = None;
        if let Some(s) = self.segments.get_mut(segment) {
            s.items += items;
            s.waiting = false;
        }
    }

    /// Segment `segment` waits; `note` says why.
    pub fn waiting(&mut self, segment: usize, note: Option<String>) {
        self.note = note;
        if let Some(s) = self.segments.get_mut(segment) {
            s.waiting = true;
        }
    }

    /// Segment `segment` was read to its end.
    pub fn done(&mut self, segment: usize) {
        if let Some(s) = self.segments.get_mut(segment) {
            s.done = true;
            s.waiting = false;
        }
    }

    /// "3 of 8 segments done".
    pub fn summary(&self) -> Option<String> {
        if self.segments.is_empty() {
            return None;
        }
        let done = self.segments.iter().filter(|s| s.done).count();
        Some(format!("{done} of {} segments done", self.segments.len()))
    }
}

/// The most segments drawn as a box each.
const BOXES: usize = 64;

/// The segments by state, in a line: `1000 segments: 812 done, 64 reading, 124 waiting`.
fn segment_counts(progress: &LoadProgress, running: bool) -> String {
    let segments = &progress.segments;
    let done = segments.iter().filter(|s| s.done).count();
    let waiting = segments.iter().filter(|s| !s.done && s.waiting).count();
    let rest = segments.len() - done - waiting;
    let rest_state = if running { "reading" } else { "stopped" };
    format!(
        "{} segments: {done} done, {rest} {rest_state}, {waiting} waiting",
        segments.len()
    )
}

/// One small box per segment: green when done, amber while waiting, blue while reading; its
/// tooltip says how many items it gave. Past [`BOXES`], the segments counted by state.
pub(super) fn segments_ui(ui: &mut Ui, progress: &LoadProgress, running: bool) {
    if progress.segments.is_empty() {
        return;
    }
    // More than a row of boxes holds: the segments counted by state instead.
    if progress.segments.len() > BOXES {
        ui.label(segment_counts(progress, running));
        return;
    }
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        for (i, s) in progress.segments.iter().enumerate() {
            let color = match (s.done, s.waiting, running) {
                (true, _, _) => Color32::from_rgb(80, 180, 90),
                (false, true, _) => Color32::from_rgb(230, 170, 40),
                (false, false, true) => Color32::from_rgb(70, 130, 220),
                (false, false, false) => Color32::GRAY,
            };
            let (rect, response) =
                ui.allocate_exact_size(egui::vec2(8.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 1.0, color);
            let state = match (s.done, s.waiting) {
                (true, _) => "done",
                (false, true) => "waiting",
                _ if running => "reading",
                _ => "stopped",
            };
            response.on_hover_text(format!("segment {i}: {} items, {state}", s.items));
        }
    });
}

#[cfg(test)]
mod segment_tests {
    use super::*;

    #[test]
    fn many_segments_are_counted_by_state() {
        let mut progress = LoadProgress::segmented(1000);
        for (i, segment) in progress.segments.iter_mut().enumerate() {
            segment.done = i < 812;
            segment.waiting = (812..936).contains(&i);
        }
        assert_eq!(
            segment_counts(&progress, true),
            "1000 segments: 812 done, 64 reading, 124 waiting"
        );
        assert!(segment_counts(&progress, false).contains("64 stopped"));
    }
}
