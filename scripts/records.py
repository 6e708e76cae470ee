#!/usr/bin/env python3
"""Regenerates the corpus of finished records in tests/records/.

Starts the server (the binary given, default target/release/hatstand) on a
fresh database, plays one short game for every ruleset and player count, the
Hat Trick variants, a timeout, a resignation and an abandoned game, each with a
public seed and commands chosen by a fixed pseudo-random sequence, writes each
game's audit document to tests/records/<name>.json, and says which records are
new, changed or unchanged. A record's bytes differ between runs (ids, times),
so "changed" compares what the record means: ruleset, rules version, options,
the commands and event types in order, and the result.

    cargo build --release && python3 scripts/records.py

With --signed, the records go to tests/records/signed/ as the server issues
them once each game is in its transparency log: signed, with the proof of
inclusion under a signed tree head; the server's public keys go beside them
(keys.json).

With --salted, games of every card ruleset under the rules whose seats salt
the shuffle go to tests/records/salted/, signed and logged as with --signed:
secret seeds (revealed by each audit), the creator's salt sent with the
creation, the second seat's with its join, and the other seats' made by the
server. Their deals differ from run to run, so they are always "CHANGED".

Records in tests/records/legacy/ were written before rules versions existed
and are never regenerated: they show that such records still verify.

Only the Python standard library is used.
"""

import argparse
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "records")

# name, ruleset, players, options, how the game ends
GAMES = [
    ("hats-2p", "hats", 2, {}, "play"),
    ("hats-3p", "hats", 3, {}, "play"),
    ("hats-4p", "hats", 4, {}, "play"),
    ("goathead-3p", "goathead", 3, {"rounds": 1}, "play"),
    ("goathead-4p", "goathead", 4, {"rounds": 1}, "play"),
    ("top-hats-2p", "top-hats", 2, {}, "play"),
    ("top-hats-2p-rules-1", "top-hats", 2, {"rules_version": 1}, "play"),
    ("top-hats-3p", "top-hats", 3, {"quiet_turn_limit": 20}, "play"),
    ("hat-trick-2p", "hat-trick", 2, {"rounds": 2}, "play"),
    ("hat-trick-3p", "hat-trick", 3, {"rounds": 2}, "play"),
    ("hat-trick-4p", "hat-trick", 4, {"rounds": 2}, "play"),
    ("hat-trick-5p", "hat-trick", 5, {"rounds": 2}, "play"),
    ("hat-trick-6p", "hat-trick", 6, {"rounds": 2}, "play"),
    ("hat-trick-cycle", "hat-trick", 3, {"rounds": 2, "trump_mode": "cycle"}, "play"),
    ("hat-trick-colour-first", "hat-trick", 3, {"rounds": 2, "play_rule": "colour_first"}, "play"),
    ("hat-trick-colour-or-trump", "hat-trick", 3, {"rounds": 2, "play_rule": "colour_or_trump"}, "play"),
    ("hat-trick-joker-by-trick", "hat-trick", 3, {"rounds": 2, "joker_by_trick": 3}, "play"),
    ("hat-trick-no-joker", "hat-trick", 4, {"rounds": 2, "no_joker": True}, "play"),
    ("hats-2p-resigned", "hats", 2, {}, "resign"),
    ("hats-2p-timeout", "hats", 2, {"turn_timeout": "PT1S", "on_timeout": "forfeit"}, "timeout"),
    ("goathead-3p-abandoned", "goathead", 3, {"rounds": 1}, "cancel"),
]


# Games under the salted rules (--salted): name, ruleset, players, options.
SALTED = [
    ("hats-2p", "hats", 2, {}),
    ("hats-3p", "hats", 3, {}),
    ("goathead-3p", "goathead", 3, {"rounds": 2}),
    ("hat-trick-3p", "hat-trick", 3, {"rounds": 2}),
]


def call(base, method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            text = reply.read()
            return reply.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def ok(reply, *expected):
    status, body = reply
    if status not in expected:
        sys.exit(f"records: unexpected answer {status}: {body}")
    return body


def user(base, name):
    ok(call(base, "POST", "/v1/auth/register", body={"username": name, "password": "password123"}), 201)
    login = ok(call(base, "POST", "/v1/auth/login", body={"username": name, "password": "password123"}), 200)
    return login["access_token"]


def play(base, name, ruleset, players, options, ending, salted=False):
    rng = random.Random(name)
    tokens = [user(base, f"{name[:20]}-{i}-{uuid.uuid4().hex[:6]}") for i in range(players)]
    options = dict(options) if salted else dict(options, seed=f"records/{name}")
    request = {"ruleset": ruleset, "players": players}
    if "rules_version" in options:
        request["rules_version"] = options.pop("rules_version")
    request["options"] = options
    if salted:
        request["salt"] = secrets.token_hex(32)
    game = ok(call(base, "POST", "/v1/games", tokens[0], request), 201)
    gid = game["id"]
    if ending == "cancel":
        ok(call(base, "POST", f"/v1/games/{gid}/join", tokens[1], {}), 200, 201)
        ok(call(base, "POST", f"/v1/games/{gid}/cancel", tokens[0]), 200)
        return gid, tokens[0]
    for seat, token in enumerate(tokens[1:], start=1):
        body = {"salt": secrets.token_hex(32)} if salted and seat == 1 else {}
        ok(call(base, "POST", f"/v1/games/{gid}/join", token, body), 200, 201)
    moves = 0
    while True:
        game = ok(call(base, "GET", f"/v1/games/{gid}", tokens[0]), 200)
        if game["status"] != "active":
            return gid, tokens[0]
        if ending == "resign" and moves == 6:
            ok(call(base, "POST", f"/v1/games/{gid}/resign", tokens[1]), 200)
            continue
        if ending == "timeout" and moves == 4:
            time.sleep(3)
            continue
        seat = game["to_act"][0]
        view = ok(call(base, "GET", f"/v1/games/{gid}", tokens[seat]), 200)
        command = rng.choice(view["legal_commands"])
        status, body = call(base, "POST", f"/v1/games/{gid}/commands", tokens[seat],
                            {"command": command, "expected_version": view["version"]})
        if status != 200:
            sys.exit(f"records: {name}: command refused {status}: {body}")
        moves += 1


def meaning(audit):
    """What a record means, apart from ids, times and hashes."""
    created = audit["events"][0]["data"]
    return {
        "ruleset": audit["ruleset"],
        "rules": audit.get("rules") or created.get("rules") or f"{audit['ruleset']}@1",
        "options": created.get("options"),
        "status": audit["status"],
        "log": [(e["type"], e.get("command")) for e in audit["events"][1:] if not e["type"].startswith(("player_joined",))],
        "result": audit["result"],
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "hatstand"))
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432",
                        help="a PostgreSQL server; a fresh database is made on it")
    parser.add_argument("--out", default=None)
    parser.add_argument("--signed", action="store_true",
                        help="signed, logged records (tests/records/signed/) and the server's keys")
    parser.add_argument("--salted", action="store_true",
                        help="signed, logged records of salted games (tests/records/salted/) and the server's keys")
    args = parser.parse_args()
    args.signed = args.signed or args.salted
    args.out = args.out or os.path.join(OUT, "salted" if args.salted else "signed" if args.signed else "")
    database = f"hatstand_records_{uuid.uuid4().hex[:8]}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, DATABASE_URL=f"{args.server}/{database}", HATSTAND_BIND=f"127.0.0.1:{port}",
               RUST_LOG="warn", HATSTAND_LOG_TICK_MS="200",
               HATSTAND_REGISTRATIONS_PER_ADDRESS="0", HATSTAND_GAMES_PER_HOUR="0")
    subprocess.run([args.binary, "migrate"], env=env, check=True)
    server = subprocess.Popen([args.binary], env=env)
    try:
        for _ in range(100):
            try:
                if call(base, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        os.makedirs(args.out, exist_ok=True)
        games = [(n, r, p, o, "play") for n, r, p, o in SALTED] if args.salted else GAMES
        for name, ruleset, players, options, ending in games:
            gid, token = play(base, name, ruleset, players, options, ending, args.salted)
            audit = ok(call(base, "GET", f"/v1/games/{gid}/audit", token), 200)
            while args.signed and "log" not in audit:
                time.sleep(0.1)
                audit = ok(call(base, "GET", f"/v1/games/{gid}/audit", token), 200)
            path = os.path.join(args.out, f"{name}.json")
            before = None
            if os.path.exists(path):
                with open(path) as f:
                    before = meaning(json.load(f))
            with open(path, "w") as f:
                json.dump(audit, f, indent=1)
                f.write("\n")
            verdict = "new" if before is None else ("unchanged" if before == meaning(audit) else "CHANGED")
            print(f"{verdict:9} {name} ({len(audit['events'])} events)")
        if args.signed:
            keys = ok(call(base, "GET", "/.well-known/hatstand-keys.json"), 200)
            with open(os.path.join(args.out, "keys.json"), "w") as f:
                json.dump(keys, f, indent=1)
                f.write("\n")
    finally:
        server.terminate()
        server.wait()
        subprocess.run(["psql", "-q", args.server + "/postgres", "-c", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"],
                       check=False)


if __name__ == "__main__":
    main()
