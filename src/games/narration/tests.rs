use serde_json::{Value, json};

use super::*;

fn event(seq: i64, kind: &str, data: Value) -> EventOut {
    EventOut {
        seq,
        kind: kind.to_owned(),
        qualified: kind.to_owned(),
        data,
        at: String::new(),
    }
}

fn table(me: Option<u8>) -> Table {
    Table {
        names: vec!["ada".into(), "bruno".into(), "bot.greedy".into()],
        me,
    }
}

fn texts(lines: &[Line]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

#[test]
fn a_trick_is_one_line_with_its_winner() {
    // Given three cards played and the trick won, as ada sees them …
    let events = [
        event(10, "card_played", json!({"seat": 1, "card": "QS"})),
        event(11, "card_played", json!({"seat": 2, "card": "AS"})),
        event(12, "card_played", json!({"seat": 0, "card": "10S"})),
        event(13, "trick_won", json!({"seat": 2, "points": 24})),
        event(14, "card_played", json!({"seat": 2, "card": "JC"})),
    ];
    // … when told …
    let lines = narrate("goathead", &table(Some(0)), &events);
    // … then the trick is one line, the open one another.
    assert_eq!(
        texts(&lines),
        [
            "bruno played the Queen of spades, bot.greedy played the Ace of spades, you played the 10 of spades; bot.greedy won the trick (24 points).",
            "bot.greedy led the Jack of clubs; the trick goes on."
        ]
    );
    assert_eq!(lines[0].seq, 13);
}

#[test]
fn hidden_cards_stay_hidden_and_own_ones_are_named() {
    let events = [
        event(3, "buried", json!({"seat": 1, "card": null})),
        event(4, "buried", json!({"seat": 0, "card": "AC"})),
        event(5, "bid", json!({"seat": 2, "contract": "suit:C"})),
        event(
            6,
            "contract_set",
            json!({"declarer": null, "contract": "leasters"}),
        ),
    ];
    let lines = narrate("goathead", &table(Some(0)), &events);
    assert_eq!(
        texts(&lines),
        [
            "bruno buried a card.",
            "You buried the Ace of clubs.",
            "bot.greedy bid clubs (suit:C).",
            "Everyone passed: Leasters (leasters) is played."
        ]
    );
}

#[test]
fn hats_exchanges_draws_and_black_hats_read_as_sentences() {
    let events = [
        event(7, "drew", json!({"seat": 1, "card": null})),
        event(
            8,
            "exchanged",
            json!({"seat": 1, "card": "H5", "position": 3, "taken": "S2"}),
        ),
        event(9, "black_hat_made", json!({"seat": 0, "card": "T6"})),
        event(
            10,
            "player_resigned",
            json!({"seat": 1, "reason": "resigned"}),
        ),
    ];
    let lines = narrate("hats", &table(Some(0)), &events);
    assert_eq!(
        texts(&lines),
        [
            "bruno drew a card.",
            "bruno exchanged the 5 of hearts for the 2 of spades at position 3.",
            "You turned the 6 of stars into a black hat.",
            "bruno resigned; the server plays that seat from now on."
        ]
    );
}

#[test]
fn every_jump_of_a_chain_is_told() {
    let events = [
        event(
            40,
            "jumped",
            json!({"seat": 1, "from": "c3", "over": "d4", "to": "e5", "removed": null, "revealed": null}),
        ),
        event(
            41,
            "jumped",
            json!({"seat": 1, "from": "e5", "over": "f5", "to": "g5", "removed": "red", "revealed": "blue"}),
        ),
        event(42, "chain_ended", json!({"seat": 1, "voluntary": true})),
        event(43, "moved", json!({"seat": 0, "from": "b2", "to": "b3"})),
        event(
            44,
            "stack_built",
            json!({"seat": 1, "stack": 2, "height": 3, "under": null}),
        ),
    ];
    let lines = narrate("top-hats", &table(Some(0)), &events);
    assert_eq!(
        texts(&lines),
        [
            "bruno jumped from c3 over d4 to e5, then from e5 over f5 to g5 and took a red hat off (blue now shows); then ended the turn.",
            "You moved from b2 to b3.",
            "bruno built stack 2."
        ]
    );
}

#[test]
fn hat_trick_deals_and_tricks_name_trump_and_winner() {
    let events = [
        event(
            2,
            "dealt",
            json!({"round": 0, "dealer": 0, "hands": [[], 11], "left": [], "indicator": "7H", "indicator_is_cut": false, "trump": "H", "negative": false}),
        ),
        event(
            3,
            "played",
            json!({"seat": 1, "card": "QH", "predict": false}),
        ),
        event(
            4,
            "played",
            json!({"seat": 0, "card": "AH", "predict": true}),
        ),
        event(5, "trick_won", json!({"trick": 1, "winner": 0})),
    ];
    let lines = narrate("hat-trick", &table(Some(0)), &events);
    assert_eq!(
        texts(&lines),
        [
            "Deal 1: you dealt; trump is hearts (shown by the 7 of hearts).",
            "Trick 1: bruno led the Queen of hearts, you played the Ace of hearts and made a prediction; you won it."
        ]
    );
}

#[test]
fn a_spectator_is_told_names_only() {
    let events = [event(8, "passed", json!({"seat": 0}))];
    assert_eq!(
        texts(&narrate("goathead", &table(None), &events)),
        ["ada passed."]
    );
}

#[test]
fn results_name_winners_and_scores() {
    let result = json!({"scores": [31, 27], "winners": [1], "rounds": []});
    assert_eq!(
        result_text(&result, &table(Some(0))),
        "bruno won. Scores: you 31, bruno 27.".replace(", bot.greedy 0", "")
    );
    let draw = json!({"scores": [], "winners": [], "outcome": "draw", "rounds": []});
    assert_eq!(result_text(&draw, &table(None)), "The game was drawn.");
}

#[test]
fn a_french_reader_is_told_in_french_and_addressed_as_vous() {
    // Given a Hats deal, a card ada drew and one bruno discarded …
    let events = [
        event(1, "game_started", json!({})),
        event(2, "drew", json!({"seat": 0, "card": "H5"})),
        event(3, "discarded", json!({"seat": 1, "card": null})),
    ];
    // … when told to ada in French …
    let lines = narrate_in(Language::Fr, "hats", &table(Some(0)), &events);
    // … then the reader is "vous", names stay as spelled, cards in French.
    assert_eq!(
        texts(&lines),
        [
            "La partie a commencé.",
            "Vous avez pioché le 5 de cœur.",
            "bruno a défaussé une carte."
        ]
    );
    // And a trick in Goathead: "vous avez joué", "bruno a entamé avec".
    let trick = [
        event(10, "play_started", json!({"leader": 1})),
        event(11, "card_played", json!({"seat": 1, "card": "QS"})),
        event(12, "card_played", json!({"seat": 0, "card": "AS"})),
        event(13, "trick_won", json!({"seat": 0, "points": 15})),
    ];
    let lines = narrate_in(Language::Fr, "goathead", &table(Some(0)), &trick);
    assert_eq!(
        texts(&lines),
        [
            "Le jeu commence ; bruno entame.",
            "bruno a entamé avec la dame de pique, vous avez joué l’as de pique; vous \
             avez remporté le pli (15 points)."
        ]
    );
}

#[test]
fn an_event_told_in_english_text_stays_english_for_a_french_reader() {
    // Given a French story and an event told as English text (as a new
    // event may be before its messages are written) …
    let mut story = Story {
        lines: Vec::new(),
        names: vec!["ada".into()],
        language: Language::Fr,
    };
    // … when said, and a translated line after it …
    story.say(1, "ada offered a draw");
    story.tell(2, "narration-game-started", &[]);
    // … then the first is English, whole, and the second French.
    assert_eq!(
        texts(&story.lines),
        ["ada offered a draw.", "La partie a commencé."]
    );
}
