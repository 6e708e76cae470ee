"""A finished game's audit through the pages: verified on `#/audit/<id>`
from the game's result, and as a file chosen on `#/audit`, where it must be
checked in the browser without a request: the file as served passes, the
same file with one event's data changed is rejected."""

import copy
import json
import urllib.request

from browser import CheckFailed, wait_for

OUTCOME = "[data-verify=ok], [data-verify=broken]"
# Requests to the API since `performance.now()` was `arguments[0]`.
REQUESTS_SINCE = """
return performance.getEntriesByType('resource')
  .filter((entry) => entry.startTime >= arguments[0] && entry.name.includes('/v1/'))
  .map((entry) => entry.name);
"""
# Fields of a move's event that a forger would change (a card played, a
# cell moved to), first found first.
FORGEABLE = ("card", "to")


def verify_from_result(player, game_id):
    """Follows the result's audit link and verifies the game there."""
    player.wait("[data-action=audit]", f"{player.name}: the result's audit link").click()
    player.wait_route(f"#/audit/{game_id}", f"{player.name}: the audit page after following the link")
    player.wait("[data-action=verify]", f"{player.name}: the audit page's verify button").click()
    outcome = outcome_of(player)
    if outcome != "ok":
        raise CheckFailed(f"{player.name}: the audit of the finished game verifies as {outcome!r}, expected 'ok'")


def download(base, game_id):
    """The game's audit as GET /v1/games/{id}/audit serves it."""
    with urllib.request.urlopen(f"{base}/v1/games/{game_id}/audit", timeout=30) as answer:
        return json.load(answer)


def forge(audit):
    """A copy of `audit` with one move's event changed (its card, or the
    cell a stack moved to, replaced by another value the game saw there);
    and words saying what changed."""
    forged = copy.deepcopy(audit)
    for key in FORGEABLE:
        seen = sorted({e["data"][key] for e in forged["events"] if isinstance(e.get("data", {}).get(key), str)})
        for event in forged["events"]:
            value = event.get("data", {}).get(key)
            if event.get("command") is None or not isinstance(value, str) or len(seen) < 2:
                continue
            event["data"][key] = next(other for other in seen if other != value)
            return forged, f"event {event['seq']} ({event['type']}): {key} {value} → {event['data'][key]}"
    raise CheckFailed("the audit has no move whose card or cell could be changed")


def check_file(browser, path, expected, what):
    """Chooses the file at `path` on `#/audit` and expects `expected`
    ("ok" or "broken") with no API request."""
    browser.run("location.hash = '#/signin'")
    browser.wait("#username", f"{browser.name}: the sign-in page before opening #/audit anew")
    browser.run("location.hash = '#/audit'")
    chooser = browser.wait("#main input[type=file]", f"{browser.name}: the file input of #/audit")
    started = browser.run("return performance.now()")
    chooser.send_keys(str(path))
    outcome = outcome_of(browser)
    if outcome != expected:
        raise CheckFailed(f"{browser.name}: {what} verifies as {outcome!r} on #/audit, expected {expected!r}")
    asked = browser.run(REQUESTS_SINCE, started)
    if asked:
        raise CheckFailed(f"{browser.name}: checking {what} on #/audit asked the server: {asked}")


def outcome_of(browser):
    element = wait_for(lambda: browser.find(OUTCOME), f"{browser.name}: the verification's outcome", timeout=60)
    return element.get_attribute("data-verify")
