#!/usr/bin/env bash
# Seed 003: N resources of size S, each answered after a server delay D, fetched in parallel by one
# user as a page (/resources?count=N&size=S&delay=D) over h1-tls (6 connections) and h2 (one
# connection), one JMeter run of test-plans/resource-sweep.jmx per cell against one server, then the
# h2/h1 ratio of the mean page time per cell in target/h2bench-resource-sweep/sweep.csv and sweep.md.
# Build first (mvn -B package -DskipTests).
#
#   benchmarks/resource-sweep.sh [CELLS] [ITERATIONS (default 5)]
#
# CELLS is a list of COUNT:SIZE:DELAY[:PROFILE] and script[:PROFILE], default seed 003's first
# experiment (100 resources of 0.1 MB, server delay 0 to 40 ms): "100:0.1m:0 100:0.1m:10 100:0.1m:20
# 100:0.1m:30 100:0.1m:40". PROFILE is one of the server's network presets (Chrome DevTools' regular-2g,
# good-2g, regular-3g, good-3g, regular-4g, wifi); without it the cell runs on plain loopback. A script
# cell is seed 003's push experiment: a page and its 290 kB script over h2, requested by the page or
# pushed with it (script.csv). The server is restarted whenever the profile changes. ENGINE=kernel|proxy|auto
# (default: the server's own default, auto) picks the link engine of the profile cells.
#
# A cell with failed samples does not stop the sweep: its failures.txt (and $out/failures.txt, all
# cells) keeps each failed load's time and message, which names the failed resources and why,
# loads missing from the JTL and the JVM's errors. Exits 1 at the end when a cell failed or got no
# comparison, 0 otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

cells="${1:-100:0.1m:0 100:0.1m:10 100:0.1m:20 100:0.1m:30 100:0.1m:40}"
iterations="${2:-5}"
for cell in $cells; do
  [[ "$cell" =~ ^([0-9]+:[0-9.]+[kKmM]?:[0-9]+|script)(:[a-z0-9-]+)?$ ]] || {
    echo "resource-sweep.sh: '$cell' is not COUNT:SIZE:DELAY[:PROFILE] or script[:PROFILE] (e.g. 100:0.1m:30, script:regular-3g)" >&2
    exit 2; }
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "resource-sweep.sh: ITERATIONS must be a positive number" >&2; exit 2; }

run="target/h2bench-resource-sweep-run"
out="target/h2bench-resource-sweep"
# shellcheck source=../bin/lib/sweep.sh
. "$root/bin/lib/sweep.sh"
sweep_start "$run" "$out"

# serve_profile PROFILE: (re)starts the server on that network profile ("" = plain loopback)
current_profile="none yet"
serve_profile() {
  [ "$1" = "$current_profile" ] && return 0
  stop_server
  echo "== starting the h2bench server, profile ${1:-none} (log: $run/server-${1:-none}/server.log)"
  mkdir -p "$run/server-${1:-none}"
  start_server "$run/server-${1:-none}" ${1:+--profile "$1"} ${1:+${ENGINE:+--engine "$ENGINE"}} || exit 1
  current_profile="$1"
}

# Connect timeout 30 s: on a busy 2-core machine a cold JVM's h1-tls handshake, beside 2 MB bodies
# being decrypted, once took over the plan's 5 s (when that timeout still bounded the whole handshake;
# it now bounds each wait for the server, as HttpClient4's does). A slow profile takes minutes per
# load: no response timeout short of that.
limits=(-Jconnect_timeout=30000 -Jresponse_timeout=600000)
# JMeter keeps a thread's previous sample (JMeterContext's previous result) while the next one runs,
# so two pages' bodies are alive at once: 2 x 393 MB for 3,750 x 0.1 MB, which thrashed a 640 MiB heap.
export JMETER_HEAP="${JMETER_HEAP:-2g}"

# note_failures CELL_DIR LABEL...: adds the cell's failures.txt (if any) to $out/failures.txt
failed_cells=0
note_failures() {
  local cell="$1" problems
  shift
  problems=$(cell_failures "$cell" "$iterations" "$@")
  if [ ! -f "$cell/comparison.csv" ]; then
    echo "no comparison: the JTL is missing or unreadable (see $cell/jmeter.log)" >>"$cell/failures.txt"
    problems=$((problems + 1))
  fi
  if [ "$problems" -gt 0 ]; then
    failed_cells=$((failed_cells + 1))
    echo "== $(basename "$cell"): $problems failure lines, see $cell/failures.txt"
    { echo "## $(basename "$cell")"; cat "$cell/failures.txt"; echo; } >>"$out/failures.txt"
  fi
}

echo "count,size,delay_ms,profile,h1_tls_ms,h2_ms,h2_to_h1_tls,errors" >"$out/sweep.csv"
echo "profile,requested_ms,pushed_ms,pushed_to_requested,errors" >"$out/script.csv"
done_cells=0
total=$(wc -w <<<"$cells")
for spec in $cells; do
  done_cells=$((done_cells + 1))
  if [[ "$spec" == script* ]]; then
    profile="${spec#script}"; profile="${profile#:}"
    serve_profile "$profile"
    cell="$run/script-${profile:-none}"
    mkdir -p "$cell"
    echo "== cell $done_cells/$total: the 290 kB script, requested and pushed, profile ${profile:-none}"
    run_cell "$cell" test-plans/resource-sweep.jmx -Jiterations="$iterations" -Jobject=script "${limits[@]}" || true
    note_failures "$cell" "h2 script" "h2-push script"
    csv="$cell/comparison.csv"
    [ -f "$csv" ] || { echo "${profile:-none},,,,no comparison" >>"$out/script.csv"; continue; }
    requested=$(mean_of "$csv" script h2); pushed=$(mean_of "$csv" script h2-push)
    echo "${profile:-none},$requested,$pushed,$(ratio "$pushed" "$requested"),$(errors_of "$csv")" >>"$out/script.csv"
    continue
  fi
  IFS=: read -r count size delay profile <<<"$spec"
  serve_profile "${profile:-}"
  cell="$run/$count-$size-$delay${profile:+-$profile}"
  mkdir -p "$cell"
  echo "== cell $done_cells/$total: $count resources of $size, server delay $delay ms, profile ${profile:-none}"
  run_cell "$cell" test-plans/resource-sweep.jmx -Jiterations="$iterations" \
    -Jcount="$count" -Jsize="$size" -Jdelay="$delay" "${limits[@]}" || true
  note_failures "$cell" "h1-tls resources" "h2 resources"
  csv="$cell/comparison.csv"
  [ -f "$csv" ] || { echo "$count,$size,$delay,${profile:-none},,,,no comparison" >>"$out/sweep.csv"; continue; }
  tls=$(mean_of "$csv" resources h1-tls); h2=$(mean_of "$csv" resources h2)
  echo "$count,$size,$delay,${profile:-none},$tls,$h2,$(ratio "$h2" "$tls"),$(errors_of "$csv")" >>"$out/sweep.csv"
done

{
  echo "# h2 vs h1-tls for N parallel resources (seed 003)"
  echo
  echo "Mean page time (ms), $iterations page loads per protocol and cell, each on new connections; ratio = h2 / h1-tls."
  echo
  echo "| resources | size | server delay (ms) | profile | h1-tls | h2 | h2 / h1-tls | errors |"
  echo "|---:|---|---:|---|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$out/sweep.csv"
  if [ "$(wc -l <"$out/script.csv")" -gt 1 ]; then
    echo
    echo "The 290 kB script over h2, mean page time (ms) with the script requested by the page or pushed with it."
    echo
    echo "| profile | requested | pushed | pushed / requested | errors |"
    echo "|---|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/script.csv"
  fi
} >"$out/sweep.md"
cat "$out/sweep.md"
echo "== done: $out/sweep.csv, $out/script.csv, $out/sweep.md (each cell's JTL and comparison under $run/)"
if [ "$failed_cells" -gt 0 ]; then
  echo "== $failed_cells of $total cells had failed or missing samples: $out/failures.txt" >&2
  exit 1
fi
