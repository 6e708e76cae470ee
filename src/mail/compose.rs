//! Writing each kind of mail: the subject, a plain-text body and the same as
//! simple HTML, and the headers every mail carries.
//!
//! Rules:
//! - Every mail has a `Message-ID` made from its outbox row (the same on
//!   every retry, so a receiver can drop a copy sent twice) and
//!   `Auto-Submitted: auto-generated` (so that auto-responders do not
//!   answer it).
//! - **Notifications** (turn, reminder, invitation, game over, digest)
//!   carry a one-click unsubscribe from their kind of mail
//!   (`List-Unsubscribe`, `List-Unsubscribe-Post`, RFC 8058). **Answers**
//!   to a player's own reply ("accepted", "not accepted") are transactional:
//!   no unsubscribe; they thread under the player's reply (`In-Reply-To`,
//!   `References`, the turn mail first).
//! - A subject names the game, the opponents, what happened and the turn,
//!   and ends with the game's short tag: `Hats vs bruno: your turn (turn
//!   8) [83c5]`.
//! - A turn mail opens with what happened since the reader's last move, in
//!   words ([`crate::games::narration`]), then the table in prose, the legal moves
//!   with their codes and the legend of their words. A mail that asks for a
//!   move has a `Reply-To` carrying a reply token for the seat at the
//!   version the mail shows, and records what it showed ([`Shown`]).
//! - A turn mail lists what was said to its reader since their last turn
//!   mail ([`super::talk`]), as plain text. A talk mail has a `Reply-To`
//!   carrying a talk token while the game is played: the answer is said at
//!   the table, or to the author alone when the message was press.
//! - Text lines are at most 78 characters (a link stands alone on its
//!   line); the HTML part says the same, with cards and the board drawn.

use std::fmt::Write as _;

use chrono::{DateTime, Duration, Utc};
use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use uuid::Uuid;

use super::render::{self, escape, wrap};
use super::seen::Seen;
use super::talk::Heard;
use super::token::{
    REPLY_TTL_DAYS, ReplyToken, TalkToken, reply_address, talk_address, unsubscribe_signature,
};
use crate::db::mail::Claimed;
use crate::games::narration::{self, capitalised};
use crate::games::projection::Game;
use crate::notifications::kind::Kind;

/// What every mail needs from the server's settings.
#[derive(Debug, Clone)]
pub struct Letterhead {
    pub from: Mailbox,
    /// The domain of reply addresses and message ids.
    pub domain: String,
    /// The server's public URL, without a trailing slash.
    pub public_url: String,
    /// The key of reply tokens and unsubscribe links.
    pub secret: Vec<u8>,
}

/// What a mail with a reply address showed: the version and the
/// fingerprint of its facts and moves ([`render::fingerprint`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub version: i64,
    pub fingerprint: String,
}

/// A mail to send: the subject and bodies, and its optional headers.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The reply address (for a move by reply).
    pub reply_to: Option<String>,
    /// The kind of mail a one-click unsubscribe turns off.
    pub unsubscribe: Option<String>,
    /// The message this one answers.
    pub in_reply_to: Option<String>,
    /// The thread before it (oldest first), the answered message last.
    pub references: Vec<String>,
    /// What a mail asking for a move showed.
    pub shown: Option<Shown>,
}

/// The name players know a ruleset by.
#[must_use]
pub fn ruleset_name(id: &str) -> &str {
    match id {
        "hats" => "Hats",
        "goathead" => "Goathead",
        "top-hats" => "Top Hats",
        "hat-trick" => "Hat Trick",
        other => other,
    }
}

/// The game's short tag in subjects: the first four hex digits of its id.
#[must_use]
pub fn tag(id: Uuid) -> String {
    id.simple().to_string()[..4].to_owned()
}

/// `Hats vs bruno`, `Goathead vs bruno and bot.greedy`.
fn title(game: &Game) -> String {
    let opponents = render::opponents(game);
    if opponents.is_empty() {
        ruleset_name(&game.ruleset).to_owned()
    } else {
        format!("{} vs {opponents}", ruleset_name(&game.ruleset))
    }
}

/// A subject: the title, what, the counters (if any), the tag.
fn subject(game: &Game, what: &str, counters: &str) -> String {
    let counted = if counters.is_empty() {
        String::new()
    } else {
        format!(" ({counters})")
    };
    format!("{}: {what}{counted} [{}]", title(game), tag(game.id))
}

/// The link to a game's page in the web client.
fn game_link(head: &Letterhead, id: Uuid) -> String {
    format!("{}/#/games/{id}", head.public_url)
}

/// A deadline as its reader reads it, in their time zone `zone` (UTC when
/// it is not one): `Tue 1 Dec 2026, 10:00 UTC`, `Tue 1 Dec 2026, 11:00 CET`.
fn when(rfc3339: &str, zone: &str) -> String {
    let zone = crate::record::clock::zone(zone).unwrap_or(chrono_tz::Tz::UTC);
    DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_owned(),
        |d| {
            d.with_timezone(&zone)
                .format("%a %-d %b %Y, %H:%M %Z")
                .to_string()
        },
    )
}

impl Draft {
    fn paragraph(&mut self, text: &str) {
        self.text.push_str(&wrap(text, "", ""));
        self.text.push('\n');
        let _ = write!(self.html, "<p>{}</p>", escape(text));
    }

    fn heading(&mut self, text: &str) {
        self.text.push_str(&wrap(text, "", ""));
        let _ = write!(
            self.html,
            "<h3 style=\"margin-bottom:0.3em\">{}</h3>",
            escape(text)
        );
    }

    fn preformatted(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
        let _ = write!(self.html, "<pre>{}</pre>", escape(text));
    }

    fn bullets(&mut self, lines: &[String]) {
        self.text.push_str(&render::bullets(lines));
        self.text.push('\n');
        self.html.push_str("<ul>");
        for line in lines {
            let _ = write!(self.html, "<li>{}</li>", escape(line));
        }
        self.html.push_str("</ul>");
    }

    /// A link: its label on a line, the URL alone on the next.
    fn link(&mut self, label: &str, url: &str) {
        let _ = write!(self.text, "{label}:\n{url}\n\n");
        let _ = write!(
            self.html,
            "<p><a href=\"{}\">{}</a></p>",
            escape(url),
            escape(label)
        );
    }

    /// What happened since the reader's last move, if anything.
    fn story(&mut self, seen: &Seen, heading: &str) {
        if seen.story.is_empty() {
            return;
        }
        self.heading(if seen.since_own { heading } else { "So far:" });
        let mut lines: Vec<String> = Vec::new();
        if seen.cut {
            lines.push("(Earlier moves are on the game's page.)".to_owned());
        }
        lines.extend(seen.story.iter().map(|l| l.text.clone()));
        self.bullets(&lines);
    }

    /// What was said to the reader since their last turn mail, if anything.
    fn heard(&mut self, heard: &Heard) {
        if heard.messages.is_empty() {
            return;
        }
        self.heading("Said since your last turn mail:");
        let mut lines: Vec<String> = Vec::new();
        if heard.more {
            lines.push("(Earlier messages are on the game's page.)".to_owned());
        }
        lines.extend(heard.messages.iter().map(|m| {
            let to = if m.room == "press" { " to you" } else { "" };
            format!("{}{to}: {}", m.author_name, m.body)
        }));
        self.bullets(&lines);
    }

    /// The table in prose.
    fn facts(&mut self, game: &Game) {
        let facts = render::facts(game);
        self.heading("The table:");
        self.text
            .push_str(&render::facts_text(&game.ruleset, &facts));
        self.text.push('\n');
        self.html
            .push_str(&render::facts_html(&game.ruleset, &facts));
    }

    /// The game as the viewer sees it and, when the game waits for the
    /// viewer, the legal moves, their legend and a reply address at this
    /// version.
    fn table_and_moves(&mut self, head: &Letterhead, user: Uuid, game: &Game) {
        self.facts(game);
        let waits = game.my_seat.is_some_and(|seat| game.to_act.contains(&seat));
        if let (true, Some(seat)) = (waits, game.my_seat) {
            self.heading("Your moves:");
            self.paragraph(
                "Reply to this mail with a move's number (or the move written out) on the first line.",
            );
            self.text.push_str(&render::moves(&game.legal_commands));
            self.text.push('\n');
            self.html
                .push_str(&render::moves_html(&game.legal_commands));
            let legend = render::legend(&game.ruleset, &game.legal_commands);
            if !legend.is_empty() {
                self.heading("Move words:");
                self.text.push_str(&render::legend_text(&legend));
                self.text.push('\n');
                self.html.push_str("<dl>");
                for (words, meaning) in &legend {
                    let _ = write!(
                        self.html,
                        "<dt><code>{}</code></dt><dd>{}</dd>",
                        escape(words),
                        escape(meaning)
                    );
                }
                self.html.push_str("</dl>");
            }
            let expires = Utc::now() + Duration::days(REPLY_TTL_DAYS);
            let token = ReplyToken::new(game.id, seat, game.version, expires);
            self.reply_to = Some(reply_address(&token, &head.secret, user, &head.domain));
            self.shown = Some(Shown {
                version: game.version,
                fingerprint: render::fingerprint(game),
            });
        } else if game.status == "active" {
            let waiting: Vec<String> = game
                .seats
                .iter()
                .filter(|s| game.to_act.contains(&s.seat))
                .map(|s| s.username.clone())
                .collect();
            self.paragraph(&format!(
                "The game now waits for {}.",
                narration::and_list(&waiting)
            ));
        }
        self.link("The game on the web", &game_link(head, game.id));
    }
}

/// The mail of a `your_turn` or `reminder` row, given the game as the
/// reader sees it now; `None` when the game no longer waits for the
/// reader's seat (then the mail is not worth sending).
#[must_use]
pub fn turn(head: &Letterhead, row: &Claimed, seen: &Seen, heard: &Heard) -> Option<Draft> {
    let game = &seen.game;
    let seat = game.my_seat?;
    if game.status != "active" || !game.to_act.contains(&seat) {
        return None;
    }
    let reminder = Kind::parse(&row.kind) == Some(Kind::Reminder);
    if reminder && Some(game.version) != row.payload["version"].as_i64() {
        return None;
    }
    let counters = seen.counters.words(&game.ruleset);
    let mut draft = Draft {
        subject: subject(
            game,
            if reminder {
                "reminder, your turn"
            } else {
                "your turn"
            },
            &counters,
        ),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    let deadline = row.payload["deadline"].as_str().map_or_else(
        || "This game has no clock.".to_owned(),
        |d| {
            if reminder {
                format!("Your time runs out on {}.", when(d, &row.time_zone))
            } else {
                format!("Move by {}.", when(d, &row.time_zone))
            }
        },
    );
    let counted = if counters.is_empty() {
        String::new()
    } else {
        format!(" ({counters})")
    };
    draft.paragraph(&format!(
        "Hello {}, it is your turn in {}{counted}.",
        row.username,
        title(game)
    ));
    draft.paragraph(&deadline);
    draft.story(seen, "Since your last move:");
    draft.heard(heard);
    unfired_lines(&mut draft, &row.payload, seat);
    draft.table_and_moves(head, row.user_id, game);
    Some(draft)
}

/// The reader's conditional lines that did not fire in the step that made
/// it their turn (a `your_turn`'s `unfired`, docs/turn-conveniences.md),
/// each step as "seat n: command", the reader's own as "you".
fn unfired_lines(draft: &mut Draft, payload: &serde_json::Value, my_seat: u8) {
    let Some(lines) = payload["unfired"].as_array().filter(|l| !l.is_empty()) else {
        return;
    };
    draft.paragraph("Your conditional lines that did not fire (the game left them):");
    for line in lines {
        let steps: Vec<String> = line
            .as_array()
            .into_iter()
            .flatten()
            .map(|step| {
                let who = match step["seat"].as_u64() {
                    Some(s) if s == u64::from(my_seat) => "you".to_owned(),
                    Some(s) => format!("seat {}", s + 1),
                    None => "?".to_owned(),
                };
                format!("{who}: {}", step["command"])
            })
            .collect();
        draft.paragraph(&format!("- {}", steps.join(", then ")));
    }
}

/// The answer to a move sent by mail: accepted or not, then the game now.
#[must_use]
pub fn reply(head: &Letterhead, row: &Claimed, seen: Option<&Seen>) -> Draft {
    let accepted = Kind::parse(&row.kind) == Some(Kind::MoveAccepted);
    let said = row.payload["move"].as_str().unwrap_or("");
    let what = if accepted {
        format!("accepted, {said}")
    } else {
        "not accepted".to_owned()
    };
    let mut references: Vec<String> = row.payload["references"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect();
    let in_reply_to = row.payload["in_reply_to"].as_str().map(str::to_owned);
    references.extend(in_reply_to.clone());
    let mut draft = Draft {
        subject: match seen {
            Some(seen) => subject(&seen.game, &what, &seen.counters.words(&seen.game.ruleset)),
            None => capitalised(&what),
        },
        in_reply_to,
        references,
        ..Draft::default()
    };
    if accepted {
        draft.paragraph(&format!("Your move \"{said}\" was played."));
    } else {
        let why = row.payload["error"]
            .as_str()
            .unwrap_or("it could not be read");
        draft.paragraph(&format!("Your mail was not played: {why}"));
    }
    if let Some(seen) = seen {
        if seen.game.status == "active" {
            draft.story(seen, "Since your last move:");
            draft.table_and_moves(head, row.user_id, &seen.game);
        } else {
            draft.link("The game on the web", &game_link(head, seen.game.id));
        }
    }
    draft.paragraph("This mail answers yours; it is sent whatever your mail settings say.");
    draft
}

/// An invitation to a private game.
#[must_use]
pub fn invited(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let mut draft = Draft {
        subject: subject(game, "you are invited", ""),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    let at_table: Vec<String> = game.seats.iter().map(|s| s.username.clone()).collect();
    draft.paragraph(&format!(
        "Hello {}, you are invited to a {}-player game of {} (at the table: {}).",
        row.username,
        game.players,
        ruleset_name(&game.ruleset),
        narration::and_list(&at_table)
    ));
    draft.link("Join or decline", &game_link(head, game.id));
    draft
}

/// A substitute took over a seat whose player had left (docs/seats.md): one
/// line to each other player, naming the seat and the substitute.
#[must_use]
pub fn substituted(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let who = row.payload["username"].as_str().unwrap_or("a new player");
    let seat = row.payload["seat"].as_u64().unwrap_or(0);
    let mut draft = Draft {
        subject: subject(game, &format!("{who} takes over seat {seat}"), ""),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "Hello {}, {who} took over seat {seat} in {}, which its player had left: its moves are theirs from now on.",
        row.username,
        title(game)
    ));
    draft.link("See the game", &game_link(head, game.id));
    draft
}

/// A talk message the reader reads (docs/talk.md): who said it, where, and
/// the text, quoted as plain text; while the game is played, a reply
/// address that says the answer (at the table, or to the author alone when
/// the message was press).
#[must_use]
pub fn talk(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let message = &row.payload["message"];
    let from = message["from"]["username"].as_str().unwrap_or("someone");
    let press = message["room"] == "press";
    let room = if press { "to you" } else { "at the table" };
    let mut draft = Draft {
        subject: subject(game, &format!("{from} says"), ""),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "Hello {}, {from} says {room} in {}:",
        row.username,
        title(game)
    ));
    draft.preformatted(message["text"].as_str().unwrap_or(""));
    draft.text.push('\n');
    let author_seat = message["from"]["seat"]
        .as_u64()
        .and_then(|s| u8::try_from(s).ok());
    if let (Some(seat), "active") = (game.my_seat, game.status.as_str()) {
        let to = if press { author_seat } else { None };
        if !press || to.is_some() {
            let expires = Utc::now() + Duration::days(REPLY_TTL_DAYS);
            let token = TalkToken::new(game.id, seat, to, expires);
            draft.reply_to = Some(talk_address(
                &token,
                &head.secret,
                row.user_id,
                &head.domain,
            ));
            draft.paragraph(if press {
                "Reply to this mail to answer them alone (quoted lines are left out)."
            } else {
                "Reply to this mail to answer at the table (quoted lines are left out)."
            });
        }
    }
    draft.link("Answer on the web", &game_link(head, game.id));
    draft
}

/// How long a finished game lasted, in what players count.
fn length(seen: &Seen) -> String {
    let c = seen.counters;
    let (n, one, many) = match seen.game.ruleset.as_str() {
        "goathead" => (c.round, "round", "rounds"),
        "hat-trick" => (c.round, "deal", "deals"),
        _ => (c.turn, "turn", "turns"),
    };
    match n {
        Some(1) => format!(" after 1 {one}"),
        Some(n) => format!(" after {n} {many}"),
        None => String::new(),
    }
}

/// The result in a few words for a subject: `you won`, `bruno won`, `drawn`.
fn outcome(seen: &Seen) -> String {
    let game = &seen.game;
    let Some(result) = &game.result else {
        return "game over".to_owned();
    };
    let table = render::table_of(game);
    let winners: Vec<String> = result["winners"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| table.who(s))
        .collect();
    if winners.is_empty() || result["outcome"] == "draw" {
        "game over, drawn".to_owned()
    } else {
        format!("game over, {} won", narration::and_list(&winners))
    }
}

/// A game over: its result and where to check it.
#[must_use]
pub fn finished(head: &Letterhead, row: &Claimed, seen: &Seen) -> Draft {
    let game = &seen.game;
    let mut draft = Draft {
        subject: subject(game, &outcome(seen), ""),
        unsubscribe: Some(row.kind.clone()),
        ..Draft::default()
    };
    let ended = if game.status == "abandoned" {
        "was abandoned"
    } else {
        "is over"
    };
    draft.paragraph(&format!(
        "Hello {}, the game of {} {ended}{}.",
        row.username,
        title(game),
        length(seen)
    ));
    if let Some(result) = &game.result {
        draft.paragraph(&narration::result_text(result, &render::table_of(game)));
    }
    draft.story(seen, "The last moves:");
    if game.status == "finished" {
        // Rematch (docs/ratings.md): offered, accepted or declined at the table.
        draft.link(
            "A rematch? Offer one, or answer one offered, at the table",
            &game_link(head, game.id),
        );
    }
    draft.link(
        "The audit (every event, the seed, the hash chain)",
        &format!("{}/#/audit/{}", head.public_url, game.id),
    );
    draft
}

/// The code that confirms an address.
#[must_use]
pub fn confirm_address(row: &Claimed) -> Draft {
    let code = row.payload["code"].as_str().unwrap_or("");
    let mut draft = Draft {
        subject: format!("Your hatstand confirmation code: {code}"),
        ..Draft::default()
    };
    draft.paragraph(&format!(
        "Hello {}, to receive hatstand's mails at this address, confirm it with this code (good for 24 hours):",
        row.username
    ));
    draft.preformatted(code);
    draft.text.push('\n');
    draft.paragraph("If you did not ask for this, ignore this mail: nothing more will be sent.");
    draft
}

/// One mail for the due lines of a user's digest.
#[must_use]
pub fn digest(head: &Letterhead, rows: &[&Claimed]) -> Draft {
    let mut draft = Draft {
        subject: format!("Your hatstand digest: {} updates", rows.len()),
        unsubscribe: Some("digest".into()),
        ..Draft::default()
    };
    draft.paragraph("What happened since your last digest:");
    for row in rows {
        let ruleset = ruleset_name(row.payload["ruleset"].as_str().unwrap_or("?"));
        let game_tag = row.game_id.map(tag).unwrap_or_default();
        let what = match Kind::parse(&row.kind) {
            Some(Kind::YourTurn) => format!("Your turn in {ruleset} [{game_tag}]"),
            Some(Kind::Invited) => format!("Invited to {ruleset} [{game_tag}]"),
            Some(Kind::GameFinished) => format!("{ruleset} [{game_tag}] is over"),
            Some(Kind::SeatSubstituted) => format!(
                "{} takes over seat {} in {ruleset} [{game_tag}]",
                row.payload["username"].as_str().unwrap_or("a new player"),
                row.payload["seat"].as_u64().unwrap_or(0)
            ),
            Some(Kind::Talk) => format!(
                "{} said something in {ruleset} [{game_tag}]",
                row.payload["message"]["from"]["username"]
                    .as_str()
                    .unwrap_or("someone")
            ),
            _ => row.kind.clone(),
        };
        let line = format!("{what} ({})", row.created_at.format("%Y-%m-%d %H:%M UTC"));
        match row.game_id {
            Some(id) => draft.link(&line, &game_link(head, id)),
            None => draft.paragraph(&line),
        }
    }
    draft
}

/// The message of `draft` to `row`'s user, from outbox row `row`.
///
/// # Errors
/// A message saying what could not be built (a bad address).
pub fn message(head: &Letterhead, row: &Claimed, draft: Draft) -> Result<Message, String> {
    let to = Mailbox::new(
        Some(row.username.clone()),
        row.address
            .parse()
            .map_err(|e| format!("the address: {e}"))?,
    );
    let mut builder = Message::builder()
        .from(head.from.clone())
        .to(to)
        .subject(draft.subject)
        .date_now()
        .message_id(Some(message_id(head, row.user_id, row.id)))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-generated".into(),
        ));
    if let Some(reply_to) = draft.reply_to {
        builder = builder.reply_to(
            reply_to
                .parse()
                .map_err(|e| format!("the reply address: {e}"))?,
        );
    }
    if let Some(parent) = draft.in_reply_to {
        builder = builder.in_reply_to(parent);
    }
    if !draft.references.is_empty() {
        builder = builder.references(draft.references.join(" "));
    }
    if let Some(kind) = draft.unsubscribe {
        let url = format!(
            "{}/v1/email/unsubscribe?user={}&kind={kind}&sig={}",
            head.public_url,
            row.user_id,
            unsubscribe_signature(&head.secret, row.user_id, &kind)
        );
        builder = builder
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{url}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let html = format!(
        "<!doctype html><html><body style=\"font-family: sans-serif\">{}</body></html>",
        draft.html
    );
    builder
        .multipart(MultiPart::alternative_plain_html(draft.text, html))
        .map_err(|e| format!("the message: {e}"))
}

/// The `Message-ID` of outbox row `id` of `user`: the same on every retry.
#[must_use]
pub fn message_id(head: &Letterhead, user: Uuid, id: i64) -> String {
    format!("<mail.{}.{id}@{}>", user.simple(), head.domain)
}

#[cfg(test)]
mod tests {
    use super::when;

    #[test]
    fn given_a_readers_zone_when_a_deadline_is_written_then_it_is_their_local_time() {
        let deadline = "2026-03-29T18:00:00.000000Z";
        assert_eq!(when(deadline, "UTC"), "Sun 29 Mar 2026, 18:00 UTC");
        assert_eq!(
            when(deadline, "Europe/Paris"),
            "Sun 29 Mar 2026, 20:00 CEST"
        );
        assert_eq!(
            when("2026-03-28T19:00:00Z", "Europe/Paris"),
            "Sat 28 Mar 2026, 20:00 CET"
        );
        assert_eq!(
            when(deadline, "America/New_York"),
            "Sun 29 Mar 2026, 14:00 EDT"
        );
        assert_eq!(when(deadline, "Nowhere/Land"), "Sun 29 Mar 2026, 18:00 UTC");
    }
}
