#!/usr/bin/env bash
# Seed 003: N resources of size S, each answered after a server delay D, fetched in parallel by one
# user as a page (/resources?count=N&size=S&delay=D) over h1-tls (6 connections) and h2 (one
# connection), one JMeter run of test-plans/resource-sweep.jmx per cell against one server, then the
# h2/h1 ratio of the mean page time per cell in target/h2bench-resource-sweep/sweep.csv and sweep.md.
# Build first (mvn -B package -DskipTests).
#
#   benchmarks/resource-sweep.sh [CELLS] [ITERATIONS (default 5)]
#
# CELLS is a list of COUNT:SIZE:DELAY, default seed 003's first experiment (100 resources of 0.1 MB,
# server delay 0 to 40 ms): "100:0.1m:0 100:0.1m:10 100:0.1m:20 100:0.1m:30 100:0.1m:40".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

cells="${1:-100:0.1m:0 100:0.1m:10 100:0.1m:20 100:0.1m:30 100:0.1m:40}"
iterations="${2:-5}"
for cell in $cells; do
  [[ "$cell" =~ ^[0-9]+:[0-9.]+[kKmM]?:[0-9]+$ ]] || {
    echo "resource-sweep.sh: '$cell' is not COUNT:SIZE:DELAY (e.g. 100:0.1m:30)" >&2; exit 2; }
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "resource-sweep.sh: ITERATIONS must be a positive number" >&2; exit 2; }

run="target/h2bench-resource-sweep-run"
out="target/h2bench-resource-sweep"
# shellcheck source=../bin/lib/sweep.sh
. "$root/bin/lib/sweep.sh"
sweep_start "$run" "$out"

echo "== starting the h2bench server on free loopback ports (log: $run/server.log)"
start_server "$run" || exit 1
echo "count,size,delay_ms,h1_tls_ms,h2_ms,h2_to_h1_tls,errors" >"$out/sweep.csv"
done_cells=0
total=$(wc -w <<<"$cells")
for spec in $cells; do
  IFS=: read -r count size delay <<<"$spec"
  cell="$run/$count-$size-$delay"
  mkdir -p "$cell"
  done_cells=$((done_cells + 1))
  echo "== cell $done_cells/$total: $count resources of $size, server delay $delay ms"
  run_cell "$cell" test-plans/resource-sweep.jmx -Jiterations="$iterations" \
    -Jcount="$count" -Jsize="$size" -Jdelay="$delay" || exit 1
  csv="$cell/comparison.csv"
  tls=$(mean_of "$csv" resources h1-tls); h2=$(mean_of "$csv" resources h2)
  echo "$count,$size,$delay,$tls,$h2,$(ratio "$h2" "$tls"),$(errors_of "$csv")" >>"$out/sweep.csv"
done

{
  echo "# h2 vs h1-tls for N parallel resources (seed 003)"
  echo
  echo "Mean page time (ms), $iterations page loads per protocol and cell, each on new connections; ratio = h2 / h1-tls."
  echo
  echo "| resources | size | server delay (ms) | h1-tls | h2 | h2 / h1-tls | errors |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$out/sweep.csv"
} >"$out/sweep.md"
cat "$out/sweep.md"
echo "== done: $out/sweep.csv, $out/sweep.md (each cell's JTL and comparison under $run/)"
