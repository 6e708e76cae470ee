# The mails in English (src/mail): the frame, the table in prose, the moves
# and their legend, dates. Every message is also in mail-fr.ftl.

## The table in prose (src/mail/render.rs): labels, then their facts

fact-game = Game
fact-not-started = not started yet
fact-view = View
fact-the-line = The line
fact-the-line-text = { $line } (position 1 is next to the Ø card)
fact-your-hand = Your hand
fact-your-black-hats = Your black hats
fact-offered = Offered
fact-offered-text = you offered { $card }
fact-you = You
fact-nothing-collected = nothing collected
fact-collected = collected { $cards }
fact-cards = { $n ->
    [0] no cards
    [one] 1 card
   *[other] { $n } cards
}
fact-cards-in-hand = { $n ->
    [0] no cards
    [one] 1 card
   *[other] { $n } cards
} in hand
fact-black-hats = { $n ->
    [0] no black hats
    [one] 1 black hat
   *[other] { $n } black hats
}
fact-on-discard = { $n ->
    [0] no cards
    [one] 1 card
   *[other] { $n } cards
} on the discard pile
fact-cards-face-down = { $n ->
    [0] no cards
    [one] 1 card
   *[other] { $n } cards
} face down
fact-deck = Deck
fact-cookie = Cookie
fact-cookie-text = { $who } would get it now
fact-round = Round
fact-round-text = { $n } of { $of }; { $dealer } dealt
fact-phase = Phase
fact-goathead-phase-bidding = bidding
fact-goathead-phase-kitty_choice = the declarer takes or leaves the kitty
fact-goathead-phase-bury = the declarer buries cards
fact-goathead-phase-contract_choice = the declarer keeps or raises the contract
fact-goathead-phase-swap = swapping with the kitty
fact-goathead-phase-play = playing tricks
fact-goathead-phase-round_over = the round is over
fact-goathead-phase-over = the match is over
fact-contract = Contract
fact-contract-declared = { $contract }, declared by { $who }
fact-highest-bid = Highest bid
fact-highest-bid-text = { $contract } by { $who }
fact-the-kitty = The kitty
fact-trick = Trick
fact-played = { $who } played { $card }
fact-no-card-played = no card played yet
fact-tricks-won = Tricks won
fact-card-points = Card points
fact-game-points = Game points
fact-deal = Deal
fact-deal-text = { $n } of { $of }; { $dealer } dealt; trick { $trick }
fact-trump = Trump
fact-trump-text = { $trump }{ $shown ->
    [yes] {" "}(shown by { $indicator })
   *[no] {""}
}{ $negative ->
    [yes] ; a negative deal: fewest points is best
   *[no] {""}
}
fact-scoring-tricks = Scoring tricks
fact-scoring-trick = { $which ->
    [first] trick 1
    [sixth] trick 6
   *[last] the last
} { $played ->
    [yes] to { $who }
   *[no] not yet played
}
fact-predictions = Predictions
fact-prediction = { $who } claimed trick { $claims } (on trick { $made_on })
fact-scores = Scores
fact-top-hats-phase-building = building: everyone builds five stacks of three at once
fact-top-hats-phase-placing = placing: one stack a turn on an empty cell of rings 1-2
fact-top-hats-phase-playing = playing: move or jump your stacks
fact-top-hats-phase-over = the game is over
fact-colours = Colours
fact-your-pool = Your pool
fact-pool-empty = empty: all your hats are in stacks
fact-stack = Stack { $n }
fact-stack-text = { $hats } (bottom to top{ $placed ->
    [yes] , placed
   *[no] {""}
})
fact-jumping = Jumping
fact-jumping-text = the stack on { $cell } (cells jumped this turn: { $jumped })
fact-hats-taken-off = Hats taken off
fact-quiet-turns = Quiet turns
fact-quiet-turns-text = { $n } of { $of } (a turn with no hat taken off; at the limit, a draw)
fact-board-key = R red, B blue, Y yellow, n the neutral hat; the number is the
    stack's height. Cells are named like d4 (column, row).

## The legend of move words: what a kind of move does (the words stay English)

legend-hats-exchange = give CARD from your hand for the line card at POSITION (same type or a lower number); the line card joins your collection face up
legend-hats-black_hat = turn CARD into a black hat (1 point)
legend-hats-discard_draw = before your main action: discard CARD and draw the deck's top card
legend-hats-offer_swap = before your main action: offer CARD face down to your partner
legend-hats-answer_swap = answer your partner's offer with CARD
legend-goathead-bid = bid higher: suit:D < suit:H < nil < suit:S < suit:C < court
legend-goathead-steal = take the leading bid (only with fewer game points than its bidder)
legend-goathead-pass = leave the bidding (final)
legend-goathead-take_kitty = take the kitty into your hand
legend-goathead-leave_kitty = leave the kitty (+1 if you win)
legend-goathead-bury = put CARD face down to the kitty
legend-goathead-keep_contract = play the contract you bid
legend-goathead-upgrade = raise the contract to CONTRACT
legend-goathead-kitty_swap = swap your card HAND for the kitty's card KITTY
legend-goathead-kitty_skip = swap nothing
legend-top-hats-build_stack = build your next stack: BOTTOM and MIDDLE from your pool, your colour on top
legend-top-hats-place = put your stack number STACK on CELL
legend-top-hats-move = move your stack on FROM to the next cell TO
legend-top-hats-jump = jump your stack on FROM over a neighbour to TO; an opposing top hat jumped is taken off
legend-top-hats-end_turn = stop a chain of jumps
legend-goathead-play = play CARD to the trick
legend-hat-trick-play = play CARD; play CARD predict also claims trick 6 (on tricks 2-5) or the last trick (later)

## The frame (src/mail/compose.rs)

mail-title = { $game } vs { $opponents }
mail-subject-your-turn = your turn
mail-subject-reminder = reminder, your turn
mail-subject-accepted = accepted, { $move }
mail-subject-not-accepted = not accepted
mail-subject-invited = you are invited
mail-subject-says = { $from } says
mail-subject-game-over = game over
mail-subject-drawn = game over, drawn
mail-subject-won = game over, { $winners } won
mail-subject-confirm = Your hatstand confirmation code: { $code }
mail-subject-digest = Your hatstand digest: { $n } updates
mail-no-clock = This game has no clock.
mail-time-runs-out = Your time runs out on { $when }.
mail-move-by = Move by { $when }.
mail-hello-your-turn = Hello { $name }, it is your turn in { $title }{ $counted }.
mail-so-far = So far:
mail-since-your-last-move = Since your last move:
mail-the-last-moves = The last moves:
mail-earlier-moves = (Earlier moves are on the game's page.)
mail-heard = Said since your last turn mail:
mail-earlier-messages = (Earlier messages are on the game's page.)
mail-to-you = to you
mail-at-the-table = at the table
mail-someone = someone
mail-the-table = The table:
mail-your-moves = Your moves:
mail-how-to-reply = Reply to this mail with a move's number (or the move written out) on the first line.
mail-move-words = Move words:
mail-now-waits = The game now waits for { $who }.
mail-game-on-the-web = The game on the web
mail-unfired = Your conditional lines that did not fire (the game left them):
mail-seat = seat { $n }
mail-move-played = Your move "{ $move }" was played.
mail-unreadable = it could not be read
mail-not-played = Your mail was not played: { $why }
mail-transactional = This mail answers yours; it is sent whatever your mail settings say.
mail-hello-invited = Hello { $name }, you are invited to a { $players }-player game of { $game } (at the table: { $table }).
mail-join-or-decline = Join or decline
mail-hello-talk = Hello { $name }, { $from } says { $room } in { $title }:
mail-talk-reply-press = Reply to this mail to answer them alone (quoted lines are left out).
mail-talk-reply-table = Reply to this mail to answer at the table (quoted lines are left out).
mail-answer-on-the-web = Answer on the web
mail-after = after { $n } { $unit ->
    [round] { $n ->
        [one] round
       *[other] rounds
    }
    [deal] { $n ->
        [one] deal
       *[other] deals
    }
   *[turn] { $n ->
        [one] turn
       *[other] turns
    }
}
mail-hello-finished = Hello { $name }, the game of { $title } { $abandoned ->
    [yes] was abandoned
   *[no] is over
}{ $length }.
mail-rematch = A rematch? Offer one, or answer one offered, at the table
mail-audit = The audit (every event, the seed, the hash chain)
mail-hello-confirm = Hello { $name }, to receive hatstand's mails at this address, confirm it with this code (good for 24 hours):
mail-confirm-ignore = If you did not ask for this, ignore this mail: nothing more will be sent.
mail-digest-intro = What happened since your last digest:
mail-digest-your-turn = Your turn in { $game } [{ $tag }]
mail-digest-invited = Invited to { $game } [{ $tag }]
mail-digest-finished = { $game } [{ $tag }] is over
mail-digest-talk = { $from } said something in { $game } [{ $tag }]

## Dates: `Sun 29 Mar 2026, 20:00 CEST` (weekdays from Monday = 0)

mail-date = { $weekday } { $day } { $month } { $year }, { $time } { $zone }
mail-weekday-0 = Mon
mail-weekday-1 = Tue
mail-weekday-2 = Wed
mail-weekday-3 = Thu
mail-weekday-4 = Fri
mail-weekday-5 = Sat
mail-weekday-6 = Sun
mail-month-1 = Jan
mail-month-2 = Feb
mail-month-3 = Mar
mail-month-4 = Apr
mail-month-5 = May
mail-month-6 = Jun
mail-month-7 = Jul
mail-month-8 = Aug
mail-month-9 = Sep
mail-month-10 = Oct
mail-month-11 = Nov
mail-month-12 = Dec
mail-a-new-player = a new player
mail-subject-substituted = { $who } takes over seat { $seat }
mail-hello-substituted = Hello { $name }, { $who } took over seat { $seat } in { $title }, which its player had left: its moves are theirs from now on.
mail-see-the-game = See the game
mail-digest-substituted = { $name } takes over seat { $seat } in { $game } [{ $tag }]
mail-subject-tournament-round = Round { $round } of { $tournament } started: your table is ready
mail-hello-tournament-round = Hello { $name }, round { $round } of { $tournament } has started and your table is ready: { $title }.
mail-your-table = Your table on the web
mail-the-tournament = The tournament: standings and tables
mail-subject-tournament-finished = { $tournament } ended: you placed { $place } of { $field }
mail-hello-tournament-finished = Hello { $name }, { $tournament } has ended: you placed { $place } of { $field }.
mail-subject-tournament-cancelled = { $tournament } cancelled: too few players
mail-hello-tournament-cancelled = Hello { $name }, { $tournament } was cancelled at its start: too few players had registered ({ $field }).
mail-your-last-game = Your last game
mail-digest-tournament-round = Round { $round } of { $tournament }: your table of { $game } [{ $tag }] is ready
mail-digest-tournament-finished = { $tournament } ended: you placed { $place } of { $field }
mail-digest-tournament-cancelled = { $tournament } was cancelled: too few players
