//! The app's one write flow: idle → asking (the gateway's question, answered once) → sending →
//! idle again, the answer handed to the feature. Every write of the app goes through it, so the
//! question is read in one place and drawn by one `question_ui`; a feature keeps only what its
//! write is (the plan `P`) and what its answer means (its own report).

use egui::Ui;

use crate::widgets::{self, Question};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::write::Confirmation;

/// One feature's write, from the plan to the answer. `P` is what is sent (a plan and whatever
/// the feature needs with it), `H` the handle of the work under way (a `Pending`, a `Job`).
#[derive(Debug)]
pub(crate) struct WriteFlow<P, H> {
    /// A plan waiting for the user's answer to the gateway's question.
    asking: Option<(P, Question)>,
    /// The write under way.
    sending: Option<H>,
}

impl<P, H> Default for WriteFlow<P, H> {
    fn default() -> Self {
        Self {
            asking: None,
            sending: None,
        }
    }
}

impl<P, H> WriteFlow<P, H> {
    /// Begin writing `plan`, as its gateway `confirmation` says: sent at once by `send` (with
    /// `confirmed` false) when nothing is to be asked, kept to ask about when the gateway asks,
    /// and refused with its reason (read-only) without sending. A write under way or a question
    /// waiting refuses another.
    pub(crate) fn begin(
        &mut self,
        plan: P,
        confirmation: Confirmation,
        send: impl FnOnce(P, bool) -> H,
    ) -> Result<()> {
        if self.busy() {
            return Err(Error::Invalid(
                "a write is under way: wait for its answer before sending another".into(),
            ));
        }
        match confirmation {
            Confirmation::NotNeeded => self.sending = Some(send(plan, false)),
            Confirmation::Refused(error) => return Err(error),
            asked @ (Confirmation::Ask(_) | Confirmation::Typed { .. }) => {
                self.asking = Question::of(&asked).map(|question| (plan, question));
            }
        }
        Ok(())
    }

    /// The user's answer to the question waiting: yes sends the plan by `send` (with
    /// `confirmed` true), no drops it, nothing sent. Without a question, nothing happens.
    pub(crate) fn answered(&mut self, yes: bool, send: impl FnOnce(P, bool) -> H) {
        if let Some((plan, _)) = self.asking.take()
            && yes
        {
            self.sending = Some(send(plan, true));
        }
    }

    /// Draw the question waiting, if any, and act on the answer (see [`Self::answered`]).
    pub(crate) fn question_ui(&mut self, ui: &mut Ui, send: impl FnOnce(P, bool) -> H) {
        let Some((_, question)) = &mut self.asking else {
            return;
        };
        if let Some(yes) = widgets::confirm_ui(ui, question) {
            self.answered(yes, send);
        }
    }

    /// The plan a question waits on (what the form must not change meanwhile).
    pub(crate) fn asking(&self) -> Option<&P> {
        self.asking.as_ref().map(|(plan, _)| plan)
    }

    /// The question waiting, for a feature that draws it inside its own panel and hands the
    /// answer to [`Self::answered`].
    pub(crate) fn question(&self) -> Option<&str> {
        self.asking
            .as_ref()
            .map(|(_, question)| question.text.as_str())
    }

    /// The question waiting, to draw (and type a protected connection's name into).
    pub(crate) fn question_mut(&mut self) -> Option<&mut Question> {
        self.asking.as_mut().map(|(_, question)| question)
    }

    /// The write under way, to poll (and to take when it has answered).
    pub(crate) fn sending(&mut self) -> &mut Option<H> {
        &mut self.sending
    }

    /// Whether a write is under way.
    pub(crate) fn is_sending(&self) -> bool {
        self.sending.is_some()
    }

    /// Whether a question waits or a write is under way: a new write cannot begin.
    pub(crate) fn busy(&self) -> bool {
        self.asking.is_some() || self.sending.is_some()
    }

    /// Forget the question waiting (its subject is gone); a write under way is left to answer.
    pub(crate) fn drop_question(&mut self) {
        self.asking = None;
    }
}

/// For a run of many writes (a storm, the lab), the gateway's question answered by typing
/// `name` (the table's) rather than by one click: drawn with the field, it says whether the run
/// is allowed and whether it was confirmed so. A read-only connection is not allowed, and
/// says nothing here: the line of where the run writes already says why, once, and nothing
/// was refused, as nothing was started.
pub(crate) fn typed_confirmation_ui(
    ui: &mut Ui,
    confirmation: Confirmation,
    typed: &mut String,
    name: &str,
) -> (bool, bool) {
    match confirmation {
        Confirmation::NotNeeded => (true, false),
        Confirmation::Refused(_) => (false, false),
        Confirmation::Ask(question) => {
            ui.colored_label(ui.visuals().warn_fg_color, question);
            widgets::labelled_text_ui(ui, "Type the table name to allow", typed, 120.0, name);
            let allowed = typed.trim() == name;
            (allowed, allowed)
        }
        // A protected connection: its name, not the table's, is what is typed.
        Confirmation::Typed { question, name } => {
            ui.colored_label(ui.visuals().warn_fg_color, question);
            widgets::labelled_text_ui(ui, "Type the connection's name", typed, 120.0, &name);
            let allowed = Confirmation::typed_answers(Some(&name), typed);
            (allowed, allowed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the work under way: what was sent, and whether it was confirmed.
    type Sent = (&'static str, bool);

    fn send(plan: &'static str, confirmed: bool) -> Sent {
        (plan, confirmed)
    }

    #[test]
    fn nothing_to_ask_is_sent_at_once_unconfirmed() {
        let mut flow = WriteFlow::<&str, Sent>::default();
        flow.begin("add 1", Confirmation::NotNeeded, send).unwrap();
        assert_eq!(flow.sending().take(), Some(("add 1", false)));
        assert!(!flow.busy());
    }

    #[test]
    fn a_question_is_asked_once_and_yes_sends_confirmed_no_sends_nothing() {
        let mut flow = WriteFlow::<&str, Sent>::default();
        flow.begin("add 1", Confirmation::Ask("Write to AWS?".into()), send)
            .unwrap();
        assert_eq!(flow.asking(), Some(&"add 1"));
        assert!(!flow.is_sending(), "nothing sent before the answer");
        // Another write cannot begin while the question waits.
        let again = flow.begin("add 2", Confirmation::NotNeeded, send);
        assert!(again.unwrap_err().to_string().contains("under way"));
        flow.answered(true, send);
        assert_eq!(flow.asking(), None);
        assert_eq!(flow.sending().take(), Some(("add 1", true)));

        flow.begin("add 3", Confirmation::Ask("Write?".into()), send)
            .unwrap();
        flow.answered(false, send);
        assert!(!flow.busy(), "declined: nothing sent, nothing waiting");
        flow.answered(true, send);
        assert!(!flow.is_sending(), "no question, nothing to confirm");
    }

    #[test]
    fn a_refusal_is_said_and_nothing_is_sent_or_kept() {
        let mut flow = WriteFlow::<&str, Sent>::default();
        let refused = flow.begin(
            "add 1",
            Confirmation::Refused(Error::Invalid("read-only".into())),
            send,
        );
        assert!(refused.is_err());
        assert!(!flow.busy());
        // A write under way refuses another until its answer is taken.
        flow.begin("add 1", Confirmation::NotNeeded, send).unwrap();
        assert!(flow.begin("add 2", Confirmation::NotNeeded, send).is_err());
        flow.sending().take();
        assert!(flow.begin("add 2", Confirmation::NotNeeded, send).is_ok());
    }
}
