#!/usr/bin/env bash
# Sampler throughput against peers measured in the same run, on one h2bench server on loopback,
# USERS users for SECONDS each, connections kept alive:
#   h1-tls  the h2bench sampler vs JMeter's own HTTP Request (HttpClient4), same plan
#           (test-plans/throughput.jmx), and vs h2load --h1
#   h2, h2c the h2bench sampler vs h2load with as many connections, one stream each (-m 1)
# and again at MANY users for h1-tls and h2, for the client's thread count. Per measurement:
# requests/s, mean and p90 elapsed, client and server CPU, the client's peak thread count.
# Writes throughput.md (figures and h2bench / peer ratios), results.csv, machine.txt and every
# tool's raw output. Build first (mvn -B package -DskipTests). Fails (after the table) on any
# failed request.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: benchmarks/throughput.sh [options]

  --users N       concurrent users (JMeter threads, h2load connections); default 50
  --many-users N  the h1-tls and h2 measurements again at N users; default 200, 0 skips them
  --duration S    seconds per measurement; default 20
  --path P        the object every request gets; default /small-text.txt (44 kB)
  --rounds N      repeat every measurement N times (the table shows the median and the range); default 1
  --max-load L    before each round wait (up to 10 minutes) for a 1-minute load average below L
  --out DIR       output directory; default target/h2bench-throughput (emptied first)
EOF
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

users=50
many=200
duration=20
path=/small-text.txt
rounds=1
max_load=""
out="target/h2bench-throughput"
fail() { echo "benchmarks/throughput.sh: $*" >&2; exit 1; }
number() { [[ "$2" =~ ^[0-9]+$ ]] || { echo "benchmarks/throughput.sh: $1 needs a whole number, not '$2'" >&2; usage >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in -h|--help) usage; exit 0 ;; esac
  [ $# -ge 2 ] || { echo "benchmarks/throughput.sh: $1 needs a value" >&2; usage >&2; exit 2; }
  case "$1" in
    --users) number "$1" "$2"; users="$2" ;;
    --many-users) number "$1" "$2"; many="$2" ;;
    --duration) number "$1" "$2"; duration="$2" ;;
    --path) [[ "$2" == /* ]] || fail "--path must start with /"; path="$2" ;;
    --rounds) number "$1" "$2"; rounds="$2" ;;
    --max-load) [[ "$2" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "--max-load needs a number, not '$2'"; max_load="$2" ;;
    --out) out="$2" ;;
    *) echo "benchmarks/throughput.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift 2
done
[ "$users" -gt 0 ] && [ "$duration" -gt 0 ] && [ "$rounds" -gt 0 ] || fail "--users, --duration and --rounds must be above 0"
command -v h2load >/dev/null || fail "h2load is missing (it comes with nghttp2-client)"

run="$out/raw"
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
# shellcheck source=../bin/lib/process.sh
. "$root/bin/lib/process.sh"
fresh_run "$run" "$out" || exit 1
stop_on_any_exit stop_server

load1() { cut -d' ' -f1 /proc/loadavg; }

wait_for_quiet() {
  [ -n "$max_load" ] || return 0
  for _ in $(seq 1 60); do
    awk -v now="$(load1)" -v most="$max_load" 'BEGIN { exit !(now < most) }' && return 0
    echo "   load $(load1) is not below $max_load yet, waiting"
    sleep 10
  done
  echo "   load still $(load1) after 10 minutes: measuring anyway (see the load column)"
}

write_machine_facts() {
  {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "cores: $(nproc)"
    echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
    echo "memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kernel: $(uname -r)"
    echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "h2load: $(h2load --version | head -1)"
    echo "java:"
    java -version 2>&1 | sed 's/^/  /'
  } >"$out/machine.txt"
}

# The listener a protocol is measured on, and the h2bench sampler's and h2load's settings for it.
protocol_settings() {
  case "$1" in
    h1-tls) scheme=https; port="$(server_port tls_port)"; version=HTTP_1_1; alpn=http/1.1; h2load_options=(--h1) ;;
    h2) scheme=https; port="$(server_port h2_port)"; version=HTTP_2; alpn=h2; h2load_options=() ;;
    h2c) scheme=http; port="$(server_port h2c_port)"; version=H2C; alpn=h2c; h2load_options=(-p h2c) ;;
  esac
}

limit=(timeout --foreground --kill-after=10 "$((duration + 120))")

# run_jmeter DIR CLIENT PROTOCOL USERS: throughput.jmx with USERS users in CLIENT's thread group only
run_jmeter() {
  local dir="$1" client="$2" protocol="$3" n="$4" h2bench_users=0 jmeter_users=0
  if [ "$client" = h2bench ]; then h2bench_users="$n"; else jmeter_users="$n"; fi
  measured "$dir/client" "${limit[@]}" java -Xmx1g -jar "$jmeter_jar" -n -t test-plans/throughput.jmx \
    -l "$dir/results.jtl" -j "$dir/jmeter.log" -Jsummariser.interval=5 \
    -Jh2bench_users="$h2bench_users" -Jjmeter_users="$jmeter_users" -Jduration="$duration" -Jramp=1 \
    -Jpath="$path" -Jscheme="$scheme" -Jport="$port" -Jhttp_version="$version" -Jprotocol="$protocol" \
    || fail "JMeter failed ($dir/client.out)"
  grep -E '^summary =' "$dir/client.out" | tail -1 | sed 's/^/   /' || true
  java -cp jmeter-plugin/target/h2bench-jmeter-plugin.jar io.h2bench.report.ComparisonReport \
    "$dir/results.jtl" "$dir" >/dev/null || fail "no readable results in $dir/results.jtl"
  # comparison.csv: object,protocol,mean_ms,median_ms,p90_ms,n,errors,median_ratio_to_h1,...
  read -r mean p90 requests errors < <(awk -F, 'NR == 2 { print $3, $5, $6, $7 }' "$dir/comparison.csv") || true
  [ -n "${requests:-}" ] && [ "$requests" -gt 0 ] || fail "no samples in $dir/results.jtl"
  [ "$errors" = 0 ] || echo "   $errors of $requests samples failed ($dir/results.jtl)" | tee -a "$out/failures.txt"
  # JTL: timeStamp,elapsed,... and Connect last; a sample with a connect time opened a connection
  read -r rate connections < <(awk -F, 'NR > 1 { if (first == "" || $1 < first) first = $1
      if ($1 + $2 > last) last = $1 + $2; if ($NF > 0) opened++; n++ }
      END { printf "%.1f %d\n", n * 1000 / (last - first), opened }' "$dir/results.jtl")
}

# run_h2load DIR PROTOCOL USERS: h2load with USERS connections, one request in flight on each
run_h2load() {
  local dir="$1" protocol="$2" n="$3"
  # h2load 1.52 --h1 -D was seen to go on sending after "Stopped all clients": cut it off
  measured "$dir/client" timeout "$((duration + 30))" h2load -c "$n" -m 1 -D "$duration" ${h2load_options[@]+"${h2load_options[@]}"} \
    "$scheme://127.0.0.1:$port$path" || fail "h2load failed or did not stop within 30 s of its duration ($dir/client.out)"
  grep -E '^(finished|requests):' "$dir/client.out" | sed 's/^/   /'
  grep -q "^Application protocol: $alpn\$" "$dir/client.out" || fail "h2load did not speak $alpn ($dir/client.out)"
  rate="$(awk '/^finished in/ { sub(/,/, "", $4); print $4 }' "$dir/client.out")"
  # requests: T total, S started, D done, OK succeeded, F failed, E errored, X timeout
  read -r requests errors < <(awk '/^requests:/ { print $8, $2 - $8 }' "$dir/client.out") || true
  [ -n "${errors:-}" ] || fail "no request counts in $dir/client.out"
  [ "$errors" = 0 ] || echo "   $errors of $((requests + errors)) h2load requests failed ($dir/client.out)" | tee -a "$out/failures.txt"
  # time for request: min max mean sd, each with its unit
  mean="$(awk '/^time for request:/ { v = $6; f = v ~ /us$/ ? 0.001 : v ~ /ms$/ ? 1 : 1000
      sub(/[a-z]+$/, "", v); printf "%.1f", v * f }' "$dir/client.out")"
  p90=""
  connections="$n"
}

# measure ROUND PROTOCOL USERS CLIENT: one measurement, one line of results.csv
measure() {
  local round="$1" protocol="$2" n="$3" client="$4" dir server_cpu load
  local rate mean p90 requests errors connections
  dir="$run/round$round-$protocol-$n-$client"
  mkdir -p "$dir"
  protocol_settings "$protocol"
  load="$(load1)"
  echo "== round $round: $client, $protocol, $n users for $duration s (load $load)"
  server_cpu="$(cpu_seconds "$server_pid")"
  if [ "$client" = h2load ]; then run_h2load "$dir" "$protocol" "$n"; else run_jmeter "$dir" "$client" "$protocol" "$n"; fi
  server_cpu="$(awk -v a="$server_cpu" -v b="$(cpu_seconds "$server_pid")" 'BEGIN { printf "%.3f", b - a }')"
  echo "$round,$protocol,$n,$client,$requests,${errors:-0},$connections,$rate,$mean,$p90,$(cat "$dir/client.cpu"),$server_cpu,$(cat "$dir/client.threads"),$load" \
    >>"$out/results.csv"
}

# The peers run right after the h2bench measurement they are compared with.
measurements() {
  printf '%s\n' "h1-tls $users h2bench" "h1-tls $users jmeter-hc4" "h1-tls $users h2load" \
    "h2 $users h2bench" "h2 $users h2load" "h2c $users h2bench" "h2c $users h2load"
  [ "$many" = 0 ] || printf '%s\n' "h1-tls $many h2bench" "h1-tls $many jmeter-hc4" \
    "h2 $many h2bench" "h2 $many h2load"
}

write_machine_facts
start_server "$run" || exit 1
echo "== warming the server up: h2load, 5,000 requests on 10 connections per listener"
for protocol in h1-tls h2 h2c; do
  protocol_settings "$protocol"
  timeout 60 h2load -n 5000 -c 10 -m 1 ${h2load_options[@]+"${h2load_options[@]}"} "$scheme://127.0.0.1:$port$path" \
    >"$run/warm-up-$protocol.out" 2>&1 || fail "warm-up on $protocol failed ($run/warm-up-$protocol.out)"
done

echo "== JMeter's own cost: the plan with no users"
measured "$run/jmeter-idle" "${limit[@]}" java -Xmx1g -jar "$jmeter_jar" -n -t test-plans/throughput.jmx \
  -j "$run/jmeter-idle.log" -Jh2bench_users=0 -Jjmeter_users=0 || fail "JMeter failed ($run/jmeter-idle.out)"
echo "jmeter-idle (JVM start, plan, stop; no users): $(cat "$run/jmeter-idle.cpu") CPU s, $(cat "$run/jmeter-idle.threads") threads" \
  >>"$out/machine.txt"

echo "round,protocol,users,client,requests,errors,connections,req_per_s,mean_ms,p90_ms,client_cpu_s,server_cpu_s,client_peak_threads,load1" \
  >"$out/results.csv"
for round in $(seq 1 "$rounds"); do
  wait_for_quiet
  while read -r protocol n client; do
    measure "$round" "$protocol" "$n" "$client"
  done < <(measurements)
done

awk -v duration="$duration" -v path="$path" -v rounds="$rounds" -v machine="$out/machine.txt" -f benchmarks/throughput-table.awk "$out/results.csv" >"$out/throughput.md"
cat "$out/throughput.md"
echo "== done: $out/throughput.md, results.csv, machine.txt; each tool's own output under $run/"
[ ! -s "$out/failures.txt" ] || fail "requests failed, the figures above are not clean:
$(cat "$out/failures.txt")"
