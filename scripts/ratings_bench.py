#!/usr/bin/env python3
"""What rating a game costs its finishing command: plays GAMES rated and
GAMES casual (`rated: false`) games of Hats for two over HTTP against a
running server, one request at a time, and prints p50/p99 of the commands
that did not finish a game, of casual finishes and of rated finishes.

    python3 scripts/ratings_bench.py http://127.0.0.1:8080 [GAMES]

(A casual finish still looks for games to rate; the difference between the
two finishes is the rating itself: the maths, the changes and the ratings
written.)
"""
import json
import random
import sys
import time
import urllib.request
import uuid


def api(base, method, path, token=None, body=None):
    request = urllib.request.Request(f"{base}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def player(base):
    name = f"bench_{uuid.uuid4().hex[:8]}"
    api(base, "POST", "/v1/auth/register", body={"username": name, "password": "bench-password"})
    return api(base, "POST", "/v1/auth/login", body={"username": name, "password": "bench-password"})["access_token"]


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000


def main():
    base = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    rng = random.Random(1)
    tokens = [player(base), player(base)]
    times = {"move": [], "casual finish": [], "rated finish": []}
    for n in range(2 * games):
        rated = n % 2 == 0
        game = api(base, "POST", "/v1/games", tokens[0],
                   {"ruleset": "hats", "players": 2, "options": {"rated": rated}})
        api(base, "POST", f"/v1/games/{game['id']}/join", tokens[1], {})
        while True:
            mine = None
            for token in tokens:
                seen = api(base, "GET", f"/v1/games/{game['id']}", token)
                if seen["legal_commands"]:
                    mine, who = seen, token
                    break
            if mine is None:
                break
            started = time.perf_counter()
            answer = api(base, "POST", f"/v1/games/{game['id']}/commands", who,
                         {"expected_version": mine["version"], "command": rng.choice(mine["legal_commands"])})
            took = time.perf_counter() - started
            if answer["game"]["status"] == "finished":
                times["rated finish" if rated else "casual finish"].append(took)
                break
            times["move"].append(took)
    for kind, values in times.items():
        print(f"{kind:>14}: n={len(values):5}  p50 {percentile(values, 50):6.2f} ms  p99 {percentile(values, 99):6.2f} ms")


if __name__ == "__main__":
    main()
