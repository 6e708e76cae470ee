# What both deploy/run-patroni.sh and deploy/failover-drill.sh ask of the
# two nodes, by their number (1, 2), and the wait both use. Sourced;
# expects the arrays `rest_ports` and `pg_ports` and a function `log`.

# The port a node's REST API or PostgreSQL listens on.
rest_port() { echo "${rest_ports[$(($1 - 1))]}"; }
pg_port() { echo "${pg_ports[$(($1 - 1))]}"; }

# The number of the node Patroni says is the leader, or nothing.
leader() {
  local i
  for i in 1 2; do
    if curl -sf -o /dev/null "http://127.0.0.1:$(rest_port "$i")/primary"; then
      echo "$i"
      return 0
    fi
  done
  return 1
}

# Whether some node is the leader's synchronous standby, streaming.
has_sync_standby() {
  local i
  for i in 1 2; do
    curl -sf -o /dev/null "http://127.0.0.1:$(rest_port "$i")/sync" && return 0
  done
  return 1
}

# wait_until WHAT SECONDS CMD...: until CMD succeeds, checked every 0.2 s;
# fails (and logs WHAT) when it has not within SECONDS.
wait_until() {
  local what=$1 secs=$2
  shift 2
  for _ in $(seq $((secs * 5))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  log "$what: not within $secs s"
  return 1
}
