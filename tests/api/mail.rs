//! Play by email against real SMTP: the server sends to an SMTP listener the
//! test runs on loopback, the test reads the mails as a player's mail client
//! would (parsed, not pattern-matched on the wire) and replies through
//! `hatstand mail-in` (the real binary, as an MTA's pipe runs it) and
//! through the server's own `--smtp-listen`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use mail_parser::MessageParser;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc};

use crate::play::verified_audit;
use crate::support::{TestApp, User};

/// What the SMTP listener says of every mail it does not act on.
const NOT_ACCEPTED: &str = "this mail was not accepted";

/// A mail the catcher received: its envelope recipients and its bytes.
#[derive(Debug, Clone)]
pub(crate) struct Caught {
    pub(crate) to: Vec<String>,
    pub(crate) raw: Vec<u8>,
}

impl Caught {
    pub(crate) fn parsed(&self) -> mail_parser::Message<'_> {
        MessageParser::default().parse(&self.raw).expect("a mail")
    }

    pub(crate) fn subject(&self) -> String {
        self.parsed().subject().unwrap_or_default().to_owned()
    }

    pub(crate) fn text(&self) -> String {
        self.parsed()
            .body_text(0)
            .unwrap_or_default()
            .replace("\r\n", "\n")
    }

    pub(crate) fn header(&self, name: &str) -> Option<String> {
        self.parsed().header_raw(name).map(|v| v.trim().to_owned())
    }

    pub(crate) fn reply_to(&self) -> Option<String> {
        self.parsed()
            .reply_to()
            .and_then(|r| r.first())
            .and_then(|a| a.address.as_deref())
            .map(str::to_owned)
    }
}

/// The transaction in progress: its recipients, its bytes so far, and the
/// mail just finished.
type Transaction = (Vec<String>, Vec<u8>, Option<Caught>);

#[derive(Clone, Default)]
struct Handler(Arc<std::sync::Mutex<Transaction>>);

impl mailin::Handler for Handler {
    fn data_start(&mut self, _: &str, _: &str, _: bool, to: &[String]) -> mailin::Response {
        let mut state = self.0.lock().unwrap();
        state.0 = to.to_vec();
        state.1.clear();
        mailin::response::OK
    }
    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.lock().unwrap().1.extend_from_slice(buf);
        Ok(())
    }
    fn data_end(&mut self) -> mailin::Response {
        let mut state = self.0.lock().unwrap();
        let caught = Caught {
            to: std::mem::take(&mut state.0),
            raw: std::mem::take(&mut state.1),
        };
        state.2 = Some(caught);
        mailin::response::OK
    }
}

/// A real SMTP server on loopback that keeps every mail it is sent.
pub(crate) struct Catcher {
    address: SocketAddr,
    mails: Mutex<mpsc::UnboundedReceiver<Caught>>,
}

impl Catcher {
    pub(crate) async fn start() -> Catcher {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let (stream, peer) = listener.accept().await.unwrap();
                let tx = tx.clone();
                tokio::spawn(async move {
                    let handler = Handler::default();
                    let mut session =
                        mailin::SessionBuilder::new("catcher").build(peer.ip(), handler.clone());
                    let (read, mut write) = stream.into_split();
                    let mut read = BufReader::new(read);
                    write
                        .write_all(&session.greeting().buffer().unwrap())
                        .await
                        .unwrap();
                    let mut line = Vec::new();
                    loop {
                        line.clear();
                        if read.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
                            return;
                        }
                        let response = session.process(&line);
                        if let Some(caught) = handler.0.lock().unwrap().2.take() {
                            let _ = tx.send(caught);
                        }
                        match response.action {
                            mailin::Action::NoReply => {}
                            mailin::Action::Reply => {
                                write.write_all(&response.buffer().unwrap()).await.unwrap();
                            }
                            _ => {
                                let _ = write.write_all(&response.buffer().unwrap()).await;
                                return;
                            }
                        }
                    }
                });
            }
        });
        Catcher {
            address,
            mails: Mutex::new(rx),
        }
    }

    /// The next mail to `address` (mails to others are kept for later).
    pub(crate) async fn next_to(&self, address: &str, kept: &mut Vec<Caught>) -> Caught {
        if let Some(i) = kept.iter().position(|m| m.to.iter().any(|t| t == address)) {
            return kept.remove(i);
        }
        let mut mails = self.mails.lock().await;
        loop {
            let caught = tokio::time::timeout(Duration::from_secs(30), mails.recv())
                .await
                .unwrap_or_else(|_| panic!("no mail to {address} within 30 s"))
                .unwrap();
            if caught.to.iter().any(|t| t == address) {
                return caught;
            }
            kept.push(caught);
        }
    }

    /// Whether any mail arrives within `wait`.
    pub(crate) async fn quiet_for(&self, wait: Duration) -> Option<Caught> {
        let mut mails = self.mails.lock().await;
        tokio::time::timeout(wait, mails.recv())
            .await
            .ok()
            .flatten()
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A server mailing through `catcher`, receiving replies on its own SMTP port.
pub(crate) async fn mail_app(catcher: &Catcher) -> (TestApp, SocketAddr) {
    let listen: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let smtp = format!("smtp://{}", catcher.address);
    let app = TestApp::spawn_with(|s| {
        s.mail.smtp_url = Some(smtp);
        s.mail.smtp_listen = Some(listen);
        s.mail.mail_domain = "play.test".into();
        s.mail.mail_from = "hatstand <hatstand@play.test>".into();
        s.mail.public_url = "http://hatstand.test".into();
    })
    .await;
    (app, listen)
}

/// `user`'s address, set and confirmed with the code mailed to it.
pub(crate) async fn confirmed_address(
    app: &TestApp,
    catcher: &Catcher,
    user: &User,
    address: &str,
) {
    let set = app
        .send(
            "PUT",
            "/v1/me/email",
            Some(&user.token),
            &[],
            &json!({"address": address}),
        )
        .await
        .ok(200);
    assert_eq!(set["confirmed"], false);
    // A second code within the minute is refused.
    app.send(
        "PUT",
        "/v1/me/email",
        Some(&user.token),
        &[],
        &json!({"address": address}),
    )
    .await
    .assert_problem(429, "rate_limited");
    let mail = catcher.next_to(address, &mut Vec::new()).await;
    let subject = mail.subject();
    let code = subject.rsplit(' ').next().unwrap().to_owned();
    assert_eq!(code.len(), 8, "{subject}");
    let wrong = app
        .post(
            "/v1/me/email/confirm",
            Some(&user.token),
            &json!({"code": "00000000x"}),
        )
        .await;
    wrong.assert_problem(403, "wrong_code");
    let confirmed = app
        .post(
            "/v1/me/email/confirm",
            Some(&user.token),
            &json!({"code": code}),
        )
        .await
        .ok(200);
    assert_eq!(confirmed["confirmed"], true);
}

/// Two players, each with a confirmed address of `addresses`.
async fn players_with_addresses(
    app: &TestApp,
    catcher: &Catcher,
    addresses: &[&str; 2],
) -> Vec<User> {
    let users = app.users(2).await;
    for (user, address) in users.iter().zip(addresses) {
        confirmed_address(app, catcher, user, address).await;
    }
    users
}

/// A reply as a mail client writes it: the move on the first line, the
/// mail it answers quoted below.
pub(crate) fn reply(
    from: &str,
    to: &str,
    message_id: &str,
    answering: &Caught,
    first_line: &str,
) -> Vec<u8> {
    let quoted: String = answering
        .text()
        .lines()
        .map(|l| format!("> {l}\r\n"))
        .collect();
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: {}\r\nMessage-ID: <{message_id}>\r\n\
         In-Reply-To: {}\r\nDate: Wed, 25 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{first_line}\r\n\r\nOn Wed, hatstand wrote:\r\n{quoted}",
        answering.subject(),
        answering.header("Message-ID").unwrap_or_default(),
    )
    .into_bytes()
}

/// Delivers `raw` through `hatstand mail-in`; returns what it printed.
pub(crate) async fn mail_in(app: &TestApp, raw: &[u8]) -> String {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_hatstand"))
        .arg("mail-in")
        .env("DATABASE_URL", &app.db.url)
        .env("RUST_LOG", "off")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(raw).await.unwrap();
    let out = child.wait_with_output().await.unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "mail-in failed: {text}");
    text
}

/// Delivers `raw` to the server's SMTP listener; the listener's answer.
pub(crate) async fn smtp_in(
    listen: SocketAddr,
    from: &str,
    to: &str,
    raw: &[u8],
) -> Result<(), String> {
    let transport =
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(listen.ip().to_string())
            .port(listen.port())
            .build();
    let envelope = Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()]).unwrap();
    transport
        .send_raw(&envelope, raw)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `text` with every run of white space as one space (mail text is wrapped).
pub(crate) fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The moves a turn mail lists: `(code, written out)`, from the lines of
/// its "Your moves:" section (one move a line, `  12  play H5`, or a group:
/// a heading `exchange H5 POSITION:` and items `  3) 1   4) 3`).
pub(crate) fn listed_moves(text: &str) -> Vec<(String, String)> {
    let Some(start) = text
        .find("Your moves:")
        .or_else(|| text.find("Vos coups :"))
    else {
        return Vec::new();
    };
    let section = &text[start..];
    let end = section
        .find("Move words:")
        .or_else(|| section.find("Les mots des coups :"))
        .unwrap_or(section.len());
    let section = &section[..end];
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    for line in section.lines().skip(1) {
        let trimmed = line.trim();
        if let Some((code, rest)) = trimmed.split_once("  ")
            && code.parse::<usize>().is_ok()
        {
            out.push((code.to_owned(), rest.trim().to_owned()));
            continue;
        }
        if let Some(h) = trimmed.strip_suffix(':') {
            heading = Some(h.to_owned());
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let mut i = 0;
        while i + 1 < words.len() {
            if let Some(code) = words[i].strip_suffix(')')
                && code.parse::<usize>().is_ok()
                && let Some(h) = &heading
            {
                let written: Vec<&str> = h
                    .split(' ')
                    .map(|w| {
                        if w.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                            words[i + 1]
                        } else {
                            w
                        }
                    })
                    .collect();
                out.push((code.to_owned(), written.join(" ")));
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    out.sort_by_key(|(code, _)| code.parse::<usize>().unwrap_or(0));
    out
}

#[actix_web::test]
async fn a_whole_game_of_hats_is_played_by_mail_only() {
    let catcher = Catcher::start().await;
    let (app, listen) = mail_app(&catcher).await;
    let addresses = ["ada@mail.test", "bo@mail.test"];
    let users = players_with_addresses(&app, &catcher, &addresses).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let mut kept = Vec::new();
    let mut moves = 0;
    let mut finished = [false, false];
    // Who acts gets the one mail with a reply address: a turn mail, or the
    // answer to their own move when they act again.
    let mut next: Option<(usize, Caught)> = None;
    while finished != [true, true] {
        let Some((seat, mail)) = next.take() else {
            // Wait for whichever mail comes next.
            let mut found = None;
            for _ in 0..200 {
                if let Some(i) = kept.iter().position(|m: &Caught| {
                    m.reply_to().is_some() || m.subject().contains(": game over")
                }) {
                    found = Some(kept.remove(i));
                    break;
                }
                match catcher.quiet_for(Duration::from_secs(30)).await {
                    Some(m) => kept.push(m),
                    None => panic!("no mail within 30 s after {moves} moves"),
                }
            }
            let mail = found.expect("a mail");
            let seat = addresses
                .iter()
                .position(|a| mail.to.iter().any(|t| t == a))
                .unwrap();
            if mail.subject().contains(": game over") {
                assert!(
                    mail.text().contains(" won.") || mail.text().contains("drawn"),
                    "{}",
                    mail.text()
                );
                assert!(
                    mail.text()
                        .contains(&format!("http://hatstand.test/#/audit/{id}"))
                );
                assert!(mail.header("List-Unsubscribe").is_some());
                finished[seat] = true;
                continue;
            }
            next = Some((seat, mail));
            continue;
        };
        // A turn mail: what the seat sees, never the other hand.
        let text = mail.text();
        let game = app.game(&id, Some(&users[seat])).await;
        let hand = game["view"]["hand"].as_array().unwrap();
        for card in hand {
            assert!(text.contains(card.as_str().unwrap()), "{text}");
        }
        let other = app.game(&id, Some(&users[1 - seat])).await;
        let theirs: Vec<&str> = other["view"]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let hand_line = text.lines().find(|l| l.starts_with("Your hand:")).unwrap();
        for card in &theirs {
            if !hand.iter().any(|c| c == card) {
                assert!(!hand_line.contains(card), "{hand_line}");
            }
        }
        let listed = listed_moves(&text);
        assert_eq!(
            listed.len(),
            game["legal_commands"].as_array().unwrap().len(),
            "{text}"
        );
        let reply_to = mail.reply_to().unwrap();
        assert!(reply_to.starts_with("play+") && reply_to.ends_with("@play.test"));
        assert_eq!(
            mail.header("Auto-Submitted").as_deref(),
            Some("auto-generated")
        );
        // Alternate: the code or the move written out; mail-in or SMTP.
        let (code, written) = &listed[moves % listed.len()];
        let line = if moves % 3 == 2 {
            written.to_lowercase()
        } else {
            code.clone()
        };
        let raw = reply(
            addresses[seat],
            &reply_to,
            &format!("move-{moves}@mail.test"),
            &mail,
            &line,
        );
        let before = game["version"].as_i64().unwrap();
        if moves % 2 == 0 {
            let said = mail_in(&app, &raw).await;
            assert!(said.contains("played in game"), "{said}");
            if moves == 4 {
                // The same mail delivered again moves nothing.
                let again = mail_in(&app, &raw).await;
                assert!(
                    again.contains("ignored: this mail has moved already"),
                    "{again}"
                );
            }
        } else {
            smtp_in(listen, addresses[seat], &reply_to, &raw)
                .await
                .unwrap();
        }
        let after = app.game(&id, Some(&users[seat])).await;
        // A move may bring events of its own (a card drawn): the version
        // moves on by one or more.
        assert!(
            after["version"].as_i64().unwrap() > before,
            "the mail moved"
        );
        moves += 1;
        // The answer to the move (a game-over mail may come first).
        let mut other = Vec::new();
        let answer = loop {
            let mail = catcher.next_to(addresses[seat], &mut kept).await;
            if mail.subject().contains(": accepted, ") {
                break mail;
            }
            other.push(mail);
        };
        kept.extend(other);
        assert_eq!(
            answer.header("In-Reply-To").unwrap(),
            format!("<move-{}@mail.test>", moves - 1)
        );
        if answer.reply_to().is_some() {
            next = Some((seat, answer));
        }
        assert!(moves < 400, "the game does not end");
    }
    let game = app.game(&id, None).await;
    assert_eq!(game["status"], "finished");
    verified_audit(&app, &id).await;
    assert!(moves >= 10, "{moves} moves");
    eprintln!("a game of Hats played by mail in {moves} moves");
}

#[actix_web::test]
async fn mail_that_is_not_a_valid_move_is_refused_and_writes_nothing() {
    let catcher = Catcher::start().await;
    let (app, listen) = mail_app(&catcher).await;
    let addresses = ["cy@mail.test", "di@mail.test"];
    let users = players_with_addresses(&app, &catcher, &addresses).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let other_game = app.started_game(&users, "hats", json!({})).await;
    let game = app.game(&id, None).await;
    let seat = game["to_act"][0].as_u64().unwrap() as usize;
    let mut kept = Vec::new();
    let turn = loop {
        let mail = catcher.next_to(addresses[seat], &mut kept).await;
        if mail.reply_to().is_some() && mail.text().contains(&format!("/#/games/{id}")) {
            break mail;
        }
    };
    let reply_to = turn.reply_to().unwrap();
    let (from, to) = (addresses[seat], reply_to.as_str());
    let events = app.count("events").await;
    let outbox = app.count("mail_outbox").await;
    let nothing_written = || async {
        assert_eq!(app.count("events").await, events);
        assert_eq!(app.count("mail_outbox").await, outbox);
    };

    // A forged token (one character changed).
    let token = reply_to
        .trim_start_matches("play+")
        .split('@')
        .next()
        .unwrap()
        .to_owned();
    let mut forged = token.clone().into_bytes();
    forged[3] = if forged[3] == b'a' { b'b' } else { b'a' };
    let forged_to = format!("play+{}@play.test", String::from_utf8(forged).unwrap());
    let raw = reply(from, &forged_to, "forged@mail.test", &turn, "1");
    let refused = smtp_in(listen, from, &forged_to, &raw).await.unwrap_err();
    // Every refusal says the same; `mail-in` (the operator's) says why.
    assert!(refused.contains(NOT_ACCEPTED), "{refused}");
    assert!(mail_in(&app, &raw).await.contains("signature"));
    nothing_written().await;

    // The token of this game with another game's id where it would be in
    // the clear (it is encrypted: nothing reads there).
    let mut bytes = data_encoding::BASE32_NOPAD
        .decode(token.to_ascii_uppercase().as_bytes())
        .unwrap();
    bytes[..16].copy_from_slice(uuid::Uuid::parse_str(&other_game).unwrap().as_bytes());
    let moved_to = format!(
        "play+{}@play.test",
        data_encoding::BASE32_NOPAD
            .encode(&bytes)
            .to_ascii_lowercase()
    );
    let raw = reply(from, &moved_to, "other-game@mail.test", &turn, "1");
    assert!(
        smtp_in(listen, from, &moved_to, &raw)
            .await
            .unwrap_err()
            .contains(NOT_ACCEPTED)
    );
    assert!(mail_in(&app, &raw).await.contains("signature"));
    nothing_written().await;

    // An expired token, signed with the server's own key.
    let secret: String = {
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
        row.value
    };
    let expired = hatstand::mail::token::ReplyToken::new(
        uuid::Uuid::parse_str(&id).unwrap(),
        seat as u8,
        game["version"].as_i64().unwrap(),
        chrono::Utc::now() - chrono::Duration::days(1),
    );
    let expired_to = hatstand::mail::token::reply_address(
        &expired,
        &hex::decode(secret).unwrap(),
        users[seat].id,
        "play.test",
    );
    let raw = reply(from, &expired_to, "expired@mail.test", &turn, "1");
    assert!(
        smtp_in(listen, from, &expired_to, &raw)
            .await
            .unwrap_err()
            .contains(NOT_ACCEPTED)
    );
    assert!(mail_in(&app, &raw).await.contains("expired"));
    nothing_written().await;

    // A sender who is not the player.
    let raw = reply("mallory@mail.test", to, "mallory@mail.test", &turn, "1");
    assert!(
        smtp_in(listen, "mallory@mail.test", to, &raw)
            .await
            .unwrap_err()
            .contains(NOT_ACCEPTED)
    );
    assert!(mail_in(&app, &raw).await.contains("sender"));
    nothing_written().await;

    // An auto-reply.
    let away = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\n\
         Message-ID: <away@mail.test>\r\n\r\n1\r\n"
    );
    assert!(
        smtp_in(listen, from, to, away.as_bytes())
            .await
            .unwrap_err()
            .contains(NOT_ACCEPTED)
    );
    let said = mail_in(&app, away.as_bytes()).await;
    assert!(said.contains("ignored: an automatic mail"), "{said}");
    nothing_written().await;

    // Huge, and not a mail at all.
    let lines: String = (0..4000)
        .map(|_| format!("{}\r\n", "y".repeat(76)))
        .collect();
    let huge = format!("From: {from}\r\nTo: {to}\r\n\r\n1\r\n{lines}");
    assert!(
        smtp_in(listen, from, to, huge.as_bytes())
            .await
            .unwrap_err()
            .contains("too large")
    );
    assert!(mail_in(&app, huge.as_bytes()).await.contains("ignored"));
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    assert!(mail_in(&app, &garbage).await.contains("ignored"));
    nothing_written().await;

    let html = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re\r\nMessage-ID: <html@mail.test>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n<p>1</p>\r\n"
    );
    // An HTML-only reply from the player is answered: how to send a move.
    smtp_in(listen, from, to, html.as_bytes()).await.unwrap();
    assert_eq!(app.count("events").await, events);
    let answer = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.subject().contains(": not accepted") {
            break mail;
        }
    };
    assert!(
        flat(&answer.text()).contains("no plain-text part"),
        "{}",
        answer.text()
    );

    // A valid reply whose move is not legal: answered, with the legal moves.
    let raw = reply(from, to, "illegal@mail.test", &turn, "play Z9");
    smtp_in(listen, from, to, &raw).await.unwrap();
    assert_eq!(app.count("events").await, events);
    let answer = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.subject().contains(": not accepted") {
            break mail;
        }
    };
    assert!(
        flat(&answer.text()).contains("\"play Z9\" is not one of your legal moves"),
        "{}",
        answer.text()
    );
    assert!(!listed_moves(&answer.text()).is_empty());
    assert!(answer.reply_to().is_some());

    // A reply to a mail the game has moved on from.
    let legal = app.game(&id, Some(&users[seat])).await["legal_commands"][0].clone();
    app.command(&id, &users[seat], game["version"].as_i64().unwrap(), &legal)
        .await
        .ok(200);
    let events = app.count("events").await;
    let raw = reply(from, to, "stale@mail.test", &turn, "1");
    smtp_in(listen, from, to, &raw).await.unwrap();
    assert_eq!(app.count("events").await, events);
    let answer = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.subject().contains(": not accepted") {
            break mail;
        }
    };
    // The turn that mail showed was played (on the web): the answer says how.
    assert!(
        flat(&answer.text()).contains(&format!(
            "that turn was already played: your move was \"{}\"",
            hatstand::mail::moves::written(&legal)
        )),
        "{}",
        answer.text()
    );
}

#[actix_web::test]
async fn preferences_digests_reminders_and_one_click_unsubscribe() {
    let catcher = Catcher::start().await;
    let (app, _) = mail_app(&catcher).await;
    let users = app.users(2).await;
    app.get("/v1/me/email", Some(&users[0].token))
        .await
        .assert_problem(404, "not_found");
    app.send(
        "PUT",
        "/v1/me/email",
        Some(&users[0].token),
        &[],
        &json!({"address": "not an address"}),
    )
    .await
    .assert_problem(400, "bad_request");
    // Without an address there is nothing to confirm, change or remove.
    let token = Some(users[0].token.as_str());
    app.post("/v1/me/email/confirm", token, &json!({"code": "12345678"}))
        .await
        .assert_problem(404, "not_found");
    app.send(
        "PATCH",
        "/v1/me/email",
        token,
        &[],
        &json!({"invited": "never"}),
    )
    .await
    .assert_problem(404, "not_found");
    app.send("DELETE", "/v1/me/email", token, &[], &Value::Null)
        .await
        .assert_problem(404, "not_found");
    // Five wrong codes use the code up: the right one is refused after them.
    app.send(
        "PUT",
        "/v1/me/email",
        token,
        &[],
        &json!({"address": "gu@mail.test"}),
    )
    .await
    .ok(200);
    let code_mail = catcher.next_to("gu@mail.test", &mut Vec::new()).await;
    let code = code_mail.subject().rsplit(' ').next().unwrap().to_owned();
    for _ in 0..5 {
        app.post("/v1/me/email/confirm", token, &json!({"code": "99999999x"}))
            .await
            .assert_problem(403, "wrong_code");
    }
    let late = app
        .post("/v1/me/email/confirm", token, &json!({"code": code}))
        .await;
    late.assert_problem(403, "wrong_code");
    assert!(
        late.body["detail"]
            .as_str()
            .unwrap()
            .contains("tried too often")
    );
    let still = app.get("/v1/me/email", token).await.ok(200);
    assert_eq!(still["confirmed"], false);
    app.send("DELETE", "/v1/me/email", token, &[], &Value::Null)
        .await;
    // A minute passes (one code a minute, the address removed or not).
    app.sql("UPDATE mail_outbox SET created_at = created_at - interval '61 seconds'")
        .await;
    let addresses = ["ed@mail.test", "fi@mail.test"];
    for (user, address) in users.iter().zip(addresses) {
        confirmed_address(&app, &catcher, user, address).await;
    }
    // Bad preferences change nothing.
    for bad in [
        json!({"reminder": "digest"}),
        json!({"time_zone": "Mars/Olympus"}),
        json!({"digest_hour": 24}),
        json!({"your_turn": "sometimes"}),
        json!({"colour": "blue"}),
    ] {
        let reply = app
            .send("PATCH", "/v1/me/email", Some(&users[1].token), &[], &bad)
            .await;
        reply.assert_problem(400, "bad_request");
    }
    let changed = app
        .send(
            "PATCH",
            "/v1/me/email",
            Some(&users[1].token),
            &[],
            &json!({"your_turn": "digest", "digest_hour": 7, "time_zone": "Europe/Paris"}),
        )
        .await
        .ok(200);
    assert_eq!(changed["preferences"]["your_turn"], "digest");
    assert_eq!(changed["preferences"]["invited"], "immediately");
    assert_eq!(changed["time_zone"], "Europe/Paris");

    // A clocked game: turn mails for seat 0, a digest line (at 07:00 in
    // Paris) for seat 1, and a reminder due with a quarter of the turn left.
    let game = app
        .created_game(
            &users[0],
            &json!({"ruleset": "hats", "players": 2, "options": {"turn_timeout": "P1D"}}),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    app.joined(&id, &users[1]).await;
    #[derive(diesel::QueryableByName, Debug)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        kind: String,
        #[diesel(sql_type = diesel::sql_types::Bool)]
        digest: bool,
        #[diesel(sql_type = diesel::sql_types::Text)]
        due: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        expected: String,
    }
    use diesel_async::RunQueryDsl;
    let mut conn = hatstand::db::locate::connect(&app.db.url).await.unwrap();
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT o.kind, o.digest, o.due_at::text AS due,
                CASE WHEN o.kind = 'reminder'
                     THEN ((n.payload->>'deadline')::timestamptz
                           - ((n.payload->>'deadline')::timestamptz - n.created_at) / 4)::text
                     WHEN o.digest THEN hatstand_next_digest(7::smallint, 'Europe/Paris', n.created_at)::text
                     ELSE n.created_at::text END AS expected
           FROM mail_outbox o JOIN notifications n ON n.user_id = o.user_id AND n.id = o.notification_id
          WHERE o.game_id = $1 AND o.attempts = 0 ORDER BY o.id",
    )
    .bind::<diesel::sql_types::Uuid, _>(uuid::Uuid::parse_str(&id).unwrap())
    .load(&mut conn)
    .await
    .unwrap();
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row.due, row.expected, "{row:?}");
    }
    assert!(rows.iter().any(|r| r.kind == "reminder"), "{rows:?}");
    // Seat 1's turn mails go to the digest; nothing else does.
    assert!(
        rows.iter()
            .filter(|r| r.digest)
            .all(|r| r.kind == "your_turn"),
        "{rows:?}"
    );
    // The digest hour holds across a change of daylight saving time (Paris
    // moves its clocks on 29 March 2026): 07:00 local is 06:00 UTC before, 05:00 after.
    #[derive(diesel::QueryableByName)]
    struct At {
        #[diesel(sql_type = diesel::sql_types::Text)]
        at: String,
    }
    let at: At = diesel::sql_query(
        "SELECT hatstand_next_digest(7::smallint, 'Europe/Paris', '2026-03-28 12:00Z')::text AS at",
    )
    .get_result(&mut conn)
    .await
    .unwrap();
    assert_eq!(at.at, "2026-03-29 05:00:00+00");

    // The turn mail of seat 0 (or seat 1's, if it moves first, goes to its digest).
    let to_act = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    let mut kept = Vec::new();
    let turn = loop {
        let mail = catcher.next_to(addresses[0], &mut kept).await;
        if mail.reply_to().is_some() || to_act == 1 {
            break mail;
        }
    };
    let header = turn.header("List-Unsubscribe").unwrap();
    assert_eq!(
        turn.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let url = header.trim_start_matches('<').trim_end_matches('>');
    let path = url.trim_start_matches("http://hatstand.test");
    // A forged link is refused; the page shows a button; the POST unsubscribes.
    let forged = format!("{}0", path);
    app.post(&forged, None, &Value::Null)
        .await
        .assert_problem(404, "not_found");
    let other_kind = path.replace("kind=", "kind=no_such_");
    app.post(&other_kind, None, &Value::Null)
        .await
        .assert_problem(404, "not_found");
    let page = app.get(path, None).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(page.body.as_str().unwrap().contains("<button"));
    let done = app.post(path, None, &Value::Null).await;
    assert_eq!(done.status.as_u16(), 200, "{:?}", done.body);
    let now = app.get("/v1/me/email", Some(&users[0].token)).await.ok(200);
    let kind = turn.header("Subject").unwrap_or_default();
    assert!(
        now["preferences"]
            .as_object()
            .unwrap()
            .values()
            .any(|m| m == "never"),
        "{now} after {kind}"
    );
    // Removing the address stops everything.
    let removed = app
        .send(
            "DELETE",
            "/v1/me/email",
            Some(&users[0].token),
            &[],
            &Value::Null,
        )
        .await;
    assert_eq!(removed.status.as_u16(), 204);
    app.get("/v1/me/email", Some(&users[0].token))
        .await
        .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn one_code_a_minute_holds_across_removing_the_address_and_a_code_leaves_the_outbox_once_mailed()
 {
    // Given a user who set an address and was mailed its code …
    let catcher = Catcher::start().await;
    let (app, _) = mail_app(&catcher).await;
    let user = &app.users(1).await[0];
    let token = Some(user.token.as_str());
    let address = json!({"address": "mo@mail.test"});
    app.send("PUT", "/v1/me/email", token, &[], &address)
        .await
        .ok(200);
    let mail = catcher.next_to("mo@mail.test", &mut Vec::new()).await;
    let code = mail.subject().rsplit(' ').next().unwrap().to_owned();

    // … once the mail is sent, the outbox row no longer holds the code
    // (the address keeps its hash, and the code still confirms) …
    app.eventually(10, || async {
        (app.count("mail_outbox WHERE kind = 'confirm_address' AND state = 'sent'")
            .await
            == 1)
            .then_some(())
    })
    .await;
    assert_eq!(
        app.count("mail_outbox WHERE payload ? 'code'").await,
        0,
        "a code stayed in the outbox after its mail went"
    );

    // … when they remove the address and set it again within the minute,
    // no second code is queued …
    app.send("DELETE", "/v1/me/email", token, &[], &Value::Null)
        .await
        .ok(204);
    let again = app.send("PUT", "/v1/me/email", token, &[], &address).await;
    again.assert_problem(429, "rate_limited");
    assert_eq!(
        app.count("email_addresses").await,
        0,
        "the refusal changed nothing"
    );
    assert_eq!(
        app.count("mail_outbox WHERE kind = 'confirm_address'")
            .await,
        1
    );
    assert!(
        catcher
            .quiet_for(Duration::from_millis(500))
            .await
            .is_none()
    );

    // … and a minute after the first code, a new one goes.
    app.sql("UPDATE mail_outbox SET created_at = created_at - interval '61 seconds'")
        .await;
    app.send("PUT", "/v1/me/email", token, &[], &address)
        .await
        .ok(200);
    let second = catcher.next_to("mo@mail.test", &mut Vec::new()).await;
    let second_code = second.subject().rsplit(' ').next().unwrap().to_owned();
    app.post("/v1/me/email/confirm", token, &json!({"code": code}))
        .await
        .assert_problem(403, "wrong_code");
    let confirmed = app
        .post("/v1/me/email/confirm", token, &json!({"code": second_code}))
        .await
        .ok(200);
    assert_eq!(confirmed["confirmed"], true);
}

#[actix_web::test]
async fn a_code_whose_mail_is_given_up_leaves_the_outbox() {
    // Given a server whose mail relay does not answer, trying each mail once …
    let relay = format!("smtp://127.0.0.1:{}", free_port());
    let app = TestApp::spawn_with(|s| {
        s.mail.smtp_url = Some(relay);
        s.mail.mail_attempts = 1;
        s.mail.mail_tick_ms = 50;
    })
    .await;
    let user = &app.users(1).await[0];
    app.send(
        "PUT",
        "/v1/me/email",
        Some(&user.token),
        &[],
        &json!({"address": "lost@mail.test"}),
    )
    .await
    .ok(200);
    // … once its one attempt failed, the code mail is given up without its code.
    app.eventually(20, || async {
        (app.count("mail_outbox WHERE state = 'failed'").await == 1).then_some(())
    })
    .await;
    assert_eq!(app.count("mail_outbox WHERE payload ? 'code'").await, 0);
    assert_eq!(
        app.count("mail_outbox WHERE payload ->> 'address' = 'lost@mail.test'")
            .await,
        1
    );
}

/// A replayed reply token is answered once a turn, however many fresh
/// `Message-ID`s it comes with, even all at once; and a seat gets at most
/// `--refusal-mails-per-seat` "not accepted" mails a day.
#[actix_web::test]
async fn a_replayed_reply_is_answered_once_a_turn_and_refusals_are_limited_per_seat() {
    let catcher = Catcher::start().await;
    let listen: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let smtp = format!("smtp://{}", catcher.address);
    let app = TestApp::spawn_with(|s| {
        s.mail.smtp_url = Some(smtp);
        s.mail.smtp_listen = Some(listen);
        s.mail.mail_domain = "play.test".into();
        s.limits.refusal_mails_per_seat = 2;
    })
    .await;
    let addresses = ["gil@mail.test", "hob@mail.test"];
    let users = players_with_addresses(&app, &catcher, &addresses).await;
    let id = app.started_game(&users, "hats", json!({})).await;
    let seat = app.game(&id, None).await["to_act"][0].as_u64().unwrap() as usize;
    let from = addresses[seat];
    let mut kept = Vec::new();
    let turn = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.reply_to().is_some() && mail.text().contains(&format!("/#/games/{id}")) {
            break mail;
        }
    };
    let refusals = || app.count("mail_outbox WHERE kind = 'move_refused'");
    let to = turn.reply_to().unwrap();
    let version = app.game(&id, None).await["version"].clone();
    // Given ten replies with no move to one turn mail, each with its own
    // Message-ID, sent at once …
    let burst = join_all((0..10).map(|n| {
        let raw = reply(
            from,
            &to,
            &format!("burst-{n}@mail.test"),
            &turn,
            "no move here",
        );
        let to = to.clone();
        async move { smtp_in(listen, from, &to, &raw).await }
    }))
    .await;
    // … one is answered, the others refused alike, and nothing was played.
    assert_eq!(burst.iter().filter(|r| r.is_ok()).count(), 1);
    assert!(
        burst
            .iter()
            .filter_map(|r| r.as_ref().err())
            .all(|e| e.contains(NOT_ACCEPTED))
    );
    assert_eq!(refusals().await, 1);
    assert_eq!(app.game(&id, None).await["version"], version);
    // The answer's own reply address is answered once more: the seat's
    // second refusal today, its last.
    let answer = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.subject().contains(": not accepted") {
            break mail;
        }
    };
    let again = answer.reply_to().unwrap();
    let raw = reply(from, &again, "again@mail.test", &answer, "no move here");
    smtp_in(listen, from, &again, &raw).await.unwrap();
    assert_eq!(refusals().await, 2);
    let last = loop {
        let mail = catcher.next_to(from, &mut kept).await;
        if mail.subject().contains(": not accepted") {
            break mail;
        }
    };
    let third = last.reply_to().unwrap();
    let raw = reply(from, &third, "third@mail.test", &last, "no move here");
    let refused = smtp_in(listen, from, &third, &raw).await.unwrap_err();
    assert!(refused.contains(NOT_ACCEPTED), "{refused}");
    assert_eq!(refusals().await, 2);
    // A move by that last address is still played: the limit is on refusals.
    let (code, _) = listed_moves(&last.text())[0].clone();
    let raw = reply(from, &third, "move@mail.test", &last, &code);
    smtp_in(listen, from, &third, &raw).await.unwrap();
    assert_eq!(
        app.count("mail_outbox WHERE kind = 'move_accepted'").await,
        1
    );
}

/// Every time zone the document lists first (`TimeZone`: IANA's zones and
/// UTC) is one PostgreSQL knows, since the digest asks it for the hour
/// there; older names follow, known where PostgreSQL's tzdata keeps them.
#[actix_web::test]
async fn every_listed_time_zone_is_known_to_postgresql() {
    let app = TestApp::spawn().await;
    let listed: Vec<&str> = hatstand::mail::addresses::time_zones().collect();
    let file = include_str!("../../src/mail/time_zones.txt");
    let zones: Vec<&str> = file
        .split("\n# Then")
        .next()
        .unwrap()
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert!(
        zones.len() > 400 && listed.len() > zones.len(),
        "{}",
        zones.len()
    );
    assert!(zones.contains(&"Europe/Paris") && zones.contains(&"UTC"));
    assert!(zones.iter().all(|zone| listed.contains(zone)));
    let names: Vec<String> = zones.iter().map(|name| format!("'{name}'")).collect();
    let known = app
        .count(&format!(
            "pg_timezone_names WHERE name IN ({})",
            names.join(",")
        ))
        .await;
    assert_eq!(known, i64::try_from(zones.len()).unwrap());
}
