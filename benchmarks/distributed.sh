#!/usr/bin/env bash
# A distributed JMeter run on loopback: one remote engine (jmeter-server) and a controller that
# sends it test-plans/load.jmx with -R, as a distributed test against a real farm would, to show
# that the h2bench sampler serialises, runs remotely and sends its results back. Remote engines
# read plan properties from -G (global) options, not -J. Build first (mvn -B package -DskipTests).
#
#   benchmarks/distributed.sh [THREADS (default 10)] [DURATION seconds (default 10)]
# RMI_PORT (default 1099) is the remote engine's registry port; RMI SSL is off (loopback only).
# LOAD_PLAN=another.jmx overrides test-plans/load.jmx (same properties).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

threads="${1:-10}"
duration="${2:-10}"
rmi_port="${RMI_PORT:-1099}"
run="target/h2bench-distributed-run"
out="target/h2bench-distributed"
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
fresh_run "$run" "$out" || exit 1
engine_pid=""
stop_all() {
  if [ -n "$engine_pid" ] && kill -0 "$engine_pid" 2>/dev/null; then
    kill "$engine_pid" 2>/dev/null || true
    wait "$engine_pid" 2>/dev/null || true
  fi
  stop_server
}
stop_on_any_exit stop_all
start_server "$run" || exit 1
h2_port="$(server_port h2_port)"

echo "== remote engine on 127.0.0.1:$rmi_port (log: $run/jmeter-server.log)"
java -Djava.rmi.server.hostname=127.0.0.1 -jar "$jmeter_jar" -s -j "$run/jmeter-server.log" \
  -Jserver.rmi.ssl.disable=true -Jserver_port="$rmi_port" >"$run/jmeter-server.out" 2>&1 &
engine_pid=$!
wait_for_line "$run/jmeter-server.out" "Created remote object" "$engine_pid" "the remote engine" || exit 1

echo "== controller: load.jmx on the remote engine, h2, $threads users for $duration s"
limit=()
command -v timeout >/dev/null && limit=(timeout --foreground --kill-after=10 "$((duration + 180))")
${limit[@]+"${limit[@]}"} java -jar "$jmeter_jar" -n -t "${LOAD_PLAN:-test-plans/load.jmx}" \
  -R "127.0.0.1:$rmi_port" -X -Jserver.rmi.ssl.disable=true -Jsummariser.interval=5 \
  -l "$run/results.jtl" -j "$run/jmeter.log" \
  -Gport="$h2_port" -Gscheme=https -Ghttp_version=HTTP_2 -Gthreads="$threads" -Gduration="$duration" \
  -Gramp=2 -Glabel="h2 small-text" 2>&1 | grep -v StatusConsoleListener || true

java -cp jmeter-plugin/target/h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport "$run/results.jtl" "$out"
cat "$out/comparison.md"
errors=$(awk -F, 'NR > 1 { sum += $7 } END { print sum + 0 }' "$out/comparison.csv")
remote=$(grep -c '127.0.0.1:'"$rmi_port"'-' "$run/results.jtl" || true)
echo "== $remote samples came back from the remote engine, $errors failed"
[ "$errors" = 0 ] && [ "$remote" -gt 0 ]
