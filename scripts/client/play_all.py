"""Plays one game of each ruleset to its end, and reads an abandoned game's
audit, through a client generated from the committed OpenAPI document,
using its typed models only (no raw JSON). Run by scripts/client-check.sh.

    python play_all.py BASE_URL
"""

import random
import sys

from hatstand_client import AuthenticatedClient, Client
from hatstand_client.api.audit import get_audit
from hatstand_client.api.auth import register_account, sign_in
from hatstand_client.api.games import (
    cancel_game,
    create_game,
    get_game,
    join_game,
    list_events,
    send_command,
)
from hatstand_client.api.talk import list_talk, say
from hatstand_client.models import (
    SayRequest,
    TalkMessage,
    TalkPage,
    AccessToken,
    GoatheadResult,
    GoatheadView,
    HatsResult,
    HatTrickResult,
    TopHatsResult,
    HatsView,
    HatTrickView,
    TopHatsView,
    GoatheadAuditDocument,
    HatsAuditDocument,
    HatTrickAuditDocument,
    TopHatsAuditDocument,
    CommandRequest,
    CommandResponse,
    GoatheadCreateGame,
    GoatheadCreateGameRuleset,
    HatsCreateGame,
    HatsCreateGameRuleset,
    HatTrickCreateGame,
    HatTrickCreateGameRuleset,
    TopHatsCreateGame,
    TopHatsCreateGameRuleset,
    GoatheadGameOptions,
    HatsGameOptions,
    HatTrickGameOptions,
    TopHatsGameOptions,
    GoatheadGameOptionsOut,
    HatsGameOptionsOut,
    HatTrickGameOptionsOut,
    TopHatsGameOptionsOut,
    Credentials,
    EventsPage,
    GoatheadGame,
    HatsGame,
    HatTrickGame,
    TopHatsGame,
    GameStatus,
    JoinGame,
    Problem,
    RulesetId,
)

BASE = sys.argv[1]
# The smallest table of each ruleset, with short games where the ruleset
# has a length option: a request to create a game is its ruleset's class,
# whose options are that ruleset's.
TABLES = [
    (RulesetId.HATS, HatsCreateGame(
        ruleset=HatsCreateGameRuleset.HATS, players=2,
        options=HatsGameOptions(turn_timeout="PT24H"))),
    (RulesetId.GOATHEAD, GoatheadCreateGame(
        ruleset=GoatheadCreateGameRuleset.GOATHEAD, players=3,
        options=GoatheadGameOptions(rounds=1))),
    (RulesetId.HAT_TRICK, HatTrickCreateGame(
        ruleset=HatTrickCreateGameRuleset.HAT_TRICK, players=2,
        options=HatTrickGameOptions(rounds=2))),
    (RulesetId.TOP_HATS, TopHatsCreateGame(
        ruleset=TopHatsCreateGameRuleset.TOP_HATS, players=2,
        options=TopHatsGameOptions())),
]
chooser = random.Random(1)
# A game is typed by its ruleset: each class holds that ruleset's view,
# commands, result and options.
GAMES = {
    RulesetId.HATS: HatsGame,
    RulesetId.GOATHEAD: GoatheadGame,
    RulesetId.HAT_TRICK: HatTrickGame,
    RulesetId.TOP_HATS: TopHatsGame,
}
# Each ruleset's view, as the client types it.
VIEWS = {
    RulesetId.HATS: HatsView,
    RulesetId.GOATHEAD: GoatheadView,
    RulesetId.HAT_TRICK: HatTrickView,
    RulesetId.TOP_HATS: TopHatsView,
}
# An audit is typed by its ruleset too: its events, final state and result.
AUDITS = {
    RulesetId.HATS: HatsAuditDocument,
    RulesetId.GOATHEAD: GoatheadAuditDocument,
    RulesetId.HAT_TRICK: HatTrickAuditDocument,
    RulesetId.TOP_HATS: TopHatsAuditDocument,
}
# Options are sent as one type and shown as another (`explicit_deals`, a
# count, for the `deals` sent).
SHOWN_OPTIONS = {
    RulesetId.HATS: HatsGameOptionsOut,
    RulesetId.GOATHEAD: GoatheadGameOptionsOut,
    RulesetId.HAT_TRICK: HatTrickGameOptionsOut,
    RulesetId.TOP_HATS: TopHatsGameOptionsOut,
}
RESULTS = {
    RulesetId.HATS: HatsResult,
    RulesetId.GOATHEAD: GoatheadResult,
    RulesetId.HAT_TRICK: HatTrickResult,
    RulesetId.TOP_HATS: TopHatsResult,
}


def player(name: str) -> AuthenticatedClient:
    anonymous = Client(base_url=BASE)
    credentials = Credentials(username=name, password="client-check-password")
    register_account.sync_detailed(client=anonymous, body=credentials)
    token = sign_in.sync(client=anonymous, body=credentials)
    assert isinstance(token, AccessToken), token
    return AuthenticatedClient(base_url=BASE, token=token.access_token)


def play(ruleset: RulesetId, request, run: int) -> None:
    clients = [player(f"{ruleset.value}-{run}-{seat}") for seat in range(request.players)]
    game = create_game.sync(client=clients[0], body=request)
    assert isinstance(game, GAMES[ruleset]), game
    for client in clients[1:]:
        joined = join_game.sync(id=game.id, client=client, body=JoinGame())
        assert isinstance(joined, GAMES[ruleset]), joined
    said = say.sync(id=game.id, client=clients[0], body=SayRequest(text=f"good luck, {ruleset.value}"))
    assert isinstance(said, TalkMessage), said
    heard = list_talk.sync(id=game.id, client=clients[-1])
    assert isinstance(heard, TalkPage) and any(m.id == said.id for m in heard.messages), heard
    commands = 0
    while True:
        game = get_game.sync(id=game.id, client=clients[0])
        assert isinstance(game, GAMES[ruleset]), game
        if game.status == GameStatus.FINISHED:
            assert isinstance(game.result, RESULTS[ruleset]), type(game.result)
            assert isinstance(game.options, SHOWN_OPTIONS[ruleset]), type(game.options)
            break
        assert game.status == GameStatus.ACTIVE, game.status
        seat = chooser.choice(game.to_act)
        mine = get_game.sync(id=game.id, client=clients[seat])
        assert isinstance(mine, GAMES[ruleset]) and mine.my_seat == seat, mine
        assert isinstance(mine.view, VIEWS[ruleset]), type(mine.view)
        command = chooser.choice(mine.legal_commands)
        answer = send_command.sync(
            id=game.id,
            client=clients[seat],
            body=CommandRequest(command=command, expected_version=mine.version),
        )
        assert isinstance(answer, CommandResponse), answer
        commands += 1
    audit = get_audit.sync(id=game.id, client=clients[0])
    assert isinstance(audit, AUDITS[ruleset]), audit
    assert audit.status == GameStatus.FINISHED
    # The events feed as a seat sees it: every event a typed class with its
    # `seq`, `type`, `kind` and `data`.
    page = list_events.sync(id=game.id, client=clients[0], limit=1000)
    assert isinstance(page, EventsPage), page
    assert [event.seq for event in page.events] == list(range(1, len(audit.events) + 1))
    kinds = {type(event).__name__ for event in page.events}
    assert all(kind.startswith(("ServerEvent", "HatsEventView", "GoatheadEventView",
                                "HatTrickEventView", "TopHatsEventView"))
               for kind in kinds), kinds
    print(f"{ruleset.value}: {request.players} players, {commands} commands, finished, audit of {len(audit.events)} events, feed typed as {len(kinds)} event classes")


def abandoned() -> None:
    creator = player("abandoning-creator")
    game = create_game.sync(client=creator, body=HatsCreateGame(ruleset=HatsCreateGameRuleset.HATS, players=2))
    assert isinstance(game, HatsGame), game
    cancelled = cancel_game.sync(id=game.id, client=creator)
    assert isinstance(cancelled, HatsGame) and cancelled.status == GameStatus.ABANDONED
    audit = get_audit.sync(id=game.id, client=creator)
    assert isinstance(audit, HatsAuditDocument), audit
    assert audit.final_state is None, audit.final_state
    missing = get_audit.sync(id="00000000-0000-4000-8000-000000000000", client=creator)
    assert isinstance(missing, Problem) and missing.code.value == "not_found", missing
    print("abandoned: audit read, final_state null")


for run, (ruleset, request) in enumerate(TABLES):
    play(ruleset, request, run)
abandoned()
print("client-check: 4 rulesets played to the end, 1 abandoned audit read")
