#!/usr/bin/env bash
# Issue 38: is what h2bench's h3 listener costs the network's, or the listener's? Starts the h2bench
# server behind the kernel link, then, inside the link's server namespace at the same address, three
# independent HTTP/3 servers serving files of the same sizes with h2bench's own certificate:
#   gtlsserver  ngtcp2's example server (Debian's ngtcp2-server): cubic, initial window 10 packets,
#               the congestion settings of h2bench's quiche
#   caddy       Caddy from Debian (quic-go): initial window 32 packets, neither settable
#   quic-go     benchmarks/h3server, quic-go's own HTTP/3 server (the version in its go.mod, today's):
#               initial window 32 packets, its CUBIC and token-bucket pacer, none settable; built with go
# One client for all: Debian's gtlsclient (ngtcp2-client), a new process and a new QUIC connection per
# download, run on the host side so that every packet crosses the emulated link; a sample is the wall
# time from the client's start to its exit (handshake included; 100 B is the handshake-only case). The
# servers take turns download by download, the first of each round rotating, so that a machine whose
# load drifts weighs on all alike. Before the rounds every server serves each object once, untimed
# (h2bench's JIT, the page cache) and once 100 B with gtlsclient's log on, which says whether the
# server sent a Retry and when the handshake completed and the response began.
# Prints the table (median and p90 per server and size, h2bench's ratio to each peer) and writes it
# with every sample to --out, headed by the h2bench listener's QUIC settings as its banner states them
# (the "  QUIC: ..." line; --server-args changes them, e.g. --h3-initial-window 32). Needs root (nsenter), java, gtlsclient, openssl and python3, plus
# gtlsserver and caddy for those servers (apt-get install ngtcp2-client ngtcp2-server caddy), go for quic-go.
# --warm measures reused connections instead: benchmarks/h3warm (quic-go's HTTP/3 client, built with
# go) downloads each object cold on a new connection, then again on it after an idle gap.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/h3-peers.sh [options]

  --server-jar PATH   the h2bench server jar; default server/target/h2bench-server.jar
  --servers "..."     from h2bench gtlsserver caddy quic-go h2bench-b; default the first four
  --server-jar-b PATH a second h2bench jar, served as h2bench-b (name it in --servers) inside the
                      link's namespace beside the peers, at the same address and with the same
                      certificate, no emulation of its own: an A/B of two listener builds in one run,
                      each beside the peers (swap the two jars in a second run: only h2bench's
                      process carries the link). Its table follows h2bench's. E.g. the jar with
                      Netty's own quiche beside the default one with h2bench's CUBIC patches:
                        mvn -pl server package -Dh2bench.quiche=netty -DskipTests &&
                          cp server/target/h2bench-server.jar /tmp/h2bench-server-netty-quiche.jar
                        mvn -pl server package -DskipTests
                      then --server-jar-b /tmp/h2bench-server-netty-quiche.jar; each banner's QUIC
                      line, in the table's heading, names the quiche its jar loaded
  --server-args-b ".." more options for h2bench-b (--server-args's link options are not its); default none
  --sizes "..."       objects: 100B, NkB (1 to 65536 KiB), NMiB (1 to 64), page; default 100B 44kB
                      400kB 2MiB 10MiB page (near a threshold, e.g. 1900kB 2200kB). page is seed
                      000's page (index.html and the files it links, copied from h2bench), every
                      file requested at once on one connection: gtlsclient cannot wait for the
                      index before it asks for the rest, so the row compares servers, not browsers
  --rounds N          downloads per server and size; default 8
  --latency D         round trip of the kernel link (the server's --latency); default 100ms
  --loss P            loss on the link, both directions (the server's --loss: random draws unless
                      --server-args sets --loss-pattern: nth-connection gives each server's n-th
                      download the same losses, its next download others, so that the servers
                      compare over as many loss patterns as rounds); default 0%
  --gtlsserver-cc CC  gtlsserver's congestion control (cubic, reno, bbr, bbr2); default cubic, as
                      h2bench's quiche. Its initial window (10 packets) and Caddy's settings are fixed
  --server-args "..." more options for the h2bench server, after the script's own (--engine kernel
                      --latency D --loss P), e.g. "--h3-initial-window 32" to model quic-go, or
                      "--loss-pattern per-connection"; default none
  --band-peer PEER    the peer issue 38's band is checked against: gtlsserver (same congestion
                      settings as h2bench's defaults), caddy or quic-go (for --h3-initial-window 32);
                      default gtlsserver
  --timeout S         seconds one download may take before it counts as failed; default 120
  --client-buffer B   the socket receive buffer gtlsclient gets, in bytes (benchmarks/receive-buffer.c,
                      built with gcc, loaded into it: it asks for none, so it has
                      net.core.rmem_default, 208 KiB, and the bursts of a server with a large window
                      overflow it); default 7340032, quic-go's; 0 leaves the system's default
  --out DIR           output directory; default target/h2bench-h3-peers (emptied first)
  --qlog              also write qlogs into DIR/qlog: h2bench's (--qlog-dir), gtlsserver's, quic-go's
                      and the client's, one file per connection (Caddy writes none). For finding why two
                      servers differ (the benchmarks page's 44 kB flights); the writing costs CPU
                      in every download, so keep the table of a run without it

  --warm              reused connections: each download is one connection of benchmarks/h3warm
                      (quic-go's HTTP/3 client, built with go; independent of h2bench), a cold
                      download (handshake included) and, after --gap idle, the same object again on
                      that connection (request to last byte); rows SIZE/cold and SIZE/warm. Not with
                      the page. gtlsclient cannot do it: it opens every URI it is given at once, as
                      concurrent streams, and cannot wait for one response before the next request
  --gap D             idle time before the warm download, as Go writes it (1.75s, 500ms); default 1.75s
USAGE
}

die_usage() {
  echo "h3-peers.sh: $1" >&2
  usage >&2
  exit 2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
server_jar="$root/server/target/h2bench-server.jar"
servers="h2bench gtlsserver caddy quic-go" sizes="100B 44kB 400kB 2MiB 10MiB page" rounds=8 latency=100ms
loss=0% gtls_cc=cubic timeout_s=120 out=target/h2bench-h3-peers server_args="" band_peer=gtlsserver
server_jar_b="" server_args_b="" warm="" gap=1.75s client_buffer=7340032
command_line="benchmarks/h3-peers.sh"
for arg in "$@"; do
  case "$arg" in *[[:space:]]*|"") command_line="$command_line \"$arg\"" ;; *) command_line="$command_line $arg" ;; esac
done
qlog=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --qlog) qlog="$out"; shift; continue ;;
    --warm) warm=yes; shift; continue ;;
    --server-jar|--servers|--sizes|--rounds|--latency|--loss|--gtlsserver-cc|--timeout|--out|--server-args|--band-peer|--server-jar-b|--server-args-b|--gap|--client-buffer)
      [ $# -ge 2 ] || die_usage "$1 needs a value" ;;
    *) die_usage "unknown option $1" ;;
  esac
  case "$1" in
    --server-jar) server_jar="$2" ;;
    --servers) servers="$2" ;;
    --sizes) sizes="$2" ;;
    --rounds) rounds="$2" ;;
    --latency) latency="$2" ;;
    --loss) loss="$2" ;;
    --gtlsserver-cc) gtls_cc="$2" ;;
    --timeout) timeout_s="$2" ;;
    --out) out="$2" ;;
    --server-args) server_args="$2" ;;
    --band-peer) band_peer="$2" ;;
    --server-jar-b) server_jar_b="$2" ;;
    --server-args-b) server_args_b="$2" ;;
    --gap) gap="$2" ;;
    --client-buffer) client_buffer="$2" ;;
  esac
  shift 2
done

# bytes_of SIZE / h2bench_path_of SIZE: each object's length (the page's: all its files, known once
# copied), and its URL path on h2bench (k = 1024)
page_bytes=0
bytes_of() {
  case "$1" in
    100B) echo 100 ;;
    page) echo "$page_bytes" ;;
    [1-9]*kB) [[ "$1" =~ ^[1-9][0-9]{0,4}kB$ ]] && [ "${1%kB}" -le 65536 ] && echo $(( ${1%kB} * 1024 )) ;;
    [1-9]*MiB) [[ "$1" =~ ^[1-9][0-9]?MiB$ ]] && [ "${1%MiB}" -le 64 ] && echo $(( ${1%MiB} * 1048576 )) ;;
    *) return 1 ;;
  esac
}
h2bench_path_of() {
  case "$1" in
    100B) echo "/option?size=100" ;;
    *kB) echo "/option?size=${1%kB}k" ;;
    *MiB) echo "/option?size=${1%MiB}m" ;;
  esac
}

read -r -a server_list <<<"$servers"
read -r -a size_list <<<"$sizes"
[ ${#server_list[@]} -gt 0 ] || die_usage "--servers names none"
[ ${#size_list[@]} -gt 0 ] || die_usage "--sizes names none"
for server in "${server_list[@]}"; do
  case "$server" in h2bench|gtlsserver|caddy|quic-go|h2bench-b) ;; *) die_usage "unknown server '$server' (h2bench gtlsserver caddy quic-go h2bench-b)" ;; esac
done
case " $servers " in *" h2bench-b "*) [ -n "$server_jar_b" ] || die_usage "h2bench-b needs --server-jar-b" ;; esac
case " $servers " in *" h2bench "*) ;; *) die_usage "--servers must name h2bench (its link carries the others)" ;; esac
[ "$(printf '%s\n' "${server_list[@]}" | sort | uniq -d)" = "" ] || die_usage "--servers names a server twice"
for size in "${size_list[@]}"; do
  bytes_of "$size" >/dev/null || die_usage "unknown size '$size' (100B, NkB, NMiB up to 64, page)"
done
[[ "$rounds" =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "--rounds takes a number from 1 to 9999"
[[ "$timeout_s" =~ ^[1-9][0-9]{0,4}$ ]] || die_usage "--timeout takes a positive number of seconds"
[[ "$latency" =~ ^[0-9]+(\.[0-9]+)?(ms|s)?$ ]] || die_usage "--latency takes a duration such as 100ms or 0.2s"
[[ "$loss" =~ ^[0-9]+(\.[0-9]+)?%?$ ]] || die_usage "--loss takes a percentage such as 1% or 0.3%"
case "$gtls_cc" in cubic|reno|bbr|bbr2) ;; *) die_usage "--gtlsserver-cc is cubic, reno, bbr or bbr2" ;; esac
case "$band_peer" in gtlsserver|caddy|quic-go) ;; *) die_usage "--band-peer is gtlsserver, caddy or quic-go" ;; esac
[[ "$client_buffer" =~ ^(0|[1-9][0-9]{3,8})$ ]] && { [ "$client_buffer" = 0 ] || [ "$client_buffer" -ge 4096 ]; } ||
  die_usage "--client-buffer takes 0 or a number of bytes from 4096 to 999999999"
[[ "$gap" =~ ^[0-9]+(\.[0-9]+)?(ms|s)$ ]] || die_usage "--gap takes a duration such as 1.75s or 500ms"
[ -z "$warm" ] || case " $sizes " in *" page "*) die_usage "--warm downloads one object per connection: not the page" ;; esac
read -r -a extra_server_args <<<"$server_args"
read -r -a extra_server_args_b <<<"$server_args_b"
if [ -n "$server_jar_b" ]; then
  [ -f "$server_jar_b" ] || { echo "h3-peers.sh: no jar at --server-jar-b $server_jar_b" >&2; exit 1; }
  server_jar_b="$(cd "$(dirname "$server_jar_b")" && pwd)/$(basename "$server_jar_b")"
fi
[ -f "$server_jar" ] || { echo "h3-peers.sh: no server jar at $server_jar (mvn -B package -DskipTests, or --server-jar PATH)" >&2; exit 1; }
server_jar="$(cd "$(dirname "$server_jar")" && pwd)/$(basename "$server_jar")"
[ "$(id -u)" = 0 ] || { echo "h3-peers.sh: needs root (the kernel link, and nsenter into its namespace)" >&2; exit 1; }
needed="java gtlsclient openssl python3 nsenter ss timeout"
case " $servers " in *" gtlsserver "*) needed="$needed gtlsserver" ;; esac
case " $servers " in *" caddy "*) needed="$needed caddy" ;; esac
[ -z "$warm" ] || needed="$needed go"
case " $servers " in *" quic-go "*) needed="$needed go" ;; esac
[ -n "$warm" ] || [ "$client_buffer" = 0 ] || needed="$needed gcc"
for tool in $needed; do
  command -v "$tool" >/dev/null ||
    { echo "h3-peers.sh: needs $tool (apt-get install ngtcp2-client ngtcp2-server caddy openssl python3 util-linux iproute2)" >&2; exit 1; }
done

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
tmp="" gtls_pid="" caddy_pid="" quicgo_pid="" client_pid="" b_pid=""
stop_all() {
  local pid
  for pid in "$client_pid" "$gtls_pid" "$caddy_pid" "$quicgo_pid" "$b_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  client_pid="" gtls_pid="" caddy_pid="" quicgo_pid="" b_pid=""
  stop_server >&2
  server_pid=""
  [ -z "$tmp" ] || rm -rf "$tmp"
  tmp=""
}
stop_on_any_exit stop_all

rm -rf "$out"
mkdir -p "$out"
tmp="$(mktemp -d /tmp/h3-peers.XXXXXX)"
mkdir -p "$tmp/docs" "$tmp/download" "$tmp/caddy"
if [ -n "$warm" ]; then
  (cd "$root/benchmarks/h3warm" && go build -o "$tmp/h3warm" .) ||
    { echo "h3-peers.sh: could not build benchmarks/h3warm (its modules: go mod download in benchmarks/h3warm)" >&2; exit 1; }
fi
case " $servers " in *" quic-go "*)
  (cd "$root/benchmarks/h3server" && go build -o "$tmp/h3server" .) ||
    { echo "h3-peers.sh: could not build benchmarks/h3server (its modules: go mod download in benchmarks/h3server)" >&2; exit 1; }
esac
# gtlsclient's receive buffer: the preloaded socket() asks for it; python3's socket checks it took
client_env=()
if [ -z "$warm" ] && [ "$client_buffer" != 0 ]; then
  gcc -shared -fPIC -O2 -o "$tmp/receive-buffer.so" "$root/benchmarks/receive-buffer.c" -ldl ||
    { echo "h3-peers.sh: could not build benchmarks/receive-buffer.c" >&2; exit 1; }
  client_env=(env "H2BENCH_RECEIVE_BUFFER=$client_buffer" "LD_PRELOAD=$tmp/receive-buffer.so")
  granted="$("${client_env[@]}" python3 -c 'import socket; print(socket.socket(socket.AF_INET, socket.SOCK_DGRAM).getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF))')"
  [ "$granted" = $((2 * client_buffer)) ] ||
    { echo "h3-peers.sh: asked for a $client_buffer B receive buffer, the kernel gave ${granted:-none} (not 2 x $client_buffer)" >&2; exit 1; }
fi

echo "== h2bench behind the kernel link: $latency round trip, loss $loss ($(basename "$server_jar")${server_args:+, $server_args})" >&2
# --out may follow --qlog: the qlog directory is the final one's
[ -z "$qlog" ] || { qlog="$(cd "$out" && pwd)/qlog"; mkdir -p "$qlog/h2bench" "$qlog/gtlsserver" "$qlog/quic-go"; }
start_server "$out" ${qlog:+--qlog-dir "$qlog/h2bench"} --engine kernel --latency "$latency" --loss "$loss" ${extra_server_args[@]+"${extra_server_args[@]}"} || exit 1
host="$(host_of "$out/server.log")"
h2bench_port="$(server_port h3_port)"
[ -n "$h2bench_port" ] || { echo "h3-peers.sh: the server started no h3 listener: $server_no_h3" >&2; exit 1; }
network="$(server_network "$out")"
rtt_ms="$(sed -n 's/^network: .*rtt \([0-9.]*\) ms.*/\1/p' "$out/server.log" | head -1)"
# The h3 listener's QUIC settings as its banner states them (jars before cec67dc print no such line)
h2bench_quic="$(sed -n 's/^  QUIC: //p' "$out/server.log" | head -1)"
echo "   $network" >&2
echo "   h2bench's QUIC: ${h2bench_quic:-not in the banner}" >&2

# The link's server side is a network namespace of the server's own: one of its threads lives in it.
link_net="$(link_namespace "$server_pid")" || { echo "h3-peers.sh: no thread of the server (pid $server_pid) is in another network namespace: is this the kernel engine? ($out/server.log)" >&2; exit 1; }
in_link() { nsenter --net="$link_net" "$@"; }

# The peers serve h2bench's own certificate (the first start generated it with the link's address).
keystore="$(server_keystore "$out")"
export_pem "$keystore" h2bench "$tmp" ||
  { echo "h3-peers.sh: could not export the certificate and key from $keystore (password h2bench)" >&2; exit 1; }

# 100B.bin always: the logged handshake fetch asks for it
for size in 100B "${size_list[@]}"; do
  [ "$size" = page ] || head -c "$(bytes_of "$size")" /dev/urandom >"$tmp/docs/$size.bin"
done
case " $sizes " in *" page "*)
  mkdir "$tmp/docs/page"
  copy_page "http://$host:$(server_port h1_port)" "$tmp/docs/page" ||
    { echo "h3-peers.sh: could not copy seed 000's page from h2bench's h1 listener" >&2; exit 1; }
  page_bytes="$(find "$tmp/docs/page" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
  echo "   page: $(find "$tmp/docs/page" -type f | wc -l) files, $page_bytes bytes" >&2
esac

# Three ports free for both UDP and TCP (Caddy listens on both) at the link's server address.
read -r gtls_port caddy_port quicgo_port < <(in_link python3 - "$host" <<'PY'
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
    if len(ports) == 3:
        break
print(*ports)
PY
)
[ -n "${quicgo_port:-}" ] || { echo "h3-peers.sh: found no free ports at $host in the link's namespace" >&2; exit 1; }

# wait_for_udp PORT PID WHAT LOG: waits up to 10 s for a UDP socket on PORT in the link's namespace
wait_for_udp() {
  for _ in $(seq 1 100); do
    in_link ss -Hlun "sport = :$1" | grep -q . && return 0
    kill -0 "$2" 2>/dev/null || { echo "h3-peers.sh: $3 did not start:" >&2; cat "$4" >&2; return 1; }
    sleep 0.1
  done
  echo "h3-peers.sh: $3 did not listen on UDP $1 within 10 s ($4)" >&2
  return 1
}

case " $servers " in *" gtlsserver "*)
  echo "== gtlsserver at $host:$gtls_port (ngtcp2 $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?'), --cc $gtls_cc)" >&2
  # nsenter itself in the background (not in_link, a function run by a subshell): it execs the
  # server, so $! is the server's pid and stopping it stops the server.
  nsenter --net="$link_net" gtlsserver -q --cc="$gtls_cc" ${qlog:+--qlog-dir="$qlog/gtlsserver"} -d "$tmp/docs" "$host" "$gtls_port" "$tmp/key.pem" "$tmp/cert.pem" >"$out/gtlsserver.log" 2>&1 &
  gtls_pid=$!
  wait_for_udp "$gtls_port" "$gtls_pid" gtlsserver "$out/gtlsserver.log" || exit 1
esac
case " $servers " in *" caddy "*)
  echo "== caddy at $host:$caddy_port ($(caddy version 2>/dev/null | cut -d' ' -f1))" >&2
  caddy_h3_config "$host" "$caddy_port" "$tmp" >"$tmp/Caddyfile"
  HOME="$tmp/caddy" XDG_DATA_HOME="$tmp/caddy" XDG_CONFIG_HOME="$tmp/caddy" \
    nsenter --net="$link_net" caddy run --adapter caddyfile --config "$tmp/Caddyfile" >"$out/caddy.log" 2>&1 &
  caddy_pid=$!
  wait_for_udp "$caddy_port" "$caddy_pid" caddy "$out/caddy.log" || exit 1
esac

case " $servers " in *" quic-go "*)
  echo "== quic-go at $host:$quicgo_port (benchmarks/h3server, quic-go $(sed -n 's/^require github.com\/quic-go\/quic-go //p' "$root/benchmarks/h3server/go.mod"))" >&2
  # nsenter execs the server: $! is its pid
  nsenter --net="$link_net" "$tmp/h3server" -addr "$host:$quicgo_port" -cert "$tmp/cert.pem" -key "$tmp/key.pem" -dir "$tmp/docs" \
    ${qlog:+-qlog-dir "$qlog/quic-go"} >"$out/quic-go.log" 2>&1 &
  quicgo_pid=$!
  wait_for_udp "$quicgo_port" "$quicgo_pid" quic-go "$out/quic-go.log" || exit 1
esac

case " $servers " in *" h2bench-b "*)
  echo "== h2bench-b at $host ($(basename "$server_jar_b")${server_args_b:+, $server_args_b}) in the link's namespace" >&2
  # nsenter execs java: $! is the server's pid
  nsenter --net="$link_net" java -jar "$server_jar_b" --bind "$host" --h1-port 0 --tls-port 0 --h2-port 0 --h2c-port 0 \
    --h3-port 0 --keystore "$keystore" --keystore-password h2bench ${qlog:+--qlog-dir "$qlog/h2bench-b"} \
    ${extra_server_args_b[@]+"${extra_server_args_b[@]}"} >"$out/server-b.log" 2>&1 &
  b_pid=$!
  wait_for_line "$out/server-b.log" "server ready" "$b_pid" "h2bench-b" || exit 1
  h2bench_b_port="$(port_of "$out/server-b.log" h3)"
  [ -n "$h2bench_b_port" ] || { echo "h3-peers.sh: h2bench-b started no h3 listener ($out/server-b.log)" >&2; exit 1; }
  h2bench_b_quic="$(sed -n 's/^  QUIC: //p' "$out/server-b.log" | head -1)"
  echo "   h2bench-b's QUIC: ${h2bench_b_quic:-not in the banner}" >&2
esac

# urls_of SERVER SIZE / port_of_server SERVER
port_of_server() {
  case "$1" in
    h2bench) echo "$h2bench_port" ;; h2bench-b) echo "$h2bench_b_port" ;;
    gtlsserver) echo "$gtls_port" ;; caddy) echo "$caddy_port" ;; quic-go) echo "$quicgo_port" ;;
  esac
}
urls_of() {
  local base="https://$host:$(port_of_server "$1")" file
  if [ "$2" = page ]; then
    case "$1" in h2bench*) echo "$base/" ;; *) echo "$base/page/index.html" ;; esac
    for file in $(page_files "$tmp/docs/page/index.html"); do
      case "$1" in h2bench*) echo "$base/$file" ;; *) echo "$base/page/$file" ;; esac
    done
  elif [ "${1#h2bench}" != "$1" ]; then echo "$base$(h2bench_path_of "$2")"
  else echo "$base/$2.bin"; fi
}

# udp_receive_buffer_errors: datagrams the kernel dropped for a full socket receive buffer, in the
# client's (this) network namespace: the Udp RcvbufErrors of /proc/net/snmp. It counts every UDP
# socket of the namespace, so another program receiving UDP beside the benchmark adds to it.
udp_receive_buffer_errors() {
  awk '$1 == "Udp:" && $2 ~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) if (name[i] == "RcvbufErrors") print $i; exit }
       $1 == "Udp:" { for (i = 2; i <= NF; i++) name[i] = $i }' /proc/net/snmp
}

# fetch SERVER SIZE [verbose LOG]: one download by a new gtlsclient process; sets fetch_ms (its wall
# time, start to exit), fetch_drops (datagrams dropped meanwhile at a full UDP receive buffer on the
# client's side: a sender's burst larger than the client could take) and fetch_error (empty when the
# whole object arrived). gtlsclient exits 0 on a handshake timeout too, so the downloaded file's
# length is what says it worked.
fetch() {
  [ -z "$warm" ] || [ "${3:-}" = verbose ] || { fetch_warm "$1" "$2"; return; }
  local server="$1" size="$2" urls quiet=(-q) log=/dev/null t0 t1 status=0 got drops0
  mapfile -t urls < <(urls_of "$server" "$size")
  if [ "${3:-}" = verbose ]; then quiet=(); log="$4"; fi
  rm -rf "$tmp/download"
  mkdir "$tmp/download"
  drops0="$(udp_receive_buffer_errors)"
  t0="$EPOCHREALTIME"
  [ -z "$qlog" ] || mkdir -p "$qlog/client-of-$server"
  timeout "$timeout_s" ${client_env[@]+"${client_env[@]}"} gtlsclient "${quiet[@]}" --no-quic-dump --no-http-dump --exit-on-all-streams-close \
    ${qlog:+--qlog-dir="$qlog/client-of-$server"} --download="$tmp/download" "$host" "$(port_of_server "$server")" "${urls[@]}" >"$log" 2>&1 &
  client_pid=$!
  wait "$client_pid" || status=$?
  t1="$EPOCHREALTIME"
  client_pid=""
  fetch_ms="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')"
  fetch_drops=$(( $(udp_receive_buffer_errors) - drops0 ))
  got="$(find "$tmp/download" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
  fetch_error=""
  if [ "$status" = 124 ]; then fetch_error="timed out after $timeout_s s"
  elif [ "$status" != 0 ]; then fetch_error="gtlsclient exited $status"
  elif [ "$got" != "$(bytes_of "$size")" ]; then fetch_error="$got of $(bytes_of "$size") bytes"
  fi
}

# fetch_warm SERVER SIZE: one connection of benchmarks/h3warm, a cold download and a warm one after
# --gap; sets fetch_ms and fetch_drops (the cold download's: datagrams dropped at the client's full
# socket buffer, as fetch counts them, plus those quic-go dropped at its connection's full queue of
# unprocessed packets), warm_ms and warm_drops (the warm download's) and fetch_error (empty when
# both downloads brought the whole object on one connection).
fetch_warm() {
  local server="$1" size="$2" status=0 lines
  [ -z "$qlog" ] || mkdir -p "$qlog/client-of-$server"
  timeout $((2 * timeout_s + 10)) "$tmp/h3warm" -gap "$gap" -warm 1 -timeout "$((2 * timeout_s))s" \
    ${qlog:+-qlog-dir "$qlog/client-of-$server"} "$(urls_of "$server" "$size")" >"$tmp/h3warm.out" 2>"$tmp/h3warm.err" &
  client_pid=$!
  wait "$client_pid" || status=$?
  client_pid=""
  fetch_ms="" fetch_drops="" warm_ms="" warm_drops="" fetch_error=""
  # h3warm's columns: kind, ms, bytes, drops at the socket's buffer, drops at quic-go's packet queue
  lines="$(awk -v want="$(bytes_of "$size")" '$3 == want { print $1, $2, $4 + $5 }' "$tmp/h3warm.out")"
  fetch_ms="$(awk '$1 == "cold" { print $2 }' <<<"$lines")" fetch_drops="$(awk '$1 == "cold" { print $3 }' <<<"$lines")"
  warm_ms="$(awk '$1 == "warm" { print $2 }' <<<"$lines")" warm_drops="$(awk '$1 == "warm" { print $3 }' <<<"$lines")"
  if [ "$status" = 124 ]; then fetch_error="timed out after $((2 * timeout_s + 10)) s"
  elif [ "$status" != 0 ]; then fetch_error="h3warm exited $status: $(tr '\n,' '  ' <"$tmp/h3warm.err")"
  elif [ -z "$fetch_ms" ] || [ -z "$warm_ms" ]; then fetch_error="not the whole object: $(tr '\n' ' ' <"$tmp/h3warm.out")"
  fi
}

# What gtlsclient's log says of one 100 B fetch: its log lines carry the milliseconds since the
# connection began (I00000215 ...); a Retry shows as a packet of type=Retry and as
# retry_source_connection_id in the server's transport parameters.
handshake_facts() {
  awk '/^I[0-9]+ / { now = substr($1, 2) + 0 }
       /type=Retry|retry_source_connection_id=/ { retry = "yes" }
       /QUIC handshake has completed/ && done == "" { done = now }
       /response headers started/ && first == "" { first = now }
       END { printf "%s,%s,%s\n", retry ? retry : "no", done, first }' "$1"
}

echo "== warm-up: each object once from each server, untimed, and a logged 100 B fetch" >&2
echo "server,retry,handshake_done_ms,response_headers_ms,wall_ms" >"$out/handshake.csv"
for server in "${server_list[@]}"; do
  for size in "${size_list[@]}"; do
    fetch "$server" "$size"
    [ -z "$fetch_error" ] || { echo "h3-peers.sh: $server did not serve $size ($(urls_of "$server" "$size" | head -1)): $fetch_error" >&2; exit 1; }
  done
  fetch "$server" 100B verbose "$out/gtlsclient-100B-$server.log"
  [ -z "$fetch_error" ] || { echo "h3-peers.sh: $server did not serve 100 B with gtlsclient's log on: $fetch_error" >&2; exit 1; }
  echo "$server,$(handshake_facts "$out/gtlsclient-100B-$server.log"),$fetch_ms" >>"$out/handshake.csv"
  echo "   $server: ok ($(tail -1 "$out/handshake.csv"))" >&2
done

if [ -n "$warm" ]; then echo "round,server,size,ms,client_drops,error,download" >"$out/results.csv"
else echo "round,server,size,ms,client_drops,error" >"$out/results.csv"; fi
started="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
count=${#server_list[@]}
for round in $(seq 1 "$rounds"); do
  for size in "${size_list[@]}"; do
    line=""
    for i in $(seq 0 $((count - 1))); do
      server="${server_list[$(( (i + round - 1) % count ))]}"
      fetch "$server" "$size"
      dropped=""
      [ "${fetch_drops:-0}" = 0 ] || dropped=" ($fetch_drops dropped at the client)"
      if [ -n "$warm" ]; then
        echo "$round,$server,$size,$fetch_ms,$fetch_drops,$fetch_error,cold" >>"$out/results.csv"
        echo "$round,$server,$size,$warm_ms,$warm_drops,$fetch_error,warm" >>"$out/results.csv"
        [ "${warm_drops:-0}" = 0 ] || dropped="$dropped (warm: $warm_drops dropped at the client)"
        line="$line  $server ${fetch_ms%.*} / ${warm_ms%.*} ms$dropped${fetch_error:+ (FAILED: $fetch_error)}"
      else
        echo "$round,$server,$size,$fetch_ms,$fetch_drops,$fetch_error" >>"$out/results.csv"
        line="$line  $server ${fetch_ms%.*} ms$dropped${fetch_error:+ (FAILED: $fetch_error)}"
      fi
    done
    echo "   round $round/$rounds, $size:$line" >&2
  done
done

{
  echo "command: $command_line"
  echo "date: $started to $(date -u '+%H:%M:%S UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo none)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "server jar: $(basename "$server_jar") (sha256 $(sha256sum "$server_jar" | cut -c1-12))"
  [ -z "$b_pid" ] || echo "h2bench-b: $(basename "$server_jar_b") (sha256 $(sha256sum "$server_jar_b" | cut -c1-12)), args ${server_args_b:-none}, its banner's QUIC line: ${h2bench_b_quic:-none}"
  echo "link: $network"
  echo "machine: $(nproc) cores, $(uname -r), load average $load_before at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
  if [ -n "$warm" ]; then
    echo "client: benchmarks/h3warm (quic-go $(sed -n 's/^require github.com\/quic-go\/quic-go //p' "$root/benchmarks/h3warm/go.mod"), $(go env GOVERSION)), a new process and connection per cold download (dial to last byte), then $gap idle and the same object on that connection (request to last byte)"
  else
    echo "client: gtlsclient (ngtcp2-client $(dpkg-query -W -f '${Version}' ngtcp2-client 2>/dev/null || echo '?')), a new process and connection per download, wall time from start to exit; socket receive buffer $( [ "$client_buffer" = 0 ] && echo "the system's default ($(sysctl -n net.core.rmem_default) B)" || echo "$client_buffer B (--client-buffer)")"
  fi
  echo "server args: ${server_args:-none}"
  # Every server serves this certificate; its handshake's size moves ngtcp2's first windows (benchmarks page, 44 kB)
  echo "certificate: $(sed -n 's/^h2bench server: TLS \(.*\) certificate .*/\1/p' "$out/server.log" | head -1), served by every server"
  [ -z "$qlog" ] || echo "qlogs: $qlog (writing them slowed every download)"
  echo "h2bench's h3 listener, its banner's QUIC line: ${h2bench_quic:-not in the banner (jars before cec67dc: Jetty 12.1.5 on quiche, cubic, initial window 10 packets)}"
  echo "peers: gtlsserver (ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?'), --cc $gtls_cc, initial window 10 packets); caddy $(caddy version 2>/dev/null | cut -d' ' -f1) (quic-go, initial window 32 packets); quic-go: benchmarks/h3server on quic-go $(sed -n 's/^require github.com\/quic-go\/quic-go //p' "$root/benchmarks/h3server/go.mod") (initial window 32 packets)"
  echo
  table_sizes="${size_list[*]}"
  [ -z "$warm" ] || table_sizes="$(for size in "${size_list[@]}"; do printf '%s/cold %s/warm ' "$size" "$size"; done)"
  paired_rounds=""
  case " $server_args " in *" --loss-pattern nth-connection "*|*" --loss-pattern=nth-connection "*) paired_rounds=--paired ;; esac
  python3 "$root/benchmarks/h3-peers-table.py" $paired_rounds "$out/results.csv" "$out/handshake.csv" "$rtt_ms" "${server_list[*]}" "$table_sizes" "$band_peer"
} >"$out/h3-peers.txt"
stop_all
cat "$out/h3-peers.txt"
echo "== done: $out/h3-peers.txt (every download in $out/results.csv)" >&2
