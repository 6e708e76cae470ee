#!/usr/bin/env bash
# Lighthouse (mobile) on the web client: the start page and a game page
# (Goathead between three bots, watched signed out), each run three times
# and scored by the median for performance, accessibility and best
# practices against the floors below.
# Lighthouse runs Debian's Chromium (installed by browser-check.sh) and is
# installed with npm into target/lighthouse on first use.
#
#   cargo build && LIGHTHOUSE_BINARY=target/debug/hatstand scripts/lighthouse-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${LIGHTHOUSE_BINARY:-target/release/hatstand}
server=${LIGHTHOUSE_SERVER:-postgres://postgres@127.0.0.1:5432}
version=12.8.2 # the last major that runs on Debian's Node 20
dir=target/lighthouse
floors='{"performance": 0.90, "accessibility": 0.95, "best-practices": 0.95}'
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ "$(cat "$dir/version" 2>/dev/null)" != "$version" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --silent --no-audit --no-fund "lighthouse@$version" >/dev/null
  echo "$version" >"$dir/version"
fi
# shellcheck source=scripts/fresh-server.sh
. scripts/fresh-server.sh
start_fresh_server lighthouse HATSTAND_TOKEN_RATE=0
token=$(curl -sf "$base/v1/auth/register" -H 'content-type: application/json' \
  -d '{"username":"lighthouse","password":"lighthouse-password"}' >/dev/null &&
  curl -sf "$base/v1/auth/login" -H 'content-type: application/json' \
    -d '{"username":"lighthouse","password":"lighthouse-password"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
game=$(curl -sf "$base/v1/games" -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"ruleset":"goathead","players":3,"join":false,"bots":["random","random","random"],"options":{"rounds":2}}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
failed=0
# Each page three times, judged by the median of each score: Lighthouse's
# own advice, since one run on a busy machine varies by several points.
for page in "/" "/#/games/$game"; do
  reports=()
  for run in 1 2 3; do
    report=$(mktemp)
    CHROME_PATH=/usr/bin/chromium "$dir/node_modules/.bin/lighthouse" "$base$page" --quiet \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage" \
      --only-categories=performance,accessibility,best-practices --form-factor=mobile \
      --output=json --output-path="$report"
    reports+=("$report")
  done
  python3 - "$page" "$floors" "${reports[@]}" <<'PY' || failed=1
import json, statistics, sys
page, floors = sys.argv[1], json.loads(sys.argv[2])
reports = [json.load(open(path)) for path in sys.argv[3:]]
low = []
for name, floor in floors.items():
    scores = [r["categories"][name]["score"] or 0 for r in reports]
    score = statistics.median(scores)
    runs = ", ".join(f"{s:.2f}" for s in scores)
    print(f"lighthouse {page}: {name} {score:.2f} (median of {runs}; floor {floor})")
    if score < floor:
        low.append(name)
metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index"]
print(f"  {page} metrics (median): " + ", ".join(
    f"{m} {statistics.median(r['audits'][m]['numericValue'] for r in reports):.0f}"
    if m != "cumulative-layout-shift" else
    f"{m} {statistics.median(r['audits'][m]['numericValue'] for r in reports):.3f}"
    for m in metrics))
failing = sorted({a["id"] for r in reports for a in r["audits"].values()
                  if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary"})
if failing:
    print(f"  {page} audits not passed in some run: {', '.join(failing)}")
if low:
    for audit in reports[0]["audits"].values():
        if audit.get("score") is not None and audit["score"] < 1 and audit.get("scoreDisplayMode") == "binary":
            print(f"  {audit['id']}: {audit['title']}")
    sys.exit(1)
PY
  rm -f "${reports[@]}"
done
exit "$failed"
