# Les messages du serveur hatstand en français : titres des problèmes et textes des notifications.
# Chaque message est aussi dans en.ftl (un test compare les deux).

## problem+json titles, by code

problem-bad_request = Requête invalide
problem-unauthenticated = Non authentifié
problem-refresh_token_reused = Jeton de renouvellement réutilisé
problem-wrong_password = Mot de passe incorrect
problem-wrong_code = Code incorrect
problem-not_a_player = Pas joueur de cette partie
problem-forbidden = Interdit
problem-not_invited = Pas invité
problem-not_found = Introuvable
problem-method_not_allowed = Méthode non permise
problem-request_timeout = Délai de requête dépassé
problem-version_conflict = Conflit de version
problem-game_full = Conflit
problem-seat_taken = Conflit
problem-already_joined = Conflit
problem-game_not_open = Conflit
problem-game_finished = Conflit
problem-game_not_finished = Conflit
problem-username_taken = Conflit
problem-not_your_turn = Ce n’est pas votre tour
problem-already_resigned = Conflit
problem-no_deadline = Conflit
problem-too_many_webhooks = Conflit
problem-talk_not_allowed = Interdit
problem-audience_not_a_seat = Requête impossible à traiter
problem-message_too_long = Requête impossible à traiter
problem-muted = Interdit
problem-not_reported = Conflit
problem-cursor_expired = Curseur expiré
problem-payload_too_large = Contenu trop volumineux
problem-illegal_command = Coup illégal
problem-invalid_options = Options invalides
problem-idempotency_key_reused = Clé d’idempotence réutilisée
problem-vacation_exceeded = Requête impossible à traiter
problem-unknown_rules_version = Requête impossible à traiter
problem-bad_salt = Requête impossible à traiter
problem-unknown_bot_level = Requête impossible à traiter
problem-no_such_seat = Requête impossible à traiter
problem-no_such_version = Requête impossible à traiter
problem-conditional_unparsable = Requête impossible à traiter
problem-conditional_never_matches = Requête impossible à traiter
problem-conditional_not_supported = Requête impossible à traiter
problem-conditional_on_your_turn = Conflit
problem-rating_out_of_range = Interdit
problem-rematch_already_offered = Conflit
problem-rematch_not_offered = Conflit
problem-rematch_closed = Conflit
problem-humans_only = Conflit
problem-bot_account_refused = Conflit
problem-too_many_push_subscriptions = Conflit
problem-invalid_push_subscription = Abonnement push invalide
problem-invalid_duration = Requête impossible à traiter
problem-unknown_time_zone = Requête impossible à traiter
problem-takebacks_in_rated_game = Requête impossible à traiter
problem-pauses_forbidden = Requête impossible à traiter
problem-pause_until_past = Requête impossible à traiter
problem-pause_open = Conflit
problem-no_pause_proposal = Conflit
problem-not_paused = Conflit
problem-takeback_disabled = Requête impossible à traiter
problem-takeback_not_allowed = Conflit
problem-takeback_no_offer = Conflit
problem-reliability_too_low = Interdit
problem-too_many_games = Conflit
problem-too_many_blocks = Conflit
problem-seat_refused = Interdit
problem-unsupported_language = Requête impossible à traiter
problem-precondition_required = Condition préalable requise
problem-rate_limited = Trop de requêtes
problem-unavailable = Service indisponible
problem-internal = Erreur interne du serveur
problem-limit_reached = Limite atteinte
problem-busy = Occupé

## push notifications, by kind ($game: the game's name)

push-your_turn = À vous de jouer dans { $game }.
push-takeback_offered = Un joueur demande à reprendre un coup dans { $game }.
push-invited = Vous êtes invité à une partie de { $game }.
push-game_finished = Votre partie de { $game } est terminée.
push-timed_out = Temps écoulé dans { $game } : un coup a été joué pour une place.
push-deadline_soon = À vous dans { $game } : votre temps est bientôt écoulé.
push-talk = Un message pour vous dans { $game }.
