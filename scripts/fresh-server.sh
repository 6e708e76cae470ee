# Sourced by the scripts that check the server from outside (fuzz.sh,
# client-check.sh). `start_fresh_server NAME [VAR=value …]` starts `$binary`
# with those settings on a fresh database of `$server`, waits until it
# answers, sets `base` to its URL, and drops the database when the script
# exits.

start_fresh_server() {
  local name=$1 port
  shift
  db="hatstand_${name}_$(date +%s)_$$"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  base="http://127.0.0.1:$port"
  env DATABASE_URL="$server/$db" HATSTAND_BIND="127.0.0.1:$port" RUST_LOG=warn "$@" "$binary" &
  pid=$!
  trap stop_fresh_server EXIT
  for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.2; done
}

stop_fresh_server() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  psql -q "$server/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
