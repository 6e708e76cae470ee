#!/usr/bin/env bash
# A Patroni cluster on this machine: one etcd member, two PostgreSQL nodes
# managed by Patroni (synchronous, strict), HAProxy sending writes to
# whichever node Patroni says is the leader.
#
#   deploy/run-patroni.sh start    # install what is missing, start it all (idempotent)
#   deploy/run-patroni.sh status   # patronictl list, and which processes run
#   deploy/run-patroni.sh url      # the DATABASE_URL for hatstand (through HAProxy)
#   deploy/run-patroni.sh stop     # stop everything (the data stays)
#   deploy/run-patroni.sh clean    # stop, then delete the state directory
#
# The processes run in the background and outlive the script; `stop` ends
# them. Layout (environment variables change the ports):
#   etcd           127.0.0.1:$ETCD_PORT (2379), peers on $ETCD_PEER_PORT (2380)
#   node1, node2   PostgreSQL on $PG_PORTS ("5441 5442"),
#                  Patroni's REST API on $REST_PORTS ("8008 8009")
#   HAProxy        writes (the leader) on $WRITE_PORT (5440),
#                  reads (the standby) on $READ_PORT (5443)
#   STATE_DIR      data, configurations, passwords and logs (.hatstand/patroni)
# As root, etcd, Patroni and PostgreSQL run as the `postgres` user.
# Installs patroni, etcd-server and haproxy with apt-get when missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
state=${STATE_DIR:-$root/.hatstand/patroni}
etcd_port=${ETCD_PORT:-2379}
etcd_peer_port=${ETCD_PEER_PORT:-2380}
read -r -a pg_ports <<<"${PG_PORTS:-5441 5442}"
read -r -a rest_ports <<<"${REST_PORTS:-8008 8009}"
write_port=${WRITE_PORT:-5440}
read_port=${READ_PORT:-5443}
nodes=(node1 node2)

log() { echo "run-patroni: $*" >&2; }

# as_owner CMD...: runs CMD as the user that owns the cluster's files.
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  as_owner() { setpriv --reuid="$owner" --regid="$owner" --init-groups -- "$@"; }
else
  owner=$(id -un)
  as_owner() { "$@"; }
fi

# The newest PostgreSQL installed (Debian's layout).
bin_dir() {
  local dir
  dir=$(find /usr/lib/postgresql -maxdepth 3 -path '*/bin/postgres' 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || { log "no PostgreSQL server in /usr/lib/postgresql"; exit 1; }
  dirname "$dir"
}

# Installs Patroni (with its etcd client), etcd and HAProxy when missing.
install_packages() {
  local missing=()
  command -v patroni >/dev/null || missing+=(patroni)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v haproxy >/dev/null || missing+=(haproxy)
  /usr/bin/python3 -c 'import etcd' 2>/dev/null || missing+=(python3-etcd)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  # Debian's packages start their own services; this layout runs its own.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# running NAME: whether the process of STATE/NAME.pid is alive.
running() {
  local pid
  pid=$(cat "$state/$1.pid" 2>/dev/null) || return 1
  kill -0 "$pid" 2>/dev/null
}

# launch NAME CMD...: starts CMD in the background as the owner, its output
# in STATE/NAME.log and its process id in STATE/NAME.pid.
launch() {
  local name=$1
  shift
  if running "$name"; then
    return 0
  fi
  nohup env HOME="$state" setpriv --reuid="$owner" --regid="$owner" --init-groups -- "$@" \
    >>"$state/$name.log" 2>&1 </dev/null &
  echo $! >"$state/$name.pid"
}
if [ "$(id -u)" -ne 0 ]; then
  launch() {
    local name=$1
    shift
    running "$name" && return 0
    nohup "$@" >>"$state/$name.log" 2>&1 </dev/null &
    echo $! >"$state/$name.pid"
  }
fi

# The passwords, made once and kept with the data.
secrets() {
  if [ ! -s "$state/secrets.env" ]; then
    local gen='head -c 18 /dev/urandom | base64 | tr -d "+/="'
    {
      echo "SUPERUSER_PASSWORD=$(eval "$gen")"
      echo "REPLICATION_PASSWORD=$(eval "$gen")"
      echo "APP_PASSWORD=$(eval "$gen")"
    } >"$state/secrets.env"
    chmod 600 "$state/secrets.env"
  fi
  # shellcheck disable=SC1091
  . "$state/secrets.env"
}

# rest_port, pg_port, leader, has_sync_standby.
# shellcheck source=deploy/patroni/nodes.sh
. "$root/deploy/patroni/nodes.sh"

# A SQL statement run as the superuser on the leader.
leader_sql() {
  local node
  node=$(leader)
  PGPASSWORD=$SUPERUSER_PASSWORD psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(pg_port "$node")" \
    -U postgres -d postgres "$@"
}

start() {
  # A start that fails half way stops what it started.
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then log "start failed; stopping"; stop; fi' EXIT
  install_packages
  mkdir -p "$state"
  [ "$(id -u)" -ne 0 ] || chown "$owner:" "$state"
  chmod 700 "$state"
  secrets
  local bin
  bin=$(bin_dir)

  for port in "$etcd_port" "$etcd_peer_port" "${pg_ports[@]}" "${rest_ports[@]}" "$write_port" "$read_port"; do
    if ! running etcd && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      log "port $port is in use"
      exit 1
    fi
  done

  # etcd: one member, holding Patroni's leader key.
  as_owner mkdir -p "$state/etcd"
  as_owner chmod 700 "$state/etcd"
  launch etcd etcd --name etcd1 --data-dir "$state/etcd/data" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" \
    --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
    --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
    --initial-cluster "etcd1=http://127.0.0.1:$etcd_peer_port" \
    --initial-cluster-token hatstand --initial-cluster-state new
  wait_until etcd 30 curl -sf "http://127.0.0.1:$etcd_port/health"

  # The Patroni nodes, from the template.
  local i node dir
  for i in 1 2; do
    node=${nodes[$((i - 1))]}
    dir=$state/$node
    as_owner mkdir -p "$dir"
    as_owner chmod 700 "$dir"
    sed -e "s|@NAME@|$node|g" -e "s|@PG_PORT@|$(pg_port "$i")|g" \
      -e "s|@REST_PORT@|$(rest_port "$i")|g" -e "s|@ETCD_PORT@|$etcd_port|g" \
      -e "s|@NODE_DIR@|$dir|g" -e "s|@BIN_DIR@|$bin|g" \
      -e "s|@SUPERUSER_PASSWORD@|$SUPERUSER_PASSWORD|g" \
      -e "s|@REPLICATION_PASSWORD@|$REPLICATION_PASSWORD|g" \
      "$root/deploy/patroni/patroni.yml.in" | as_owner tee "$dir/patroni.yml" >/dev/null
    as_owner chmod 600 "$dir/patroni.yml"
    launch "$node" patroni "$dir/patroni.yml"
    # The first node bootstraps the cluster; the second clones it.
    if [ "$i" -eq 1 ]; then
      wait_until "a leader" 90 leader
    fi
  done
  wait_until "a synchronous standby" 120 has_sync_standby

  # HAProxy: writes to the leader, by Patroni's REST API.
  local servers="" config=$state/haproxy.cfg
  for i in 1 2; do
    servers+="    server ${nodes[$((i - 1))]} 127.0.0.1:$(pg_port "$i") check port $(rest_port "$i")"$'\n'
  done
  awk -v servers="$servers" -v write="$write_port" -v read="$read_port" '
    /^@SERVERS@$/ { printf "%s", servers; next }
    { gsub(/@WRITE_PORT@/, write); gsub(/@READ_PORT@/, read); print }
  ' "$root/deploy/patroni/haproxy.cfg.in" >"$config"
  haproxy -c -q -f "$config"
  if ! running haproxy; then
    nohup haproxy -db -f "$config" >>"$state/haproxy.log" 2>&1 </dev/null &
    echo $! >"$state/haproxy.pid"
  fi

  # The application's role and database, on whichever node leads.
  leader_sql -v pw="$APP_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE hatstand LOGIN PASSWORD %L', :'pw')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hatstand') \gexec
SELECT 'CREATE DATABASE hatstand OWNER hatstand'
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'hatstand') \gexec
SQL
  # HAProxy (before 3.1) starts with every node up, until its checks fail
  # twice: for its first second or so the write port may lead to the
  # standby. Up only once several connections in a row reach the primary.
  wait_until "HAProxy's write port on the leader alone" 30 writes_reach_leader
  log "up: leader node$(leader); writes through HAProxy on 127.0.0.1:$write_port; state in $state"
  trap - EXIT
  url
}

# Whether four connections in a row through HAProxy's write port reach a
# primary (a node not in recovery).
writes_reach_leader() {
  local n
  for n in 1 2 3 4; do
    [ "$(PGPASSWORD="$APP_PASSWORD" psql -X -At -h 127.0.0.1 -p "$write_port" -U hatstand \
      -d hatstand -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] || return 1
  done
}

# The server's DATABASE_URL: the application role, through HAProxy.
url() {
  secrets
  echo "postgres://hatstand:$APP_PASSWORD@127.0.0.1:$write_port/hatstand"
}

status() {
  local name
  for name in etcd node1 node2 haproxy; do
    if running "$name"; then
      echo "$name: running (pid $(cat "$state/$name.pid"))"
    else
      echo "$name: stopped"
    fi
  done
  if running node1 || running node2; then
    as_owner patronictl -c "$state/node1/patroni.yml" list || true
  fi
}

# stop_one NAME: TERM, then KILL after 60 s.
stop_one() {
  local pid
  running "$1" || { rm -f "$state/$1.pid"; return 0; }
  pid=$(cat "$state/$1.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$state/$1.pid"
}

stop() {
  # HAProxy first (no new sessions), then the standby before the leader
  # (so that the leader key is not handed over on the way down), then etcd.
  stop_one haproxy
  local first=node2 second=node1
  if [ "$(leader 2>/dev/null || true)" = 2 ]; then
    first=node1
    second=node2
  fi
  stop_one "$first"
  stop_one "$second"
  # A PostgreSQL whose Patroni was killed outlives it: stop it too.
  local node
  for node in "${nodes[@]}"; do
    if [ -f "$state/$node/data/postmaster.pid" ]; then
      as_owner "$(bin_dir)/pg_ctl" -D "$state/$node/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
  done
  stop_one etcd
  log "stopped"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  url) url ;;
  clean)
    stop
    rm -rf "$state"
    log "removed $state"
    ;;
  *)
    echo "usage: $0 start|stop|status|url|clean" >&2
    exit 2
    ;;
esac
