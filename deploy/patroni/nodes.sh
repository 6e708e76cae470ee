# What both deploy/run-patroni.sh and deploy/failover-drill.sh ask of the
# two nodes, by their number (1, 2). Sourced; expects the arrays
# `rest_ports` and `pg_ports`.

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
