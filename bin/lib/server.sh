# Sourced by bin/compare and benchmarks/load.sh: the h2bench server jar on free loopback ports,
# stopped by the caller's EXIT trap. Needs $root (the repository) and a run directory.

server_pid=""

# start_server RUN_DIR: starts the jar, waits for its banner, sets server_ports to -J options for the plans
start_server() {
  local run="$1" port pair
  java -jar "$root/server/target/h2bench-server.jar" --bind 127.0.0.1 \
    --h1-port 0 --tls-port 0 --h2-port 0 --h2c-port 0 >"$run/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    grep -q "server ready" "$run/server.log" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { echo "the server did not start:" >&2; cat "$run/server.log" >&2; return 1; }
    sleep 0.1
  done
  grep -q "server ready" "$run/server.log" || { echo "the server was not ready after 60 s" >&2; return 1; }
  server_ports=()
  for pair in h1:h1_port h1-tls:tls_port h2:h2_port h2c:h2c_port; do
    port="$(port_of "$run/server.log" "${pair%%:*}")"
    [ -n "$port" ] || { echo "no ${pair%%:*} port in the server's banner ($run/server.log)" >&2; return 1; }
    server_ports+=("-J${pair#*:}=$port")
  done
}

# The banner prints a header line "<listener> - <description>" followed by that listener's URLs.
port_of() {
  awk -v id="$2" '$1 == id && $2 == "-" { found = 1; next }
                  found && match($0, /:[0-9]+\//) { print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$1"
}

stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    echo "== stopping the server (pid $server_pid)"
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
