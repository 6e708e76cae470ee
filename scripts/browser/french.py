"""A French player in Chromium (docs/i18n.md): a player chooses French on
`#/settings` (saved as the account's `language`), starts a game against a
bot, and sees the game page in French; then the same account, signed in on
another browser whose own language is English, gets the page in French
from its setting, and its other pages (new game, Watch, bots, the rules)
in French too. The ids and the state the page carries do not change.
Run by scripts/browser-check.sh.

    python french.py BASE_URL --failures DIR
"""

import argparse
import sys
import uuid
from pathlib import Path

from selenium.webdriver.support.select import Select

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import create_against_bots, sign_up, state

PASSWORD = "browser-check-password"


def text(browser, css):
    return browser.run("return document.querySelector(arguments[0])?.innerText || ''", css)


def check_game_in_french(browser, game):
    browser.open(f"#/games/{game}")
    wait_for(lambda: state(browser), f"{browser.name}: the game page")
    wait_for(lambda: browser.run("return document.documentElement.lang") == "fr", "the page's lang to be fr")
    status = wait_for(lambda: text(browser, ".status-line"), "the status line")
    if not (status.startswith("À vous de jouer") or status.startswith("En attente de")):
        raise CheckFailed(f"{browser.name}: the status line is not French: {status!r}")
    head = text(browser, "#counters")
    if "joueurs" not in head or "règles" not in head:
        raise CheckFailed(f"{browser.name}: the game's head is not French: {head!r}")
    nav = text(browser, "#nav")
    for words in ["Parties", "Nouvelle partie", "Réglages", "Se déconnecter"]:
        if words not in nav:
            raise CheckFailed(f"{browser.name}: the navigation lacks {words!r}: {nav!r}")
    board = wait_for(lambda: text(browser, ".cb-status"), "the board's status")
    if not (board.startswith("À vous") or board.startswith("Au tour de")):
        raise CheckFailed(f"{browser.name}: the board's status is not French: {board!r}")
    if "Ligne du salon de thé" not in text(browser, ".cb-felt"):
        raise CheckFailed(f"{browser.name}: the Hats table is not French: {text(browser, '.cb-felt')!r}")
    link = text(browser, "[data-action=rules]")
    if not link.startswith("Comment jouer à"):
        raise CheckFailed(f"{browser.name}: the rules link says {link!r}")
    return status


def check(first, second):
    name = f"amelie_{uuid.uuid4().hex[:6]}"
    sign_up(first, name, PASSWORD)
    first.open("#/settings")
    Select(first.wait("#language")).select_by_value("fr")
    wait_for(lambda: text(first, "main h1") == "Réglages", "the settings page drawn again in French")
    game = create_against_bots(first, "hats", 2, "random")
    said = check_game_in_french(first, game)
    first.open("#/")
    heading = wait_for(lambda: text(first, "#inbox h2"), "the inbox")
    if not heading.startswith("À vous de jouer"):
        raise CheckFailed(f"the inbox is not French: {heading!r}")

    # Another browser, English by its own settings: the account decides.
    second.open("#/signin")
    if second.run("return document.documentElement.lang") != "en":
        raise CheckFailed("a fresh English browser does not start in English")
    second.type_into("#username", name)
    second.type_into("#password", PASSWORD)
    second.wait("form button[type=submit]").click()
    wait_for(lambda: second.run("return document.documentElement.lang") == "fr", "the account's French on sign-in")
    check_game_in_french(second, game)
    check_other_pages_in_french(second)
    return said


def check_other_pages_in_french(browser):
    """The other pages a player reads: each one's heading in French, and the
    rules in their French text (Top Hats was first written in French)."""
    for route, heading in [
        ("#/new", "Nouvelle partie"),
        ("#/watch", "Regarder et rejoindre"),
        ("#/bots", "La force des bots"),
    ]:
        browser.open(route)
        wait_for(lambda: text(browser, "main h1") == heading, f"{route}'s heading {heading!r}")
    browser.open("#/new")
    clock = wait_for(lambda: text(browser, "#turn-timeout"), "the new-game form's clock choices")
    if "1 jour par tour" not in clock:
        raise CheckFailed(f"the new-game form's clock is not French: {clock!r}")
    browser.open("#/rules/top-hats")
    sections = wait_for(
        lambda: browser.run("return [...document.querySelectorAll('#rules h2')].map((e) => e.innerText)"),
        "the rules' sections",
    )
    if "La mise en place" not in sections or "Votre tour" not in sections:
        raise CheckFailed(f"the Top Hats rules are not in French: {sections!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    first = Browser("french player", args.base, DESKTOP)
    second = Browser("french player elsewhere", args.base, DESKTOP)
    try:
        said = check(first, second)
        print(f"french: the game page in French ({said!r}), on a second browser too, from the account's setting")
    except Exception as error:
        print(
            f"french: FAILED: {error}\n{first.report(args.failures, 'french')}\n{second.report(args.failures, 'french')}",
            flush=True,
        )
        sys.exit(1)
    finally:
        first.close()
        second.close()


if __name__ == "__main__":
    main()
