#!/usr/bin/env bash
# Throughput under load, one protocol after the other: test-plans/load.jmx with THREADS users for
# DURATION seconds per protocol against the h2bench server on loopback, all results in one JTL,
# then JMeter's dashboard and the comparison table in target/h2bench-load/. Build first
# (mvn package, or bin/compare once). Loopback only; every run is bounded in time.
#
#   benchmarks/load.sh [THREADS (default 50)] [DURATION seconds (default 15)] [PATH (default /small-text.txt)]
# LOAD_PLAN=another.jmx overrides test-plans/load.jmx (same properties).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

threads="${1:-50}"
duration="${2:-15}"
path="${3:-/small-text.txt}"
object="$(basename "$path" | sed 's/\..*//; s/^$/page/')"
run="target/h2bench-load-run"
out="target/h2bench-load"
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
fresh_run "$run" "$out" || exit 1
stop_on_any_exit stop_server
start_server "$run" || exit 1

limit=()
command -v timeout >/dev/null && limit=(timeout --foreground --kill-after=10 "$((duration + 120))")
# protocol label, scheme, port property, H2Bench.httpVersion
for spec in "h1 http h1_port HTTP_1_1" "h1-tls https tls_port HTTP_1_1" "h2 https h2_port HTTP_2" "h2c http h2c_port H2C"; do
  read -r protocol scheme port_property version <<<"$spec"
  port="$(server_port "$port_property")"
  echo "== $protocol: $threads users for $duration s on $path"
  ${limit[@]+"${limit[@]}"} java -Xmx1g -jar "$jmeter_jar" -n -t "${LOAD_PLAN:-test-plans/load.jmx}" \
    -l "$run/results.jtl" -j "$run/jmeter-$protocol.log" -Jsummariser.interval=5 \
    -Jthreads="$threads" -Jduration="$duration" -Jramp=2 -Jpath="$path" \
    -Jscheme="$scheme" -Jport="$port" -Jhttp_version="$version" -Jlabel="$protocol $object" \
    2>&1 | grep -E '^summary|^Tidying|error|Error' || true
done

echo "== dashboard and comparison"
java -jar "$jmeter_jar" -g "$run/results.jtl" -o "$out" -j "$run/jmeter-report.log" \
  -Jjmeter.reportgenerator.overall_granularity=1000 >/dev/null
java -cp jmeter-plugin/target/h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport "$run/results.jtl" "$out"
cat "$out/comparison.md"
echo "== done: $out/index.html (throughput per protocol in its Statistics table)"
