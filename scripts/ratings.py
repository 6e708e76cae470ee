#!/usr/bin/env python3
"""Recompute ratings from exported audits, without the server's code.

    hatstand export > audits.jsonl        # or GET /v1/me/games/export
    python3 scripts/ratings.py audits.jsonl --player ada [--bots ID,ID]

Follows docs/ratings.md: pools by ruleset and table size; Glicko-2
(Glickman's algorithm, tau 0.5, one game a rating period) for two seats,
Weng-Lin's Bradley-Terry full pairing (beta 25/6) for more seats and teams;
places from the result; casual, abandoned and forfeit-before-a-move games
skipped. Games are taken by (finished_at, game_id): the server's finish
order, except for games committed within the same instant (the server's
order is each game's `finish_order`, GET /v1/games/{id}/ratings).
`--self-test` checks the maths against the published examples.
"""
import argparse
import json
import math
import sys

SCALE = 173.7178


def glicko2(one, two, score, tau=0.5, eps=0.000001):
    """One game between two players; score is one's (1, 0.5, 0)."""

    def side(me, them, s):
        mu, phi, sigma = (me[0] - 1500) / SCALE, me[1] / SCALE, me[2]
        mu_j, phi_j = (them[0] - 1500) / SCALE, them[1] / SCALE
        g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v = 1 / (g**2 * e * (1 - e))
        delta = v * g * (s - e)
        a = math.log(sigma**2)

        def f(x):
            ex = math.exp(x)
            return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (
                x - math.log(sigma**2)
            ) / tau**2

        big_a = a
        if delta**2 > phi**2 + v:
            big_b = math.log(delta**2 - phi**2 - v)
        else:
            k = 1
            while f(a - k * tau) < 0:
                k += 1
            big_b = a - k * tau
        fa, fb = f(big_a), f(big_b)
        while abs(big_b - big_a) > eps:
            c = big_a + (big_a - big_b) * fa / (fb - fa)
            fc = f(c)
            if fc * fb <= 0:
                big_a, fa = big_b, fb
            else:
                fa /= 2
            big_b, fb = c, fc
        new_sigma = math.exp(big_a / 2)
        pre = math.hypot(phi, new_sigma)
        new_phi = 1 / math.sqrt(1 / pre**2 + 1 / v)
        new_mu = mu + new_phi**2 * g * (s - e)
        return (new_mu * SCALE + 1500, new_phi * SCALE, new_sigma)

    return side(one, two, score), side(two, one, 1 - score)


def weng_lin(teams, ranks, beta=25 / 6, tolerance=0.000001):
    """Teams of (mu, sigma) with their ranks (1 = first, ties equal)."""
    mus = [sum(p[0] for p in t) for t in teams]
    sig2 = [sum(p[1] ** 2 for p in t) for t in teams]
    out = []
    for i, team in enumerate(teams):
        omega = big_delta = 0.0
        for q in range(len(teams)):
            if q == i:
                continue
            c = math.sqrt(sig2[i] + sig2[q] + 2 * beta**2)
            e1, e2 = math.exp(mus[i] / c), math.exp(mus[q] / c)
            p = e1 / (e1 + e2)
            s = 1.0 if ranks[q] > ranks[i] else 0.5 if ranks[q] == ranks[i] else 0.0
            omega += sig2[i] / c * (s - p)
            gamma = math.sqrt(sig2[i]) / c
            big_delta += gamma * sig2[i] / c**2 * p * (1 - p)
        out.append(
            [
                (
                    mu + p2 / sig2[i] * omega,
                    math.sqrt(p2 * max(1 - p2 / sig2[i] * big_delta, tolerance)),
                )
                for mu, p2 in ((p[0], p[1] ** 2) for p in team)
            ]
        )
    return out


def places(result, players):
    """The sides (seats) and their places, as docs/ratings.md says."""
    teams = result.get("teams")
    if teams:
        raw = [(t["seats"], t["score"]) for t in teams]
    else:
        raw = [([s], result["scores"][s]) for s in range(players)]
    won = [any(s in result["winners"] for s in seats) for seats, _ in raw]
    if not any(won):
        return [(seats, 1) for seats, _ in raw]
    scores = [sc for _, sc in raw]
    winning = [sc for (_, sc), w in zip(raw, won) if w]
    lower = all(s == min(scores) for s in winning) and not all(s == max(scores) for s in winning)
    better = (lambda a, b: a < b) if lower else (lambda a, b: a > b)
    n_won = sum(won)
    out = []
    for i, (seats, sc) in enumerate(raw):
        if won[i]:
            out.append((seats, 1))
        else:
            ahead = sum(1 for j, (_, o) in enumerate(raw) if not won[j] and better(o, sc))
            out.append((seats, n_won + ahead + 1))
    return out


def rate(audits, bots):
    ratings = {}  # (user, ruleset, players) -> (rating, deviation, volatility)
    finished = [a for a in audits if a.get("status") == "finished" and a.get("result")]
    finished.sort(key=lambda a: (a["finished_at"], a["game_id"]))
    for audit in finished:
        created = audit["events"][0]["data"]
        players = created["players"]
        seats = {}
        for e in audit["events"]:
            if e["type"] == "player_joined":
                seats[e["data"]["seat"]] = e["data"]["user_id"]
        options = created.get("server_options") or {}
        has_bot = any(u in bots for u in seats.values())
        rated = options.get("rated")
        if rated is None:
            rated = not created.get("private", False) and not has_bot
        if not rated or len(seats) != players or len(set(seats.values())) != players:
            continue
        result = audit["result"]
        if result.get("outcome") == "forfeit" and not any(
            e.get("command") is not None and (e.get("actor") or {}).get("user_id")
            for e in audit["events"]
        ):
            continue
        ruleset = audit["ruleset"]
        sides = places(result, players)
        key = lambda seat: (seats[seat], ruleset, players)
        if players == 2:
            (s1, p1), (s2, p2) = sides
            start = (1500.0, 350.0, 0.06)
            a, b = ratings.get(key(s1[0]), start), ratings.get(key(s2[0]), start)
            score = 1.0 if p1 < p2 else 0.5 if p1 == p2 else 0.0
            na, nb = glicko2(a, b, score)
            ratings[key(s1[0])], ratings[key(s2[0])] = na, nb
        else:
            start = (25.0, 25 / 3)
            teams = [[ratings.get(key(s), start)[:2] for s in seats_] for seats_, _ in sides]
            new = weng_lin(teams, [p for _, p in sides])
            for (seats_, _), team in zip(sides, new):
                for s, r in zip(seats_, team):
                    ratings[key(s)] = r
    return ratings


def self_test():
    (one, two) = glicko2((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06), 1.0)
    assert round(one[0]) == 1662 and round(one[1]) == 290, one
    assert abs(one[2] - 0.05999967537233814) < 1e-15, one
    assert round(two[0]) == 1338, two
    start = (25.0, 25 / 3)
    teams = [
        [start, (30.0, 1.2), (21.0, 6.5)],
        [start, (41.0, 1.4), (19.2, 4.3)],
        [start, (29.4, 1.6), (17.2, 2.1)],
    ]
    new = weng_lin(teams, [2, 1, 3])
    got = [[round(p[0] * 100) for p in t] for t in new]
    assert got == [[2538, 3001, 2123], [2796, 4108, 1999], [2166, 2928, 1699]], got
    print("the published examples: ok")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audits", nargs="?", help="JSON Lines of audits (hatstand export)")
    parser.add_argument("--player", help="a user id or username; every player when absent")
    parser.add_argument("--bots", default="", help="comma-separated user ids of bot accounts")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return
    with open(args.audits) if args.audits else sys.stdin as f:
        audits = [json.loads(line) for line in f if line.strip()]
    names = {}
    for a in audits:
        for e in a["events"]:
            if e["type"] == "player_joined":
                names[e["data"]["user_id"]] = e["data"]["username"]
    ratings = rate(audits, set(filter(None, args.bots.split(","))))
    for (user, ruleset, players), r in sorted(ratings.items()):
        if args.player in (None, user, names.get(user)):
            print(json.dumps({"user_id": user, "username": names.get(user), "ruleset": ruleset,
                              "players": players, "rating": r[0], "deviation": r[1]}))


if __name__ == "__main__":
    main()
