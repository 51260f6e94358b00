#!/usr/bin/env bash
# Seeds 001/002: the seed page over h1 vs h2c (clear text), h1-tls vs h2 (TLS) and h3 (HTTP/3 over
# QUIC, which neither seed measured) vs h2 on a latency x loss grid of the server's network
# emulation, one server start and one JMeter run (test-plans/network-sweep.jmx) per cell, then the
# h2/h1 and h3/h2 ratios of the mean page time per cell in target/h2bench-network-sweep/sweep.csv and
# sweep.md. Build first (mvn -B package -DskipTests).
#
#   benchmarks/network-sweep.sh [LATENCIES (default "25ms 100ms")] [LOSSES (default "0% 1%")] [ITERATIONS (default 5)] [PAGE]
# PAGE: "seed" (default, seed 000's page on one origin) or "average" (seed 001's 80 files on the 16
# origins domain1..16.h2bench.test, resolved by the plan's DNS Cache Manager).
# The seeds' full grid: "25ms 75ms 150ms 250ms 500ms 1000ms" "0.1% 0.3% 0.5% 1% 2% 5%" (long: hours).
# ENGINE=kernel|auto|proxy (default kernel): the kernel link relays real kernel TCP and h3's UDP through
# the same latency, rate, queue and loss, so the three protocols meet the same network; it needs root
# (or a user namespace) and the sweep stops when it cannot start. auto falls back to the byte proxy,
# which relays TCP only: the cells then have no h3 (-Jh3=false) and sweep.md says why.
# SERVER_ARGS: more options for every cell's server, e.g. "--congestion-control reno
# --h3-congestion-control reno" to compare TCP and QUIC under one congestion control (quiche's cubic
# undoes its window cuts after sparse losses, Linux's does not: the benchmarks page, issue 38).
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
engine="${ENGINE:-kernel}"
read -r -a server_args <<<"${SERVER_ARGS:-}"
case "$engine" in kernel|auto|proxy) ;; *) echo "network-sweep.sh: ENGINE must be kernel, auto or proxy, was '$engine'" >&2; exit 2 ;; esac
run="target/h2bench-network-sweep-run"
out="target/h2bench-network-sweep"
# shellcheck source=../bin/lib/sweep.sh
. "$root/bin/lib/sweep.sh"
sweep_start "$run" "$out"

# the first columns as before h3, so that older sweep.csv files read the same; h3's after them
echo "latency,loss,h1_ms,h2c_ms,h2c_to_h1,h1_tls_ms,h2_ms,h2_to_h1_tls,errors,h3_ms,h3_to_h2,h2_median_ms,h3_median_ms,h3_to_h2_median" >"$out/sweep.csv"
: >"$out/network.txt"
for latency in $latencies; do
  for loss in $losses; do
    cell="$run/${latency}-${loss%\%}"
    mkdir -p "$cell"
    echo "== latency $latency, loss $loss ($(date -u +%H:%M:%S))"
    start_server "$cell" --latency="$latency" --loss="$loss" --engine="$engine" ${server_args[@]+"${server_args[@]}"} || exit 1
    echo "   $(server_network "$cell")"
    [ -z "$server_no_h3" ] || echo "   no h3: $server_no_h3 (the plan skips its h3 samplers: -Jh3=false)"
    echo "$latency $loss: $(server_network "$cell")${server_no_h3:+; no h3: $server_no_h3}" >>"$out/network.txt"
    run_cell "$cell" test-plans/network-sweep.jmx -Jiterations="$iterations" "${page[@]}" || exit 1
    stop_server
    labels=("h1 page" "h2c page" "h1-tls page" "h2 page")
    [ -n "$server_no_h3" ] || labels+=("h3 page")
    problems=$(cell_failures "$cell" "$iterations" "${labels[@]}")
    [ "$problems" -eq 0 ] || echo "   $problems failure lines: $cell/failures.txt"
    csv="$cell/comparison.csv"
    h1=$(mean_of "$csv" page h1); h2c=$(mean_of "$csv" page h2c)
    tls=$(mean_of "$csv" page h1-tls); h2=$(mean_of "$csv" page h2); h3=$(mean_of "$csv" page h3)
    h2_median=$(median_of "$csv" page h2); h3_median=$(median_of "$csv" page h3)
    errors=$(errors_of "$csv")
    echo "$latency,$loss,$h1,$h2c,$(ratio "$h2c" "$h1"),$tls,$h2,$(ratio "$h2" "$tls"),$errors,$h3,$(ratio "$h3" "$h2"),$h2_median,$h3_median,$(ratio "$h3_median" "$h2_median")" >>"$out/sweep.csv"
  done
done

{
  echo "# h1, h2 and h3 over an emulated network (seeds 001/002)"
  echo
  echo "Mean time of the ${4:-seed} page (ms), $iterations page loads per protocol and cell; ratio = h2 / h1, and h3 / h2 (QUIC against TLS over TCP)."
  echo "Engine (the server's banner, first cell): $(head -1 "$out/network.txt" | sed 's/.*; engine: //; s/; no h3: .*//'); every cell's network in network.txt."
  no_h3="$(sed -n 's/.*; no h3: //p' "$out/network.txt" | sort -u | head -1)"
  [ -z "$no_h3" ] || echo "No h3 column: $no_h3."
  echo
  echo "| latency | loss | h1 | h2c | h2c / h1 | h1-tls | h2 | h2 / h1-tls | h3 | h3 / h2 | h3 / h2 (medians) | errors |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $10, $11, $14, $9 }' "$out/sweep.csv"
} >"$out/sweep.md"
cat "$out/sweep.md"
echo "== done: $out/sweep.csv, $out/sweep.md, $out/network.txt (each cell's JTL, comparison, server log and failures under $run/)"
