# Les mails en français (src/mail) : le cadre, la table en prose, les coups
# et leur légende, les dates. Chaque message est aussi dans mail-en.ftl.

## The table in prose (src/mail/render.rs): labels, then their facts

fact-game = Partie
fact-not-started = pas encore commencée
fact-view = Vue
fact-the-line = La ligne
fact-the-line-text = { $line } (la position 1 est à côté de la carte Ø)
fact-your-hand = Votre main
fact-your-black-hats = Vos chapeaux noirs
fact-offered = Offerte
fact-offered-text = vous avez offert { $card }
fact-you = Vous
fact-nothing-collected = rien de collecté
fact-collected = a collecté { $cards }
fact-cards = { $n ->
    [0] aucune carte
    [one] { $n } carte
   *[other] { $n } cartes
}
fact-cards-in-hand = { $n ->
    [0] aucune carte
    [one] { $n } carte
   *[other] { $n } cartes
} en main
fact-black-hats = { $n ->
    [0] aucun chapeau noir
    [one] { $n } chapeau noir
   *[other] { $n } chapeaux noirs
}
fact-on-discard = { $n ->
    [0] aucune carte
    [one] { $n } carte
   *[other] { $n } cartes
} dans la défausse
fact-cards-face-down = { $n ->
    [0] aucune carte
    [one] { $n } carte
   *[other] { $n } cartes
} face cachée
fact-deck = Pioche
fact-cookie = Cookie
fact-cookie-text = { $me ->
    [yes] vous l’auriez maintenant
   *[no] { $who } l’aurait maintenant
}
fact-round = Manche
fact-round-text = { $n } sur { $of } ; { $me ->
    [yes] vous avez distribué
   *[no] { $dealer } a distribué
}
fact-phase = Phase
fact-goathead-phase-bidding = enchères
fact-goathead-phase-kitty_choice = le déclarant prend ou laisse le talon
fact-goathead-phase-bury = le déclarant écarte des cartes
fact-goathead-phase-contract_choice = le déclarant garde ou monte le contrat
fact-goathead-phase-swap = échanges avec le talon
fact-goathead-phase-play = jeu des plis
fact-goathead-phase-round_over = la manche est finie
fact-goathead-phase-over = le match est fini
fact-contract = Contrat
fact-contract-declared = { $contract }, déclaré par { $who }
fact-highest-bid = Meilleure enchère
fact-highest-bid-text = { $contract } par { $who }
fact-the-kitty = Le talon
fact-trick = Pli
fact-played = { $me ->
    [yes] vous avez joué { $card }
   *[no] { $who } a joué { $card }
}
fact-no-card-played = aucune carte jouée pour l’instant
fact-tricks-won = Plis remportés
fact-card-points = Points des cartes
fact-game-points = Points de partie
fact-deal = Donne
fact-deal-text = { $n } sur { $of } ; { $me ->
    [yes] vous avez distribué
   *[no] { $dealer } a distribué
} ; pli { $trick }
fact-trump = Atout
fact-trump-text = { $trump }{ $shown ->
    [yes] {" "}(montré par { $indicator })
   *[no] {""}
}{ $negative ->
    [yes] {" "}; une donne négative : le moins de points l’emporte
   *[no] {""}
}
fact-scoring-tricks = Plis qui comptent
fact-scoring-trick = { $which ->
    [first] pli 1
    [sixth] pli 6
   *[last] le dernier
} { $played ->
    [yes] à { $who }
   *[no] pas encore joué
}
fact-predictions = Prédictions
fact-prediction = { $me ->
    [yes] vous avez réclamé le pli { $claims } (au pli { $made_on })
   *[no] { $who } a réclamé le pli { $claims } (au pli { $made_on })
}
fact-scores = Scores
fact-top-hats-phase-building = construction : chacun construit cinq piles de trois en même temps
fact-top-hats-phase-placing = placement : une pile par tour sur une case vide des anneaux 1-2
fact-top-hats-phase-playing = jeu : déplacez vos piles ou sautez
fact-top-hats-phase-over = la partie est finie
fact-colours = Couleurs
fact-your-pool = Votre réserve
fact-pool-empty = vide : tous vos chapeaux sont en piles
fact-stack = Pile { $n }
fact-stack-text = { $hats } (de bas en haut{ $placed ->
    [yes] , posée
   *[no] {""}
})
fact-jumping = Saut en cours
fact-jumping-text = la pile sur { $cell } (cases sautées ce tour : { $jumped })
fact-hats-taken-off = Chapeaux retirés
fact-quiet-turns = Tours calmes
fact-quiet-turns-text = { $n } sur { $of } (un tour sans chapeau retiré ; à la limite, partie nulle)
fact-board-key = R rouge, B bleu, Y jaune, n le chapeau neutre ; le nombre est la
    hauteur de la pile. Les cases se nomment comme d4 (colonne, rangée).

## The legend of move words: what a kind of move does (the words stay English)

legend-hats-exchange = donnez CARD de votre main contre la carte de la ligne en POSITION (même type ou un nombre plus petit) ; la carte de la ligne rejoint votre collection face visible
legend-hats-black_hat = changez CARD en chapeau noir (1 point)
legend-hats-discard_draw = avant votre action principale : défaussez CARD et piochez la carte du dessus
legend-hats-offer_swap = avant votre action principale : offrez CARD face cachée à votre partenaire
legend-hats-answer_swap = répondez à l’offre de votre partenaire avec CARD
legend-goathead-bid = enchérissez plus haut : suit:D < suit:H < nil < suit:S < suit:C < court
legend-goathead-steal = prenez l’enchère en tête (seulement avec moins de points de partie que son auteur)
legend-goathead-pass = quittez les enchères (définitif)
legend-goathead-take_kitty = prenez le talon en main
legend-goathead-leave_kitty = laissez le talon (+1 si vous gagnez)
legend-goathead-bury = écartez CARD face cachée au talon
legend-goathead-keep_contract = jouez le contrat annoncé
legend-goathead-upgrade = montez le contrat à CONTRACT
legend-goathead-kitty_swap = échangez votre carte HAND contre la carte KITTY du talon
legend-goathead-kitty_skip = n’échangez rien
legend-top-hats-build_stack = construisez votre pile suivante : BOTTOM et MIDDLE de votre réserve, votre couleur en haut
legend-top-hats-place = posez votre pile numéro STACK sur CELL
legend-top-hats-move = déplacez votre pile de FROM vers la case voisine TO
legend-top-hats-jump = sautez avec votre pile de FROM par-dessus une voisine vers TO ; un chapeau adverse sauté est retiré
legend-top-hats-end_turn = arrêtez une chaîne de sauts
legend-goathead-play = jouez CARD dans le pli
legend-hat-trick-play = jouez CARD ; play CARD predict réclame aussi le pli 6 (aux plis 2 à 5) ou le dernier pli (ensuite)

## The frame (src/mail/compose.rs)

mail-title = { $game } contre { $opponents }
mail-subject-your-turn = à vous de jouer
mail-subject-reminder = rappel, à vous de jouer
mail-subject-accepted = accepté, { $move }
mail-subject-not-accepted = refusé
mail-subject-invited = vous êtes invité
mail-subject-says = { $from } dit
mail-subject-game-over = partie terminée
mail-subject-drawn = partie terminée, nulle
mail-subject-won = partie terminée, { $me ->
    [yes] { $winners } avez gagné
   *[no] { $count ->
        [one] { $winners } a gagné
       *[other] { $winners } ont gagné
    }
}
mail-subject-confirm = Votre code de confirmation hatstand : { $code }
mail-subject-digest = Votre résumé hatstand : { $n ->
    [one] { $n } nouvelle
   *[other] { $n } nouvelles
}
mail-no-clock = Cette partie n’a pas de pendule.
mail-time-runs-out = Votre temps s’écoule le { $when }.
mail-move-by = Jouez avant le { $when }.
mail-hello-your-turn = Bonjour { $name }, c’est à vous de jouer dans { $title }{ $counted }.
mail-so-far = Jusqu’ici :
mail-since-your-last-move = Depuis votre dernier coup :
mail-the-last-moves = Les derniers coups :
mail-earlier-moves = (Les coups précédents sont sur la page de la partie.)
mail-heard = Dit depuis votre dernier mail de tour :
mail-earlier-messages = (Les messages précédents sont sur la page de la partie.)
mail-to-you = à vous
mail-at-the-table = à la table
mail-someone = quelqu’un
mail-the-table = La table :
mail-your-moves = Vos coups :
mail-how-to-reply = Répondez à ce mail avec le numéro d’un coup (ou le coup écrit en toutes lettres) sur la première ligne.
mail-move-words = Les mots des coups :
mail-now-waits = La partie attend maintenant { $who }.
mail-game-on-the-web = La partie sur le web
mail-unfired = Vos lignes conditionnelles qui n’ont pas joué (la partie s’en est écartée) :
mail-seat = place { $n }
mail-move-played = Votre coup « { $move } » a été joué.
mail-unreadable = il n’a pas pu être lu
mail-not-played = Votre mail n’a pas été joué : { $why }
mail-transactional = Ce mail répond au vôtre ; il est envoyé quels que soient vos réglages de mail.
mail-hello-invited = Bonjour { $name }, vous êtes invité à une partie de { $game } à { $players } joueurs (à la table : { $table }).
mail-join-or-decline = Rejoindre ou décliner
mail-hello-talk = Bonjour { $name }, { $from } dit { $room } dans { $title } :
mail-talk-reply-press = Répondez à ce mail pour lui répondre à lui seul (les lignes citées sont laissées de côté).
mail-talk-reply-table = Répondez à ce mail pour répondre à la table (les lignes citées sont laissées de côté).
mail-answer-on-the-web = Répondre sur le web
mail-after = après { $n } { $unit ->
    [round] { $n ->
        [one] manche
       *[other] manches
    }
    [deal] { $n ->
        [one] donne
       *[other] donnes
    }
   *[turn] { $n ->
        [one] tour
       *[other] tours
    }
}
mail-hello-finished = Bonjour { $name }, la partie de { $title } { $abandoned ->
    [yes] a été abandonnée
   *[no] est terminée
}{ $length }.
mail-rematch = Une revanche ? Proposez-en une, ou répondez à celle proposée, à la table
mail-audit = L’audit (chaque événement, la graine, la chaîne de hachage)
mail-hello-confirm = Bonjour { $name }, pour recevoir les mails de hatstand à cette adresse, confirmez-la avec ce code (valable 24 heures) :
mail-confirm-ignore = Si vous n’avez rien demandé, ignorez ce mail : rien d’autre ne sera envoyé.
mail-digest-intro = Ce qui s’est passé depuis votre dernier résumé :
mail-digest-your-turn = À vous de jouer dans { $game } [{ $tag }]
mail-digest-invited = Invité à { $game } [{ $tag }]
mail-digest-finished = { $game } [{ $tag }] est terminée
mail-digest-talk = { $from } a dit quelque chose dans { $game } [{ $tag }]

## Dates: `dim. 29 mars 2026, 20:00 CEST` (weekdays from Monday = 0)

mail-date = { $weekday } { $day } { $month } { $year }, { $time } { $zone }
mail-weekday-0 = lun.
mail-weekday-1 = mar.
mail-weekday-2 = mer.
mail-weekday-3 = jeu.
mail-weekday-4 = ven.
mail-weekday-5 = sam.
mail-weekday-6 = dim.
mail-month-1 = janv.
mail-month-2 = févr.
mail-month-3 = mars
mail-month-4 = avr.
mail-month-5 = mai
mail-month-6 = juin
mail-month-7 = juil.
mail-month-8 = août
mail-month-9 = sept.
mail-month-10 = oct.
mail-month-11 = nov.
mail-month-12 = déc.
mail-a-new-player = un nouveau joueur
mail-subject-substituted = { $who } reprend la place { $seat }
mail-hello-substituted = Bonjour { $name }, { $who } a repris la place { $seat } dans { $title }, que son joueur avait quittée : ses coups sont désormais les siens.
mail-see-the-game = Voir la partie
mail-digest-substituted = { $name } reprend la place { $seat } dans { $game } [{ $tag }]
mail-subject-tournament-round = Ronde { $round } de { $tournament } : votre table est prête
mail-hello-tournament-round = Bonjour { $name }, la ronde { $round } de { $tournament } a commencé et votre table est prête : { $title }.
mail-your-table = Votre table sur le web
mail-the-tournament = Le tournoi : classement et tables
mail-subject-tournament-finished = { $tournament } est terminé : vous finissez à la place { $place } sur { $field }
mail-hello-tournament-finished = Bonjour { $name }, { $tournament } est terminé : vous finissez à la place { $place } sur { $field }.
mail-subject-tournament-cancelled = { $tournament } annulé : trop peu de joueurs
mail-hello-tournament-cancelled = Bonjour { $name }, { $tournament } a été annulé à son début : trop peu de joueurs s'étaient inscrits ({ $field }).
mail-your-last-game = Votre dernière partie
mail-digest-tournament-round = Ronde { $round } de { $tournament } : votre table de { $game } [{ $tag }] est prête
mail-digest-tournament-finished = { $tournament } est terminé : vous finissez à la place { $place } sur { $field }
mail-digest-tournament-cancelled = { $tournament } a été annulé : trop peu de joueurs
