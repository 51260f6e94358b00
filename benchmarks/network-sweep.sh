#!/usr/bin/env bash
# Seeds 001/002: the seed page over h1 vs h2c (clear text) and h1-tls vs h2 (TLS) on a latency x loss
# grid of the server's network emulation, one server start and one JMeter run
# (test-plans/network-sweep.jmx) per cell, then the h2/h1 ratio of the mean page time per cell in
# target/h2bench-network-sweep/sweep.csv and sweep.md. Build first (mvn -B package -DskipTests).
#
#   benchmarks/network-sweep.sh [LATENCIES (default "25ms 100ms")] [LOSSES (default "0% 1%")] [ITERATIONS (default 5)]
# The seeds' full grid: "25ms 75ms 150ms 250ms 500ms 1000ms" "0.1% 0.3% 0.5% 1% 2% 5%" (long: hours).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

latencies="${1:-25ms 100ms}"
losses="${2:-0% 1%}"
iterations="${3:-5}"
run="target/h2bench-network-sweep-run"
out="target/h2bench-network-sweep"
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
fresh_run "$run" "$out" || exit 1
mkdir -p "$out"
trap stop_server EXIT
trap 'exit 130' INT TERM

mean_of() { # mean_of CSV PROTOCOL: the mean page time of PROTOCOL in a comparison.csv
  awk -F, -v p="$2" '$1 == "page" && $2 == p { print $3 }' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'; }

echo "latency,loss,h1_ms,h2c_ms,h2c_to_h1,h1_tls_ms,h2_ms,h2_to_h1_tls,errors" >"$out/sweep.csv"
limit=()
command -v timeout >/dev/null && limit=(timeout --foreground --kill-after=10 900)
for latency in $latencies; do
  for loss in $losses; do
    cell="$run/${latency}-${loss%\%}"
    mkdir -p "$cell"
    echo "== latency $latency, loss $loss"
    start_server "$cell" --latency="$latency" --loss="$loss" || exit 1
    ${limit[@]+"${limit[@]}"} java -Xmx1g -jar "$jmeter_jar" -n -t test-plans/network-sweep.jmx \
      -l "$cell/results.jtl" -j "$cell/jmeter.log" -Jiterations="$iterations" \
      -Jjmeter.save.saveservice.subresults=false -Jsummariser.interval=10 "${server_ports[@]}" \
      2>&1 | grep -E '^summary =' || true
    stop_server
    java -cp jmeter-plugin/target/h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport \
      "$cell/results.jtl" "$cell" >/dev/null
    csv="$cell/comparison.csv"
    h1=$(mean_of "$csv" h1); h2c=$(mean_of "$csv" h2c); tls=$(mean_of "$csv" h1-tls); h2=$(mean_of "$csv" h2)
    errors=$(awk -F, 'NR > 1 { sum += $7 } END { print sum + 0 }' "$csv")
    echo "$latency,$loss,$h1,$h2c,$(ratio "$h2c" "$h1"),$tls,$h2,$(ratio "$h2" "$tls"),$errors" >>"$out/sweep.csv"
  done
done

{
  echo "# h2 vs h1 over an emulated network (seeds 001/002)"
  echo
  echo "Mean time of the seed page (ms), $iterations page loads per protocol and cell; ratio = h2 / h1."
  echo
  echo "| latency | loss | h1 | h2c | h2c / h1 | h1-tls | h2 | h2 / h1-tls | errors |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$out/sweep.csv"
} >"$out/sweep.md"
cat "$out/sweep.md"
echo "== done: $out/sweep.csv, $out/sweep.md (each cell's JTL and comparison under $run/)"
