#!/usr/bin/env bash
# Soak: test-plans/soak.jmx (USERS users loading the seed page over h2, 1 s think time) for DURATION
# seconds against the h2bench server on loopback. Every 10 s it samples, for JMeter and for the
# server: live threads (/proc status), heap after a full GC (jcmd GC.run, GC.heap_info) and open
# file descriptors (/proc fd), and prints them with JMeter's running totals. Fails unless every
# series settles within 10 % by half of the run (the rule is in soak-report.py), the JTL holds as
# many samples as JMeter's summariser counted and none failed. Writes soak.csv, soak.svg,
# summary.txt and class histograms near the end (histograms.txt) into target/h2bench-soak/.
# Not in the default suite (10 min).
# Build first (mvn -B package -DskipTests).
#
#   benchmarks/soak.sh [--duration SECONDS (default 600)] [--users N (default 200)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

duration=600
users=200
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --users) users="$2"; shift 2 ;;
    *) echo "usage: benchmarks/soak.sh [--duration SECONDS] [--users N]" >&2; exit 2 ;;
  esac
done
[[ "$duration" =~ ^[1-9][0-9]*$ && "$users" =~ ^[1-9][0-9]*$ ]] || { echo "soak.sh: --duration and --users take whole numbers" >&2; exit 2; }
command -v jcmd >/dev/null || { echo "soak.sh: needs jcmd (a JDK)" >&2; exit 1; }

run="target/h2bench-soak-run"
out="target/h2bench-soak"
jmeter_pid=""
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
stop_jmeter() {
  if [ -n "$jmeter_pid" ] && kill -0 "$jmeter_pid" 2>/dev/null; then
    kill "$jmeter_pid" 2>/dev/null || true
    wait "$jmeter_pid" 2>/dev/null || true
  fi
}
fresh_run "$run" "$out" || exit 1
mkdir -p "$out"
stop_on_any_exit 'stop_jmeter; stop_server'
start_server "$run" || exit 1

# sample PROCESS PID: "threads,heap_after_gc_kib,open_fds" of a running JVM
sample() {
  local threads heap fds
  threads="$(awk '/^Threads:/ { print $2 }' "/proc/$2/status")"
  # one jcmd (a JVM start each) for both commands: a full GC, then the heap it left
  heap="$(jcmd "$2" -f "$run/gc.jcmd" 2>/dev/null | awk '/total/ && /used/ { for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K.*/, "", v); print v; exit } }')"
  fds="$(find "/proc/$2/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
  echo "$threads,${heap:-},$fds"
}

# progress ELAPSED: the last two samples (JMeter's, the server's) and JMeter's running totals
progress() {
  local totals
  totals="$(grep '^summary =' "$run/jmeter.out" | tail -n 1 | sed -n 's/^summary = *\([0-9]*\) .*Err: *\([0-9]*\).*/\1 samples, \2 failed/p' || true)"
  tail -n 2 "$out/soak.csv" | awk -F, -v elapsed="$1" -v duration="$duration" -v totals="${totals:-no samples yet}" '
    { line = line sprintf("%s %s threads, %s MiB after GC, %s fds; ", $2, $3, $4 == "" ? "?" : int($4 / 1024), $5) }
    END { printf "[%4d/%d s] %s%s\n", elapsed, duration, line, totals }'
}

echo "== $users users loading / over h2 for $duration s (samples every 10 s)"
timeout --kill-after=10 "$((duration + 180))" java -Xmx1g -jar "$jmeter_jar" -n -t test-plans/soak.jmx \
  -l "$run/results.jtl" -j "$run/jmeter.log" -Jjmeter.save.saveservice.subresults=false -Jsummariser.interval=30 \
  -Jthreads="$users" -Jduration="$duration" -Jport="$(server_port h2_port)" >"$run/jmeter.out" 2>&1 &
jmeter_pid=$!
started=$(date +%s)
echo "elapsed_s,process,threads,heap_after_gc_kib,open_fds" >"$out/soak.csv"
printf 'GC.run\nGC.heap_info\n' >"$run/gc.jcmd"
tick=5
java_pid=""
for _ in $(seq 1 300); do  # the JVM that timeout starts, within 30 s
  java_pid="$(pgrep -P "$jmeter_pid" java || true)"
  [ -n "$java_pid" ] && break
  sleep 0.1
done
[ -n "$java_pid" ] || { echo "soak.sh: JMeter did not start (see $run/jmeter.out)" >&2; exit 1; }
# only while the users run: JMeter's shutdown would read as a drop
while kill -0 "$java_pid" 2>/dev/null && [ $(($(date +%s) - started)) -le "$duration" ]; do
  elapsed=$(($(date +%s) - started))
  echo "$elapsed,jmeter,$(sample jmeter "$java_pid")" >>"$out/soak.csv"
  echo "$elapsed,server,$(sample server "$server_pid")" >>"$out/soak.csv"
  progress "$elapsed"
  if [ ! -s "$out/histograms.txt" ] && [ "$elapsed" -ge $((duration - 15)) ]; then
    # what each heap holds near the end: the first place to look when a heap is not flat
    for pair in "jmeter:$java_pid" "server:$server_pid"; do
      echo "== ${pair%%:*} at ${elapsed} s"; jcmd "${pair#*:}" GC.class_histogram 2>/dev/null | head -n 25
    done >"$out/histograms.txt"
  fi
  tick=$((tick + 10))
  sleep "$(( (started + tick - $(date +%s)) > 0 ? started + tick - $(date +%s) : 0 ))"
done
[ "$(wc -l <"$out/soak.csv")" -gt 6 ] || { echo "soak.sh: fewer than 3 samples per process in $out/soak.csv" >&2; exit 1; }
wait "$jmeter_pid" || { echo "soak.sh: JMeter failed (see $run/jmeter.out, $run/jmeter.log)" >&2; exit 1; }
jmeter_pid=""

# JMeter's own count (its summariser's last total), which the report holds against the JTL
counted="$(grep '^summary =' "$run/jmeter.out" | tail -n 1 | awk '{ print $3 }')"
[ -n "$counted" ] || { echo "soak.sh: JMeter printed no summary (see $run/jmeter.out)" >&2; exit 1; }
gzip -c "$run/results.jtl" >"$out/results.jtl.gz"
verdict=0
{ echo "soak: $users users, $duration s, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr), $(java -version 2>&1 | head -1)"
  python3 benchmarks/soak-report.py "$out/soak.csv" "$out/soak.svg" --jtl "$run/results.jtl" --counted "$counted"
} | tee "$out/summary.txt" || verdict=$?
[ "$verdict" -eq 0 ] || { echo "soak.sh: the soak failed: a series did not settle, or a sample was lost or failed (see $out/summary.txt)" >&2; exit 1; }
echo "== done: $out/summary.txt, soak.csv, soak.svg"
