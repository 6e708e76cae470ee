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
db="hatstand_client_$(date +%s)_$$"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
DATABASE_URL="$server/$db" HATSTAND_BIND="127.0.0.1:$port" RUST_LOG=warn \
  HATSTAND_TOKEN_RATE=0 "$binary" &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  psql -q "$server/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.2; done
PYTHONPATH=target/hatstand-client "$venv/bin/python" scripts/client/play_all.py "$base"
