# The narration of games' events in English (src/games/narration): one
# message per event told. Every message is also in narration-fr.ftl. A
# line begins lower case; the narration capitalises it and ends it with a
# full stop. `$me` is "yes" when the player named is the reader.

## Names and lists

narration-you = you
narration-a-player = a player
narration-nobody = nobody
narration-later = later
narration-and-list = { $init } and { $last }

## Cards

card = the { $rank } of { $suit }
card-rank-A = Ace
card-rank-K = King
card-rank-Q = Queen
card-rank-J = Jack
card-rank-number = { $rank }
card-suit-spades = spades
card-suit-hearts = hearts
card-suit-clubs = clubs
card-suit-diamonds = diamonds
card-suit-stars = stars
card-suit-flowers = flowers
card-suit-helms = helms
card-suit-jokers = jokers
card-of-spades = spades
card-of-hearts = hearts
card-of-clubs = clubs
card-of-diamonds = diamonds
card-of-stars = stars
card-of-flowers = flowers
card-of-helms = helms
card-joker = the joker
card-joker-first = the first joker
card-joker-second = the second joker
card-none = no cards
card-hidden = a card

## The server's events

narration-player-declined = { $name } declined the invitation
narration-seat-substituted = { $name } took over seat { $seat } as a substitute
narration-game-started = the game started
narration-clocks-started = the clocks started
narration-seat-bank-changed = { $who } has { $bank } in the bank
narration-pause-proposed = { $who } proposed to pause the table
narration-pause-proposed-until = { $who } proposed to pause the table until { $until }
narration-pause-voted-yes = { $who } voted for the pause
narration-pause-voted-no = { $who } voted against the pause
narration-paused = the table is paused: no clock runs
narration-pause-ended = the pause ended; the clocks run again
narration-resumed = { $who } resumed the table
narration-game-cancelled = the game was cancelled
narration-turn-timed-out = { $who }'s time ran out
narration-turn-forced = { $who } had one move only; the server played it
narration-takeback-offered = { $who } asked to take back their last move
narration-takeback-accepted = { $who } agreed to the takeback
narration-takeback-declined = { $who } refused the takeback
narration-taken-back = { $who }'s last move was taken back
narration-seat-vacation = { $who } took a break until { $until }
narration-player-resigned = { $who } { $why ->
    [timeout] is out after running out of time
    [inactive] is out for inactivity
   *[resigned] resigned
}; the server plays that seat from now on
narration-forfeit-no-winner = the game ended by forfeit, with no winner
narration-forfeit = the game ended by forfeit: { $winners } won

## Hats ($card, then $other and $more as each event says)

narration-hats-dealt = the cards were dealt; the line reads { $card }
narration-hats-discarded = { $who } discarded { $card }
narration-hats-reshuffled = the discard pile was shuffled into a new deck
narration-hats-drew = { $who } drew { $card }
narration-hats-their-partner = their partner
narration-hats-swap-offered = { $who } offered { $card } face down to { $other }
narration-hats-swapped = { $who } gave { $card } to { $other } and got { $more } back
narration-hats-swapped-hidden = { $who } and { $other } swapped a card
narration-hats-exchanged = { $who } exchanged { $card } for { $other } at position { $more }
narration-hats-black-hat = { $who } turned { $card } into a black hat
narration-hats-favourites = the favourite hats were shown: { $card }

## Top Hats

narration-colour-red = red
narration-colour-blue = blue
narration-colour-yellow = yellow
narration-colour-neutral = neutral
narration-top-hats-then = then
narration-top-hats-jump = from { $from } over { $over } to { $to }{ $took ->
    [revealed] {" "}and took a { $removed } hat off ({ $revealed } now shows)
    [last] {" "}and took the last hat, { $removed }, off the board
   *[none] {""}
}
narration-top-hats-jumped = { $who } jumped { $jumps }{ $ended ->
    [yes] ; then ended the turn
   *[no] {""}
}
narration-top-hats-building-started = building began: everyone builds five stacks of three hats at once
narration-top-hats-position-set = the game began from a set position; { $first } moves first
narration-top-hats-stack-built = { $who } built stack { $stack }: { $under } under { $top } (bottom to top)
narration-top-hats-stack-built-hidden = { $who } built stack { $stack }
narration-top-hats-stack-placed = { $who } placed stack { $stack } on { $cell }
narration-top-hats-moved = { $who } moved from { $from } to { $to }
narration-top-hats-edge-zone-grew = five or fewer stacks stand: the second ring joins the edge zone
narration-top-hats-skipped-no-colour = { $who } was skipped: no stack shows their colour
narration-top-hats-skipped = { $who } was skipped: no legal move
narration-top-hats-won = { $me ->
    [yes] you won: only your colour shows
   *[no] { $who } won: only their colour shows
}
narration-top-hats-drawn-quiet = the game was drawn: too many turns without a hat taken off
narration-top-hats-drawn = the game was drawn: nobody could move

## Tricks (Goathead, Hat Trick)

narration-trick-card = { $who } { $led ->
    [yes] led
   *[no] played
} { $card }
narration-trick-goes-on = the trick goes on
narration-match-ended = the match ended: { $winners } won ({ $scores })

## Goathead

narration-goathead-contract = { $name } ({ $code })
narration-goathead-contract-clubs = clubs
narration-goathead-contract-spades = spades
narration-goathead-contract-hearts = hearts
narration-goathead-contract-diamonds = diamonds
narration-goathead-contract-leasters = Leasters
narration-goathead-trick-won = { $who } won the trick ({ $points } points)
narration-goathead-dealt = round { $round }: { $other } dealt
narration-goathead-bid = { $who } bid { $contract }
narration-goathead-stole = { $who } stole the bid at { $contract }
narration-goathead-passed = { $who } passed
narration-goathead-contract-set = { $who } won the bidding with { $contract }
narration-goathead-all-passed = everyone passed: { $contract } is played
narration-goathead-kitty-taken-shown = { $who } took the kitty ({ $cards })
narration-goathead-kitty-taken = { $who } took the kitty
narration-goathead-kitty-left = { $who } left the kitty
narration-goathead-buried = { $who } buried { $card }
narration-goathead-buried-hidden = { $who } buried a card
narration-goathead-contract-kept = { $who } kept { $contract }
narration-goathead-contract-upgraded = { $who } raised the contract to { $contract }
narration-goathead-kitty-swapped = { $who } swapped { $card } for { $other } from the kitty
narration-goathead-kitty-swapped-hidden = { $who } swapped a card with the kitty
narration-goathead-kitty-skipped = { $who } kept their hand (no kitty swap)
narration-goathead-announced = { $who } holds both black Jacks and called the holder of { $card } as partner
narration-goathead-play-started = play began; { $who } leads
narration-goathead-round-scored = round { $round } scored: { $contract }{ $declared ->
    [yes] {" "}by { $by }
   *[no] {""}
} { $outcome ->
    [made] made
    [lost] lost
   *[played] played
}{ $counted ->
    [yes] {" "}with { $points } points
   *[no] {""}
} (value { $value }); game points { $payments }

## Hat Trick

narration-hat-trick-no-trump = no trump
narration-hat-trick-card = { $card }{ $predict ->
    [yes] {" "}and made a prediction
   *[no] {""}
}
narration-hat-trick-trick = trick { $trick }:{" "}
narration-hat-trick-won-it = { $who } won it
narration-hat-trick-dealt = deal { $deal }: { $dealer } dealt; trump is { $trump }{ $shown ->
    [yes] {" "}(shown by { $indicator })
   *[no] {""}
}{ $negative ->
    [yes] ; a negative deal: fewest points is best
   *[no] {""}
}
narration-hat-trick-round-scored = deal { $deal } scored: trick 1, trick 6 and the last went to { $tricks }{ $hat_trick ->
    [yes] ; a hat trick for { $holder }
   *[no] {""}
}; points { $points }; totals { $totals }

## A game's result (a sentence each, after the first a space)

result-drawn = The game was drawn.
result-everyone = Everyone shares the win.
result-won = { $winners } won.
result-teams = Teams: { $what }.
result-scores = Scores: { $what }.
result-forfeited = Out by forfeit: { $what }.
result-shared = The win is shared.
result-tie-break = Tie-break: { $what }.
result-tie-black_hats = most black hats
result-tie-cookie = the cookie

## The counts players keep ($of is "none" when there is no total)

counter-round = round { $n }{ $of ->
    [none] {""}
   *[other] {" "}of { $of }
}
counter-deal = deal { $n }{ $of ->
    [none] {""}
   *[other] {" "}of { $of }
}
counter-trick = trick { $n }
counter-turn = turn { $n }
