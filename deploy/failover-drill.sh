#!/usr/bin/env bash
# Failover drills on the Patroni cluster of deploy/run-patroni.sh, under load.
#
#   deploy/failover-drill.sh [DRILL...]    # default: postgres node switchover
#
# Drills:
#   postgres    kill -9 the leader's postmaster (Patroni on that node lives,
#               sees the crash and hands the leader key to the standby)
#   node        kill -9 the leader's Patroni and postmaster (the node is
#               gone; the standby takes over once the leader key expires);
#               the node is started again once the other one leads, as a
#               service manager would
#   switchover  `patronictl switchover --force` (planned)
#
# For each drill: a hatstand server reaching the database through HAProxy
# is loaded by `hatstand bench --idempotency-keys --retry-unavailable
# --acks FILE`; after WARMUP seconds the drill strikes; when the bench ends
# and the cluster has a leader and a synchronous standby again, it checks
# on the leader, directly (not through HAProxy): every acknowledged command
# is there (its game, its place in the log, the command itself), and every
# finished game's audit verifies (`hatstand export` then `hatstand verify`).
# It prints the time without service (first 503 to first accepted command),
# and counts the commands acknowledged while the new leader had them alone:
# first sent after its promotion (PostgreSQL's "selected new timeline ID")
# and accepted before a standby streaming that timeline was synchronous
# ("standby … is now a synchronous standby", its log). Such a command is on
# the leader, but would be lost if the leader failed too before the standby
# caught up; with synchronous_mode_strict there should be none. It also
# counts PostgreSQL's "canceling (the) wait for synchronous replication"
# (a commit let go without the standby; when a session is ended, as a
# switchover's shutdown does, its client is not answered). It exits non-zero when anything acknowledged is missing, an audit fails,
# or the bench saw an error other than a retried 503.
#
# Environment: SECONDS_PER_DRILL (60), WARMUP (10), GAMES (16),
# SERVER_PORT (8090), HATSTAND_BIN (target/release/hatstand; built when
# missing), OUT_DIR (.hatstand/drills), and run-patroni.sh's variables.
# The cluster is started when it is not running, and stopped at the end
# only then. The server is stopped at the end.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cluster=$root/deploy/run-patroni.sh
state=${STATE_DIR:-$root/.hatstand/patroni}
export STATE_DIR=$state
bin=${HATSTAND_BIN:-$root/target/release/hatstand}
out=${OUT_DIR:-$root/.hatstand/drills}
seconds=${SECONDS_PER_DRILL:-60}
warmup=${WARMUP:-10}
games=${GAMES:-16}
server_port=${SERVER_PORT:-8090}
read -r -a rest_ports <<<"${REST_PORTS:-8008 8009}"
read -r -a pg_ports <<<"${PG_PORTS:-5441 5442}"
drills=("$@")
[ ${#drills[@]} -gt 0 ] || drills=(postgres node switchover)
for d in "${drills[@]}"; do
  case $d in
    postgres | node | switchover) ;;
    *)
      echo "usage: $0 [postgres|node|switchover]..." >&2
      exit 2
      ;;
  esac
done

log() { echo "drill: $*" >&2; }

if [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release --bin hatstand)
fi
mkdir -p "$out"

# What this script started, stopped on exit.
server_pid=""
bench_pid=""
started_cluster=false
cleanup() {
  trap - EXIT INT TERM
  [ -z "$bench_pid" ] || kill "$bench_pid" 2>/dev/null || true
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if $started_cluster; then
    "$cluster" stop || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# rest_port, pg_port, leader, has_sync_standby.
# shellcheck source=deploy/patroni/nodes.sh
. "$root/deploy/patroni/nodes.sh"

# Whether the cluster is whole: a leader, and a synchronous standby streaming.
healthy() { leader >/dev/null && has_sync_standby; }

now_ms() { date +%s%3N; }

# The cluster, and the server on it.
if ! healthy; then
  "$cluster" start >/dev/null
  started_cluster=true
fi
wait_until "a whole cluster" 120 healthy
url=$("$cluster" url)
# shellcheck disable=SC1091
. "$state/secrets.env"
DATABASE_URL=$url "$bin" migrate
# The load generator registers every player from this one address and
# creates a game for each as the last ends: the cost limits it would trip
# are off (0), as `hatstand bench` turns them off for its own servers.
DATABASE_URL=$url HATSTAND_BIND="127.0.0.1:$server_port" HATSTAND_TOKEN_RATE=0 \
  HATSTAND_REGISTRATIONS_PER_ADDRESS=0 HATSTAND_GAMES_PER_HOUR=0 HATSTAND_GAMES_AT_ONCE=0 \
  "$bin" serve >"$out/server.log" 2>&1 &
server_pid=$!
wait_until "the server" 60 curl -sf "http://127.0.0.1:$server_port/readyz"

# The lines of a node's log (Patroni's and its PostgreSQL's) so far.
log_lines() { wc -l <"$state/node$1.log"; }

# ms_of LINE: a PostgreSQL log line's time ("2026-11-25 16:58:56.722 UTC [1] LOG: …") in unix ms.
ms_of() { date -d "$(cut -c1-27 <<<"$1")" +%s%3N; }

# strike DRILL: what the drill does to the leader.
strike() {
  local node other pid
  node=$(leader)
  other=$((3 - node))
  case $1 in
    postgres)
      pid=$(head -n 1 "$state/node$node/data/postmaster.pid")
      log "kill -9 node$node's postmaster (pid $pid)"
      kill -9 "$pid"
      ;;
    node)
      pid=$(head -n 1 "$state/node$node/data/postmaster.pid")
      log "kill -9 node$node's Patroni (pid $(cat "$state/node$node.pid")) and postmaster (pid $pid)"
      kill -9 "$(cat "$state/node$node.pid")" "$pid"
      wait_until "node$other leading" 60 \
        curl -sf -o /dev/null "http://127.0.0.1:$(rest_port "$other")/primary"
      log "node$other leads after $(($(now_ms) - struck_ms)) ms; starting node$node again"
      "$cluster" start >/dev/null
      ;;
    switchover)
      log "patronictl switchover node$node -> node$other"
      local as=()
      [ "$(id -u)" -ne 0 ] || as=(setpriv --reuid=postgres --regid=postgres --init-groups --)
      env HOME="$state" "${as[@]}" patronictl -c "$state/node1/patroni.yml" switchover \
        --leader "node$node" --candidate "node$other" --force >"$out/switchover.log" 2>&1
      ;;
  esac
}

failed=0
summary=()
for n in "${!drills[@]}"; do
  drill=${drills[$n]}
  tag="$((n + 1))-$drill"
  acks=$out/acks-$tag.jsonl
  log "$tag: $games games for $seconds s, strike after $warmup s"
  before=([1]=$(log_lines 1) [2]=$(log_lines 2))
  "$bin" bench --base "http://127.0.0.1:$server_port" --games "$games" --seconds "$seconds" \
    --idempotency-keys --retry-unavailable --acks "$acks" >"$out/bench-$tag.log" 2>&1 &
  bench_pid=$!
  sleep "$warmup"
  from=$(leader)
  struck_ms=$(now_ms)
  strike "$drill"
  set +e
  wait "$bench_pid"
  bench_rc=$?
  set -e
  bench_pid=""
  wait_until "a whole cluster again" 120 healthy
  to=$(leader)

  # Every acknowledged command, on the leader itself.
  # What the bench saw.
  bench_log=$out/bench-$tag.log
  errors=$(grep -E '^bench: error ' "$bench_log" || true)
  retried=$(sed -n 's/^bench: retried \([0-9]*\) requests answered 503 and \([0-9]*\) unanswered$/\1 503s, \2 unanswered/p' "$bench_log")
  accepted=$(sed -n 's/^bench: \([0-9]*\) commands accepted.*/\1/p' "$bench_log")
  windows=$(sed -n 's/^bench: without service from \([0-9]*\) (unix ms) for \([0-9.]*\) s.*/\1 \2/p' "$bench_log")
  # The first 503 (unix ms): when the clients first saw the failure.
  first_503=$(awk 'NR == 1 { print $1 }' <<<"$windows")
  first_503=${first_503:-0}

  # The new leader without a synchronous standby: from its promotion (a
  # new timeline) to a standby of that timeline being synchronous.
  promoted_ms=0
  sync_ms=0
  alone="n/a"
  new_lines=$(tail -n +"$((before[to] + 1))" "$state/node$to.log")
  promoted=$(grep -E 'LOG:  selected new timeline ID: [0-9]+' <<<"$new_lines" | tail -n 1 || true)
  if [ -n "$promoted" ]; then
    promoted_ms=$(ms_of "$promoted")
    timeline=${promoted##* }
    # A standby streaming the new timeline; failing that (a switchover's
    # old primary, stopped cleanly, follows the switch on its connection
    # to the old one), the first synchronous standby after the promotion.
    synced=$(sed -n '/LOG:  selected new timeline ID/,$p' <<<"$new_lines" | awk -v tl="$timeline" '
      /LOG:  standby ".*" is now a synchronous standby/ { if (first == "") first = $0; candidate = $0; next }
      candidate != "" && $0 ~ ("STATEMENT:  START_REPLICATION .* TIMELINE " tl "$") { print candidate; found = 1; exit }
      { candidate = "" }
      END { if (!found && first != "") print first }
    ')
    if [ -n "$synced" ]; then
      sync_ms=$(ms_of "$synced")
      alone=$(awk -v a="$promoted_ms" -v b="$sync_ms" 'BEGIN { printf "%.3f s", (b - a) / 1000 }')
    fi
  fi

  node_url="postgres://hatstand:$APP_PASSWORD@127.0.0.1:$(pg_port "$to")/hatstand"
  read -r acked present exposed back_ms < <(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 "$node_url" <<SQL
CREATE TEMP TABLE acks (line jsonb);
\\copy acks FROM '$acks' WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')
SELECT count(*),
       count(*) FILTER (WHERE EXISTS (
         SELECT FROM events e
          WHERE e.game_id = (a.line->>'game')::uuid
            AND e.seq = (a.line->>'version')::bigint + 1
            AND e.actor_seat = (a.line->>'seat')::int
            AND e.command = a.line->'command')),
       count(*) FILTER (WHERE (a.line->>'sent')::bigint >= $promoted_ms
                          AND (a.line->>'at')::bigint < $sync_ms),
       coalesce(min((a.line->>'at')::bigint) FILTER (WHERE (a.line->>'sent')::bigint > $first_503), 0)
  FROM acks a;
SQL
  )
  lost=$((acked - present))

  # Every finished game's audit, from the leader.
  export_file=$out/export-$tag.jsonl
  DATABASE_URL=$node_url "$bin" export --out "$export_file" 2>/dev/null
  audits=$(grep -c . "$export_file" || true)
  if [ "$audits" -gt 0 ] && "$bin" verify "$export_file" >"$out/verify-$tag.log" 2>&1; then
    verified=$audits
  else
    verified=0
  fi

  cancelled=$( (tail -n +"$((before[1] + 1))" "$state/node1.log"; tail -n +"$((before[2] + 1))" "$state/node2.log") |
    grep -cE 'canceling (the )?wait for synchronous replication' || true)
  # Without service: from the first 503 to the first command accepted that
  # was sent after it. (A command sent before may be accepted sooner: one
  # that committed before the strike, retried, is answered from its stored
  # Idempotency-Key reply; and a command whose commit waits for the standby
  # is not answered at all until it is back, so the 503s alone undercount.)
  gap="n/a"
  back="n/a"
  if [ "$first_503" -gt 0 ] && [ "$back_ms" -gt 0 ]; then
    gap=$(awk -v a="$first_503" -v b="$back_ms" 'BEGIN { printf "%.3f s", (b - a) / 1000 }')
    back=$(awk -v a="$struck_ms" -v b="$back_ms" 'BEGIN { printf "%.3f s", (b - a) / 1000 }')
  fi
  line="$tag: node$from -> node$to; without service $gap (first 503 to first accepted command sent after it; strike to it: $back);"
  line+=" retried ${retried:-?}; accepted ${accepted:-?}; acknowledged $acked, on the leader $present, lost $lost;"
  line+=" audits verified $verified of $audits;"
  line+=" new leader without a sync standby for $alone, commands sent and acknowledged meanwhile $exposed; sync waits cancelled $cancelled"
  [ -z "$errors" ] || line+="; ERRORS: $(tr '\n' ' ' <<<"$errors")"
  log "$line"
  summary+=("$line")
  if [ "$bench_rc" -ne 0 ] || [ "$lost" -ne 0 ] || [ "$acked" -eq 0 ] || [ -n "$errors" ] ||
    [ "$verified" -ne "$audits" ] || [ "$audits" -eq 0 ]; then
    log "$tag: FAILED (bench exit $bench_rc; see $out)"
    failed=$((failed + 1))
  fi
done

echo "failover drills (Patroni: $(grep -E '^    (ttl|loop_wait|retry_timeout):' "$root/deploy/patroni/patroni.yml.in" | tr -s ' ' | tr '\n' ' '))"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ] || { echo "failover drills: $failed failed"; exit 1; }
echo "failover drills: all ${#drills[@]} passed, nothing acknowledged lost"
