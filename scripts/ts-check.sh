#!/usr/bin/env bash
# The TypeScript integrator check: generates types from the committed
# OpenAPI document (openapi-typescript), compiles a client written with
# openapi-fetch under --strict (scripts/ts-check/src: no casts, no `any`,
# every event narrowed by one field), starts the server on a fresh
# database, and plays one game of each ruleset to its end, reading each
# game's feed, stream, audit, replayed state and the notifications.
# A document that lets an answer go untyped, or events that stop narrowing,
# fails the compile.
#
#   cargo build && TS_BINARY=target/debug/hatstand scripts/ts-check.sh
#
# Needs Node.js (18 or newer) and npm (installed with apt-get when missing),
# and PostgreSQL on 127.0.0.1:5432 (or TS_SERVER=postgres://…). The pinned
# packages (scripts/ts-check/package.json and its lock) go into
# target/ts-check on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${TS_BINARY:-target/release/hatstand}
server=${TS_SERVER:-postgres://postgres@127.0.0.1:5432}
work=target/ts-check

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

# No cast, no `any`, no silenced error in the client: what it reads it
# narrows.
forbidden='(\bas [A-Za-z{(\[]|(^|[=(,:?]|return)\s*<[A-Za-z][^>]*>\s*[A-Za-z_(]|\bany\b|@ts-ignore|@ts-expect-error|@ts-nocheck|!\.|!\)|!;)'
if grep -nE "$forbidden" scripts/ts-check/src/*.ts | grep -vE '^\S+:[0-9]+:\s*(//|\*|/\*)'; then
  echo "ts-check: a cast, an any or a non-null assertion in the client (above)" >&2
  exit 1
fi

mkdir -p "$work/src"
if ! cmp -s scripts/ts-check/package-lock.json "$work/package-lock.json" ||
  [ ! -x "$work/node_modules/.bin/tsc" ]; then
  cp scripts/ts-check/package.json scripts/ts-check/package-lock.json "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --silent)
fi
cp scripts/ts-check/tsconfig.json "$work/"
rm -rf "$work/src" "$work/out"
mkdir "$work/src"
cp scripts/ts-check/src/*.ts "$work/src/"
"$work/node_modules/.bin/openapi-typescript" openapi/openapi.json \
  -o "$work/src/hatstand.d.ts" >"$work/generate.log" 2>&1 ||
  { cat "$work/generate.log"; exit 1; }
# The generated types may not fall back to untyped objects in an answer
# (an empty object schema is typed `Record<string, never>`; only
# `game_started`'s data, `{}`, is one).
if grep -n 'Record<string, never>' "$work/src/hatstand.d.ts" |
  grep -vE '^[0-9]+:(export type (webhooks|\$defs) =|\s+Started: Record<string, never>;)'; then
  echo "ts-check: an untyped object in the generated types (above)" >&2
  exit 1
fi
"$work/node_modules/.bin/tsc" -p "$work"

# shellcheck source=scripts/fresh-server.sh
. scripts/fresh-server.sh
start_fresh_server ts HATSTAND_TOKEN_RATE=0
node "$work/out/play.js" "$base"
