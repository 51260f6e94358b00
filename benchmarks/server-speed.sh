#!/usr/bin/env bash
# Issue 41: is h2bench's test server as fast as a real one? h2bench's server (no emulation) and
# nginx (Debian's package, installed when missing) on loopback, each in a session of its own, with the
# same bodies and h2bench's certificate, loaded by h2load (Debian's nghttp2-client) in turns:
#   protocols   h1 (h2load --h1), h1-tls (--h1 over TLS, ALPN http/1.1), h2 (TLS + ALPN, -m 10
#               streams per connection) and h2c (prior knowledge, -m 10)
#   bodies      100 B, 44 kB (45,056 B) and 2 MiB: h2bench's /option?size=100, 44k and 2m; nginx serves
#               the same URLs from files holding the bytes h2bench sent for them
#   connections 100 and 1,000
# Each measurement is one h2load run: --warmup s of warm-up on its connections, then --duration s
# measured. For each row the servers take turns, the first alternating from row to row, so that a
# machine whose load drifts weighs on both alike. Per server and row: requests/s, the server's CPU per
# request (user + system time from /proc/PID/stat, its workers included, over the measured seconds),
# the machine's over the same seconds (every core's busy time from /proc/stat: on loopback the kernel
# runs TCP's work in whichever process sends, receives or acknowledges, or in ksoftirqd, so only the
# whole machine counts that work alike for both servers; on an idle machine), and where it went
# (h2load's, ksoftirqd's, user, system and softirq time, TCP segments per request), its peak RSS over
# the run (sampled every half second), h2load's errors and its own CPU (a client at 100 % of its one
# thread limits both servers alike). --perf adds perf's view of which process ran which part of TCP.
# Before the rows, --cold-rounds 5 s rounds of 44 kB over h1-tls from each server's start show how
# long each takes to reach its speed.
# With --profile, h2bench's JVM records JFR (execution samples every 10 ms) over each of its measured
# runs, summarised by jfr-summary.py. Prints one table, ratios h2bench/nginx, and writes it with
# results.csv, machine.txt and every tool's output to --out. Progress goes to stderr.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/server-speed.sh [options]

  --server-jar PATH   the h2bench server jar; default server/target/h2bench-server.jar
  --server-options "…" more h2bench server flags, e.g. "--tls-provider jsse"
  --bodies "..."      from 100B 44kB 2MiB; default all three
  --connections "..." h2load's connections per row; default "100 1000"
  --protocols "..."   from h1 h1-tls h2 h2c; default all four
  --duration S        measured seconds per run (h2load -D); default 10
  --warmup S          warm-up seconds before each, on the same connections (--warm-up-time); default 5
  --repeats N         measurements per server and row (medians shown); default 1
  --cold-rounds N     5 s rounds of 44 kB over h1-tls 100 connections from each server's start,
                      before the rows; default 4, 0 for none
  --streams N         streams per connection on h2 and h2c (h2load -m); default 10
  --profile           JFR of h2bench's server over each of its measured runs, summarised
  --perf              perf record -a -g over each measured run (root), summarised by process
                      context in RAW/<run>/perf.txt; it costs CPU, so not for the figures of record
  --out DIR           output directory; default target/h2bench-server-speed (emptied first)

Needs java, h2load, openssl, curl and python3; nginx is installed from Debian's packages when
missing (root). Loopback only. Run it on an otherwise idle machine for the figures of record: both
servers and h2load share the cores.
USAGE
}

die_usage() {
  echo "server-speed.sh: $1" >&2
  usage >&2
  exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server_jar="$root/server/target/h2bench-server.jar" server_options=""
bodies="100B 44kB 2MiB" connections="100 1000" protocols="h1 h1-tls h2 h2c" duration=10 warmup=5
repeats=1 cold_rounds=4 streams=10 profile=false perf_record=false out=target/h2bench-server-speed
command_line="benchmarks/server-speed.sh${*:+ $*}"
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --profile) profile=true; shift; continue ;;
    --perf) perf_record=true; shift; continue ;;
    --server-jar|--server-options|--bodies|--connections|--protocols|--duration|--warmup|--repeats|--cold-rounds|--streams|--out)
      [ $# -ge 2 ] || die_usage "$1 needs a value" ;;
    *) die_usage "unknown option $1" ;;
  esac
  case "$1" in
    --server-jar) server_jar="$2" ;;
    --server-options) server_options="$2" ;;
    --bodies) bodies="$2" ;;
    --connections) connections="$2" ;;
    --protocols) protocols="$2" ;;
    --duration) duration="$2" ;;
    --warmup) warmup="$2" ;;
    --repeats) repeats="$2" ;;
    --cold-rounds) cold_rounds="$2" ;;
    --streams) streams="$2" ;;
    --out) out="$2" ;;
  esac
  shift 2
done

# bytes_of BODY / path_of BODY: each body's length, and its URL on both servers (h2bench's /option; k = 1024)
bytes_of() { case "$1" in 100B) echo 100 ;; 44kB) echo 45056 ;; 2MiB) echo 2097152 ;; *) return 1 ;; esac; }
path_of() { case "$1" in 100B) echo "/option?size=100" ;; 44kB) echo "/option?size=44k" ;; 2MiB) echo "/option?size=2m" ;; esac; }

for body in $bodies; do bytes_of "$body" >/dev/null || die_usage "unknown body '$body' (100B 44kB 2MiB)"; done
for protocol in $protocols; do
  case "$protocol" in h1|h1-tls|h2|h2c) ;; *) die_usage "unknown protocol '$protocol' (h1 h1-tls h2 h2c)" ;; esac
done
for n in $connections; do [[ "$n" =~ ^[1-9][0-9]{0,4}$ ]] || die_usage "--connections takes numbers from 1 to 99999"; done
[ -n "${bodies// /}" ] && [ -n "${protocols// /}" ] && [ -n "${connections// /}" ] || die_usage "--bodies, --protocols and --connections name at least one each"
[[ "$duration" =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "--duration takes whole seconds from 1"
[[ "$warmup" =~ ^[0-9]{1,4}$ ]] || die_usage "--warmup takes whole seconds"
[[ "$repeats" =~ ^[1-9][0-9]?$ ]] || die_usage "--repeats takes a number from 1 to 99"
[[ "$cold_rounds" =~ ^[0-9]{1,2}$ ]] || die_usage "--cold-rounds takes a number from 0 to 99"
[[ "$streams" =~ ^[1-9][0-9]{0,2}$ ]] || die_usage "--streams takes a number from 1 to 999"
[ -f "$server_jar" ] || { echo "server-speed.sh: no server jar at $server_jar (mvn -B package -DskipTests, or --server-jar PATH)" >&2; exit 1; }
server_jar="$(cd "$(dirname "$server_jar")" && pwd)/$(basename "$server_jar")"
[ "$perf_record" = false ] || command -v perf >/dev/null || { echo "server-speed.sh: --perf needs perf (apt-get install linux-perf)" >&2; exit 1; }
for tool in java h2load openssl curl python3 setsid; do
  command -v "$tool" >/dev/null || { echo "server-speed.sh: needs $tool (apt-get install nghttp2-client openssl curl python3)" >&2; exit 1; }
done
if [ ! -x /usr/sbin/nginx ]; then
  [ "$(id -u)" = 0 ] || { echo "server-speed.sh: nginx is missing and only root can install it (apt-get install nginx)" >&2; exit 1; }
  echo "== installing nginx (Debian package)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
# The certificate a user's server serves by default (--tls-profile web: ECDSA P-256); the runs before
# 2026-11-29 served the RSA 2048 one of --tls-profile jsse (localhost.p12), which makes handshakes dearer.
keystore="$HOME/.h2bench/localhost-ecdsa.p12"
[ -f "$keystore" ] || { echo "server-speed.sh: no $keystore: start the h2bench server once, it generates it" >&2; exit 1; }

# 1,000 connections need as many descriptors in h2load and in each server, which inherit this limit
most=0
for n in $connections; do [ "$n" -gt "$most" ] && most="$n"; done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge $((most + 200)) ] ||
  { echo "server-speed.sh: ulimit -n is $(ulimit -n), too low for $most connections" >&2; exit 1; }

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
# shellcheck source=../bin/lib/process.sh
. "$root/bin/lib/process.sh"
run="$out/raw"
rm -rf "$out"
mkdir -p "$run"
tmp="$(mktemp -d)"
nginx_pid="" client_pid="" sampler_pid="" perf_pid=""
# tree_of PID: PID and its descendants, deepest first (the client's subshell, time, timeout, h2load)
tree_of() {
  ps -e -o pid=,ppid= | awk -v root="$1" '{ parent[$1] = $2 }
    END { for (p in parent) { d = 0; for (q = p; q in parent && q != root; q = parent[q]) d++; if (q == root) print d, p } }' | sort -rn | cut -d' ' -f2
}
stop_all() {
  local pid
  for pid in "$client_pid" "$sampler_pid" "$perf_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      # shellcheck disable=SC2046 # a list of PIDs
      kill $(tree_of "$pid") 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  stop_server >&2
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    echo "== stopping nginx (pid $nginx_pid)" >&2
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
stop_on_any_exit stop_all

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Both servers read the same copy of h2bench's certificate: another h2bench started meanwhile may
# generate the default one again.
cp "$keystore" "$tmp/h2bench.p12"
export_pem "$tmp/h2bench.p12" h2bench "$tmp"
[ -s "$tmp/cert.pem" ] && [ -s "$tmp/key.pem" ] || { echo "server-speed.sh: could not export $keystore (password h2bench)" >&2; exit 1; }

declare -A h2bench_ports nginx_ports
echo "== starting h2bench's server ($server_jar) in a session of its own" >&2
read -r -a extra_options <<<"$server_options"
server_launcher=setsid start_server "$run" --keystore "$tmp/h2bench.p12" --keystore-password h2bench ${extra_options[@]+"${extra_options[@]}"}
h2bench_ports=([h1]="$(server_port h1_port)" [h1-tls]="$(server_port tls_port)" [h2]="$(server_port h2_port)" [h2c]="$(server_port h2c_port)")

# The bodies as h2bench sends them, byte for byte, become nginx's files; the cold rounds' 44 kB too,
# whatever --bodies says (without it nginx answered them 404)
mkdir -p "$tmp/www"
served="$bodies"
[ "$cold_rounds" = 0 ] || [[ " $bodies " == *" 44kB "* ]] || served="$bodies 44kB"
for body in $served; do
  curl -sf -o "$tmp/www/option-$(bytes_of "$body").bin" "http://127.0.0.1:${h2bench_ports[h1]}$(path_of "$body")"
  [ "$(stat -c %s "$tmp/www/option-$(bytes_of "$body").bin")" = "$(bytes_of "$body")" ] ||
    { echo "server-speed.sh: h2bench sent the wrong length for $body" >&2; exit 1; }
done
chmod -R a+rX "$tmp" # nginx's workers run as nobody; the key stays the master's to read (0600 from openssl)
chmod 600 "$tmp/key.pem"

# start_nginx: 2 workers, h1, h1-tls (ALPN http/1.1 only), h2 (TLS + ALPN), h2c (prior knowledge);
# /option?size=S answers with the file of S's bytes. Every stream in flight holds its file open (10
# per h2 connection): with fewer descriptors nginx answered 2 MiB at 1,000 connections with 500s.
start_nginx() {
  nginx_ports=([h1]="$(free_port)" [h1-tls]="$(free_port)" [h2]="$(free_port)" [h2c]="$(free_port)")
  mkdir -p "$tmp/nginx"
  cat >"$tmp/nginx.conf" <<CONF
daemon off;
worker_processes 2;
worker_rlimit_nofile $((most * 12 + 1000));
pid $tmp/nginx/nginx.pid;
error_log $(realpath -m "$run")/nginx-error.log;
events { worker_connections $((most * 2 + 500)); }
http {
  access_log off;
  client_body_temp_path $tmp/nginx; proxy_temp_path $tmp/nginx; fastcgi_temp_path $tmp/nginx;
  uwsgi_temp_path $tmp/nginx; scgi_temp_path $tmp/nginx;
  sendfile on; tcp_nopush on;
  keepalive_requests 100000000;
  default_type application/octet-stream;
  ssl_certificate $tmp/cert.pem; ssl_certificate_key $tmp/key.pem;
  ssl_protocols TLSv1.2 TLSv1.3;
  map \$arg_size \$bytes { 100 100; 44k 45056; 2m 2097152; default none; }
  root $tmp/www;
  server {
    listen 127.0.0.1:${nginx_ports[h1]};
    listen 127.0.0.1:${nginx_ports[h1-tls]} ssl;
    listen 127.0.0.1:${nginx_ports[h2]} ssl http2;
    listen 127.0.0.1:${nginx_ports[h2c]} http2;
    location = /option { try_files /option-\$bytes.bin =404; }
  }
}
CONF
  cp "$tmp/nginx.conf" "$run/nginx.conf"
  setsid /usr/sbin/nginx -c "$tmp/nginx.conf" -p "$tmp/nginx" >"$run/nginx.out" 2>&1 &
  nginx_pid=$!
  for _ in $(seq 1 100); do
    curl -sf -o /dev/null "http://127.0.0.1:${nginx_ports[h1]}$(path_of "${bodies%% *}")" && return 0
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "server-speed.sh: nginx did not start ($run/nginx.out, $run/nginx-error.log):" >&2
  cat "$run/nginx.out" "$run/nginx-error.log" >&2 2>/dev/null || true
  return 1
}
echo "== starting nginx ($(/usr/sbin/nginx -v 2>&1 | sed 's/^nginx version: //')) in a session of its own" >&2
start_nginx

# Both must send the same bytes for the same URL, over every protocol the run measures.
for body in $bodies; do
  for server in h2bench nginx; do
    if [ "$server" = h2bench ]; then port="${h2bench_ports[h2]}"; else port="${nginx_ports[h2]}"; fi
    got="$(curl -sfk --http2 "https://127.0.0.1:$port$(path_of "$body")" | sha256sum | cut -c1-16)"
    [ "$got" = "$(sha256sum <"$tmp/www/option-$(bytes_of "$body").bin" | cut -c1-16)" ] ||
      { echo "server-speed.sh: $server's $body over h2 differs from h2bench's over h1" >&2; exit 1; }
  done
done
alpn_of() { # alpn_of PORT: the protocol a client offering h2 and http/1.1 gets
  echo | openssl s_client -connect "127.0.0.1:$1" -alpn h2,http/1.1 2>/dev/null | sed -n 's/^ALPN protocol: //p' | head -1
}
for server in h2bench nginx; do
  declare -n ports="${server}_ports"
  [ "$(alpn_of "${ports[h1-tls]}")" = http/1.1 ] && [ "$(alpn_of "${ports[h2]}")" = h2 ] ||
    { echo "server-speed.sh: $server's h1-tls listener must answer ALPN http/1.1 and its h2 listener h2" >&2; exit 1; }
  unset -n ports
done

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- server 2>/dev/null || echo ' (server/ changed since)')"
  echo "h2bench server jar: $server_jar ($(date -u -r "$server_jar" '+%Y-%m-%d %H:%M UTC'))${server_options:+, options $server_options}"
  grep '^tls: provider' "$run/server.log" || true
  echo "nginx: $(/usr/sbin/nginx -v 2>&1 | sed 's/^nginx version: //'), 2 workers; h2load: $(h2load --version | head -1)"
  echo "certificate: $(openssl x509 -in "$tmp/cert.pem" -noout -text | sed -n 's/^ *Public Key Algorithm: //p' | head -1), from $keystore"
  echo "cores: $(nproc), cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  java -version 2>&1 | head -1
  echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command: $command_line"
  echo "$warmup s of warm-up then $duration s measured per run; h2 and h2c with $streams streams per connection"
} >"$out/machine.txt"

pid_of() { if [ "$1" = h2bench ]; then echo "$server_pid"; else echo "$nginx_pid"; fi; }

# tree_rss_kb PID: resident kB of PID and its living descendants (nginx's master and workers)
tree_rss_kb() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '{ parent[$1] = $2; rss[$1] = $3 }
    END { for (p in parent) { for (q = p; q in parent && q != root; q = parent[q]) { }; if (q == root) sum += rss[p] }; print sum + 0 }'
}

# peak_rss PID FILE: writes the largest tree_rss_kb of PID, sampled every half second, to FILE until killed
peak_rss() {
  local peak=0 now
  trap 'echo "$peak" >"$2"; exit 0' TERM
  while :; do
    now="$(tree_rss_kb "$1")"
    [ "$now" -gt "$peak" ] && peak="$now" && echo "$peak" >"$2"
    sleep 0.5
  done
}

# options_of PROTOCOL: h2load's options and the URL's scheme for it
options_of() {
  case "$1" in
    h1) scheme=http h2load_opts=(--h1) ;;
    h1-tls) scheme=https h2load_opts=(--h1) ;;
    h2) scheme=https h2load_opts=(-m "$streams") ;;
    h2c) scheme=http h2load_opts=(-m "$streams") ;;
  esac
}

# ksoftirqd_cpu_seconds: user + system CPU seconds of the kernel's softirq threads (ksoftirqd/N) so far
ksoftirqd_cpu_seconds() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" '
    substr($0, index($0, "(") + 1, 10) == "ksoftirqd/" { split(substr($0, index($0, ") ") + 2), f, " "); sum += f[12] + f[13] }
    END { printf "%.2f\n", sum / hz }'
}

# window_counters SERVER_PID CLIENT_PID: "server client ksoftirqd user system softirq irq steal segments":
# CPU seconds so far of the server's tree, the client's (h2load) while it lives, ksoftirqd and the
# machine's by kind, then the TCP segments this network namespace has sent (on loopback each is also
# received once: data and ACKs of both ends)
window_counters() {
  echo "$(tree_cpu_seconds "$1") $(tree_cpu_seconds "$2") $(ksoftirqd_cpu_seconds) $(machine_cpu_seconds)" \
    "$(awk '$1 == "Tcp:" && $12 ~ /^[0-9]+$/ { print $12 }' /proc/net/snmp)"
}

# load SERVER PROTOCOL BODY CONNECTIONS DIR WARMUP DURATION: one h2load run against SERVER; writes
# DIR/h2load.out, DIR/server.cpu (the server's CPU seconds over the measured part),
# DIR/window.counters (over the same seconds: the server's, h2load's, ksoftirqd's and the machine's CPU
# seconds by kind and the TCP segments sent, as window_counters prints them), DIR/rss.kb (its peak
# over the run), DIR/client.cpu (h2load's CPU seconds, warm-up included), DIR/load1; with --perf,
# DIR/perf.txt
load() {
  local server="$1" protocol="$2" body="$3" n="$4" dir="$5" warm="$6" measured_s="$7" pid port before after
  options_of "$protocol"
  pid="$(pid_of "$server")"
  if [ "$server" = h2bench ]; then port="${h2bench_ports[$protocol]}"; else port="${nginx_ports[$protocol]}"; fi
  mkdir -p "$dir"
  cut -d' ' -f1 /proc/loadavg >"$dir/load1"
  echo 0 >"$dir/rss.kb"
  peak_rss "$pid" "$dir/rss.kb" &
  sampler_pid=$!
  local warm_opts=()
  [ "$warm" -gt 0 ] && warm_opts=(--warm-up-time "$warm")
  ( TIMEFORMAT='%3U %3S'
    # h2load before nghttp2 1.69 (Debian 12 has 1.52) does not stop a client still connecting or in its TLS
    # handshake when -D ends: once the handshake ends, it loads on (a full listen queue, a busy machine)
    { time timeout --kill-after=5 $((warm + measured_s + 60)) h2load -c "$n" -D "$measured_s" \
        ${warm_opts[@]+"${warm_opts[@]}"} "${h2load_opts[@]}" "$scheme://127.0.0.1:$port$(path_of "$body")" \
        >"$dir/h2load.out" 2>&1 || echo "h2load did not end within 60 s of its time (exit $?): before nghttp2 1.69 it does not stop clients whose handshake ended late" >"$dir/failed"; } 2>"$dir/client.time" ) &
  client_pid=$!
  # h2load's warm-up timer starts as it starts: the server's CPU is read when it ends and when h2load exits
  sleep "$warm"
  before="$(window_counters "$pid" "$client_pid")"
  if [ "$perf_record" = true ]; then
    { tree_of "$pid"; tree_of "$client_pid"; ps -e -o pid=,comm= | awk '$2 ~ /^ksoftirqd/ { print $1 }'; } | paste -sd, >"$dir/perf.pids"
    perf record -a -g -e cpu-clock -c 2000000 -o "$dir/perf.data" -- sleep $((measured_s > 2 ? measured_s - 1 : 1)) >/dev/null 2>&1 &
    perf_pid=$!
  fi
  wait "$client_pid" || true
  after="$(window_counters "$pid" "$client_pid")"
  client_pid=""
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  sampler_pid=""
  awk '{ printf "%.3f\n", $1 + $2 }' "$dir/client.time" >"$dir/client.cpu"
  # h2load has ended by the second reading: its part of the window is its total less its first reading
  awk -v a="$before" -v b="$after" -v client="$(cat "$dir/client.cpu")" 'BEGIN {
    n = split(a, x, " "); split(b, y, " "); y[2] = client
    for (i = 1; i <= n; i++) printf "%.2f%s", y[i] - x[i], i < n ? " " : "\n" }' >"$dir/window.counters"
  cut -d' ' -f1 "$dir/window.counters" >"$dir/server.cpu"
  if [ "$perf_record" = true ]; then
    wait "$perf_pid" || true
    perf_pid=""
    perf_summary "$dir" $((measured_s > 2 ? measured_s - 1 : 1)) "$measured_s"
  fi
}

# perf_summary DIR SECONDS MEASURED: from DIR/perf.data (every core, a sample every 2 ms of CPU, call
# graphs, SECONDS of the MEASURED seconds) and DIR/perf.pids (the server's, h2load's and ksoftirqd's
# processes), CPU µs per request by process context (threads named alike together), then by context
# in and below the kernel functions that say where TCP's work runs: the send-side copy
# (_copy_from_iter), sendfile's path, the transmit path (tcp_write_xmit), the receive side in softirq
# (tcp_v4_rcv) and the copy to the reader (_copy_to_iter); DIR/perf.txt
perf_summary() {
  local per_sample total
  per_sample="$(awk -v s="$2" -v m="$3" '/^requests:/ { if ($8) printf "%.4f", 2000 / ($8 * s / m) }' "$1/h2load.out")"
  total="$(perf report -i "$1/perf.data" --stdio --no-children --sort comm -g none -n 2>/dev/null | awk '/^ +[0-9]/ { n += $2 } END { print n + 0 }')"
  # one report: "children% self% self-samples comm [k] symbol"; a context's self is the sum of its symbols'
  perf report -i "$1/perf.data" --pid "$(cat "$1/perf.pids")" --stdio --children --sort comm,sym -g none -n 2>/dev/null |
    awk -v k="${per_sample:-0}" -v total="$total" '
      /^ +[0-9.]+% +[0-9.]+% +[0-9]+ / && match($0, / \[[k.]\] /) {
        head = substr($0, 1, RSTART - 1); symbol = substr($0, RSTART + RLENGTH)
        children = $1 + 0; sub(/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +/, "", head); sub(/ +$/, "", head)
        self[head] += $3 * k
        if (symbol ~ /^(tcp_sendmsg|_copy_from_iter|__x64_sys_sendfile64|tcp_write_xmit|handle_softirqs|tcp_v4_rcv|tcp_recvmsg|_copy_to_iter)$/)
          inside[head " " symbol] = children
      }
      END {
        us = total / 100 * k
        print "CPU µs per request (samples of every core, one per 2 ms of CPU), by process context (self):"
        for (c in self) if (self[c] >= 1) printf "%8.0f  %s\n", self[c], c | "sort -rn"
        close("sort -rn")
        print "\nCPU µs per request in and below these kernel functions, by process context:"
        for (c in inside) if (inside[c] * us >= 1) printf "%8.0f  %s\n", inside[c] * us, c | "sort -rn"
        close("sort -rn")
      }' >"$1/perf.txt"
  rm -f "$1/perf.data"
}

# figures DIR WALL: "requests req_per_s errors server_cpu_us_per_request rss_mb client_cpu_pct load1", then
# µs per request over the measured seconds of h2load's CPU, ksoftirqd's, the machine's busy CPU (user,
# system, softirq and irq of every core: h2load and all kernel work counted alike for both servers)
# and that busy CPU by kind, and the steal (time the hypervisor ran something else), then the TCP
# segments sent per request, then the MiB/s h2load received over the measured seconds (responses it
# finished and parts of those still under way: with 10 streams of 2 MiB on each of 1,000 connections
# the window ends with more in flight than it delivered, so which responses finish first decides the
# requests/s and the bytes are the rate), of a load's DIR
# (errors -1: h2load printed no summary)
figures() {
  # h2load: "finished in 10.00s, 61453.12 req/s, 19.81MB/s" and
  # "requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0 failed, 0 errored, 0 timeout"
  awk -v cpu="$(cat "$1/server.cpu")" -v rss="$(cat "$1/rss.kb")" -v client="$(cat "$1/client.cpu")" \
    -v wall="$2" -v load1="$(cat "$1/load1")" -v window="$(cat "$1/window.counters")" '
    /^finished in/ { rate = $4 + 0 } /^requests:/ { done = $8; errors = $10 + $12 + $14 }
    /^traffic:/ { bytes = substr($3, 2) + 0 } # "traffic: 12.56GB (13484741354) total, ..."; done ones and parts alike
    END { if (!rate) { done = 0; errors = -1 } # no summary: h2load did not end (DIR/failed)
          split(window, w, " ") # server client ksoftirqd user system softirq irq steal segments
          per = done ? 1e6 / done : 0
          printf "%d %.1f %d %.1f %.0f %.0f %s", done, rate, errors, cpu * per, rss / 1024, 100 * client / wall, load1
          printf " %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f", w[2] * per, w[3] * per, (w[4] + w[5] + w[6] + w[7]) * per,
                 w[4] * per, w[5] * per, w[6] * per, w[7] * per, w[8] * per, w[9] * per / 1e6
          printf " %.1f\n", done ? bytes * rate / done / 1048576 : 0 }' "$1/h2load.out"
}

# record_jfr start|stop NAME: JFR on h2bench's JVM over one measured run (execution samples every 10 ms)
jfc="$tmp/sampling.jfc"
sed 's|<setting name="period" control="method-sampling-java-interval">[^<]*<|<setting name="period" control="method-sampling-java-interval">10 ms<|' \
  "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" >"$jfc"
record_jfr() {
  [ "$profile" = true ] || return 0
  if [ "$1" = start ]; then
    jcmd "$server_pid" JFR.start name="$2" settings="$jfc" >/dev/null
  else
    jcmd "$server_pid" JFR.stop name="$2" filename="$(realpath -m "$run/$2.jfr")" >/dev/null
    python3 benchmarks/jfr-summary.py "$run/$2.jfr" --top 30 >"$out/profile-$2.txt" 2>&1 || true
  fi
}

# From each server's start: how soon it serves at its speed (the JIT's warm-up, for h2bench).
cpu_columns="h2load_cpu_us_per_request,ksoftirqd_cpu_us_per_request,machine_cpu_us_per_request,machine_user_us_per_request,machine_system_us_per_request,machine_softirq_us_per_request,machine_irq_us_per_request,machine_steal_us_per_request,tcp_segments_per_request,mib_per_s"
echo "round,server,requests,req_per_s,errors,server_cpu_us_per_request,rss_mb,client_cpu_pct,load1,$cpu_columns" >"$out/cold.csv"
if [ "$cold_rounds" -gt 0 ]; then
  for server in h2bench nginx; do
    for round in $(seq 1 "$cold_rounds"); do
      echo "== from the start, round $round of $cold_rounds: $server, 44kB over h1-tls, 100 connections, 5 s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
      dir="$run/cold-$server-$round"
      load "$server" h1-tls 44kB 100 "$dir" 0 5
      echo "$round,$server,$(figures "$dir" 5 | tr ' ' ',')" >>"$out/cold.csv"
    done
  done
fi

echo "body,connections,protocol,server,repeat,requests,req_per_s,errors,server_cpu_us_per_request,rss_mb,client_cpu_pct,load1,$cpu_columns" >"$out/results.csv"
row=0
for body in $bodies; do
  for n in $connections; do
    for protocol in $protocols; do
      for repeat in $(seq 1 "$repeats"); do
        row=$((row + 1))
        order=(h2bench nginx)
        [ $((row % 2)) = 1 ] || order=(nginx h2bench)
        for server in "${order[@]}"; do
          name="$body-$n-$protocol-$server-$repeat"
          echo "== $body, $n connections, $protocol, $server, repeat $repeat of $repeats: $warmup s + $duration s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
          [ "$server" = h2bench ] && [ "$repeat" = 1 ] && record_jfr start "$body-$n-$protocol"
          load "$server" "$protocol" "$body" "$n" "$run/$name" "$warmup" "$duration"
          [ "$server" = h2bench ] && [ "$repeat" = 1 ] && record_jfr stop "$body-$n-$protocol"
          line="$(figures "$run/$name" $((warmup + duration)))"
          echo "   $line (requests req/s errors server-µs/req rss-MB h2load-CPU% load, then µs/req: h2load ksoftirqd machine user system softirq irq steal, TCP segments/req, MiB/s)" >&2
          echo "$body,$n,$protocol,$server,$repeat,$(echo "$line" | tr ' ' ',')" >>"$out/results.csv"
        done
      done
    done
  done
done

# What each client saw: the TLS version, cipher and key exchange of one h2 run per server
for server in h2bench nginx; do
  first="$(ls -d "$run"/*-h2-"$server"-1 2>/dev/null | head -1 || true)"
  [ -n "$first" ] || first="$(ls -d "$run"/*-h1-tls-"$server"-1 "$run"/cold-"$server"-1 2>/dev/null | head -1 || true)"
  [ -n "$first" ] && echo "$server TLS: $(grep -E '^(TLS Protocol|Cipher|Server Temp Key):' "$first/h2load.out" | sed 's/: /=/' | tr '\n' ' ')" >>"$out/machine.txt"
done
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"

python3 benchmarks/server-speed-table.py "$out" >"$out/server-speed.md"
cat "$out/machine.txt" "$out/server-speed.md"
echo "== done: $out/server-speed.md, results.csv, cold.csv, machine.txt$([ "$profile" = true ] && echo ", profile-*.txt"); raw output under $run/" >&2
