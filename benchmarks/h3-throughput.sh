#!/usr/bin/env bash
# Issue 38's throughput: on plain loopback (no emulated link), many concurrent 2 MiB downloads over
# HTTP/3 from h2bench's h3 listener, from ngtcp2's example server (gtlsserver) and from Caddy
# (quic-go), with one client for all: Debian's gtlsclient. The downloads are spread over a few
# client processes, each one QUIC connection carrying its share as concurrent streams
# (gtlsclient's URIs), all started at once; a run's time is from the first start to the last exit.
# Each server serves one untimed pass first (h2bench's JIT, the page cache), then the servers take
# turns run by run, the first of each run rotating. Reports per run and server the completed
# downloads, MiB/s (completed bytes over the run's time), the CPU seconds the server and the clients
# took, and h2bench's rate over Caddy's (issue 38: at least 0.8, with no error).
# Needs java, gtlsclient, openssl and python3, plus gtlsserver and caddy for those servers
# (apt-get install ngtcp2-client ngtcp2-server caddy). The downloads are written to /dev/shm.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/h3-throughput.sh [options]

  --server-jar PATH   the h2bench server jar; default server/target/h2bench-server.jar
  --server-args "..." more options for the h2bench server (no emulation flags: loopback only)
  --servers "..."     from h2bench gtlsserver caddy; default all three
  --downloads N       concurrent 2 MiB downloads per run; default 100
  --connections C     client processes, one QUIC connection each, N/C streams on each (C divides
                      N); default 10
  --runs R            timed runs per server, interleaved; default 3
  --timeout S         seconds a run may take; default 120
  --out DIR           output directory; default target/h2bench-h3-throughput (emptied first)
USAGE
}

die_usage() {
  echo "h3-throughput.sh: $1" >&2
  usage >&2
  exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server_jar="$root/server/target/h2bench-server.jar"
servers="h2bench gtlsserver caddy" downloads=100 connections=10 runs=3 timeout_s=120
out=target/h2bench-h3-throughput server_args=""
command_line="benchmarks/h3-throughput.sh"
for arg in "$@"; do
  case "$arg" in *[[:space:]]*|"") command_line="$command_line \"$arg\"" ;; *) command_line="$command_line $arg" ;; esac
done
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --server-jar|--server-args|--servers|--downloads|--connections|--runs|--timeout|--out)
      [ $# -ge 2 ] || die_usage "$1 needs a value" ;;
    *) die_usage "unknown option $1" ;;
  esac
  case "$1" in
    --server-jar) server_jar="$2" ;;
    --server-args) server_args="$2" ;;
    --servers) servers="$2" ;;
    --downloads) downloads="$2" ;;
    --connections) connections="$2" ;;
    --runs) runs="$2" ;;
    --timeout) timeout_s="$2" ;;
    --out) out="$2" ;;
  esac
  shift 2
done

read -r -a server_list <<<"$servers"
read -r -a extra_server_args <<<"$server_args"
[ ${#server_list[@]} -gt 0 ] || die_usage "--servers names none"
for server in "${server_list[@]}"; do
  case "$server" in h2bench|gtlsserver|caddy) ;; *) die_usage "unknown server '$server' (h2bench gtlsserver caddy)" ;; esac
done
[ "$(printf '%s\n' "${server_list[@]}" | sort | uniq -d)" = "" ] || die_usage "--servers names a server twice"
[[ "$downloads" =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "--downloads takes a number from 1 to 9999"
[[ "$connections" =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "--connections takes a number from 1 to 9999"
[ $((downloads % connections)) = 0 ] || die_usage "--connections must divide --downloads"
[[ "$runs" =~ ^[1-9][0-9]{0,2}$ ]] || die_usage "--runs takes a number from 1 to 999"
[[ "$timeout_s" =~ ^[1-9][0-9]{0,4}$ ]] || die_usage "--timeout takes a positive number of seconds"
for arg in ${extra_server_args[@]+"${extra_server_args[@]}"}; do
  case "$arg" in --latency*|--loss*|--bandwidth*|--profile*) die_usage "--server-args: $arg emulates a network; this benchmark is loopback only" ;; esac
done
[ -f "$server_jar" ] || { echo "h3-throughput.sh: no server jar at $server_jar (mvn -B package -DskipTests, or --server-jar PATH)" >&2; exit 1; }
server_jar="$(cd "$(dirname "$server_jar")" && pwd)/$(basename "$server_jar")"
needed="java gtlsclient openssl python3 ss timeout"
case " $servers " in *" gtlsserver "*) needed="$needed gtlsserver" ;; esac
case " $servers " in *" caddy "*) needed="$needed caddy" ;; esac
for tool in $needed; do
  command -v "$tool" >/dev/null ||
    { echo "h3-throughput.sh: needs $tool (apt-get install ngtcp2-client ngtcp2-server caddy openssl python3 iproute2)" >&2; exit 1; }
done
[ -d /dev/shm ] && [ -w /dev/shm ] || { echo "h3-throughput.sh: needs a writable /dev/shm for the downloads" >&2; exit 1; }
streams=$((downloads / connections))
object_bytes=2097152

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
tmp="" shm="" gtls_pid="" caddy_pid=""
stop_all() {
  local pid
  for pid in "$gtls_pid" "$caddy_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  gtls_pid="" caddy_pid=""
  stop_server >&2
  server_pid=""
  [ -z "$tmp" ] || rm -rf "$tmp"
  [ -z "$shm" ] || rm -rf "$shm"
  tmp="" shm=""
}
stop_on_any_exit stop_all

rm -rf "$out"
mkdir -p "$out"
tmp="$(mktemp -d /tmp/h3-throughput.XXXXXX)"
shm="$(mktemp -d /dev/shm/h3-throughput.XXXXXX)"
mkdir -p "$tmp/docs" "$tmp/caddy"

echo "== h2bench on loopback, no emulation ($(basename "$server_jar")${server_args:+, $server_args})" >&2
start_server "$out" ${extra_server_args[@]+"${extra_server_args[@]}"} || exit 1
host="$(host_of "$out/server.log")"
h2bench_port="$(server_port h3_port)"
[ -n "$h2bench_port" ] || { echo "h3-throughput.sh: the server started no h3 listener: $server_no_h3" >&2; exit 1; }
network="$(server_network "$out")"
h2bench_quic="$(sed -n 's/^  QUIC: //p' "$out/server.log" | head -1)"
echo "   $network" >&2

# the certificate the server's banner names (ECDSA by default since issue 42; it was RSA's path here)
keystore="$(server_keystore "$out")"
export_pem "$keystore" h2bench "$tmp" ||
  { echo "h3-throughput.sh: could not export the certificate and key from $keystore (password h2bench)" >&2; exit 1; }

# One 2 MiB file under N names (hard links), so that each download has a file of its own on both
# sides; h2bench gets the same N as a query parameter its /option ignores.
head -c "$object_bytes" /dev/urandom >"$tmp/docs/2MiB.bin"
for i in $(seq 1 "$downloads"); do ln "$tmp/docs/2MiB.bin" "$tmp/docs/2MiB-$i.bin"; done

read -r gtls_port caddy_port < <(python3 - "$host" <<'PY'
import socket, sys
held, ports = [], []
for _ in range(100):
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((sys.argv[1], 0))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        tcp.bind((sys.argv[1], udp.getsockname()[1]))
    except OSError:
        udp.close(); tcp.close(); continue
    held += [udp, tcp]
    ports.append(udp.getsockname()[1])
    if len(ports) == 2:
        break
print(*ports)
PY
)
[ -n "${caddy_port:-}" ] || { echo "h3-throughput.sh: found no free ports at $host" >&2; exit 1; }

wait_for_udp() {
  for _ in $(seq 1 100); do
    ss -Hlun "sport = :$1" | grep -q . && return 0
    kill -0 "$2" 2>/dev/null || { echo "h3-throughput.sh: $3 did not start:" >&2; cat "$4" >&2; return 1; }
    sleep 0.1
  done
  echo "h3-throughput.sh: $3 did not listen on UDP $1 within 10 s ($4)" >&2
  return 1
}

case " $servers " in *" gtlsserver "*)
  echo "== gtlsserver at $host:$gtls_port (ngtcp2 $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?'))" >&2
  gtlsserver -q -d "$tmp/docs" "$host" "$gtls_port" "$tmp/key.pem" "$tmp/cert.pem" >"$out/gtlsserver.log" 2>&1 &
  gtls_pid=$!
  wait_for_udp "$gtls_port" "$gtls_pid" gtlsserver "$out/gtlsserver.log" || exit 1
esac
case " $servers " in *" caddy "*)
  echo "== caddy at $host:$caddy_port ($(caddy version 2>/dev/null | cut -d' ' -f1))" >&2
  caddy_h3_config "$host" "$caddy_port" "$tmp" >"$tmp/Caddyfile"
  HOME="$tmp/caddy" XDG_DATA_HOME="$tmp/caddy" XDG_CONFIG_HOME="$tmp/caddy" \
    caddy run --adapter caddyfile --config "$tmp/Caddyfile" >"$out/caddy.log" 2>&1 &
  caddy_pid=$!
  wait_for_udp "$caddy_port" "$caddy_pid" caddy "$out/caddy.log" || exit 1
esac

port_of_server() {
  case "$1" in h2bench) echo "$h2bench_port" ;; gtlsserver) echo "$gtls_port" ;; caddy) echo "$caddy_port" ;; esac
}
pid_of_server() {
  case "$1" in h2bench) echo "$server_pid" ;; gtlsserver) echo "$gtls_pid" ;; caddy) echo "$caddy_pid" ;; esac
}
# url_of SERVER I: the I-th download's URL
url_of() {
  if [ "$1" = h2bench ]; then echo "https://$host:$h2bench_port/option?size=2m&n=$2"
  else echo "https://$host:$(port_of_server "$1")/2MiB-$2.bin"; fi
}
# cpu_seconds PID: user + system CPU seconds of a process so far (all its threads)
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"
}

# run_once SERVER: starts the client processes at once, waits for all; sets run_ms, run_done (full
# downloads), run_errors (what went wrong), run_server_cpu and run_client_cpu (seconds)
run_once() {
  local server="$1" c s i urls pids=() status cpu0 t0 t1 errors=() client_times
  rm -rf "${shm:?}"/*
  cpu0="$(cpu_seconds "$(pid_of_server "$server")")"
  t0="$EPOCHREALTIME"
  for c in $(seq 1 "$connections"); do
    urls=()
    for s in $(seq 1 "$streams"); do
      i=$(( (c - 1) * streams + s ))
      urls+=("$(url_of "$server" "$i")")
    done
    mkdir "$shm/$c"
    timeout "$timeout_s" gtlsclient -q --no-quic-dump --no-http-dump --exit-on-all-streams-close \
      --download="$shm/$c" "$host" "$(port_of_server "$server")" "${urls[@]}" >"$shm/$c.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    if [ "$status" = 124 ]; then errors+=("connection $((i + 1)) timed out after $timeout_s s")
    elif [ "$status" != 0 ]; then errors+=("connection $((i + 1)): gtlsclient exited $status")
    fi
  done
  t1="$EPOCHREALTIME"
  run_server_cpu="$(awk -v a="$cpu0" -v b="$(cpu_seconds "$(pid_of_server "$server")")" 'BEGIN { printf "%.2f", b - a }')"
  # the clients are this shell's children: times' second line is their user and system time so far
  # (run by this shell itself: in a command substitution's subshell it would count that subshell's)
  times >"$tmp/times"
  client_times="$(tail -1 "$tmp/times")"
  run_client_cpu="$(awk -v now="$client_times" -v before="${client_cpu_total:-0m0s 0m0s}" '
    function secs(t,   m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
    BEGIN { split(now, n, " "); split(before, b, " "); printf "%.2f", secs(n[1]) + secs(n[2]) - secs(b[1]) - secs(b[2]) }')"
  client_cpu_total="$client_times"
  run_ms="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a) * 1000 }')"
  run_done="$(find "$shm" -mindepth 2 -type f -size "${object_bytes}c" | wc -l)"
  [ "$run_done" = "$downloads" ] || errors+=("$run_done of $downloads downloads complete")
  run_errors="$(IFS='; '; echo "${errors[*]:-}")"
  rm -rf "${shm:?}"/*
}

echo "== warm-up: one untimed run per server" >&2
times >"$tmp/times"
client_cpu_total="$(tail -1 "$tmp/times")"
for server in "${server_list[@]}"; do
  run_once "$server"
  echo "   $server: $run_done of $downloads in $run_ms ms${run_errors:+ ($run_errors)}" >&2
done

echo "run,server,downloads,done,ms,mib_per_s,server_cpu_s,client_cpu_s,error" >"$out/results.csv"
started="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
count=${#server_list[@]}
for run in $(seq 1 "$runs"); do
  for i in $(seq 0 $((count - 1))); do
    server="${server_list[$(( (i + run - 1) % count ))]}"
    run_once "$server"
    rate="$(awk -v d="$run_done" -v b="$object_bytes" -v ms="$run_ms" 'BEGIN { printf "%.1f", d * b / 1048576 / (ms / 1000) }')"
    echo "$run,$server,$downloads,$run_done,$run_ms,$rate,$run_server_cpu,$run_client_cpu,$run_errors" >>"$out/results.csv"
    echo "   run $run/$runs, $server: $run_done of $downloads in $run_ms ms, $rate MiB/s, server CPU ${run_server_cpu} s, clients ${run_client_cpu} s${run_errors:+ (FAILED: $run_errors)}" >&2
  done
done

{
  echo "command: $command_line"
  echo "date: $started to $(date -u '+%H:%M:%S UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo none)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "server jar: $(basename "$server_jar") (sha256 $(sha256sum "$server_jar" | cut -c1-12))${server_args:+, server args: $server_args}"
  echo "network: $network"
  echo "h2bench's h3 listener, its banner's QUIC line: ${h2bench_quic:-not in the banner}"
  echo "machine: $(nproc) cores, $(uname -r), load average $load_before at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
  echo "client: gtlsclient (ngtcp2-client $(dpkg-query -W -f '${Version}' ngtcp2-client 2>/dev/null || echo '?')), $connections processes started at once, one QUIC connection each with $streams concurrent 2 MiB downloads (streams); a run's time is from the first start to the last exit"
  echo "peers: gtlsserver (ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?'), its defaults); caddy $(caddy version 2>/dev/null | cut -d' ' -f1) (quic-go)"
  echo
  python3 - "$out/results.csv" "${server_list[*]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
servers = sys.argv[2].split()
print("| run | server | complete | seconds | MiB/s | server CPU s | clients' CPU s | error |")
print("|---:|---|---:|---:|---:|---:|---:|---|")
for row in rows:
    print(f"| {row['run']} | {row['server']} | {row['done']} of {row['downloads']} | {int(row['ms']) / 1000:.2f} "
          f"| {float(row['mib_per_s']):.1f} | {row['server_cpu_s']} | {row['client_cpu_s']} | {row['error'] or '-'} |")
print()
print("| server | median MiB/s | runs | complete, all runs | errors | server CPU s per GiB (median) | h2bench / server, median MiB/s |")
print("|---|---:|---:|---:|---:|---:|---:|")
medians = {}
for server in servers:
    mine = [r for r in rows if r["server"] == server]
    if mine:
        medians[server] = statistics.median(float(r["mib_per_s"]) for r in mine)
for server in servers:
    mine = [r for r in rows if r["server"] == server]
    if not mine:
        continue
    done = sum(int(r["done"]) for r in mine)
    total = sum(int(r["downloads"]) for r in mine)
    errors = sum(1 for r in mine if r["error"])
    per_gib = statistics.median(float(r["server_cpu_s"]) / (int(r["done"]) * 2 / 1024) if int(r["done"]) else float("nan") for r in mine)
    ratio = f"{medians['h2bench'] / medians[server]:.2f}" if "h2bench" in medians and server != "h2bench" else "-"
    print(f"| {server} | {medians[server]:.1f} | {len(mine)} | {done} of {total} | {errors} | {per_gib:.1f} | {ratio} |")
if "h2bench" in medians and "caddy" in medians:
    h2 = [r for r in rows if r["server"] == "h2bench"]
    clean = all(not r["error"] for r in h2)
    ratio = medians["h2bench"] / medians["caddy"]
    print(f"\nIssue 38's target, h2bench at 0.8x Caddy's rate or more with no error: "
          f"{'met' if ratio >= 0.8 and clean else 'not met'} ({ratio:.2f}x, "
          f"{'no error' if clean else 'with errors'}).")
PY
} >"$out/h3-throughput.txt"
stop_all
cat "$out/h3-throughput.txt"
echo "== done: $out/h3-throughput.txt (every run in $out/results.csv)" >&2
