#!/usr/bin/env python3
"""A complete hatstand bot: it turns its account into a bot account, accepts
every invitation, and plays a random legal command whenever a game waits for
it, woken by its notification stream. Python 3 standard library only.

    python3 examples/bot.py http://127.0.0.1:8080 my-bot 'a long password'
"""
import json
import random
import sys
import urllib.error
import urllib.request

BASE, NAME, PASSWORD = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
token = None


def call(method, path, body=None, auth=True):
    """One request; returns (status, JSON body or None)."""
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def sign_in():
    global token
    creds = {"username": NAME, "password": PASSWORD}
    call("POST", "/v1/auth/register", creds, auth=False)  # 409 once it exists
    status, body = call("POST", "/v1/auth/login", creds, auth=False)
    assert status == 200, body
    token = body["access_token"]
    call("POST", "/v1/me/bot", {})  # 409 bot_account_refused once it is one


def play(game_id):
    """Sends commands while the game waits for this bot."""
    while True:
        status, game = call("GET", f"/v1/games/{game_id}")
        legal = game.get("legal_commands") or [] if status == 200 else []
        if not legal:
            return
        command = {"expected_version": game["version"], "command": random.choice(legal)}
        status, body = call("POST", f"/v1/games/{game_id}/commands", command)
        if status not in (200, 409):  # 409: someone moved first; look again
            print("refused:", body, file=sys.stderr)
            return


def catch_up():
    """Plays every game that waits for the bot now."""
    status, page = call("GET", "/v1/me/games?turn=mine&limit=100")
    for game in page["games"] if status == 200 else []:
        play(game["id"])


def handle(kind, payload):
    if kind == "invited":
        call("POST", f"/v1/games/{payload['game_id']}/join", {})
        play(payload["game_id"])
    elif kind == "your_turn":
        play(payload["game_id"])
    elif kind == "game_finished":
        print("finished:", payload["game_id"], payload.get("result"), flush=True)


def stream():
    """Follows /v1/me/stream (server-sent events) until it closes."""
    request = urllib.request.Request(
        BASE + "/v1/me/stream", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        kind = None
        for line in response:
            line = line.decode().rstrip("\n")
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:") and kind:
                handle(kind, json.loads(line[5:])["data"])


if __name__ == "__main__":
    while True:  # the token lasts 15 minutes: sign in again when a stream ends
        sign_in()
        catch_up()
        try:
            stream()
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            print("stream ended:", e, file=sys.stderr)
