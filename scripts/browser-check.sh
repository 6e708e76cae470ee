#!/usr/bin/env bash
# Plays one game of each ruleset through the web client in real browsers:
# Debian's Chromium, headless, driven by its chromedriver from Python's
# selenium, one browser session per seat and a signed-out spectator, on a
# server started on a fresh database; then verifies each game's audit on
# the audit page and sees a forged audit rejected (scripts/browser/).
#
#   cargo build && BROWSER_BINARY=target/debug/hatstand scripts/browser-check.sh
#
# Mid-game screenshots (desktop and phone size) go to BROWSER_SCREENSHOTS
# (default target/browser-screenshots); a failure's screenshots of every
# session go to target/browser-failures. BROWSER_SEED varies the games.
# Then one player sets up email on `#/settings` against a real SMTP
# listener (aiosmtpd): the code from the mail confirms the address. Last,
# one browser shared by two accounts: a game opened signed out and by
# another player shows none of the first player's cards. Then a takeback
# asked and accepted, and a conditional line written on the copy of a Top
# Hats board, stored and fired (turn_conveniences.py); before them, the
# editor's copy of the board played against the server's engine
# (scripts/top-hats-copy-check.mjs). A vacant seat offered from the game
# page to a named player, who is invited and takes it (seat_offer.py).
# Needs python3 and PostgreSQL on 127.0.0.1:5432 (or BROWSER_SERVER=postgres://…);
# installs chromium and chromium-driver (and nodejs) with apt-get when they
# are missing, and selenium and aiosmtpd into target/browser-venv on first use.
# First, the page's audit verifier (web/js/audit/verify.js) is run in Node
# over the corpus of records and tampered copies of them
# (scripts/audit-verify-check.mjs): it must agree with `hatstand verify`.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${BROWSER_BINARY:-target/release/hatstand}
server=${BROWSER_SERVER:-postgres://postgres@127.0.0.1:5432}
screenshots=${BROWSER_SCREENSHOTS:-target/browser-screenshots}
venv=target/browser-venv
selenium=4.51.0
aiosmtpd=1.4.6
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || ! command -v node >/dev/null; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver \
    $(command -v node >/dev/null || echo nodejs) >/dev/null
fi
node scripts/audit-verify-check.mjs tests/records/*.json tests/records/legacy/*.json tests/records/signed/*.json tests/records/salted/*.json
if ! "$venv/bin/python" -c "import selenium, aiosmtpd, sys; sys.exit(selenium.__version__ != '$selenium' or aiosmtpd.__version__ != '$aiosmtpd')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==$selenium" "aiosmtpd==$aiosmtpd"
fi
# shellcheck source=scripts/fresh-server.sh
. scripts/fresh-server.sh
smtp_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Every browser player signs up from this one address: no per-address cap.
start_fresh_server browser HATSTAND_TOKEN_RATE=0 HATSTAND_REGISTRATIONS_PER_ADDRESS=0 HATSTAND_SMTP_URL="smtp://127.0.0.1:$smtp_port" \
  HATSTAND_MAIL_TICK_MS=200
rm -rf target/browser-failures
# The copy of a Top Hats board the conditional-move editor plays on, against
# the engine: the same moves offered, the same board after each.
node scripts/top-hats-copy-check.mjs "$base"
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/play_all.py "$base" \
  --screenshots "$screenshots" --failures target/browser-failures --seed "${BROWSER_SEED:-1}"
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/email_settings.py "$base" \
  --smtp-port "$smtp_port" --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/account_switch.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/table_help.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/talk.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/ratings_pages.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/tournaments.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/seat_offer.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/installable_app.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/push_subscribe.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/french.py "$base" \
  --failures target/browser-failures
PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true "$venv/bin/python" scripts/browser/turn_conveniences.py "$base" \
  --failures target/browser-failures
