#!/usr/bin/env bash
# Generates a Python client from the committed OpenAPI document
# (openapi-python-client), starts the server on a fresh database, and plays
# one game of each ruleset with the client's typed models, plus an abandoned
# game's audit (scripts/client/play_all.py). Any refusal or a model that
# cannot read an answer fails the run.
#
#   cargo build && CLIENT_BINARY=target/debug/hatstand scripts/client-check.sh
#
# Needs python3 and PostgreSQL on 127.0.0.1:5432 (or CLIENT_SERVER=postgres://…);
# installs the generator into target/client-venv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${CLIENT_BINARY:-target/release/hatstand}
server=${CLIENT_SERVER:-postgres://postgres@127.0.0.1:5432}
venv=target/client-venv
if [ ! -x "$venv/bin/openapi-python-client" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'openapi-python-client==0.29.1'
fi
rm -rf target/hatstand-client
# (It warns that the export's JSON Lines answer has no Python model.)
"$venv/bin/openapi-python-client" generate --path openapi/openapi.json \
  --output-path target/hatstand-client --overwrite >target/client-generate.log 2>&1 ||
  { cat target/client-generate.log; exit 1; }
# shellcheck source=scripts/fresh-server.sh
. scripts/fresh-server.sh
start_fresh_server client HATSTAND_TOKEN_RATE=0
PYTHONPATH=target/hatstand-client "$venv/bin/python" scripts/client/play_all.py "$base"
