# La narration des événements des parties en français (src/games/narration) :
# un message par événement raconté. Chaque message est aussi dans
# narration-en.ftl. Une ligne commence en minuscule ; la narration lui met
# une majuscule et un point. `$me` vaut "yes" quand le joueur nommé est le
# lecteur (« vous »).

## Names and lists

narration-you = vous
narration-a-player = un joueur
narration-nobody = personne
narration-later = plus tard
narration-and-list = { $init } et { $last }

## Cards

card = { $rank } { $suit }
card-rank-A = l’as
card-rank-K = le roi
card-rank-Q = la dame
card-rank-J = le valet
card-rank-number = le { $rank }
card-suit-spades = pique
card-suit-hearts = cœur
card-suit-clubs = trèfle
card-suit-diamonds = carreau
card-suit-stars = étoile
card-suit-flowers = fleur
card-suit-helms = casque
card-suit-jokers = jokers
card-of-spades = de pique
card-of-hearts = de cœur
card-of-clubs = de trèfle
card-of-diamonds = de carreau
card-of-stars = d’étoile
card-of-flowers = de fleur
card-of-helms = de casque
card-joker = le joker
card-joker-first = le premier joker
card-joker-second = le second joker
card-none = aucune carte
card-hidden = une carte

## The server's events

narration-player-declined = { $name } a décliné l’invitation
narration-seat-substituted = { $name } a repris la place { $seat } en remplaçant
narration-game-started = la partie a commencé
narration-clocks-started = les pendules ont démarré
narration-seat-bank-changed = { $me ->
    [yes] vous avez { $bank } en réserve
   *[no] { $who } a { $bank } en réserve
}
narration-pause-proposed = { $me ->
    [yes] vous avez proposé de mettre la table en pause
   *[no] { $who } a proposé de mettre la table en pause
}
narration-pause-proposed-until = { $me ->
    [yes] vous avez proposé de mettre la table en pause jusqu’au { $until }
   *[no] { $who } a proposé de mettre la table en pause jusqu’au { $until }
}
narration-pause-voted-yes = { $me ->
    [yes] vous avez voté pour la pause
   *[no] { $who } a voté pour la pause
}
narration-pause-voted-no = { $me ->
    [yes] vous avez voté contre la pause
   *[no] { $who } a voté contre la pause
}
narration-paused = la table est en pause : aucune pendule ne tourne
narration-pause-ended = la pause est finie ; les pendules tournent à nouveau
narration-resumed = { $me ->
    [yes] vous avez repris la partie
   *[no] { $who } a repris la partie
}
narration-game-cancelled = la partie a été annulée
narration-turn-timed-out = { $me ->
    [yes] votre temps est écoulé
   *[no] le temps de { $who } est écoulé
}
narration-turn-forced = { $me ->
    [yes] vous n’aviez qu’un coup possible ; le serveur l’a joué
   *[no] { $who } n’avait qu’un coup possible ; le serveur l’a joué
}
narration-takeback-offered = { $me ->
    [yes] vous avez demandé à reprendre votre dernier coup
   *[no] { $who } a demandé à reprendre son dernier coup
}
narration-takeback-accepted = { $me ->
    [yes] vous avez accepté la reprise
   *[no] { $who } a accepté la reprise
}
narration-takeback-declined = { $me ->
    [yes] vous avez refusé la reprise
   *[no] { $who } a refusé la reprise
}
narration-taken-back = { $me ->
    [yes] votre dernier coup a été repris
   *[no] le dernier coup de { $who } a été repris
}
narration-seat-vacation = { $me ->
    [yes] vous avez pris une pause jusqu’au { $until }
   *[no] { $who } a pris une pause jusqu’au { $until }
}
narration-player-resigned = { $me ->
    [yes] { $why ->
        [timeout] vous êtes éliminé, votre temps étant écoulé
        [inactive] vous êtes éliminé pour inactivité
       *[resigned] vous avez abandonné
    }
   *[no] { $why ->
        [timeout] { $who } est éliminé, son temps étant écoulé
        [inactive] { $who } est éliminé pour inactivité
       *[resigned] { $who } a abandonné
    }
} ; le serveur joue cette place désormais
narration-forfeit-no-winner = la partie s’est terminée par forfait, sans vainqueur
narration-forfeit = la partie s’est terminée par forfait : { $me ->
    [yes] { $winners } avez gagné
   *[no] { $count ->
        [one] { $winners } a gagné
       *[other] { $winners } ont gagné
    }
}

## Hats ($card, then $other and $more as each event says)

narration-hats-dealt = les cartes ont été distribuées ; la ligne est { $card }
narration-hats-discarded = { $me ->
    [yes] vous avez défaussé { $card }
   *[no] { $who } a défaussé { $card }
}
narration-hats-reshuffled = la défausse a été mélangée en une nouvelle pioche
narration-hats-drew = { $me ->
    [yes] vous avez pioché { $card }
   *[no] { $who } a pioché { $card }
}
narration-hats-their-partner = son partenaire
narration-hats-swap-offered = { $me ->
    [yes] vous avez offert { $card } face cachée à { $other }
   *[no] { $who } a offert { $card } face cachée à { $other }
}
narration-hats-swapped = { $me ->
    [yes] vous avez donné { $card } à { $other } et reçu { $more } en retour
   *[no] { $who } a donné { $card } à { $other } et reçu { $more } en retour
}
narration-hats-swapped-hidden = { $me ->
    [yes] vous et { $other } avez échangé une carte
   *[no] { $who } et { $other } ont échangé une carte
}
narration-hats-exchanged = { $me ->
    [yes] vous avez échangé { $card } contre { $other } en position { $more }
   *[no] { $who } a échangé { $card } contre { $other } en position { $more }
}
narration-hats-black-hat = { $me ->
    [yes] vous avez changé { $card } en chapeau noir
   *[no] { $who } a changé { $card } en chapeau noir
}
narration-hats-favourites = les chapeaux favoris ont été montrés : { $card }

## Top Hats

narration-colour-red = rouge
narration-colour-blue = bleu
narration-colour-yellow = jaune
narration-colour-neutral = neutre
narration-top-hats-then = puis
narration-top-hats-jump = de { $from } par-dessus { $over } vers { $to }{ $took ->
    [revealed] {" "}en retirant un chapeau { $removed } ({ $revealed } apparaît)
    [last] {" "}en retirant le dernier chapeau, { $removed }, du plateau
   *[none] {""}
}
narration-top-hats-jumped = { $me ->
    [yes] vous avez sauté
   *[no] { $who } a sauté
} { $jumps }{ $ended ->
    [yes] ; puis a fini son tour
   *[no] {""}
}
narration-top-hats-building-started = la construction a commencé : chacun construit cinq piles de trois chapeaux en même temps
narration-top-hats-position-set = la partie a commencé d’une position donnée ; { $first } joue en premier
narration-top-hats-stack-built = { $me ->
    [yes] vous avez construit la pile { $stack } : { $under } sous { $top } (de bas en haut)
   *[no] { $who } a construit la pile { $stack } : { $under } sous { $top } (de bas en haut)
}
narration-top-hats-stack-built-hidden = { $me ->
    [yes] vous avez construit la pile { $stack }
   *[no] { $who } a construit la pile { $stack }
}
narration-top-hats-stack-placed = { $me ->
    [yes] vous avez posé la pile { $stack } sur { $cell }
   *[no] { $who } a posé la pile { $stack } sur { $cell }
}
narration-top-hats-moved = { $me ->
    [yes] vous avez déplacé de { $from } vers { $to }
   *[no] { $who } a déplacé de { $from } vers { $to }
}
narration-top-hats-edge-zone-grew = il reste cinq piles ou moins : le deuxième anneau rejoint la zone du bord
narration-top-hats-skipped-no-colour = { $me ->
    [yes] vous avez passé votre tour : aucune pile ne montre votre couleur
   *[no] { $who } a passé son tour : aucune pile ne montre sa couleur
}
narration-top-hats-skipped = { $me ->
    [yes] vous avez passé votre tour : aucun coup légal
   *[no] { $who } a passé son tour : aucun coup légal
}
narration-top-hats-won = { $me ->
    [yes] vous avez gagné : seule votre couleur est visible
   *[no] { $who } a gagné : seule sa couleur est visible
}
narration-top-hats-drawn-quiet = la partie est nulle : trop de tours sans chapeau retiré
narration-top-hats-drawn = la partie est nulle : personne ne pouvait jouer

## Tricks (Goathead, Hat Trick)

narration-trick-card = { $me ->
    [yes] { $led ->
        [yes] vous avez entamé avec
       *[no] vous avez joué
    }
   *[no] { $led ->
        [yes] { $who } a entamé avec
       *[no] { $who } a joué
    }
} { $card }
narration-trick-goes-on = le pli continue
narration-match-ended = le match est terminé : { $me ->
    [yes] { $winners } avez gagné
   *[no] { $count ->
        [one] { $winners } a gagné
       *[other] { $winners } ont gagné
    }
} ({ $scores })

## Goathead

narration-goathead-contract = { $name } ({ $code })
narration-goathead-contract-clubs = trèfle
narration-goathead-contract-spades = pique
narration-goathead-contract-hearts = cœur
narration-goathead-contract-diamonds = carreau
narration-goathead-contract-leasters = Leasters
narration-goathead-trick-won = { $me ->
    [yes] vous avez remporté le pli ({ $points } points)
   *[no] { $who } a remporté le pli ({ $points } points)
}
narration-goathead-dealt = manche { $round } : { $other } a distribué
narration-goathead-bid = { $me ->
    [yes] vous avez annoncé { $contract }
   *[no] { $who } a annoncé { $contract }
}
narration-goathead-stole = { $me ->
    [yes] vous avez pris l’enchère à { $contract }
   *[no] { $who } a pris l’enchère à { $contract }
}
narration-goathead-passed = { $me ->
    [yes] vous avez passé
   *[no] { $who } a passé
}
narration-goathead-contract-set = { $me ->
    [yes] vous avez remporté les enchères avec { $contract }
   *[no] { $who } a remporté les enchères avec { $contract }
}
narration-goathead-all-passed = tout le monde a passé : on joue { $contract }
narration-goathead-kitty-taken-shown = { $me ->
    [yes] vous avez pris le talon ({ $cards })
   *[no] { $who } a pris le talon ({ $cards })
}
narration-goathead-kitty-taken = { $me ->
    [yes] vous avez pris le talon
   *[no] { $who } a pris le talon
}
narration-goathead-kitty-left = { $me ->
    [yes] vous avez laissé le talon
   *[no] { $who } a laissé le talon
}
narration-goathead-buried = { $me ->
    [yes] vous avez écarté { $card }
   *[no] { $who } a écarté { $card }
}
narration-goathead-buried-hidden = { $me ->
    [yes] vous avez écarté une carte
   *[no] { $who } a écarté une carte
}
narration-goathead-contract-kept = { $me ->
    [yes] vous avez gardé { $contract }
   *[no] { $who } a gardé { $contract }
}
narration-goathead-contract-upgraded = { $me ->
    [yes] vous avez monté le contrat à { $contract }
   *[no] { $who } a monté le contrat à { $contract }
}
narration-goathead-kitty-swapped = { $me ->
    [yes] vous avez échangé { $card } contre { $other } du talon
   *[no] { $who } a échangé { $card } contre { $other } du talon
}
narration-goathead-kitty-swapped-hidden = { $me ->
    [yes] vous avez échangé une carte avec le talon
   *[no] { $who } a échangé une carte avec le talon
}
narration-goathead-kitty-skipped = { $me ->
    [yes] vous avez gardé votre main (pas d’échange avec le talon)
   *[no] { $who } a gardé sa main (pas d’échange avec le talon)
}
narration-goathead-announced = { $me ->
    [yes] vous avez les deux valets noirs et appelez comme partenaire qui a { $card }
   *[no] { $who } a les deux valets noirs et appelle comme partenaire qui a { $card }
}
narration-goathead-play-started = le jeu commence ; { $me ->
    [yes] vous entamez
   *[no] { $who } entame
}
narration-goathead-round-scored = manche { $round } comptée : { $contract }{ $declared ->
    [yes] {" "}de { $by }
   *[no] {""}
} { $outcome ->
    [made] réussi
    [lost] chuté
   *[played] joué
}{ $counted ->
    [yes] {" "}avec { $points } points
   *[no] {""}
} (valeur { $value }) ; points de partie { $payments }

## Hat Trick

narration-hat-trick-no-trump = sans atout
narration-hat-trick-card = { $card }{ $predict ->
    [yes] {" "}et fait une prédiction
   *[no] {""}
}
narration-hat-trick-trick = pli { $trick } :{" "}
narration-hat-trick-won-it = { $me ->
    [yes] vous l’avez remporté
   *[no] { $who } l’a remporté
}
narration-hat-trick-dealt = donne { $deal } : { $dealer } a distribué ; l’atout est { $trump }{ $shown ->
    [yes] {" "}(montré par { $indicator })
   *[no] {""}
}{ $negative ->
    [yes] {" "}; une donne négative : le moins de points l’emporte
   *[no] {""}
}
narration-hat-trick-round-scored = donne { $deal } comptée : le pli 1, le pli 6 et le dernier sont allés à { $tricks }{ $hat_trick ->
    [yes] {" "}; un coup du chapeau pour { $holder }
   *[no] {""}
} ; points { $points } ; totaux { $totals }

## A game's result (a sentence each, after the first a space)

result-drawn = La partie est nulle.
result-everyone = Tout le monde partage la victoire.
result-won = { $me ->
    [yes] { $winners } avez gagné.
   *[no] { $count ->
        [one] { $winners } a gagné.
       *[other] { $winners } ont gagné.
    }
}
result-teams = Équipes : { $what }.
result-scores = Scores : { $what }.
result-forfeited = Éliminés par forfait : { $what }.
result-shared = La victoire est partagée.
result-tie-break = Départage : { $what }.
result-tie-black_hats = le plus de chapeaux noirs
result-tie-cookie = le cookie

## The counts players keep ($of is "none" when there is no total)

counter-round = manche { $n }{ $of ->
    [none] {""}
   *[other] {" "}sur { $of }
}
counter-deal = donne { $n }{ $of ->
    [none] {""}
   *[other] {" "}sur { $of }
}
counter-trick = pli { $n }
counter-turn = tour { $n }
