# hatstand's server messages in English: problem titles and push texts.
# Every message here is in fr.ftl too (a test compares the two).

## problem+json titles, by code

problem-bad_request = Bad request
problem-unauthenticated = Unauthenticated
problem-refresh_token_reused = Refresh token reused
problem-wrong_password = Wrong password
problem-wrong_code = Wrong code
problem-not_a_player = Not a player
problem-forbidden = Forbidden
problem-not_invited = Not invited
problem-not_found = Not found
problem-method_not_allowed = Method not allowed
problem-request_timeout = Request timeout
problem-version_conflict = Version conflict
problem-game_full = Conflict
problem-seat_taken = Conflict
problem-already_joined = Conflict
problem-game_not_open = Conflict
problem-game_finished = Conflict
problem-game_not_finished = Conflict
problem-username_taken = Conflict
problem-not_your_turn = Not your turn
problem-already_resigned = Conflict
problem-no_deadline = Conflict
problem-too_many_webhooks = Conflict
problem-talk_not_allowed = Forbidden
problem-audience_not_a_seat = Unprocessable Entity
problem-message_too_long = Unprocessable Entity
problem-muted = Forbidden
problem-not_reported = Conflict
problem-cursor_expired = Cursor expired
problem-payload_too_large = Payload too large
problem-illegal_command = Illegal command
problem-invalid_options = Invalid options
problem-idempotency_key_reused = Idempotency key reused
problem-vacation_exceeded = Unprocessable request
problem-unknown_rules_version = Unprocessable request
problem-bad_salt = Unprocessable request
problem-unknown_bot_level = Unprocessable request
problem-no_such_seat = Unprocessable request
problem-no_such_version = Unprocessable request
problem-conditional_unparsable = Unprocessable request
problem-conditional_never_matches = Unprocessable request
problem-conditional_not_supported = Unprocessable request
problem-conditional_on_your_turn = Conflict
problem-rating_out_of_range = Forbidden
problem-rematch_already_offered = Conflict
problem-rematch_not_offered = Conflict
problem-rematch_closed = Conflict
problem-humans_only = Conflict
problem-bot_account_refused = Conflict
problem-too_many_push_subscriptions = Conflict
problem-invalid_push_subscription = Invalid push subscription
problem-invalid_duration = Unprocessable request
problem-unknown_time_zone = Unprocessable request
problem-takebacks_in_rated_game = Unprocessable request
problem-pauses_forbidden = Unprocessable request
problem-pause_until_past = Unprocessable request
problem-pause_open = Conflict
problem-no_pause_proposal = Conflict
problem-not_paused = Conflict
problem-takeback_disabled = Unprocessable request
problem-takeback_not_allowed = Conflict
problem-takeback_no_offer = Conflict
problem-reliability_too_low = Forbidden
problem-too_many_games = Conflict
problem-too_many_blocks = Conflict
problem-seat_refused = Forbidden
problem-unsupported_language = Unprocessable request
problem-precondition_required = Precondition required
problem-rate_limited = Too many requests
problem-unavailable = Service unavailable
problem-internal = Internal server error
problem-limit_reached = Limit reached
problem-busy = Busy

## push notifications, by kind ($game: the game's name)

push-your_turn = Your turn in { $game }.
push-takeback_offered = A player asks to take a move back in { $game }.
push-invited = You are invited to a game of { $game }.
push-game_finished = Your game of { $game } is over.
push-timed_out = Time ran out in { $game }: a move was played for a seat.
push-deadline_soon = Your move in { $game }: the clock runs out soon.
push-talk = A message for you in { $game }.
