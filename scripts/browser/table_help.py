"""The help and the states around the table, in Chromium: every game's
rules page opens from the new-game form and draws its examples; a player
who chose to confirm moves (#/settings) is asked before a move goes, and
nothing is sent when they say no; a player who resigns a three-player game
is told that their seat is played on, without a Resign button; the tab's
title counts the games waiting; on a phone, the moves a picked card brings
are in view without scrolling, and every badge and heading of a board has
a line of help. Run by scripts/browser-check.sh.

    python table_help.py BASE_URL --failures DIR
"""

import argparse
import sys
import uuid
from pathlib import Path

from selenium.webdriver.support.select import Select

from browser import PHONE, Browser, CheckFailed, wait_for
from pages import create_against_bots, sign_up, state

PASSWORD = "browser-check-password"
RULESETS = ["hats", "goathead", "top-hats", "hat-trick"]


def alert(browser):
    try:
        return browser.driver.switch_to.alert
    except Exception:  # noqa: BLE001 (no dialog open)
        return None


def check_rules(browser):
    browser.wait("#nav a[href='#/new']").click()
    for ruleset in RULESETS:
        Select(browser.wait("#ruleset")).select_by_value(ruleset)
        link = browser.wait("#rules-link")
        if link.get_attribute("href").split("#")[-1] != f"/rules/{ruleset}":
            raise CheckFailed(f"the new-game form links {link.get_attribute('href')} for {ruleset}")
        link.click()
        browser.wait(f"#rules[data-ruleset='{ruleset}'] h1", f"the rules of {ruleset}")
        drawn = browser.run("return document.querySelectorAll('#rules svg').length")
        sections = browser.run("return document.querySelectorAll('#rules h2').length")
        if drawn < 1 or sections < 3:
            raise CheckFailed(f"the rules of {ruleset}: {sections} sections, {drawn} pictures")
        browser.check_fits(f"the rules of {ruleset}")
        browser.driver.back()
        browser.wait("#ruleset")


def my_turn(browser):
    now = state(browser) or {}
    return now.get("status") == "active" and now.get("seat") in now.get("toAct", [])


def check_confirm_and_resign(browser):
    browser.open("#/settings")
    box = browser.wait("#confirm-moves")
    if not box.is_selected():
        box.click()
    game = create_against_bots(browser, "goathead", 3, "random", {"opt-rounds": "2"})
    wait_for(lambda: my_turn(browser), "the player's turn", timeout=60)
    wait_for(lambda: "(" in browser.run("return document.title"), "the tab's title to count the game waiting")
    version = state(browser)["version"]
    browser.wait("#board [data-cmd]").click()
    wait_for(lambda: alert(browser), "the page to ask before sending the move").dismiss()
    if state(browser)["version"] != version:
        raise CheckFailed("a move the player did not confirm was sent")
    browser.wait("[data-action=resign]").click()
    wait_for(lambda: alert(browser), "the page to ask before resigning").accept()
    wait_for(lambda: browser.find("[data-resigned]"), "the line saying the seat is played on")
    if browser.find("[data-action=resign]"):
        raise CheckFailed("a resigned player is still offered Resign")
    return game


def check_pick_and_help(browser):
    """Hats at phone size: after picking a card the moves it brings are in
    view without scrolling, and every badge and heading of the board has a
    line of help."""
    create_against_bots(browser, "hats", 2, "greedy")
    wait_for(lambda: my_turn(browser), "the player's turn in Hats", timeout=60)
    browser.run("scrollTo(0, 0)")
    browser.wait("#board [data-select]").click()
    inside = wait_for(
        lambda: browser.run(
            "const m = document.querySelector('#board .cb-moves'); if (!m) return null;"
            "const r = m.getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1 ? 'yes' : 'no';"
        ),
        "the moves after a pick",
    )
    if inside != "yes":
        raise CheckFailed("after a pick the moves it brings are out of view at 390 × 844")
    bare = browser.run(
        "return [...document.querySelectorAll('#board .cb-badge, #board .cb-zone h3, #board .cb-own-hand h3, #board h4')]"
        ".filter((el) => !el.title).map((el) => el.textContent.trim())"
    )
    if bare:
        raise CheckFailed(f"badges or terms without help: {bare}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    browser = Browser("table help", args.base, PHONE)
    try:
        sign_up(browser, f"helen_{uuid.uuid4().hex[:4]}", PASSWORD)
        check_rules(browser)
        check_confirm_and_resign(browser)
        browser.open("#/settings")
        if browser.wait("#confirm-moves").is_selected():
            browser.wait("#confirm-moves").click()
        check_pick_and_help(browser)
        print(
            "table help: rules of every game, a confirmed move, a resigned seat played on, "
            "moves in view after a pick, help on every badge and term of the board",
            flush=True,
        )
    except Exception as error:
        print(f"table help: FAILED: {error}\n{browser.report(args.failures, 'table-help')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
