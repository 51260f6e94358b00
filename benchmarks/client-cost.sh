#!/usr/bin/env bash
# What the h2bench sampler costs against JMeter's own HTTP Request (HttpClient4, "HC4"), issue 13:
# one server on loopback (nginx from Debian's packages by default, installed when missing, so the
# client is the bottleneck; --server h2bench for the project's server), test-plans/throughput.jmx.
#   rows    per object (100 B, 44 kB) and user count (50, 400): h2bench h1, h1-tls, h2, h2c and HC4
#           h1, h1-tls; requests/s, client CPU ms per request (less an idle JMeter's start and
#           stop), peak threads, peak RSS, errors; each measured --repeats times, each HC4 run
#           between the two h2bench runs compared with it and the order reversed in even repeats,
#           and the medians shown with the range of the ratios
#   steady  the same rows' requests/s, CPU ms per request and mean over the run's steady window,
#           from --warmup s after its first sample to its last second: what the JIT's warm-up and
#           JMeter's start leave out, and what a load test of minutes costs; with the share of the
#           window's CPU that the JIT's compiler threads still took (near 0: the window was warm)
#           and the heap allocated per request (from the JVM's GC log), which drives G1's heap
#           growth and so the peak RSS
#   others  the share of the machine's CPU that neither JMeter nor the server used during each
#           measurement (another program's work, which the two clients would have shared unevenly)
#   ratios  h2bench / HC4 per row (h2 against HC4's h1-tls, h2c against HC4's h1)
#   server  the server's CPU ms per request during each measurement (it shares the cores: a
#           protocol that costs it more leaves less to the client)
#   peers   per object and user count, in the first repeat: h2load with as many connections, one
#           request at a time on each, per protocol: requests/s, h2load's and the server's CPU ms per
#           request; what each protocol costs when both ends are written in C (15 s at most: C has
#           no warm-up)
#   single  one user back to back, 44 kB, --repeats times (h2bench and HC4 taking turns to go
#           first): mean elapsed of h2bench and HC4 over the whole run and after --warmup s (the
#           JIT's warm-up, which h2load does not have), and h2load's mean time for request, per protocol
#   crypto  with --profile or --profile-all, per profiled run over TLS: from when the JDK's AES-GCM ran
#           its compiled GHASH, and the share of the steady window in GHASH's Java body
#           (jfr-crypto-warmth.py; crypto-warmth.txt)
#   counts  with --counts, per throughput run: system calls and context switches per request of
#           JMeter and of the server over the steady window (perf stat; counts.txt)
#   profile JFR of the single-user h1 run (--profile): threads that parked, and how often; and of
#           every throughput row of the first repeat, h2bench's and HC4's, sampled every 2 ms,
#           summarised by jfr-summary.py (profile-OBJECT-USERS-PROTOCOL-CLIENT.txt): the same JMeter
#           frames in both show what the sampler adds
# Writes client-cost.md, results.csv, machine.txt and every tool's output under --out.
# Build first (mvn -B package -DskipTests).
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/client-cost.sh [options]

  --server S      nginx (default) or h2bench
  --users "N..."  user counts for the throughput rows; default "50 400"
  --objects "..." objects for the throughput rows, from: 100B 44kB; default "100B 44kB"
  --protocols "." the sampler's protocols to measure, from: h1 h1-tls h2 h2c; default all four
                  (HC4 runs where a chosen one is compared with it: h1 for h1 and h2c, h1-tls for
                  h1-tls and h2), to check one change quickly
  --duration S    seconds per measurement; default 15
  --warmup S      seconds from a run's first sample before its steady window (to 1 s before its
                  last), in which requests/s, CPU per request and the mean are taken again; default
                  5. On 2 cores the JIT takes 30 to 45 s to settle with 50 JMeter threads (longer
                  for the sampler's h2 and h2c: up to 7 % of a window from 30 s) and 70 to 80 s
                  with 400 (its compiler threads get their share among 400): --duration 150
                  --warmup 90 measures what a long load test costs at either count; the steady
                  table gives each window's JIT share
  --repeats N     measurements per throughput row and client; default 3
  --no-single     leave out the one-user rows (whose JIT settles within 30 s: a --duration chosen
                  for 400 users need not make each of them as long)
  --profile       also record JFR on the single-user h1 run and on every throughput row of the first
                  repeat, h2bench's and HC4's, and summarise them
  --profile-all   as --profile, and on every repeat (profile-OBJECT-USERS-PROTOCOL-CLIENT-REPEAT.txt
                  from the second): to set a run in one mode beside a run in another
  --counts        also count, with perf stat over each throughput run's steady window, the system
                  calls (epoll_wait, read, write, writev, futex) and context switches per request of
                  JMeter and of the server (benchmarks/perf-counts.sh; counts.txt): what a run did,
                  whatever the machine's load made it last
  --out DIR       output directory; default target/h2bench-client-cost (emptied first)
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server=nginx users="50 400" objects="100B 44kB" protocols="h1 h1-tls h2 h2c" duration=15 warmup=5 repeats=3 profile=false profile_all=false counts=false single=true
out=target/h2bench-client-cost
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --profile) profile=true; shift; continue ;;
    --profile-all) profile=true profile_all=true; shift; continue ;;
    --counts) counts=true; shift; continue ;;
    --no-single) single=false; shift; continue ;;
    --server) server="$2" ;;
    --users) users="$2" ;;
    --objects) objects="$2" ;;
    --protocols) protocols="$2" ;;
    --duration) duration="$2" ;;
    --warmup) warmup="$2" ;;
    --repeats) repeats="$2" ;;
    --out) out="$2" ;;
    *) echo "client-cost.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift 2
done
case "$server" in nginx|h2bench) ;; *) echo "client-cost.sh: --server is nginx or h2bench" >&2; exit 2 ;; esac
case "$repeats" in ''|*[!0-9]*|0) echo "client-cost.sh: --repeats is a whole number from 1" >&2; exit 2 ;; esac
case "$duration" in ''|*[!0-9]*|0) echo "client-cost.sh: --duration is a whole number of seconds from 1" >&2; exit 2 ;; esac
case "$warmup" in ''|*[!0-9]*) echo "client-cost.sh: --warmup is a whole number of seconds" >&2; exit 2 ;; esac
[ "$warmup" -le $((duration - 5)) ] || { echo "client-cost.sh: --warmup leaves at least 5 s of --duration ($duration s)" >&2; exit 2; }
h2load_duration=$((duration < 15 ? duration : 15))
for protocol in $protocols; do
  case "$protocol" in h1|h1-tls|h2|h2c) ;; *) echo "client-cost.sh: --protocols takes h1 h1-tls h2 h2c, not $protocol" >&2; exit 2 ;; esac
done
[ -n "${protocols// /}" ] || { echo "client-cost.sh: --protocols names at least one protocol" >&2; exit 2; }
[ "$counts" = false ] || command -v perf >/dev/null || { echo "client-cost.sh: --counts needs perf (Debian's linux-perf)" >&2; exit 2; }
# chosen CLIENT PROTOCOL: whether --protocols asks for this run (HC4's where a chosen protocol is compared with it)
chosen() {
  case "$1/$2" in
    hc4/h1) case " $protocols " in *" h1 "*|*" h2c "*) return 0 ;; esac; return 1 ;;
    hc4/h1-tls) case " $protocols " in *" h1-tls "*|*" h2 "*) return 0 ;; esac; return 1 ;;
    *) case " $protocols " in *" $2 "*) return 0 ;; esac; return 1 ;;
  esac
}

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
# shellcheck source=../bin/lib/process.sh
. "$root/bin/lib/process.sh"
run="$out/raw"
fresh_run "$run" "$out" || exit 1
nginx_pid=""
stop_all() {
  stop_server
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then kill "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true; fi
}
stop_on_any_exit stop_all

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_nginx: h1, h1-tls (http/1.1 only), h2 (TLS), h2c (prior knowledge) on free ports; sets ports[]
start_nginx() {
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || {
    echo "== installing nginx-light (Debian package)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
  }
  # absolute: nginx reads -c relative to its -p prefix, so a relative --out doubled the path
  local dir
  dir="$(realpath -m "$run/nginx")"
  mkdir -p "$dir/www" "$dir/tmp"
  head -c 100 /dev/zero | tr '\0' 'a' >"$dir/www/small.txt"
  head -c 45056 /dev/zero | tr '\0' 'b' >"$dir/www/small-text.txt"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
  ports=([h1]="$(free_port)" [tls]="$(free_port)" [h2]="$(free_port)" [h2c]="$(free_port)")
  cat >"$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp; fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  keepalive_requests 1000000;
  ssl_certificate $dir/cert.pem; ssl_certificate_key $dir/key.pem;
  server { listen 127.0.0.1:${ports[h1]}; root $dir/www; }
  server { listen 127.0.0.1:${ports[tls]} ssl; root $dir/www; }
  server { listen 127.0.0.1:${ports[h2]} ssl http2; root $dir/www; }
  server { listen 127.0.0.1:${ports[h2c]} http2; root $dir/www; }
}
CONF
  # Its own session, so its own scheduling group (Linux's autogroup): in JMeter's, its one worker had
  # the share of one thread among 400 JMeter threads, and every client's samples held nginx's queue
  # (HC4's mean at 400 users 43 ms here against 2 to 3 ms with nginx apart). A server on another
  # machine is not slowed by the client's thread count.
  setsid /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" &
  nginx_pid=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:${ports[h1]}/small.txt" && return 0; sleep 0.1; done
  echo "nginx did not start ($dir/error.log)" >&2; return 1
}

declare -A ports
if [ "$server" = nginx ]; then
  start_nginx
  server_pid="$nginx_pid"
else
  start_server "$run"
  ports=([h1]="$(server_port h1_port)" [tls]="$(server_port tls_port)" [h2]="$(server_port h2_port)" [h2c]="$(server_port h2c_port)")
  [ -n "${ports[h1]}" ] || { echo "no h1 port" >&2; exit 1; }
fi

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD)"
  echo "server: $server"
  echo "cores: $(nproc), cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$duration s per measurement, steady window from $warmup s after its first sample"
  java -version 2>&1 | head -1
} >"$out/machine.txt"

path_of() { case "$1" in 100B) echo /small.txt ;; 44kB) echo /small-text.txt ;; esac; }
# protocol -> scheme port-key h2bench-version h2load-options
settings() {
  case "$1" in
    h1) scheme=http key=h1 version=HTTP_1_1 h2load_opts=(--h1) ;;
    h1-tls) scheme=https key=tls version=HTTP_1_1 h2load_opts=(--h1) ;;
    h2) scheme=https key=h2 version=HTTP_2 h2load_opts=() ;;
    h2c) scheme=http key=h2c version=H2C h2load_opts=() ;;
  esac
}

# account DIR BUSY SERVER STARTED: after a measured client run in DIR that began when the machine's
# busy seconds were BUSY, the server's CPU seconds SERVER, at STARTED: writes DIR/server.cpu (the
# server's CPU seconds since) and DIR/others.pct (the machine's busy CPU less the client's and the
# server's, in % of all cores' time)
account() {
  local dir="$1" server
  server="$(awk -v a="$3" -v b="$(tree_cpu_seconds "$server_pid")" 'BEGIN { print b - a }')"
  echo "$server" >"$dir/server.cpu"
  awk -v busy="$(awk -v a="$2" -v b="$(machine_busy_seconds)" 'BEGIN { print b - a }')" \
    -v client="$(cat "$dir/client.cpu")" -v server="$server" \
    -v wall="$(awk -v a="$4" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" -v cores="$(nproc)" \
    'BEGIN { o = 100 * (busy - client - server) / (wall * cores); printf "%.1f\n", o < 0 ? 0 : o }' >"$dir/others.pct"
}

# jmeter DIR CLIENT PROTOCOL USERS OBJECT [JVM option...]: one throughput.jmx run; prints requests req/s cpu_ms threads rss_mb errors
# mean_ms, then over the steady window (from --warmup s after the first sample began to 1 s before the
# last ended): steady_mean_ms (of the samples that began in it), steady req/s and steady CPU ms per
# request (of the samples that ended in it, and JMeter's CPU over it from DIR/client.cpuline), the
# JIT compilers' share of that CPU in %, and the heap allocated per request (from DIR/gc.log)
jmeter() {
  local dir="$1" client="$2" protocol="$3" n="$4" object="$5" hu=0 ju=0
  shift 5
  settings "$protocol"
  if [ "$client" = h2bench ]; then hu="$n"; else ju="$n"; fi
  mkdir -p "$dir"
  local busy_before server_before started
  busy_before="$(machine_busy_seconds)" server_before="$(tree_cpu_seconds "$server_pid")" started="$(date +%s.%N)"
  measured "$dir/client" timeout --kill-after=10 "$((duration + 120))" /usr/bin/time -f %M -o "$dir/rss.kb" \
    java -Xmx1g "-Xlog:gc:file=$dir/gc.log:timemillis" "$@" -jar "$jmeter_jar" -n -t test-plans/throughput.jmx -l "$dir/results.jtl" -j "$dir/jmeter.log" \
    -Jh2bench_users="$hu" -Jjmeter_users="$ju" -Jduration="$duration" -Jramp=1 -Jpath="$(path_of "$object")" \
    -Jscheme="$scheme" -Jport="${ports[$key]}" -Jhttp_version="$version" -Jprotocol="$protocol" >/dev/null \
    || { echo "JMeter failed ($dir/client.out)" >&2; return 1; }
  account "$dir" "$busy_before" "$server_before" "$started"
  awk -F, -v cpu="$(awk -v all="$(cat "$dir/client.cpu")" -v idle="$idle_cpu" 'BEGIN { print all - idle }')" -v threads="$(cat "$dir/client.threads")" -v rss="$(tail -1 "$dir/rss.kb")" \
    -v warmup="$warmup" -f benchmarks/client-cost-run.awk "$dir/client.cpuline" "$dir/gc.log" "$dir/results.jtl"
}

# JMeter's own start and stop (the plan with no users), taken off every run's CPU
idle_cpu=0
measured "$run/jmeter-idle" java -Xmx1g -jar "$jmeter_jar" -n -t test-plans/throughput.jmx -j "$run/jmeter-idle.log" \
  -Jh2bench_users=0 -Jjmeter_users=0 >/dev/null || { echo "JMeter failed ($run/jmeter-idle.out)" >&2; exit 1; }
idle_cpu="$(cat "$run/jmeter-idle.cpu")"
echo "JMeter with no users (start, plan, stop): $idle_cpu CPU s, taken off each run's CPU" >>"$out/machine.txt"

echo "object,users,protocol,client,requests,req_per_s,cpu_ms_per_request,peak_threads,rss_mb,errors,mean_ms,load1,repeat,others_pct,server_cpu_ms_per_request,steady_mean_ms,steady_req_per_s,steady_cpu_ms_per_request,steady_jit_pct,steady_alloc_kb_per_request" >"$out/results.csv"
# row OBJECT USERS PROTOCOL CLIENT FIGURES [REPEAT DIR]: one line of results.csv from FIGURES (seven
# numbers, and up to five more, the steady window's mean, req/s, CPU per request, JIT share and
# allocation per request, that go last);
# others' share and the server's CPU per request from DIR
row() {
  local others="" server="" figures steady
  figures="$(echo "$5" | cut -d' ' -f1-7)" steady="$(echo "$5" | cut -s -d' ' -f8-12 | tr ' ' ',')"
  if [ -n "${7:-}" ]; then
    others="$(cat "$7/others.pct")"
    server="$(awk -v cpu="$(cat "$7/server.cpu")" -v n="$(echo "$5" | cut -d' ' -f1)" 'BEGIN { if (n > 0) printf "%.4f", cpu * 1000 / n }')"
  fi
  echo "$1,$2,$3,$4,$(echo "$figures" | tr ' ' ','),$(cut -d' ' -f1 /proc/loadavg),${6:-1},$others,$server,$steady" >>"$out/results.csv"
  echo "   $1 $2 $3 $4: $figures${steady:+ (after $warmup s, mean ms, req/s, CPU ms/req, JIT %, alloc kB/req: $steady)}${others:+ (others $others % of the machine)}${server:+ (server $server ms/request)}"
}

for round in $(seq 1 "$repeats"); do
  [ "$single" = true ] || break
  echo "== one user back to back, 44 kB, $duration s each, repeat $round of $repeats"
  clients=(h2bench hc4)
  [ $((round % 2)) = 1 ] || clients=(hc4 h2bench)
  for protocol in h1 h1-tls h2 h2c; do
    case " $protocols " in *" $protocol "*) ;; *) continue ;; esac
    settings "$protocol"
    for client in "${clients[@]}"; do
      case "$client/$protocol" in hc4/h2|hc4/h2c) continue ;; esac
      extra=()
      if [ "$protocol/$client/$round" = h1/h2bench/1 ] && [ "$profile" = true ]; then
        extra=("-XX:StartFlightRecording=filename=$run/single-h1-h2bench.jfr,settings=profile")
      fi
      dir="$run/single-$protocol-$client-$round"
      row 44kB 1 "$protocol" "$client" "$(jmeter "$dir" "$client" "$protocol" 1 44kB ${extra[@]+"${extra[@]}"})" "$round" "$dir"
    done
    # C has no warm-up: its mean is its steady one too, and 15 s are enough.
    h2load -D "$h2load_duration" -c 1 -m 1 ${h2load_opts[@]+"${h2load_opts[@]}"} "$scheme://127.0.0.1:${ports[$key]}/small-text.txt" \
      >"$run/single-$protocol-h2load-$round.out" 2>&1 || true
    mean="$(awk '/^time for request:/ { v = $6; f = v ~ /us$/ ? 0.001 : v ~ /ms$/ ? 1 : 1000; sub(/[a-z]+$/, "", v); printf "%.3f", v * f }' \
      "$run/single-$protocol-h2load-$round.out")"
    row 44kB 1 "$protocol" h2load "0 0 0 0 0 0 ${mean:-0} ${mean:-0}" "$round"
  done
done

# profiled ROUND ROW: the JVM options that record ROW's JFR (execution samples every 2 ms) in the
# first round (in every round with --profile-all, as ROW-ROUND.jfr from the second), or none
sampling="$(realpath -m "$run/sampling-2ms.jfc")"
sed 's|<setting name="period" control="method-sampling-java-interval">[^<]*<|<setting name="period" control="method-sampling-java-interval">2 ms<|' \
  "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" >"$sampling"
profiled() {
  if [ "$profile" = true ] && [ "$1" = 1 ]; then echo "-XX:StartFlightRecording=filename=$run/$2.jfr,settings=$sampling"
  elif [ "$profile_all" = true ]; then echo "-XX:StartFlightRecording=filename=$run/$2-$1.jfr,settings=$sampling"; fi
}
# recording ROUND ROW: the name of ROW's recording in ROUND (see profiled)
recording() { if [ "$1" = 1 ]; then echo "$2"; else echo "$2-$1"; fi; }

# throughput ROUND OBJECT USERS PROTOCOL CLIENT: one measurement, one line of results.csv
throughput() {
  local round="$1" object="$2" n="$3" protocol="$4" client="$5" dir counting=""
  dir="$run/$object-$n-$protocol-$client-$round"
  if [ "$counts" = true ]; then
    mkdir -p "$dir"
    # from about the steady window's start (JMeter's first sample comes some 2 s after its start) to 1 s before its end
    benchmarks/perf-counts.sh "$dir/results.jtl" "$((warmup + 2))" "$((duration - warmup - 3))" "$dir" "$server_pid" &
    counting=$!
  fi
  if [ "$client" = h2bench ]; then
    # shellcheck disable=SC2046 # no option or one without spaces
    row "$object" "$n" "$protocol" h2bench "$(jmeter "$dir" h2bench "$protocol" "$n" "$object" \
      $(profiled "$round" "$object-$n-$protocol-h2bench"))" "$round" "$dir"
  else
    # shellcheck disable=SC2046 # no option or one without spaces
    row "$object" "$n" "$protocol" hc4 "$(jmeter "$dir" hc4 "$protocol" "$n" "$object" \
      $(profiled "$round" "$object-$n-$protocol-hc4"))" "$round" "$dir"
  fi
  if [ "$counts" = true ]; then
    # a run too short to reach the window, or a perf that failed, leaves no window and no counts
    if wait "$counting" && [ -f "$dir/perf.window" ]; then
      python3 benchmarks/perf-counts.py "$dir" | tee -a "$out/counts.txt" | sed 's/^/     counts /'
    fi
  fi
  if [ "$profile" = true ] && { [ "$round" = 1 ] || [ "$profile_all" = true ]; }; then
    local name
    name="$(recording "$round" "$object-$n-$protocol-$client")"
    python3 benchmarks/jfr-summary.py "$run/$name.jfr" --top 30 >"$out/profile-$name.txt"
    case "$protocol" in
      # over TLS: when the JDK's AES-GCM got its compiled GHASH (before that, its Java body costs many times more)
      h1-tls|h2) python3 benchmarks/jfr-crypto-warmth.py "$run/$name.jfr" "$dir" --warmup "$warmup" | tail -1 \
                   | sed "s/^/$name: /" | tee -a "$out/crypto-warmth.txt" | sed 's/^/     crypto /' ;;
    esac
  fi
}

# peers OBJECT USERS: h2load with USERS connections for --duration s per protocol, one request at a time
# on each (as a JMeter user sends), against the same server: one line of results.csv each
peers() {
  local object="$1" n="$2" protocol dir busy_before server_before started
  echo "== $object, $n connections, h2load per protocol, $h2load_duration s each"
  for protocol in h1 h1-tls h2 h2c; do
    case " $protocols " in *" $protocol "*) ;; *) continue ;; esac
    settings "$protocol"
    dir="$run/$object-$n-$protocol-h2load"
    mkdir -p "$dir"
    busy_before="$(machine_busy_seconds)" server_before="$(tree_cpu_seconds "$server_pid")" started="$(date +%s.%N)"
    measured "$dir/client" h2load -c "$n" -m 1 -D "$h2load_duration" ${h2load_opts[@]+"${h2load_opts[@]}"} \
      "$scheme://127.0.0.1:${ports[$key]}$(path_of "$object")" || { echo "h2load failed ($dir/client.out)" >&2; return 1; }
    account "$dir" "$busy_before" "$server_before" "$started"
    # "finished in 15.00s, 61453.12 req/s, 19.81MB/s" and
    # "requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0 failed, 0 errored, 0 timeout"
    row "$object" "$n" "$protocol" h2load "$(awk -v cpu="$(cat "$dir/client.cpu")" -v threads="$(cat "$dir/client.threads")" '
      /^finished in/ { rate = $4 } /^requests:/ { done = $8; failed = $10 + $12 + $14 }
      END { printf "%d %.1f %.3f %d 0 %d 0", done, rate, done ? cpu * 1000 / done : 0, threads, failed }' "$dir/client.out")" 1 "$dir"
  done
}

for object in $objects; do
  for n in $users; do
    peers "$object" "$n"
    for round in $(seq 1 "$repeats"); do
      echo "== $object, $n users, $duration s each, repeat $round of $repeats"
      # Each HC4 run sits between the two h2bench runs compared with it (h2c and h1 with HC4's h1,
      # h1-tls and h2 with its h1-tls), and even repeats run the order backwards: the machine's speed
      # drifts by up to a third within minutes, and a ratio is then taken between neighbours whose
      # order alternates, never between runs minutes apart.
      order=(h2c/h2bench h1/hc4 h1/h2bench h1-tls/h2bench h1-tls/hc4 h2/h2bench)
      [ $((round % 2)) = 1 ] || order=(h2/h2bench h1-tls/hc4 h1-tls/h2bench h1/h2bench h1/hc4 h2c/h2bench)
      for measurement in "${order[@]}"; do
        chosen "${measurement#*/}" "${measurement%/*}" || continue
        throughput "$round" "$object" "$n" "${measurement%/*}" "${measurement#*/}"
      done
    done
  done
done

if [ "$profile" = true ] && [ -f "$run/single-h1-h2bench.jfr" ]; then
  # head closes its pipe early: without pipefail for this summary, that is not a failure (exit 141)
  set +o pipefail
  {
    echo "JFR, one h2bench user on h1 (jdk.ThreadPark over 20 ms and execution samples)"
    echo "requests: $(awk -F, 'NR > 1' "$run/single-h1-h2bench-1/results.jtl" | wc -l)"
    echo "parks by thread:"
    jfr print --events jdk.ThreadPark "$run/single-h1-h2bench.jfr" | sed -n 's/.*eventThread = "\([^"]*\)".*/\1/p' \
      | sed 's/-[0-9]*$//' | sort | uniq -c | sort -rn | head -8
    echo "top frames of execution samples:"
    jfr print --events jdk.ExecutionSample "$run/single-h1-h2bench.jfr" | grep -A1 'stackTrace = \[' \
      | grep -v -e stackTrace -e '^--' | sed 's/line:.*//' | sort | uniq -c | sort -rn | head -12
  } >"$out/profile.txt"
  set -o pipefail
fi

awk -F, -v warmup="$warmup" -f benchmarks/client-cost-table.awk "$out/results.csv" >"$out/client-cost.md"
cat "$out/machine.txt" "$out/client-cost.md"
echo "== done: $out/client-cost.md, results.csv, machine.txt$([ "$profile" = true ] && echo ", profile.txt"); raw output under $run/"
