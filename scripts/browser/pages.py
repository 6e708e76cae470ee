"""The web client's pages as a person uses them: signing up, creating a
game, joining it, and reading the game page's state from its attributes
(`section#game` data-version, data-status, data-my-seat, data-to-act)."""

import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from browser import CheckFailed, wait_for

GAME_ROUTE = r"#/games/([0-9a-f-]{36})"

# The game page's state, or null before it is drawn.
STATE = """
const game = document.querySelector('section#game');
if (!game || game.dataset.version === undefined) return null;
return {
  version: Number(game.dataset.version),
  status: game.dataset.status,
  seat: game.dataset.mySeat === '' ? null : Number(game.dataset.mySeat),
  toAct: game.dataset.toAct ? game.dataset.toAct.split(',').map(Number) : [],
  result: document.querySelector('[data-result]') !== null,
  sending: game.classList.contains('sending'),
};
"""


PASSWORD = "browser-check-password"


def api(base, method, path, token=None, body=None):
    """One API request by `urllib` (for set-up the page is not under test
    for); the answer's JSON, or None for an empty body."""
    request = urllib.request.Request(f"{base}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def player(base, name):
    """Signs `name` up through the API; their access token."""
    api(base, "POST", "/v1/auth/register", body={"username": name, "password": PASSWORD})
    return api(base, "POST", "/v1/auth/login", body={"username": name, "password": PASSWORD})["access_token"]


def state(browser):
    """The game page's state: version, status, seat, toAct, result, sending."""
    return browser.run(STATE)


def sign_up(browser, username, password):
    """Creates an account on `#/signup`; the app then shows the start page
    with the username in the navigation bar."""
    browser.open("#/signup")
    browser.type_into("#username", username)
    browser.type_into("#password", password)
    browser.wait("form button[type=submit]").click()
    browser.wait_route("#/", f"{browser.name}: the start page after signing up as {username}")
    wait_for(
        lambda: browser.run("return document.querySelector('#nav .who')?.textContent") == username,
        f"{browser.name}: the navigation bar to show {username}",
    )


def sign_in(browser, username):
    """Signs `username` in on `#/signin` (with the checks' password); the
    app then shows the username in the navigation bar."""
    browser.open("#/signin")
    browser.type_into("#username", username)
    browser.type_into("#password", PASSWORD)
    browser.wait("form button[type=submit]").click()
    wait_for(lambda: browser.run("return document.querySelector('#nav .who')?.textContent") == username,
             f"the navigation bar to show {username}")


def create_game(browser, table, seed):
    """Creates `table`'s game on `#/new` (reached from the navigation bar),
    every other seat for a person; returns the new game's id."""
    browser.wait("#nav a[href='#/new']").click()
    Select(browser.wait("#ruleset")).select_by_value(table.ruleset)
    browser.type_into("#players", str(table.players))
    for seat in range(1, table.players):
        Select(browser.wait(f"#seat-{seat}", f"the kind of seat {seat + 1}")).select_by_value("human")
    for field, value in table.fields.items():
        browser.type_into(f"#{field}", value)
    browser.wait("#new-game details > summary").click()
    options = {**table.options, "seed": f"browser-check-{seed}-{table.ruleset}"}
    browser.type_into("#options-json", json.dumps(options))
    if browser.wait("#private").is_selected():
        raise CheckFailed("#/new: a new game starts out private")
    browser.wait("#new-game button[type=submit]").click()
    route = browser.wait_route(GAME_ROUTE, f"{table.ruleset}: the game's page after creating it")
    wait_for(lambda: (state(browser) or {}).get("seat") == 0, "the game's page to show its creator in seat 1")
    return route.rsplit("/", 1)[1]


def join(browser, game_id, seat):
    """Opens the game's page (a shared link) and joins it; expects `seat`."""
    browser.open(f"#/games/{game_id}")
    browser.wait("[data-action=join]", f"{browser.name}: the join button").click()
    taken = wait_for(
        lambda: (now := state(browser)) and now["seat"] is not None and now,
        f"{browser.name}: a seat after joining",
    )
    if taken["seat"] != seat:
        raise CheckFailed(f"{browser.name} joined in seat {taken['seat'] + 1}, expected seat {seat + 1}")


def create_against_bots(browser, ruleset, players, level, fields=None):
    """Creates on `#/new` (from the navigation bar) a game of `ruleset` with
    every other seat a bot of `level` and the option `fields` typed in;
    returns the game's id once it is active. A note of a game just ended
    may sit at the foot of the screen: it is dismissed first, as a person
    would."""
    browser.wait("#nav a[href='#/new']").click()
    Select(browser.wait("#ruleset")).select_by_value(ruleset)
    browser.type_into("#players", str(players))
    for seat in range(1, players):
        Select(browser.wait(f"#seat-{seat}")).select_by_value(level)
    for field, value in (fields or {}).items():
        browser.type_into(f"#{field}", value)
    for dismiss in browser.driver.find_elements(By.CSS_SELECTOR, "#toasts .toast button"):
        dismiss.click()
    browser.wait("#new-game button[type=submit]").click()
    route = browser.wait_route(GAME_ROUTE, f"{browser.name}: the new {ruleset} game's page")
    wait_for(lambda: (state(browser) or {}).get("status") == "active", f"the {ruleset} game to start")
    return route.rsplit("/", 1)[1]
