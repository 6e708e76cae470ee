#!/usr/bin/env bash
# N hatstand processes on one database behind HAProxy.
#
#   deploy/run-cluster.sh [N]      # N processes (default 2), then Ctrl-C stops everything
#
# The processes listen on 127.0.0.1:8081, 8082, …; HAProxy on
# 127.0.0.1:8080, checking each process's /readyz (deploy/haproxy.cfg).
# Environment:
#   LB_PORT       the balancer's port (8080)
#   FIRST_PORT    the first process's port (8081)
#   HATSTAND_BIN  the server binary (target/release/hatstand; built when missing)
#   LOG_DIR       the processes' and HAProxy's logs and the HAProxy
#                 configuration written (.hatstand/cluster)
#   DATABASE_URL  and any other HATSTAND_* setting: given to every process
#                 (without DATABASE_URL the database is found as `hatstand`
#                 finds it). HATSTAND_TRUSTED_PROXIES defaults to 127.0.0.1,
#                 HAProxy's address, so that login limits count per client.
# Installs HAProxy with apt-get when it is missing.
set -euo pipefail

n=${1:-2}
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [N]   (N server processes, default 2)" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
lb_port=${LB_PORT:-8080}
first_port=${FIRST_PORT:-8081}
bin=${HATSTAND_BIN:-$root/target/release/hatstand}
logs=${LOG_DIR:-$root/.hatstand/cluster}

if ! command -v haproxy >/dev/null; then
  echo "run-cluster: installing HAProxy" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
if [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --release)
fi
mkdir -p "$logs"

pids=()
stop() {
  trap - EXIT INT TERM
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  echo "run-cluster: stopped" >&2
}
trap stop EXIT
trap 'exit 130' INT TERM

# wait_ready URL LOG: until URL answers 200 (60 s at most).
wait_ready() {
  for _ in $(seq 300); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.2
  done
  echo "run-cluster: $1 is not ready; the end of $2:" >&2
  tail -n 20 "$2" >&2
  exit 1
}

for port in "$lb_port" $(seq "$first_port" $((first_port + n - 1))); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "run-cluster: port $port is in use" >&2
    exit 1
  fi
done

# The database is created and migrated once, before the processes start.
"$bin" migrate

export HATSTAND_TRUSTED_PROXIES=${HATSTAND_TRUSTED_PROXIES:-127.0.0.1}
servers=""
for i in $(seq "$n"); do
  port=$((first_port + i - 1))
  HATSTAND_BIND="127.0.0.1:$port" "$bin" serve >"$logs/server-$i.log" 2>&1 &
  pids+=($!)
  servers+="    server hatstand$i 127.0.0.1:$port"$'\n'
done
for i in $(seq "$n"); do
  wait_ready "http://127.0.0.1:$((first_port + i - 1))/readyz" "$logs/server-$i.log"
done

config="$logs/haproxy.cfg"
awk -v listen="127.0.0.1:$lb_port" -v servers="$servers" '
  /^@SERVERS@$/ { printf "%s", servers; next }
  /^[ \t]*bind @LISTEN@$/ { sub(/@LISTEN@/, listen) }
  { print }
' "$root/deploy/haproxy.cfg" >"$config"
haproxy -c -f "$config" >/dev/null
haproxy -db -f "$config" 2>"$logs/haproxy.log" &
pids+=($!)
wait_ready "http://127.0.0.1:$lb_port/readyz" "$logs/haproxy.log"

echo "run-cluster: $n process(es) on 127.0.0.1:$first_port..$((first_port + n - 1))" \
  "behind HAProxy at http://127.0.0.1:$lb_port; logs in $logs; Ctrl-C stops them"
# Each process has its own /metrics (scrape them, not the balancer), and
# `hatstand bench --base` reads their CPU time given their process ids.
server_pids=("${pids[@]:0:n}")
echo "run-cluster: metrics at http://127.0.0.1:$first_port/metrics" \
  "(one per process); process ids: ${server_pids[*]}" \
  "(bench: $(printf -- '--server-pid %s ' "${server_pids[@]}"))"
# Until a process (or HAProxy) stops, or Ctrl-C: then everything stops.
set +e
wait -n "${pids[@]}"
echo "run-cluster: a process stopped (exit $?); stopping the others" >&2
exit 1
