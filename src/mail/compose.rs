//! Writing each kind of mail: the subject, a plain-text body and the same as
//! simple HTML, and the headers every mail carries.
//!
//! Rules:
//! - Every mail has a `Message-ID` made from its outbox row (the same on
//!   every retry, so a receiver can drop a copy sent twice) and
//!   `Auto-Submitted: auto-generated` (so that auto-responders do not
//!   answer it).
//! - **Notifications** (turn, reminder, invitation, game over, a
//!   substitute, a tournament's table ready or its end, digest) carry a one-click unsubscribe from their kind of mail
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
use crate::i18n::{Arg, Language, words};
use crate::notifications::kind::Kind;

/// The language of `row`'s mail: its reader's setting, else English (a
/// mail answers no request, so there is no `Accept-Language` to follow).
#[must_use]
pub fn language_of(row: &Claimed) -> Language {
    Language::of_user(row.language.as_deref().and_then(Language::from_code), None)
}

/// A message of the mail's files with no arguments.
fn w(lang: Language, id: &str) -> String {
    words(lang, id, &[])
}

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
    /// The language it is written in.
    pub lang: Language,
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

/// `Hats vs bruno`, `Goathead vs bruno and bot.greedy` (`Hats contre
/// bruno`).
fn title(lang: Language, game: &Game) -> String {
    let opponents = render::opponents(lang, game);
    if opponents.is_empty() {
        ruleset_name(&game.ruleset).to_owned()
    } else {
        words(
            lang,
            "mail-title",
            &[
                ("game", ruleset_name(&game.ruleset).into()),
                ("opponents", Arg::Text(&opponents)),
            ],
        )
    }
}

/// ` (turn 8)`, or nothing when there are no counters.
fn counted(counters: &str) -> String {
    if counters.is_empty() {
        String::new()
    } else {
        format!(" ({counters})")
    }
}

/// A subject: the title, what, the counters (if any), the tag.
fn subject(lang: Language, game: &Game, what: &str, counters: &str) -> String {
    format!(
        "{}: {what}{} [{}]",
        title(lang, game),
        counted(counters),
        tag(game.id)
    )
}

/// The link to a game's page in the web client.
fn game_link(head: &Letterhead, id: Uuid) -> String {
    format!("{}/#/games/{id}", head.public_url)
}

/// A deadline as its reader reads it, in their time zone `zone` (UTC when
/// it is not one) and language: `Tue 1 Dec 2026, 10:00 UTC`, `Tue 1 Dec
/// 2026, 11:00 CET`; in French `mar. 1 déc. 2026, 11:00 CET` (the
/// abbreviated weekday and month of French usage, the 24-hour clock, the
/// zone's abbreviation as in English).
fn when(lang: Language, rfc3339: &str, zone: &str) -> String {
    use chrono::{Datelike, Timelike};
    let zone = crate::record::clock::zone(zone).unwrap_or(chrono_tz::Tz::UTC);
    DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_owned(),
        |d| {
            let d = d.with_timezone(&zone);
            let weekday = d.weekday().num_days_from_monday();
            words(
                lang,
                "mail-date",
                &[
                    (
                        "weekday",
                        Arg::Text(&w(lang, &format!("mail-weekday-{weekday}"))),
                    ),
                    ("day", Arg::Text(&d.day().to_string())),
                    (
                        "month",
                        Arg::Text(&w(lang, &format!("mail-month-{}", d.month()))),
                    ),
                    ("year", Arg::Text(&d.year().to_string())),
                    (
                        "time",
                        Arg::Text(&format!("{:02}:{:02}", d.hour(), d.minute())),
                    ),
                    ("zone", Arg::Text(&d.format("%Z").to_string())),
                ],
            )
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

    /// What happened since the reader's last move, if anything (`heading`
    /// is a message id).
    fn story(&mut self, seen: &Seen, heading: &str) {
        if seen.story.is_empty() {
            return;
        }
        let lang = self.lang;
        self.heading(&w(
            lang,
            if seen.since_own {
                heading
            } else {
                "mail-so-far"
            },
        ));
        let mut lines: Vec<String> = Vec::new();
        if seen.cut {
            lines.push(w(lang, "mail-earlier-moves"));
        }
        lines.extend(seen.story.iter().map(|l| l.text.clone()));
        self.bullets(&lines);
    }

    /// What was said to the reader since their last turn mail, if anything.
    fn heard(&mut self, heard: &Heard) {
        if heard.messages.is_empty() {
            return;
        }
        let lang = self.lang;
        self.heading(&w(lang, "mail-heard"));
        let mut lines: Vec<String> = Vec::new();
        if heard.more {
            lines.push(w(lang, "mail-earlier-messages"));
        }
        lines.extend(heard.messages.iter().map(|m| {
            let to = if m.room == "press" {
                format!(" {}", w(lang, "mail-to-you"))
            } else {
                String::new()
            };
            format!("{}{to}: {}", m.author_name, m.body)
        }));
        self.bullets(&lines);
    }

    /// The table in prose.
    fn facts(&mut self, game: &Game) {
        let lang = self.lang;
        let facts = render::facts_in(lang, game);
        self.heading(&w(lang, "mail-the-table"));
        self.text
            .push_str(&render::facts_text_in(lang, &game.ruleset, &facts));
        self.text.push('\n');
        self.html
            .push_str(&render::facts_html(lang, &game.ruleset, &facts));
    }

    /// The game as the viewer sees it and, when the game waits for the
    /// viewer, the legal moves, their legend and a reply address at this
    /// version.
    fn table_and_moves(&mut self, head: &Letterhead, user: Uuid, game: &Game) {
        let lang = self.lang;
        self.facts(game);
        let waits = game.my_seat.is_some_and(|seat| game.to_act.contains(&seat));
        if let (true, Some(seat)) = (waits, game.my_seat) {
            self.heading(&w(lang, "mail-your-moves"));
            self.paragraph(&w(lang, "mail-how-to-reply"));
            self.text.push_str(&render::moves(&game.legal_commands));
            self.text.push('\n');
            self.html
                .push_str(&render::moves_html(&game.legal_commands));
            let legend = render::legend(lang, &game.ruleset, &game.legal_commands);
            if !legend.is_empty() {
                self.heading(&w(lang, "mail-move-words"));
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
            self.paragraph(&words(
                lang,
                "mail-now-waits",
                &[("who", Arg::Text(&narration::and_list_in(lang, &waiting)))],
            ));
        }
        self.link(&w(lang, "mail-game-on-the-web"), &game_link(head, game.id));
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
    let lang = language_of(row);
    let counters = seen.counters.words_in(lang, &game.ruleset);
    let mut draft = Draft {
        subject: subject(
            lang,
            game,
            &w(
                lang,
                if reminder {
                    "mail-subject-reminder"
                } else {
                    "mail-subject-your-turn"
                },
            ),
            &counters,
        ),
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    let deadline = row.payload["deadline"].as_str().map_or_else(
        || w(lang, "mail-no-clock"),
        |d| {
            let at = when(lang, d, &row.time_zone);
            let id = if reminder {
                "mail-time-runs-out"
            } else {
                "mail-move-by"
            };
            words(lang, id, &[("when", Arg::Text(&at))])
        },
    );
    draft.paragraph(&words(
        lang,
        "mail-hello-your-turn",
        &[
            ("name", Arg::Text(&row.username)),
            ("title", Arg::Text(&title(lang, game))),
            ("counted", Arg::Text(&counted(&counters))),
        ],
    ));
    draft.paragraph(&deadline);
    draft.story(seen, "mail-since-your-last-move");
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
    let lang = draft.lang;
    draft.paragraph(&w(lang, "mail-unfired"));
    for line in lines {
        let steps: Vec<String> = line
            .as_array()
            .into_iter()
            .flatten()
            .map(|step| {
                let who = match step["seat"].as_u64() {
                    Some(s) if s == u64::from(my_seat) => w(lang, "narration-you"),
                    Some(s) => words(lang, "mail-seat", &[("n", Arg::Text(&(s + 1).to_string()))]),
                    None => "?".to_owned(),
                };
                format!("{who}: {}", step["command"])
            })
            .collect();
        let then = format!(", {} ", w(lang, "narration-top-hats-then"));
        draft.paragraph(&format!("- {}", steps.join(&then)));
    }
}

/// The answer to a move sent by mail: accepted or not, then the game now.
#[must_use]
pub fn reply(head: &Letterhead, row: &Claimed, seen: Option<&Seen>) -> Draft {
    let lang = language_of(row);
    let accepted = Kind::parse(&row.kind) == Some(Kind::MoveAccepted);
    let said = row.payload["move"].as_str().unwrap_or("");
    let what = if accepted {
        words(lang, "mail-subject-accepted", &[("move", said.into())])
    } else {
        w(lang, "mail-subject-not-accepted")
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
            Some(seen) => subject(
                lang,
                &seen.game,
                &what,
                &seen.counters.words_in(lang, &seen.game.ruleset),
            ),
            None => capitalised(&what),
        },
        in_reply_to,
        references,
        lang,
        ..Draft::default()
    };
    if accepted {
        draft.paragraph(&words(lang, "mail-move-played", &[("move", said.into())]));
    } else {
        let why = row.payload["error"]
            .as_str()
            .map_or_else(|| w(lang, "mail-unreadable"), str::to_owned);
        draft.paragraph(&words(lang, "mail-not-played", &[("why", Arg::Text(&why))]));
    }
    if let Some(seen) = seen {
        if seen.game.status == "active" {
            draft.story(seen, "mail-since-your-last-move");
            draft.table_and_moves(head, row.user_id, &seen.game);
        } else {
            draft.link(
                &w(lang, "mail-game-on-the-web"),
                &game_link(head, seen.game.id),
            );
        }
    }
    draft.paragraph(&w(lang, "mail-transactional"));
    draft
}

/// An invitation to a private game.
#[must_use]
pub fn invited(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let lang = language_of(row);
    let mut draft = Draft {
        subject: subject(lang, game, &w(lang, "mail-subject-invited"), ""),
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    let at_table: Vec<String> = game.seats.iter().map(|s| s.username.clone()).collect();
    draft.paragraph(&words(
        lang,
        "mail-hello-invited",
        &[
            ("name", Arg::Text(&row.username)),
            ("players", Arg::Text(&game.players.to_string())),
            ("game", ruleset_name(&game.ruleset).into()),
            ("table", Arg::Text(&narration::and_list_in(lang, &at_table))),
        ],
    ));
    draft.link(&w(lang, "mail-join-or-decline"), &game_link(head, game.id));
    draft
}

/// A substitute took over a seat whose player had left (docs/seats.md): one
/// line to each other player, naming the seat and the substitute.
#[must_use]
pub fn substituted(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let lang = language_of(row);
    let who = row.payload["username"]
        .as_str()
        .map_or_else(|| w(lang, "mail-a-new-player"), str::to_owned);
    // Seats are counted from 1 in mails, as on the page.
    let seat = row.payload["seat"]
        .as_u64()
        .map_or(0, |s| s + 1)
        .to_string();
    let args = [("who", Arg::Text(&who)), ("seat", Arg::Text(&seat))];
    let mut draft = Draft {
        subject: subject(
            lang,
            game,
            &words(lang, "mail-subject-substituted", &args),
            "",
        ),
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&words(
        lang,
        "mail-hello-substituted",
        &[
            ("name", Arg::Text(&row.username)),
            args[0],
            args[1],
            ("title", Arg::Text(&title(lang, game))),
        ],
    ));
    draft.link(&w(lang, "mail-see-the-game"), &game_link(head, game.id));
    draft
}

/// The link to a tournament's page in the web client.
fn tournament_link(head: &Letterhead, id: &str) -> String {
    format!("{}/#/tournaments/{id}", head.public_url)
}

/// A tournament's mail (docs/tournaments.md), from its row's payload:
/// `tournament_round` (the reader's table is ready: the round from 1, the
/// table's game as the reader sees it), `tournament_finished` (their place
/// of the field, their last game) or, `cancelled`, that it did not start.
/// Each links the tournament's page, and the game when there is one.
#[must_use]
pub fn tournament(head: &Letterhead, row: &Claimed, game: Option<&Game>) -> Draft {
    let lang = language_of(row);
    let p = &row.payload;
    let name = p["name"].as_str().unwrap_or("?").to_owned();
    let id = p["tournament_id"].as_str().unwrap_or_default().to_owned();
    let number = |key: &str| p[key].as_i64().unwrap_or(0);
    let round = number("round") + 1;
    let (place, field) = (number("place"), number("field"));
    let table = game.map_or_else(
        || ruleset_name(p["ruleset"].as_str().unwrap_or("?")).to_owned(),
        |g| title(lang, g),
    );
    let args = [
        ("name", Arg::Text(&row.username)),
        ("tournament", Arg::Text(&name)),
        ("round", Arg::Number(round)),
        ("place", Arg::Number(place)),
        ("field", Arg::Number(field)),
        ("title", Arg::Text(&table)),
    ];
    let ready = Kind::parse(&row.kind) == Some(Kind::TournamentRound);
    let (about, hello) = if ready {
        (
            "mail-subject-tournament-round",
            "mail-hello-tournament-round",
        )
    } else if p["cancelled"] == true {
        (
            "mail-subject-tournament-cancelled",
            "mail-hello-tournament-cancelled",
        )
    } else {
        (
            "mail-subject-tournament-finished",
            "mail-hello-tournament-finished",
        )
    };
    let what = words(lang, about, &args);
    let mut draft = Draft {
        subject: match game {
            Some(g) => format!("{what} [{}]", tag(g.id)),
            None => what,
        },
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&words(lang, hello, &args));
    if let Some(g) = game {
        let label = if ready {
            "mail-your-table"
        } else {
            "mail-your-last-game"
        };
        draft.link(&w(lang, label), &game_link(head, g.id));
    }
    draft.link(&w(lang, "mail-the-tournament"), &tournament_link(head, &id));
    draft
}

/// A talk message the reader reads (docs/talk.md): who said it, where, and
/// the text, quoted as plain text; while the game is played, a reply
/// address that says the answer (at the table, or to the author alone when
/// the message was press).
#[must_use]
pub fn talk(head: &Letterhead, row: &Claimed, game: &Game) -> Draft {
    let lang = language_of(row);
    let message = &row.payload["message"];
    let from = message["from"]["username"]
        .as_str()
        .map_or_else(|| w(lang, "mail-someone"), str::to_owned);
    let press = message["room"] == "press";
    let room = w(
        lang,
        if press {
            "mail-to-you"
        } else {
            "mail-at-the-table"
        },
    );
    let mut draft = Draft {
        subject: subject(
            lang,
            game,
            &words(lang, "mail-subject-says", &[("from", Arg::Text(&from))]),
            "",
        ),
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&words(
        lang,
        "mail-hello-talk",
        &[
            ("name", Arg::Text(&row.username)),
            ("from", Arg::Text(&from)),
            ("room", Arg::Text(&room)),
            ("title", Arg::Text(&title(lang, game))),
        ],
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
            draft.paragraph(&w(
                lang,
                if press {
                    "mail-talk-reply-press"
                } else {
                    "mail-talk-reply-table"
                },
            ));
        }
    }
    draft.link(
        &w(lang, "mail-answer-on-the-web"),
        &game_link(head, game.id),
    );
    draft
}

/// How long a finished game lasted, in what players count.
fn length(lang: Language, seen: &Seen) -> String {
    let c = seen.counters;
    let (n, unit) = match seen.game.ruleset.as_str() {
        "goathead" => (c.round, "round"),
        "hat-trick" => (c.round, "deal"),
        _ => (c.turn, "turn"),
    };
    n.map_or_else(String::new, |n| {
        let said = words(
            lang,
            "mail-after",
            &[("n", Arg::Number(i64::from(n))), ("unit", unit.into())],
        );
        format!(" {said}")
    })
}

/// The result in a few words for a subject: `you won`, `bruno won`, `drawn`.
fn outcome(lang: Language, seen: &Seen) -> String {
    let game = &seen.game;
    let Some(result) = &game.result else {
        return w(lang, "mail-subject-game-over");
    };
    let table = render::table_of(game);
    let (winners, count, me) = narration::winners(lang, &table, &result["winners"]);
    if count == 0 || result["outcome"] == "draw" {
        w(lang, "mail-subject-drawn")
    } else {
        words(
            lang,
            "mail-subject-won",
            &[
                ("winners", Arg::Text(&winners)),
                ("count", Arg::Number(count)),
                ("me", Arg::Text(me)),
            ],
        )
    }
}

/// A game over: its result and where to check it.
#[must_use]
pub fn finished(head: &Letterhead, row: &Claimed, seen: &Seen) -> Draft {
    let lang = language_of(row);
    let game = &seen.game;
    let mut draft = Draft {
        subject: subject(lang, game, &outcome(lang, seen), ""),
        unsubscribe: Some(row.kind.clone()),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&words(
        lang,
        "mail-hello-finished",
        &[
            ("name", Arg::Text(&row.username)),
            ("title", Arg::Text(&title(lang, game))),
            (
                "abandoned",
                Arg::Text(if game.status == "abandoned" {
                    "yes"
                } else {
                    "no"
                }),
            ),
            ("length", Arg::Text(&length(lang, seen))),
        ],
    ));
    if let Some(result) = &game.result {
        draft.paragraph(&narration::result_text_in(
            lang,
            result,
            &render::table_of(game),
        ));
    }
    draft.story(seen, "mail-the-last-moves");
    if game.status == "finished" {
        // Rematch (docs/ratings.md): offered, accepted or declined at the table.
        draft.link(&w(lang, "mail-rematch"), &game_link(head, game.id));
    }
    draft.link(
        &w(lang, "mail-audit"),
        &format!("{}/#/audit/{}", head.public_url, game.id),
    );
    draft
}

/// The code that confirms an address.
#[must_use]
pub fn confirm_address(row: &Claimed) -> Draft {
    let lang = language_of(row);
    let code = row.payload["code"].as_str().unwrap_or("");
    let mut draft = Draft {
        subject: words(lang, "mail-subject-confirm", &[("code", code.into())]),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&words(
        lang,
        "mail-hello-confirm",
        &[("name", Arg::Text(&row.username))],
    ));
    draft.preformatted(code);
    draft.text.push('\n');
    draft.paragraph(&w(lang, "mail-confirm-ignore"));
    draft
}

/// One mail for the due lines of a user's digest.
#[must_use]
pub fn digest(head: &Letterhead, rows: &[&Claimed]) -> Draft {
    let lang = rows.first().map_or(Language::En, |row| language_of(row));
    let mut draft = Draft {
        subject: words(
            lang,
            "mail-subject-digest",
            &[(
                "n",
                Arg::Number(i64::try_from(rows.len()).unwrap_or(i64::MAX)),
            )],
        ),
        unsubscribe: Some("digest".into()),
        lang,
        ..Draft::default()
    };
    draft.paragraph(&w(lang, "mail-digest-intro"));
    for row in rows {
        let ruleset = ruleset_name(row.payload["ruleset"].as_str().unwrap_or("?"));
        let game_tag = row.game_id.map(tag).unwrap_or_default();
        let from = row.payload["message"]["from"]["username"]
            .as_str()
            .map_or_else(|| w(lang, "mail-someone"), str::to_owned);
        let newcomer = row.payload["username"]
            .as_str()
            .map_or_else(|| w(lang, "mail-a-new-player"), str::to_owned);
        let seat = row.payload["seat"]
            .as_u64()
            .map_or(0, |s| s + 1)
            .to_string();
        let id = match Kind::parse(&row.kind) {
            Some(Kind::YourTurn) => Some("mail-digest-your-turn"),
            Some(Kind::Invited) => Some("mail-digest-invited"),
            Some(Kind::GameFinished) => Some("mail-digest-finished"),
            Some(Kind::Talk) => Some("mail-digest-talk"),
            Some(Kind::SeatSubstituted) => Some("mail-digest-substituted"),
            Some(Kind::TournamentRound) => Some("mail-digest-tournament-round"),
            Some(Kind::TournamentFinished) if row.payload["cancelled"] == true => {
                Some("mail-digest-tournament-cancelled")
            }
            Some(Kind::TournamentFinished) => Some("mail-digest-tournament-finished"),
            _ => None,
        };
        let tournament = row.payload["name"].as_str().unwrap_or("?");
        let number = |key: &str| row.payload[key].as_i64().unwrap_or(0);
        let what = id.map_or_else(
            || row.kind.clone(),
            |id| {
                words(
                    lang,
                    id,
                    &[
                        ("game", ruleset.into()),
                        ("tag", Arg::Text(&game_tag)),
                        ("from", Arg::Text(&from)),
                        ("name", Arg::Text(&newcomer)),
                        ("seat", Arg::Text(&seat)),
                        ("tournament", Arg::Text(tournament)),
                        ("round", Arg::Number(number("round") + 1)),
                        ("place", Arg::Number(number("place"))),
                        ("field", Arg::Number(number("field"))),
                    ],
                )
            },
        );
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
    use crate::i18n::Language::{En, Fr};

    #[test]
    fn given_a_readers_zone_when_a_deadline_is_written_then_it_is_their_local_time() {
        let deadline = "2026-03-29T18:00:00.000000Z";
        assert_eq!(when(En, deadline, "UTC"), "Sun 29 Mar 2026, 18:00 UTC");
        assert_eq!(
            when(En, deadline, "Europe/Paris"),
            "Sun 29 Mar 2026, 20:00 CEST"
        );
        assert_eq!(
            when(En, "2026-03-28T19:00:00Z", "Europe/Paris"),
            "Sat 28 Mar 2026, 20:00 CET"
        );
        assert_eq!(
            when(En, deadline, "America/New_York"),
            "Sun 29 Mar 2026, 14:00 EDT"
        );
        assert_eq!(
            when(En, deadline, "Nowhere/Land"),
            "Sun 29 Mar 2026, 18:00 UTC"
        );
    }

    #[test]
    fn given_a_french_reader_when_a_deadline_is_written_then_it_is_in_french() {
        assert_eq!(
            when(Fr, "2026-03-29T18:00:00Z", "Europe/Paris"),
            "dim. 29 mars 2026, 20:00 CEST"
        );
        assert_eq!(
            when(Fr, "2026-12-01T09:05:00Z", "UTC"),
            "mar. 1 déc. 2026, 09:05 UTC"
        );
        assert_eq!(
            when(Fr, "2026-08-03T09:05:00Z", "UTC"),
            "lun. 3 août 2026, 09:05 UTC"
        );
    }
}
