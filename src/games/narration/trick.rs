//! A trick told as one line, from its lead to who won it (Goathead, Hat
//! Trick): the cards as they were played, then the ruleset's words for the
//! win; a trick still open at the end of a story says it goes on.

use super::Story;
use crate::i18n::Arg;

/// The cards of the trick being told.
#[derive(Debug, Default)]
pub(super) struct Trick {
    played: Vec<String>,
    last_seq: i64,
    /// Whether the trick told next is known to start with its first card
    /// (a story may begin mid-trick: then no card is said to lead).
    starts: bool,
}

/// How a trick ended, in the ruleset's words.
pub(super) struct Won {
    /// The event that ended it.
    pub seq: i64,
    /// Said before the cards ("trick 3: ").
    pub before: String,
    /// Said after them ("bruno won it").
    pub after: String,
}

impl Trick {
    /// `who` (`me`: "yes" for the reader) put a card down: `what` is the
    /// card in words and anything said with it.
    pub(super) fn play(&mut self, story: &Story, seq: i64, (who, me): (&str, &str), what: &str) {
        let led = self.played.is_empty() && self.starts;
        self.played.push(story.words(
            "narration-trick-card",
            &[
                ("who", Arg::Text(who)),
                ("me", Arg::Text(me)),
                ("led", Arg::Text(if led { "yes" } else { "no" })),
                ("card", Arg::Text(what)),
            ],
        ));
        self.last_seq = seq;
    }

    /// Tells the trick so far: `won`, or still open (nothing when no card
    /// was told).
    pub(super) fn flush(&mut self, story: &mut Story, won: Option<Won>) {
        if self.played.is_empty() && won.is_none() {
            return;
        }
        let cards = if self.played.is_empty() {
            String::new()
        } else {
            format!("{}; ", self.played.join(", "))
        };
        // After a won trick the next starts with its lead.
        self.starts = won.is_some();
        match won {
            Some(won) => story.say(won.seq, &format!("{}{cards}{}", won.before, won.after)),
            None => {
                let on = story.words("narration-trick-goes-on", &[]);
                story.say(self.last_seq, &format!("{cards}{on}"));
            }
        }
        self.played.clear();
    }

    /// After another event: the next trick starts with its first card when
    /// `kind` begins play (a deal, the play phase).
    pub(super) fn after(&mut self, story: &mut Story, kind: &str) {
        self.flush(story, None);
        self.starts = matches!(kind, "dealt" | "play_started");
    }
}
