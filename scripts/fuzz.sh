#!/usr/bin/env bash
# Fuzzes the API for crashes: schemathesis generates requests from the
# committed OpenAPI document (valid ones and, in its coverage phase, ones
# that break every constraint) and sends them to a server started here on a
# fresh database, as a signed-in user; any 5xx answer fails the run.
#
#   cargo build --release && scripts/fuzz.sh            # over 10,000 cases, about 5 minutes
#   FUZZ_EXAMPLES=50 scripts/fuzz.sh                    # a quick smoke run
#
# Needs python3 and PostgreSQL on 127.0.0.1:5432 (or FUZZ_SERVER=postgres://…);
# installs schemathesis into target/fuzz-venv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${FUZZ_EXAMPLES:-600}
binary=${FUZZ_BINARY:-target/release/hatstand}
server=${FUZZ_SERVER:-postgres://postgres@127.0.0.1:5432}
venv=target/fuzz-venv
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi
# shellcheck source=scripts/fresh-server.sh
. scripts/fresh-server.sh
# The fuzzer's one token must last the run and not be rate limited.
# Webhooks may name any host, as in the tests: which addresses are private
# is the operator's policy (`--webhook-allow-private`), not the document's.
start_fresh_server fuzz HATSTAND_TOKEN_TTL=86400 HATSTAND_TOKEN_RATE=0 \
  HATSTAND_WEBHOOK_ALLOW_PRIVATE=true
# A signed-in user with a game in progress, so that authenticated operations
# get past authentication.
curl -sf "$base/v1/auth/register" -d '{"username":"fuzzer","password":"password123"}' >/dev/null
token=$(curl -sf "$base/v1/auth/login" -d '{"username":"fuzzer","password":"password123"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
curl -sf "$base/v1/games" -H "Authorization: Bearer $token" -d '{"ruleset":"hats","players":2}' >/dev/null
# The document as fuzzed: long polls without `wait` (up to 60 s, generated
# at random they would hold the run for hours; the API tests wait).
spec=target/fuzz-openapi.json
python3 - "$spec" <<'PY'
import json, sys
doc = json.load(open("openapi/openapi.json"))
for path in doc["paths"].values():
    for op in path.values():
        op["parameters"] = [p for p in op.get("parameters", []) if p.get("name") != "wait"]
json.dump(doc, open(sys.argv[1], "w"))
PY
# FUZZ_CHECKS=all runs every check, with the exceptions (and their reasons)
# in scripts/schemathesis.toml (FUZZ_CONFIG names another file); a check named on the command line would
# override those, so none is named then.
checks=(--checks "${FUZZ_CHECKS:-not_a_server_error}")
if [ "${FUZZ_CHECKS:-}" = all ]; then checks=(); fi
# Left out: signing out would end the fuzzer's session (the rest of the run
# would be 401s), and the two event streams never end by design; those
# have their own tests.
"$venv/bin/st" --config-file "${FUZZ_CONFIG:-scripts/schemathesis.toml}" run "$spec" --url "$base" \
  -H "Authorization: Bearer $token" \
  --exclude-operation-id sign_out --exclude-operation-id sign_out_everywhere \
  --exclude-operation-id stream_game_events --exclude-operation-id stream_notifications \
  "${checks[@]}" \
  --phases examples,coverage,fuzzing \
  --max-examples "$examples" \
  --generation-allow-x00 "${FUZZ_X00:-true}" \
  --workers "${FUZZ_WORKERS:-1}" \
  --seed "${FUZZ_SEED:-1}" \
  --no-color
