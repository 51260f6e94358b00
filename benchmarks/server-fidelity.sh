#!/usr/bin/env bash
# Issue 42: does a new connection to h2bench's TCP listeners cost what it costs on a maintained web
# server? Starts the h2bench server behind the kernel link, then, inside the link's server namespace
# at the same address, the maintained servers with h2bench's own certificate and the same page files
# (seed 000's page, copied from the running h2bench with curl):
#   caddy   Caddy from Debian (Go's crypto/tls and net/http)
#   nginx   nginx from Debian (OpenSSL), optional
# One client for all: curl, a new process and a new connection per request (a full TLS handshake,
# no session resumption), run on the host side so that every packet crosses the emulated link. Its
# phases (-w): TCP (time_connect), TLS (time_appconnect - time_connect), first byte after TLS (or
# after TCP in clear text) and total. The servers take turns request by request, the first of each
# round rotating, so that a machine whose load drifts weighs on all alike. Each latency starts a
# fresh h2bench (the link is its flag): the first rounds are a fresh JVM's, as a user's first loads.
# Also per server: the TLS 1.3 and TLS 1.2 cipher each picks for curl, the key exchange group, the
# certificate's signature (openssl s_client), the CPU the server process used per timed connection
# (h2bench's without the link's own threads, which carry every server's packets), and, from a
# capture on the server's side of the link (dumpcap), each server's own time: from a ClientHello
# to its first flight, and from a request to its response (benchmarks/server-turnaround.py).
# Then Chromium's page loads of seed 000's page (/), cold and warm, from every server over every
# protocol (benchmarks/chromium/ChromiumPageLoads.java, Debian's headless Chromium on the host side,
# h2bench.test mapped to the link's address, the certificate trusted by its pinned key): cold, a new
# browser and profile per load; warm, reloads 1.75 s apart on the connections of a first load. Per
# server, the medians (document's fetch to the last byte of any response) and the ratios h2/h1-tls
# and h1/h1-tls, which issue 42 holds within 5 % of the maintained servers'
# (benchmarks/server-fidelity-pages.py).
# Prints the tables and writes them with every sample to --out. Needs root (nsenter), java, curl,
# openssl, python3, plus caddy and nginx for those servers (apt-get install caddy nginx-light),
# chromium for the page loads (apt-get install chromium; --page-loads 0 goes without), and dumpcap
# and tshark for the server-side times (apt-get install tshark; --no-capture goes without).
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/server-fidelity.sh [options]

  --server-jar PATH     the h2bench server jar; default server/target/h2bench-server.jar
  --server-options "…"  more h2bench server flags, e.g. "--tls-profile jsse"
  --servers "..."       from h2bench caddy nginx; default "h2bench caddy", plus nginx when installed
  --protocols "..."     from h1 h1-tls h2; default all three
  --latencies "..."     round trips of the kernel link, one fresh h2bench each; default "25ms 100ms 200ms"
  --runs N              curl's timed requests per server, protocol and latency; default 10; 0: none
  --warmup N            untimed requests per server and protocol before the runs; default 1
  --path PATH           what each of curl's requests fetches; default / (the page's index.html, 863 bytes)
  --page-loads N        Chromium's page loads per server, protocol, latency and mode, after one
                        left out (the warm connections' first, or the first browser's); default 5;
                        0: no page loads
  --page-modes "..."    from cold warm; default both
  --home DIR            the h2bench server's home (user.home), where it keeps its generated
                        certificate; default yours (~/.h2bench)
  --no-capture          no capture on the link, no server-side times (default: capture when
                        dumpcap and tshark are installed)
  --out DIR             output directory; default target/h2bench-server-fidelity (emptied first)

curl's part (--runs 10) takes about a minute per latency at 100 ms; the page loads at the default 5
about six minutes per latency with three servers: the default run took 19.5 minutes on two busy cores.
USAGE
}

die_usage() {
  echo "server-fidelity.sh: $1" >&2
  usage >&2
  exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server_jar="$root/server/target/h2bench-server.jar"
server_options="" servers="" protocols="h1 h1-tls h2" latencies="25ms 100ms 200ms" runs=10 warmup=1
path=/ home="" out=target/h2bench-server-fidelity capture=auto page_loads=5 page_modes="cold warm"
command_line="benchmarks/server-fidelity.sh${*:+ $*}"
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --no-capture) capture=no; shift; continue ;;
    --server-jar|--server-options|--servers|--protocols|--latencies|--runs|--warmup|--path|--home|--out|--page-loads|--page-modes)
      [ $# -ge 2 ] || die_usage "$1 needs a value" ;;
    *) die_usage "unknown option $1" ;;
  esac
  case "$1" in
    --server-jar) server_jar="$2" ;;
    --server-options) server_options="$2" ;;
    --servers) servers="$2" ;;
    --protocols) protocols="$2" ;;
    --latencies) latencies="$2" ;;
    --runs) runs="$2" ;;
    --warmup) warmup="$2" ;;
    --path) path="$2" ;;
    --home) home="$2" ;;
    --out) out="$2" ;;
    --page-loads) page_loads="$2" ;;
    --page-modes) page_modes="$2" ;;
  esac
  shift 2
done
if [ "$capture" = auto ]; then
  capture=no
  command -v dumpcap >/dev/null && command -v tshark >/dev/null && capture=yes
fi
if [ -z "$servers" ]; then
  servers="h2bench caddy"
  command -v nginx >/dev/null && servers="$servers nginx"
fi

read -r -a server_list <<<"$servers"
read -r -a protocol_list <<<"$protocols"
read -r -a latency_list <<<"$latencies"
read -r -a extra_options <<<"$server_options"
read -r -a page_mode_list <<<"$page_modes"
[ ${#server_list[@]} -gt 0 ] || die_usage "--servers names none"
[ ${#protocol_list[@]} -gt 0 ] || die_usage "--protocols names none"
[ ${#latency_list[@]} -gt 0 ] || die_usage "--latencies names none"
for server in "${server_list[@]}"; do
  case "$server" in h2bench|caddy|nginx) ;; *) die_usage "unknown server '$server' (h2bench caddy nginx)" ;; esac
done
[ "${server_list[0]}" = h2bench ] || die_usage "--servers starts with h2bench (the peers run inside its link)"
[ "$(printf '%s\n' "${server_list[@]}" | sort | uniq -d)" = "" ] || die_usage "--servers names a server twice"
for protocol in "${protocol_list[@]}"; do
  case "$protocol" in h1|h1-tls|h2) ;; *) die_usage "unknown protocol '$protocol' (h1 h1-tls h2)" ;; esac
done
for latency in "${latency_list[@]}"; do
  [[ "$latency" =~ ^[0-9]+(\.[0-9]+)?(ms|s)?$ ]] || die_usage "--latencies takes durations such as 100ms or 0.2s"
done
[[ "$runs" =~ ^[0-9]{1,4}$ ]] || die_usage "--runs takes a number from 0 to 9999"
[[ "$page_loads" =~ ^[0-9]{1,3}$ ]] || die_usage "--page-loads takes a number from 0 to 999"
for mode in "${page_mode_list[@]}"; do
  case "$mode" in cold|warm) ;; *) die_usage "unknown page mode '$mode' (cold warm)" ;; esac
done
[ "$page_loads" = 0 ] || [ ${#page_mode_list[@]} -gt 0 ] || die_usage "--page-modes names none"
[[ "$warmup" =~ ^[0-9]{1,4}$ ]] || die_usage "--warmup takes a number from 0 to 9999"
[[ "$path" =~ ^/[^[:space:]]*$ ]] || die_usage "--path takes an absolute path such as / or /img1.jpeg"
[ -f "$server_jar" ] || { echo "server-fidelity.sh: no server jar at $server_jar (mvn -B package -DskipTests, or --server-jar PATH)" >&2; exit 1; }
server_jar="$(cd "$(dirname "$server_jar")" && pwd)/$(basename "$server_jar")"
[ "$(id -u)" = 0 ] || { echo "server-fidelity.sh: needs root (the kernel link, and nsenter into its namespace)" >&2; exit 1; }
needed="java curl openssl python3 nsenter ss"
for server in "${server_list[@]}"; do [ "$server" = h2bench ] || needed="$needed $server"; done
[ "$page_loads" = 0 ] || needed="$needed javac chromium"
for tool in $needed; do
  command -v "$tool" >/dev/null ||
    { echo "server-fidelity.sh: needs $tool (apt-get install curl openssl python3 util-linux iproute2 caddy nginx-light chromium openjdk-17-jdk-headless)" >&2; exit 1; }
done

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
# shellcheck source=../bin/lib/process.sh
. "$root/bin/lib/process.sh"
tmp="" caddy_pid="" nginx_pid="" client_pid="" capture_pid=""
stop_peers() {
  local pid
  for pid in "$client_pid" "$capture_pid" "$caddy_pid" "$nginx_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  client_pid="" capture_pid="" caddy_pid="" nginx_pid=""
}
stop_all() {
  stop_peers
  stop_server >&2
  server_pid=""
  [ -z "$tmp" ] || rm -rf "$tmp"
  tmp=""
}
stop_on_any_exit stop_all

rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
[ -z "$home" ] || { mkdir -p "$home"; home="$(cd "$home" && pwd)"; }

# free_ports HOST N: N TCP ports free at HOST in the link's namespace
free_ports() {
  in_link python3 - "$1" "$2" <<'PY'
import socket, sys
held = []
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((sys.argv[1], 0))
    held.append(s)
print(*[s.getsockname()[1] for s in held])
PY
}

# wait_for_tcp PORT PID WHAT LOG: waits up to 10 s for a listening TCP socket on PORT in the link's namespace
wait_for_tcp() {
  for _ in $(seq 1 100); do
    in_link ss -Hltn "sport = :$1" | grep -q . && return 0
    kill -0 "$2" 2>/dev/null || { echo "server-fidelity.sh: $3 did not start:" >&2; cat "$4" >&2; return 1; }
    sleep 0.1
  done
  echo "server-fidelity.sh: $3 did not listen on TCP $1 within 10 s ($4)" >&2
  return 1
}

# Caddy serves a site by the names it is given: the address for curl, Chromium's name for the pages
start_caddy() {
  cat >"$tmp/Caddyfile" <<CADDY
{
	admin off
	auto_https off
	default_sni localhost
	servers {
		protocols h1 h2
	}
	log {
		output discard
	}
}
https://$host:$caddy_tls_port, https://$host:$caddy_h2_port, https://$page_host:$caddy_tls_port, https://$page_host:$caddy_h2_port {
	bind $host
	tls $tmp/cert.pem $tmp/key.pem
	root * $tmp/docs
	file_server
}
http://$host:$caddy_port, http://$page_host:$caddy_port {
	bind $host
	root * $tmp/docs
	file_server
}
CADDY
  # nsenter in the background execs the server: $! is the server's pid
  HOME="$tmp/caddy" XDG_DATA_HOME="$tmp/caddy" XDG_CONFIG_HOME="$tmp/caddy" \
    nsenter --net="$link_net" caddy run --adapter caddyfile --config "$tmp/Caddyfile" >"$run_dir/caddy.log" 2>&1 &
  caddy_pid=$!
  wait_for_tcp "$caddy_tls_port" "$caddy_pid" caddy "$run_dir/caddy.log" && wait_for_tcp "$caddy_h2_port" "$caddy_pid" caddy "$run_dir/caddy.log"
}

start_nginx() {
  mkdir -p "$tmp/nginx/logs"
  # one worker, as Caddy and h2bench each serve one client from one process; h2 as nginx 1.22 spells
  # it; TLS 1.3 as every server here offers it (nginx 1.22's default stops at 1.2)
  cat >"$tmp/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $run_dir/nginx-error.log;
events { worker_connections 1024; }
http {
	include /etc/nginx/mime.types;
	access_log off;
	client_body_temp_path $tmp/nginx/body;
	proxy_temp_path $tmp/nginx/proxy;
	fastcgi_temp_path $tmp/nginx/fastcgi;
	uwsgi_temp_path $tmp/nginx/uwsgi;
	scgi_temp_path $tmp/nginx/scgi;
	server {
		listen $host:$nginx_port;
		root $tmp/docs;
	}
	server {
		listen $host:$nginx_tls_port ssl http2;
		listen $host:$nginx_h2_port ssl http2;
		ssl_protocols TLSv1.2 TLSv1.3;
		ssl_certificate $tmp/cert.pem;
		ssl_certificate_key $tmp/key.pem;
		root $tmp/docs;
	}
}
NGINX
  nsenter --net="$link_net" nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -g 'daemon off;' >"$run_dir/nginx.log" 2>&1 &
  nginx_pid=$!
  wait_for_tcp "$nginx_tls_port" "$nginx_pid" nginx "$run_dir/nginx.log" && wait_for_tcp "$nginx_h2_port" "$nginx_pid" nginx "$run_dir/nginx.log"
}

# port_of_server SERVER PROTOCOL / url_of SERVER PROTOCOL / curl_version_of PROTOCOL: each server
# has a port per protocol (the peers' h1-tls and h2 ports serve alike), so that a capture tells them apart
port_of_server() {
  case "$1:$2" in
    h2bench:h1) server_port h1_port ;;
    h2bench:h1-tls) server_port tls_port ;;
    h2bench:h2) server_port h2_port ;;
    caddy:h1) echo "$caddy_port" ;;
    caddy:h1-tls) echo "$caddy_tls_port" ;;
    caddy:h2) echo "$caddy_h2_port" ;;
    nginx:h1) echo "$nginx_port" ;;
    nginx:h1-tls) echo "$nginx_tls_port" ;;
    nginx:h2) echo "$nginx_h2_port" ;;
  esac
}
url_of() {
  local scheme=https
  [ "$2" = h1 ] && scheme=http
  echo "$scheme://$host:$(port_of_server "$1" "$2")$path"
}
curl_version_of() {
  case "$1" in h2) echo --http2 ;; *) echo --http1.1 ;; esac
}

# fetch SERVER PROTOCOL: one request on a new connection by a new curl; sets sample to
# "connect,appconnect,starttransfer,total,http_version" in ms and fetch_error (empty when it worked)
fetch() {
  local line status=0 expected
  line="$(curl -sk "$(curl_version_of "$2")" --max-time 30 -o /dev/null \
    -w '%{time_connect} %{time_appconnect} %{time_starttransfer} %{time_total} %{http_version} %{http_code}' "$(url_of "$1" "$2")")" || status=$?
  sample="$(awk '{ printf "%.2f,%.2f,%.2f,%.2f,%s", $1 * 1000, $2 * 1000, $3 * 1000, $4 * 1000, $5 }' <<<"$line")"
  expected=1.1
  [ "$2" = h2 ] && expected=2
  fetch_error=""
  if [ "$status" != 0 ]; then fetch_error="curl exited $status"
  elif [ "$(awk '{ print $6 }' <<<"$line")" != 200 ]; then fetch_error="status $(awk '{ print $6 }' <<<"$line")"
  elif [ "$(awk '{ print $5 }' <<<"$line")" != "$expected" ]; then fetch_error="HTTP/$(awk '{ print $5 }' <<<"$line") instead of $expected"
  fi
}

# tls_facts SERVER: what the server picks for curl (TLS 1.3: cipher; group, signature) and for a
# TLS 1.2 client (openssl s_client's default offer); one CSV line
tls_facts() {
  local url hostport v13 v12 cipher13 group sig bits cipher12
  url="$(url_of "$1" h2)"
  hostport="${url#https://}"
  hostport="${hostport%%/*}"
  cipher13="$(curl -skv --http2 -o /dev/null "$url" 2>&1 | sed -n 's/^\* SSL connection using \(.*\)$/\1/p' | head -1)"
  v13="$(openssl s_client -tls1_3 -connect "$hostport" </dev/null 2>/dev/null || true)"
  v12="$(openssl s_client -tls1_2 -connect "$hostport" </dev/null 2>/dev/null || true)"
  group="$(sed -n 's/^Server Temp Key: \([^,]*\).*/\1/p' <<<"$v13" | head -1)"
  sig="$(sed -n 's/^Peer signature type: //p' <<<"$v13" | head -1)"
  bits="$(sed -n 's/^Server public key is \([0-9]*\) bit.*/\1/p' <<<"$v13" | head -1)"
  cipher12="$(sed -n 's/^New, TLSv1.2, Cipher is //p' <<<"$v12" | head -1)"
  echo "$1,$cipher13,$group,$sig $bits-bit,$cipher12"
}

# page_loads_of SERVER PROTOCOL MODE: Chromium's loads of the page over PROTOCOL, MODE cold or warm,
# appended to pages.csv; a driver that fails is reported and leaves its series out
page_loads_of() {
  local scheme=https gap=$page_cold_gap_ms csv="$run_dir/pages-$3-$2-$1.csv"
  [ "$2" = h1 ] && scheme=http
  [ "$3" = warm ] && gap=$page_warm_gap_ms
  if java -cp "$out/classes" ChromiumPageLoads "$scheme://$page_host:$(port_of_server "$1" "$2")/" "$host" "$keystore" \
      "$password" "$page_loads" "$gap" "$3" "$2" "$csv" >>"$run_dir/chromium.log" 2>&1; then
    awk -F, -v prefix="$latency,$1,$2," 'NR > 1 { print prefix $0 }' "$csv" >>"$out/pages.csv"
    echo "   $latency pages $3 $2/$1: $(awk -F, 'NR > 1 && $2 > 0 && $10 == "false" { printf " %d", $3 }' "$csv") ms" >&2
  else
    echo "   $latency pages $3 $2/$1: FAILED (last lines of $run_dir/chromium.log:)" >&2
    tail -3 "$run_dir/chromium.log" >&2
  fi
}

# start_capture FILE: the link's TCP packets on the servers' side into FILE, until stop_capture
start_capture() {
  local device
  device="$(in_link ip -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2; exit }')"
  nsenter --net="$link_net" dumpcap -q -i "$device" -f tcp -s 128 -w "$1" 2>>"$run_dir/dumpcap.log" &
  capture_pid=$!
  sleep 1
}

# stop_capture FILE TITLE: ends the capture and appends each server's own times in it to turnaround.md
stop_capture() {
  local named=() server protocol
  sleep 1
  kill "$capture_pid" 2>/dev/null || true
  wait "$capture_pid" 2>/dev/null || true
  capture_pid=""
  for server in "${server_list[@]}"; do
    for protocol in "${protocol_list[@]}"; do
      [ "$protocol" = h1 ] && named+=("$(port_of_server "$server" "$protocol")=$server $protocol") ||
        named+=("tls:$(port_of_server "$server" "$protocol")=$server $protocol")
    done
  done
  { echo "$2:"; echo; python3 "$root/benchmarks/server-turnaround.py" "$1" "${named[@]}"; echo; } >>"$out/turnaround.md"
}

# cpu_of SERVER: CPU seconds its process has used so far; h2bench's without the kernel link's threads
cpu_of() {
  case "$1" in
    h2bench)
      cat /proc/"$server_pid"/task/*/stat 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" '
        { name = substr($0, index($0, "(") + 1); name = substr(name, 1, index(name, ")") - 1)
          split(substr($0, index($0, ") ") + 2), f, " ") }
        name !~ /^h2bench-(link|netns)/ { sum += f[12] + f[13] }
        END { printf "%.2f\n", sum / hz }' ;;
    caddy) tree_cpu_seconds "$caddy_pid" ;;
    nginx) tree_cpu_seconds "$nginx_pid" ;;
  esac
}

echo "latency,run,protocol,server,connect_ms,appconnect_ms,starttransfer_ms,total_ms,http_version,error" >"$out/results.csv"
echo "latency,server,tls13,group,signature,tls12" >"$out/tls.csv"
echo "latency,server,connections,cpu_s" >"$out/cpu.csv"
echo "latency,server,protocol,mode,load,last_byte_ms,load_event_ms,first_byte_ms,connect_ms,new_connections,on_protocol,responses,disturbed,first_wave" >"$out/pages.csv"
page_host=h2bench.test page_warm_gap_ms=1750 page_cold_gap_ms=250
[ "$page_loads" = 0 ] || javac -d "$out/classes" "$root"/benchmarks/chromium/*.java
: >"$out/turnaround.md"
started="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
count=${#server_list[@]}
networks=""
for latency in "${latency_list[@]}"; do
  run_dir="$out/$latency"
  mkdir -p "$run_dir"
  tmp="$(mktemp -d /tmp/server-fidelity.XXXXXX)"
  mkdir -p "$tmp/docs" "$tmp/caddy"
  chmod 755 "$tmp"  # nginx's worker runs as nobody and reads the page files
  echo "== h2bench behind the kernel link at $latency ($(basename "$server_jar")${server_options:+ $server_options})" >&2
  if [ -n "$home" ]; then
    JAVA_TOOL_OPTIONS="-Duser.home=$home" start_server "$run_dir" --engine kernel --latency "$latency" "${extra_options[@]}" || exit 1
  else
    start_server "$run_dir" --engine kernel --latency "$latency" "${extra_options[@]}" || exit 1
  fi
  host="$(host_of "$run_dir/server.log")"
  network="$(server_network "$run_dir")"
  networks="$networks  $latency: $network"$'\n'
  echo "   $network" >&2

  # The link's server side is a network namespace of the server's own: one of its threads lives in it.
  link_net="$(link_namespace "$server_pid")" || { echo "server-fidelity.sh: no thread of the server (pid $server_pid) is in another network namespace ($run_dir/server.log)" >&2; exit 1; }
  in_link() { nsenter --net="$link_net" "$@"; }

  keystore="$(server_keystore "$run_dir")" password=h2bench
  for ((i = 0; i < ${#extra_options[@]}; i++)); do
    [ "${extra_options[$i]}" != --keystore-password ] || password="${extra_options[$((i + 1))]:-}"
  done
  export_pem "$keystore" "$password" "$tmp" ||
    { echo "server-fidelity.sh: could not export the certificate and key from $keystore" >&2; exit 1; }
  copy_page "http://$host:$(server_port h1_port)" "$tmp/docs" ||
    { echo "server-fidelity.sh: could not copy the page from h2bench's h1 listener" >&2; exit 1; }
  echo "   page: $(find "$tmp/docs" -type f | wc -l) files, $(du -sb "$tmp/docs" | cut -f1) bytes; certificate: $(openssl x509 -in "$tmp/cert.pem" -noout -text | sed -n 's/^ *Public Key Algorithm: //p')" >&2
  read -r caddy_port caddy_tls_port caddy_h2_port nginx_port nginx_tls_port nginx_h2_port < <(free_ports "$host" 6)
  for server in "${server_list[@]}"; do
    case "$server" in
      caddy) echo "   caddy at $host:$caddy_port, :$caddy_tls_port and :$caddy_h2_port ($(caddy version 2>/dev/null | cut -d' ' -f1))" >&2; start_caddy || exit 1 ;;
      nginx) echo "   nginx at $host:$nginx_port, :$nginx_tls_port and :$nginx_h2_port ($(nginx -v 2>&1 | sed 's/.*: //'))" >&2; start_nginx || exit 1 ;;
    esac
  done

  for server in "${server_list[@]}"; do
    echo "$latency,$(tls_facts "$server")" >>"$out/tls.csv"
    echo "   $(tail -1 "$out/tls.csv")" >&2
  done
  for round in $(seq 1 "$warmup"); do
    for protocol in "${protocol_list[@]}"; do
      for server in "${server_list[@]}"; do
        fetch "$server" "$protocol"
        [ -z "$fetch_error" ] || { echo "server-fidelity.sh: $server did not serve $protocol ($(url_of "$server" "$protocol")): $fetch_error" >&2; exit 1; }
      done
    done
  done
  [ "$capture" = no ] || [ "$runs" = 0 ] || start_capture "$run_dir/link.pcapng"
  declare -A cpu_before=()
  for server in "${server_list[@]}"; do cpu_before[$server]="$(cpu_of "$server")"; done
  for run in $(seq 1 "$runs"); do
    line=""
    for protocol in "${protocol_list[@]}"; do
      for i in $(seq 0 $((count - 1))); do
        server="${server_list[$(( (i + run - 1) % count ))]}"
        fetch "$server" "$protocol"
        echo "$latency,$run,$protocol,$server,$sample,$fetch_error" >>"$out/results.csv"
        line="$line $protocol/$server $(cut -d, -f4 <<<"$sample" | cut -d. -f1)${fetch_error:+ (FAILED: $fetch_error)}"
      done
    done
    echo "   $latency run $run/$runs:$line" >&2
  done
  [ "$runs" = 0 ] || for server in "${server_list[@]}"; do
    echo "$latency,$server,$((runs * ${#protocol_list[@]})),$(awk -v a="${cpu_before[$server]}" -v b="$(cpu_of "$server")" 'BEGIN { printf "%.2f", b - a }')" >>"$out/cpu.csv"
  done
  [ "$capture" = no ] || [ "$runs" = 0 ] || stop_capture "$run_dir/link.pcapng" "$latency, curl's connections"
  # Chromium's pages, after curl's requests: the servers take turns series by series, the first rotating
  if [ "$page_loads" -gt 0 ]; then
    [ "$capture" = no ] || start_capture "$run_dir/pages.pcapng"
    shift_by=0
    for mode in "${page_mode_list[@]}"; do
      for protocol in "${protocol_list[@]}"; do
        for i in $(seq 0 $((count - 1))); do
          page_loads_of "${server_list[$(( (i + shift_by) % count ))]}" "$protocol" "$mode"
        done
        shift_by=$((shift_by + 1))
      done
    done
    [ "$capture" = no ] || stop_capture "$run_dir/pages.pcapng" "$latency, Chromium's connections (a response: the first one on its connection)"
  fi
  stop_all
done

{
  echo "command: $command_line"
  echo "date: $started to $(date -u '+%H:%M:%S UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo none)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "server jar: $(basename "$server_jar") (sha256 $(sha256sum "$server_jar" | cut -c1-12))${server_options:+, options $server_options}"
  echo "links:"
  printf '%s' "$networks"
  echo "machine: $(nproc) cores, $(uname -r), load average $load_before at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
  echo "client: curl $(curl --version | head -1 | cut -d' ' -f2) ($(curl --version | head -1 | grep -o 'OpenSSL/[^ ]*')), a new process and connection per request, $path; $warmup untimed request(s) per server and protocol first; $runs timed"
  [ "$page_loads" = 0 ] || echo "pages: $(chromium --version 2>/dev/null | cut -d' ' -f1-2), headless, cache off, /; $page_loads loads per cell after one left out; cold: a new browser per load, ${page_cold_gap_ms} ms between; warm: reloads ${page_warm_gap_ms} ms apart"
  echo "peers: $(for server in "${server_list[@]}"; do case "$server" in caddy) printf 'caddy %s; ' "$(caddy version 2>/dev/null | cut -d' ' -f1)" ;; nginx) printf 'nginx %s (1 worker); ' "$(nginx -v 2>&1 | sed 's/.*\///')" ;; esac; done)"
  echo
  [ "$runs" = 0 ] || python3 "$root/benchmarks/server-fidelity-table.py" "$out/results.csv" "$out/tls.csv" "$out/cpu.csv"
  if [ "$page_loads" -gt 0 ]; then
    echo
    python3 "$root/benchmarks/server-fidelity-pages.py" "$out/pages.csv"
  fi
  if [ "$capture" = yes ]; then
    echo
    echo "Each server's own time per connection, from a capture on the server's side of the link:"
    echo
    cat "$out/turnaround.md"
  fi
} >"$out/server-fidelity.txt"
cat "$out/server-fidelity.txt"
echo "== done: $out/server-fidelity.txt (every request in $out/results.csv)" >&2
