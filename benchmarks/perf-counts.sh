#!/usr/bin/env bash
# What a client-cost.sh run does per request, counted by the kernel, not timed (the 44 kB h2 row's
# modes): run in the background beside one JMeter run, it waits for the JVM writing JTL, lets AFTER
# seconds pass (the warm-up), then counts for SECONDS, with perf stat, the system calls (all, and
# epoll_wait, read, write, writev, futex) and context switches of that JVM and of the server (PID
# and its children: nginx's worker). Writes DIR/perf-client.csv, DIR/perf-server.csv and
# DIR/perf.window (the counting's start and end, epoch ms); benchmarks/perf-counts.py divides them
# by the requests that ended in the window.
#   benchmarks/perf-counts.sh JTL AFTER SECONDS DIR SERVER_PID
set -euo pipefail
jtl="$1" after="$2" seconds="$3" dir="$4" server="$5"
events=raw_syscalls:sys_enter,context-switches,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_read
events+=,syscalls:sys_enter_write,syscalls:sys_enter_writev,syscalls:sys_enter_futex
jvm=""
for _ in $(seq 1 100); do
  jvm="$(pgrep -f "^java .*-l $jtl " | head -1 || true)"
  [ -n "$jvm" ] && break
  sleep 0.2
done
[ -n "$jvm" ] || { echo "perf-counts.sh: no JVM writing $jtl" >&2; exit 1; }
sleep "$after"
servers="$(echo "$server" $(pgrep -P "$server" || true) | tr ' ' ',')"
start="$(date +%s%3N)"
perf stat -x, -e "$events" -p "$jvm" -o "$dir/perf-client.csv" -- sleep "$seconds" &
perf stat -x, -e "$events" -p "$servers" -o "$dir/perf-server.csv" -- sleep "$seconds"
wait
echo "$start $(date +%s%3N)" >"$dir/perf.window"
