#!/usr/bin/env bash
# Seeds 001/002: the seed page over h1 vs h2c (clear text) and h1-tls vs h2 (TLS) on a latency x loss
# grid of the server's network emulation, one server start and one JMeter run
# (test-plans/network-sweep.jmx) per cell, then the h2/h1 ratio of the mean page time per cell in
# target/h2bench-network-sweep/sweep.csv and sweep.md. Build first (mvn -B package -DskipTests).
#
#   benchmarks/network-sweep.sh [LATENCIES (default "25ms 100ms")] [LOSSES (default "0% 1%")] [ITERATIONS (default 5)] [PAGE]
# PAGE: "seed" (default, seed 000's page on one origin) or "average" (seed 001's 80 files on the 16
# origins domain1..16.h2bench.test, resolved by the plan's DNS Cache Manager).
# The seeds' full grid: "25ms 75ms 150ms 250ms 500ms 1000ms" "0.1% 0.3% 0.5% 1% 2% 5%" (long: hours).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

latencies="${1:-25ms 100ms}"
losses="${2:-0% 1%}"
iterations="${3:-5}"
case "${4:-seed}" in
  seed) page=(-Jpage=/) ;;
  average) page=(-Jpage=/average-page -Jpage_host=domain1.h2bench.test) ;;
  *) echo "network-sweep.sh: PAGE must be seed or average, was '$4'" >&2; exit 2 ;;
esac
run="target/h2bench-network-sweep-run"
out="target/h2bench-network-sweep"
# shellcheck source=../bin/lib/sweep.sh
. "$root/bin/lib/sweep.sh"
sweep_start "$run" "$out"

echo "latency,loss,h1_ms,h2c_ms,h2c_to_h1,h1_tls_ms,h2_ms,h2_to_h1_tls,errors" >"$out/sweep.csv"
for latency in $latencies; do
  for loss in $losses; do
    cell="$run/${latency}-${loss%\%}"
    mkdir -p "$cell"
    echo "== latency $latency, loss $loss"
    start_server "$cell" --latency="$latency" --loss="$loss" || exit 1
    run_cell "$cell" test-plans/network-sweep.jmx -Jiterations="$iterations" "${page[@]}" || exit 1
    stop_server
    csv="$cell/comparison.csv"
    h1=$(mean_of "$csv" page h1); h2c=$(mean_of "$csv" page h2c)
    tls=$(mean_of "$csv" page h1-tls); h2=$(mean_of "$csv" page h2)
    errors=$(errors_of "$csv")
    echo "$latency,$loss,$h1,$h2c,$(ratio "$h2c" "$h1"),$tls,$h2,$(ratio "$h2" "$tls"),$errors" >>"$out/sweep.csv"
  done
done

{
  echo "# h2 vs h1 over an emulated network (seeds 001/002)"
  echo
  echo "Mean time of the ${4:-seed} page (ms), $iterations page loads per protocol and cell; ratio = h2 / h1."
  echo
  echo "| latency | loss | h1 | h2c | h2c / h1 | h1-tls | h2 | h2 / h1-tls | errors |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$out/sweep.csv"
} >"$out/sweep.md"
cat "$out/sweep.md"
echo "== done: $out/sweep.csv, $out/sweep.md (each cell's JTL and comparison under $run/)"
