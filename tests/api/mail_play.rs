//! Whole games played by mail against real SMTP, read as players read
//! them: the words of every mail (golden texts per ruleset and phase,
//! committed under `tests/api/golden/`), the width of every line, what
//! each seat is told against its own events, no turn lost to another
//! seat's move, and the forgiving and the refused forms of a reply.
//!
//! `HATSTAND_GOLDEN=write cargo test --test api mail_play` rewrites the
//! golden files; review the diff by eye.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};

use crate::mail::{
    Catcher, Caught, confirmed_address, flat, listed_moves, mail_app, mail_in, reply, smtp_in,
};
use crate::play::verified_audit;
use crate::support::{TestApp, User};

/// A game at which every player plays by mail, and every mail received.
struct Table {
    app: TestApp,
    catcher: Catcher,
    listen: SocketAddr,
    id: String,
    users: Vec<User>,
    addresses: Vec<String>,
    /// Every mail received, in order.
    mails: Vec<Caught>,
    replies: usize,
    /// The server's mail key (reply tokens are encrypted with it).
    secret: Vec<u8>,
}

impl Table {
    /// A started game of `ruleset` for `names`, each with a confirmed
    /// address `<name>@mail.test`.
    async fn start(ruleset: &str, names: &[&str], options: Value) -> Table {
        Table::start_in(ruleset, names, options, &[]).await
    }

    /// As [`Table::start`], the players named in `french` having chosen
    /// French (`PATCH /v1/me/settings`), the others no language.
    async fn start_in(ruleset: &str, names: &[&str], options: Value, french: &[&str]) -> Table {
        let catcher = Catcher::start().await;
        let (app, listen) = mail_app(&catcher).await;
        let mut users = Vec::new();
        let mut addresses = Vec::new();
        for name in names {
            let user = app.register(name).await;
            if french.contains(name) {
                app.send(
                    "PATCH",
                    "/v1/me/settings",
                    Some(&user.token),
                    &[],
                    &json!({"language": "fr"}),
                )
                .await
                .ok(200);
            }
            let address = format!("{name}@mail.test");
            confirmed_address(&app, &catcher, &user, &address).await;
            users.push(user);
            addresses.push(address);
        }
        let id = app.started_game(&users, ruleset, options).await;
        let secret = mail_secret(&app).await;
        let mut table = Table {
            app,
            catcher,
            listen,
            id,
            users,
            addresses,
            mails: Vec::new(),
            replies: 0,
            secret,
        };
        table.settle().await;
        table
    }

    /// Waits until every mail due has gone out, and collects them.
    async fn settle(&mut self) {
        self.app
            .eventually(30, || async {
                (self
                    .app
                    .count(
                        "mail_outbox WHERE state = 'pending' AND (due_at <= now() OR attempts > 0)",
                    )
                    .await
                    == 0)
                    .then_some(())
            })
            .await;
        while let Some(mail) = self.catcher.quiet_for(Duration::from_millis(100)).await {
            self.mails.push(mail);
        }
    }

    fn to(&self, seat: usize) -> impl Iterator<Item = &Caught> {
        let address = self.addresses[seat].clone();
        self.mails.iter().filter(move |m| m.to.contains(&address))
    }

    /// The latest mail to `seat` that asks for a move.
    fn latest_turn_mail(&self, seat: usize) -> Option<Caught> {
        self.to(seat)
            .filter(|m| m.reply_to().is_some())
            .last()
            .cloned()
    }

    async fn game(&self, seat: Option<usize>) -> Value {
        self.app.game(&self.id, seat.map(|s| &self.users[s])).await
    }

    /// `seat` answers `mail` with `body` (the text before the quote) by
    /// SMTP or by `mail-in`, in turn; then every mail it causes is collected.
    async fn answer(&mut self, seat: usize, mail: &Caught, body: &str) {
        self.replies += 1;
        let to = mail.reply_to().expect("a reply address");
        let raw = reply(
            &self.addresses[seat],
            &to,
            &format!("reply-{}@mail.test", self.replies),
            mail,
            body,
        );
        if self.replies.is_multiple_of(2) {
            mail_in(&self.app, &raw).await;
        } else {
            smtp_in(self.listen, &self.addresses[seat], &to, &raw)
                .await
                .unwrap();
        }
        self.settle().await;
    }

    /// The answer to the last reply.
    fn last_answer(&self, seat: usize) -> Caught {
        let id = format!("<reply-{}@mail.test>", self.replies);
        self.to(seat)
            .filter(|m| m.header("In-Reply-To").as_deref() == Some(id.as_str()))
            .last()
            .cloned()
            .unwrap_or_else(|| panic!("no answer to {id}"))
    }
}

/// Every line of a mail's text part is at most 78 characters, but a link
/// standing alone.
fn assert_width(mail: &Caught) {
    for line in mail.text().lines() {
        assert!(
            line.chars().count() <= 78 || (line.starts_with("http") && !line.contains(' ')),
            "a line of {} characters in \"{}\":\n{line}",
            line.chars().count(),
            mail.subject()
        );
    }
}

/// A mail's text with what changes from run to run replaced: the game id
/// and tag, deadlines.
fn normalised(table: &Table, mail: &Caught) -> String {
    let tag = &table.id[..4];
    let mut text = format!("Subject: {}\n\n{}", mail.subject(), mail.text())
        .replace(&table.id, "<game>")
        .replace(&format!("[{tag}]"), "[tag]");
    for phrase in [
        "Move by ",
        "runs out on ",
        "Jouez avant le ",
        "s’écoule le ",
    ] {
        while let Some(at) = text.find(phrase) {
            let from = at + phrase.len();
            let end = text[from..].find("UTC").map_or(from, |e| from + e + 3);
            text.replace_range(at..end, &format!("{}<deadline>", phrase.trim_end()));
        }
    }
    text.replace("by<deadline>", "by <deadline>")
        .replace("on<deadline>", "on <deadline>")
        .replace("le<deadline>", "le <deadline>")
}

/// Compares `text` with the golden file `name` (or writes it).
fn golden(name: &str, text: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/api/golden")
        .join(format!("{name}.txt"));
    if std::env::var("HATSTAND_GOLDEN").as_deref() == Ok("write") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no golden file {}: write it with HATSTAND_GOLDEN=write",
            path.display()
        )
    });
    assert_eq!(
        text,
        want,
        "the mail differs from {} (HATSTAND_GOLDEN=write rewrites it)",
        path.display()
    );
}

/// Plays a whole game by mail, each seat answering its latest turn mail
/// with the first listed move, until it ends; every answer is accepted.
/// `late_building`: in Top Hats' building phase each seat answers its
/// mail only after the other seat moved (that mail's version is old).
async fn play_out(table: &mut Table, late_building: bool) {
    let mut moves = 0;
    loop {
        let game = table.game(None).await;
        if game["status"] != "active" {
            break;
        }
        let to_act: Vec<usize> = game["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        let seat = to_act[moves % to_act.len()];
        let mail = table
            .latest_turn_mail(seat)
            .unwrap_or_else(|| panic!("no turn mail for seat {seat} after {moves} moves"));
        if late_building && to_act.len() > 1 {
            let shown = crate::mail_play::token_version(&mail, &table.secret);
            assert!(
                moves < 2 || shown < game["version"].as_i64().unwrap(),
                "the building replies are late"
            );
        }
        let listed = listed_moves(&mail.text());
        let mine = table.game(Some(seat)).await;
        assert_eq!(
            listed.len(),
            mine["legal_commands"].as_array().unwrap().len(),
            "{}",
            mail.text()
        );
        table.answer(seat, &mail, "1").await;
        let answer = table.last_answer(seat);
        assert!(
            answer.subject().contains(": accepted, ") || answer.subject().contains(": accepté, "),
            "move {moves} of seat {seat} was not played: {}\n{}",
            answer.subject(),
            answer.text()
        );
        moves += 1;
        assert!(moves < 600, "the game does not end");
    }
    for mail in &table.mails {
        assert_width(mail);
    }
}

/// The version a mail's reply address holds.
fn token_version(mail: &Caught, secret: &[u8]) -> i64 {
    let to = mail.reply_to().unwrap();
    let token = hatstand::mail::token::token_in(&to).unwrap();
    let (token, _, _) = hatstand::mail::token::ReplyToken::decode(token, secret).unwrap();
    i64::from(token.version)
}

/// The server's mail key, as stored.
async fn mail_secret(app: &TestApp) -> Vec<u8> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        value: String,
    }
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let row: Row = diesel::sql_query("SELECT value FROM server_secrets WHERE name = 'mail'")
        .get_result(&mut conn)
        .await
        .unwrap();
    hex::decode(row.value).unwrap()
}

#[actix_web::test]
async fn a_game_of_top_hats_by_mail_loses_no_turn_to_the_other_seats_building() {
    // Given two players building at once, each answering a turn mail only
    // after the other has moved …
    let mut table = Table::start(
        "top-hats",
        &["ada", "bruno"],
        json!({"seed": "late-builders", "quiet_turn_limit": 12}),
    )
    .await;
    assert_eq!(table.game(None).await["to_act"], json!([0, 1]));
    // … when the whole game is played by mail …
    play_out(&mut table, true).await;
    // … then every reply was played (checked in `play_out`), the game is
    // over, its record verifies, and nobody was told a move went stale.
    assert_eq!(table.game(None).await["status"], "finished");
    assert!(
        table
            .mails
            .iter()
            .all(|m| !flat(&m.text()).contains("moved on")),
        "a reply was refused as stale"
    );
    for seat in 0..2 {
        assert_told_from_own_events(&table, seat).await;
    }
    assert_drawn(&table);
    verified_audit(&table.app, &table.id).await;
}

/// What each seat is told is what its own events say: every line of every
/// turn mail's story is a line the narration makes of that seat's events
/// as the API gives them (from some event on), never with a seat number.
async fn assert_told_from_own_events(table: &Table, seat: usize) {
    let page = table
        .app
        .get(
            &format!("/v1/games/{}/events?after=0&limit=1000", table.id),
            Some(&table.users[seat].token),
        )
        .await
        .ok(200);
    let events: Vec<hatstand::games::events::EventOut> =
        serde_json::from_value(page["events"].clone()).unwrap();
    let game = table.game(Some(seat)).await;
    let names: Vec<String> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["username"].as_str().unwrap().to_owned())
        .collect();
    let reader = hatstand::games::narration::Table {
        names,
        me: Some(seat as u8),
    };
    let ruleset = game["ruleset"].as_str().unwrap();
    // Every line the seat's events can be told as, from any event on.
    let mut told = std::collections::HashSet::new();
    for start in 0..events.len() {
        for line in hatstand::games::narration::narrate(ruleset, &reader, &events[start..]) {
            told.insert(flat(&line.text));
        }
    }
    let mut checked = 0;
    for mail in table.to(seat).filter(|m| m.subject().contains("your turn")) {
        let text = mail.text();
        let Some(start) = text
            .find("Since your last move:")
            .or_else(|| text.find("So far:"))
        else {
            continue;
        };
        let section = &text[start..text[start..].find("\n\n").map_or(text.len(), |e| start + e)];
        for bullet in section.split("\n- ").skip(1).map(flat) {
            assert!(!bullet.contains("seat "), "a seat number: {bullet}");
            if bullet.starts_with("(Earlier") || bullet.contains("the trick goes on") {
                continue;
            }
            assert!(
                told.contains(&bullet),
                "\"{bullet}\" is not told from the seat's own events"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no story was checked");
}

/// The HTML part of every mail says the same with cards and the board
/// drawn, and loads nothing from elsewhere.
fn assert_drawn(table: &Table) {
    for mail in &table.mails {
        let html = mail.parsed().body_html(0).unwrap_or_default().into_owned();
        assert!(!html.contains("<img") && !html.contains("src="), "{html}");
        let text = mail.text();
        if text.contains("Your hand:") {
            assert!(
                html.contains("<span title=\"the ") || html.contains("<td>no cards</td>"),
                "cards drawn: {html}"
            );
        }
        if text.contains("    a  b  c  d  e  f  g") {
            assert!(html.contains("<td colspan=\"2\"><table"), "a board: {html}");
        }
        if text.contains("Your moves:") {
            assert!(html.contains("Your moves:"), "{html}");
        }
    }
}

async fn goldens_of(ruleset: &str, names: &[&str], options: Value) {
    let mut table = Table::start(ruleset, names, options).await;
    let r = ruleset.replace('-', "_");
    // The first turn mail of the first seat to act, and its reminder
    // (due now instead of when a quarter of the turn is left).
    let first = table.game(None).await["to_act"][0].as_u64().unwrap() as usize;
    let turn = table.latest_turn_mail(first).unwrap();
    golden(&format!("{r}/turn"), &normalised(&table, &turn));
    table
        .app
        .sql("UPDATE mail_outbox SET due_at = now() WHERE kind = 'reminder' AND state = 'pending'")
        .await;
    table.settle().await;
    let reminder = table
        .to(first)
        .find(|m| m.subject().contains("reminder"))
        .cloned()
        .expect("a reminder");
    golden(&format!("{r}/reminder"), &normalised(&table, &reminder));
    assert!(reminder.header("List-Unsubscribe").is_some());
    // A doubtful reply: not played, the moves it could mean listed.
    let events = table.app.count("events").await;
    let game = table.game(Some(first)).await;
    let word = game["legal_commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c.as_object().unwrap().len() > 1)
        .map(|c| c["type"].as_str().unwrap().replace('_', " "))
        .unwrap();
    table
        .answer(first, &turn, &format!("Hi,\n\n{word}\n\nada"))
        .await;
    assert_eq!(table.app.count("events").await, events, "nothing played");
    let refused = table.last_answer(first);
    assert!(refused.subject().contains(": not accepted"));
    assert!(
        refused.header("List-Unsubscribe").is_none(),
        "an answer is transactional"
    );
    golden(&format!("{r}/refused"), &normalised(&table, &refused));
    // The game, played out; the first accepted answer and the game over.
    play_out(&mut table, false).await;
    let accepted = table
        .to(first)
        .find(|m| m.subject().contains(": accepted, "))
        .cloned()
        .unwrap();
    golden(&format!("{r}/answer"), &normalised(&table, &accepted));
    assert_told_from_own_events(&table, first).await;
    assert_drawn(&table);
    let over = table
        .to(first)
        .find(|m| m.subject().contains(": game over"))
        .cloned()
        .expect("a game over mail");
    assert!(over.header("List-Unsubscribe").is_some());
    golden(&format!("{r}/game_over"), &normalised(&table, &over));
    // A reply after the end: the game is over, with its result.
    table.answer(first, &turn, "1").await;
    let late = table.last_answer(first);
    assert!(
        flat(&late.text()).contains("the game is over."),
        "{}",
        late.text()
    );
    golden(&format!("{r}/after_the_end"), &normalised(&table, &late));
    verified_audit(&table.app, &table.id).await;
}

#[actix_web::test]
async fn golden_mails_of_hats() {
    goldens_of(
        "hats",
        &["ada", "bruno"],
        json!({"seed": "golden-hats", "turn_timeout": "P7D"}),
    )
    .await;
}

#[actix_web::test]
async fn golden_mails_of_goathead() {
    goldens_of(
        "goathead",
        &["ada", "bruno", "cyd"],
        json!({"seed": "golden-goathead", "rounds": 1, "turn_timeout": "P7D"}),
    )
    .await;
}

#[actix_web::test]
async fn golden_mails_of_hat_trick() {
    goldens_of(
        "hat-trick",
        &["ada", "bruno"],
        json!({"seed": "golden-hat-trick", "rounds": 1, "turn_timeout": "P7D"}),
    )
    .await;
}

#[actix_web::test]
async fn golden_mails_of_top_hats() {
    goldens_of(
        "top-hats",
        &["ada", "bruno"],
        json!({"seed": "golden-top-hats", "quiet_turn_limit": 8, "turn_timeout": "P7D"}),
    )
    .await;
}

/// A game played by mail where the players named in `french` chose
/// French and the others chose no language: the first seat to act (one of
/// `french`) gets its first turn mail and its game over in French (the
/// golden files `<ruleset>/turn.fr` and `game_over.fr`), every reply code
/// and move word as in English, and a player with no setting gets every
/// mail in English.
async fn french_goldens_of(ruleset: &str, names: &[&str], options: Value, french: &[&str]) {
    let mut table = Table::start_in(ruleset, names, options, french).await;
    let r = ruleset.replace('-', "_");
    let first = table.game(None).await["to_act"][0].as_u64().unwrap() as usize;
    assert!(
        french.contains(&names[first]),
        "the first to act reads French"
    );
    let turn = table.latest_turn_mail(first).unwrap();
    assert!(
        turn.subject().contains(": à vous de jouer"),
        "{}",
        turn.subject()
    );
    golden(&format!("{r}/turn.fr"), &normalised(&table, &turn));
    play_out(&mut table, false).await;
    let over = table
        .to(first)
        .find(|m| m.subject().contains(": partie terminée"))
        .cloned()
        .expect("a game over mail in French");
    golden(&format!("{r}/game_over.fr"), &normalised(&table, &over));
    // The same words as the English mails' for a reader with no setting.
    let english = (0..names.len())
        .find(|&s| !french.contains(&names[s]))
        .expect("a player with no setting");
    let theirs: Vec<&Caught> = table.to(english).collect();
    assert!(
        theirs.iter().any(|m| m.subject().contains(": game over")),
        "an English game over"
    );
    for mail in theirs {
        let text = mail.text();
        assert!(
            text.starts_with("Hello ") || text.starts_with("Your move "),
            "{text}"
        );
        for french_word in ["Bonjour", "à vous", "Vos coups", "La table", "partie"] {
            assert!(!text.contains(french_word), "French in English: {text}");
        }
    }
}

#[actix_web::test]
async fn french_mails_of_hats() {
    french_goldens_of(
        "hats",
        &["ada", "bruno"],
        json!({"seed": "golden-hats", "turn_timeout": "P7D"}),
        &["ada"],
    )
    .await;
}

#[actix_web::test]
async fn french_mails_of_goathead() {
    french_goldens_of(
        "goathead",
        &["ada", "bruno", "cyd"],
        json!({"seed": "golden-goathead", "rounds": 1, "turn_timeout": "P7D"}),
        &["bruno"],
    )
    .await;
}

#[actix_web::test]
async fn french_mails_of_hat_trick() {
    french_goldens_of(
        "hat-trick",
        &["ada", "bruno"],
        json!({"seed": "golden-hat-trick", "rounds": 1, "turn_timeout": "P7D"}),
        &["bruno"],
    )
    .await;
}

#[actix_web::test]
async fn french_mails_of_top_hats() {
    french_goldens_of(
        "top-hats",
        &["ada", "bruno"],
        json!({"seed": "golden-top-hats", "quiet_turn_limit": 8, "turn_timeout": "P7D"}),
        &["ada"],
    )
    .await;
}

#[actix_web::test]
async fn replies_are_read_forgivingly_but_never_on_a_doubtful_read() {
    // Given a game of Hats by mail …
    let mut table = Table::start("hats", &["ada", "bruno"], json!({"seed": "forgiving"})).await;
    let seat = table.game(None).await["to_act"][0].as_u64().unwrap() as usize;
    let turn = table.latest_turn_mail(seat).unwrap();
    let game = table.game(Some(seat)).await;
    let legal = game["legal_commands"].as_array().unwrap().clone();
    // … words that fit several moves are refused with the candidates …
    let events = table.app.count("events").await;
    let exchange = legal
        .iter()
        .find(|c| c["type"] == "exchange")
        .expect("an exchange");
    let card = exchange["card"].as_str().unwrap();
    let several = legal
        .iter()
        .filter(|c| c["type"] == "exchange" && c["card"] == card)
        .count();
    table.answer(seat, &turn, &format!("exchange {card}")).await;
    let refused = flat(&table.last_answer(seat).text());
    assert_eq!(table.app.count("events").await, events);
    if several > 1 {
        assert!(refused.contains("could mean"), "{refused}");
    }
    // … as are a code and words naming different moves (a reply address
    // is answered once a turn: the player answers the refusal, which
    // carries a new one) …
    let refusal = table.latest_turn_mail(seat).unwrap();
    table
        .answer(
            seat,
            &refusal,
            &format!("1 {}", hatstand::mail::moves::written(&legal[1])),
        )
        .await;
    let refused = flat(&table.last_answer(seat).text());
    assert!(refused.contains("name different moves"), "{refused}");
    assert_eq!(table.app.count("events").await, events);
    // … and a greeting, then the code written `#2`, is played.
    let refusal = table.latest_turn_mail(seat).unwrap();
    table
        .answer(seat, &refusal, "Hello bruno,\n\n#2\n\nCheers")
        .await;
    let accepted = table.last_answer(seat);
    assert!(
        accepted.subject().contains(&format!(
            ": accepted, {}",
            hatstand::mail::moves::written(&legal[1])
        )),
        "{}",
        accepted.subject()
    );
    // The answer threads under the mail it answers.
    let references = accepted.header("References").unwrap_or_default();
    assert!(
        references.contains(&refusal.header("Message-ID").unwrap()),
        "{references}"
    );
    // A second reply to the same turn mail says which move was played.
    table.answer(seat, &turn, "2.").await;
    let again = flat(&table.last_answer(seat).text());
    assert!(
        again.contains(&format!(
            "that turn was already played: your move was \"{}\"",
            hatstand::mail::moves::written(&legal[1])
        )),
        "{again}"
    );
}
