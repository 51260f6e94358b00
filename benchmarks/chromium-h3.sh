#!/usr/bin/env bash
# Issue 21: the sampler's h3 page loads against Chromium's on the same kernel link. Starts the server
# behind the kernel link (100 ms round trip, seed 000's network), then, ROUNDS times, loads seed
# 000's page LOADS + 1 times in Debian's headless Chromium (benchmarks/chromium/ChromiumPageLoads.java,
# navigation and resource timing over the DevTools protocol) and in the sampler (embedded resources
# on: benchmarks/chromium-h3.jmx in the assembled JMeter), in one of two ways to h3:
#
#   forced  (default) Chromium forced onto QUIC (--origin-to-force-quic-on, the certificate trusted
#           by its pinned key) against the sampler's HTTP_3, both at the h3 listener; warm (one QUIC
#           connection, reloads 1.75 s apart) and cold (a new connection per load).
#   altsvc  as a browser learns h3: Chromium and the sampler's HTTP_3_ALT_SVC at the h2 listener,
#           whose Alt-Svc names the h3 listener; Chromium trusts the certificate from an NSS
#           database (certutil, Debian's libnss3-tools) in a HOME of its own. Warm only; Chromium's
#           loads before its first all over h3 are left out, and the sampler's first (over h2).
#
# The first load of each series is left out (it opens the warm connection; cold, it is the JVM's or
# the browser's first). Rounds alternate which client goes first, so that a machine whose load
# drifts weighs on both alike. Writes target/h2bench-chromium-h3/summary.md (altsvc:
# target/h2bench-chromium-h3-altsvc/): medians per client and mode, and the sampler's median over
# Chromium's (the issue asks for 0.90 to 1.10). Needs root (the kernel link) and chromium; build
# first (mvn -B package -DskipTests).
#
# With CAPTURE=1 in the environment Chromium also writes its net log per series (read them with
# benchmarks/netlog-quic.py), and dumpcap records the link's UDP: link-phases.txt then times each load's
# requests and responses and counts its datagrams each way, for both clients (benchmarks/link-phases.py).
#
# With PEER=gtlsserver (forced only) Chromium loads the same page from ngtcp2's example server instead of
# the sampler: gtlsserver (Debian's ngtcp2-server, cubic, nghttp3's priorities) runs inside the link's
# server namespace at the same address with h2bench's certificate, serving the page's files as copied
# from h2bench, and the rounds alternate the two servers (summary under target/h2bench-chromium-h3-gtlsserver/;
# link-phases.txt counts each server's datagrams by its port, link-flights.txt its cold loads' flights
# per 100 ms: benchmarks/link-flights.py).
#
#   benchmarks/chromium-h3.sh [LOADS (default 10)] [ROUNDS (default 2)] [forced|altsvc (default forced)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

loads="${1:-10}"
rounds="${2:-2}"
how="${3:-forced}"
capture="${CAPTURE:-}"
[ "$capture" != 0 ] || capture=""
capture_pid=""
peer_pid=""
gap_ms=1750
case "$how" in
  forced) run="target/h2bench-chromium-h3-run"; out="target/h2bench-chromium-h3"; modes="warm cold"; version=HTTP_3 ;;
  altsvc) run="target/h2bench-chromium-h3-altsvc-run"; out="target/h2bench-chromium-h3-altsvc"; modes="warm"; version=HTTP_3_ALT_SVC ;;
  *) echo "chromium-h3.sh: the third argument is forced or altsvc, was '$how'" >&2; exit 2 ;;
esac
peer="${PEER:-}"
case "$peer" in
  "") first=chromium second=sampler ;;
  gtlsserver)
    [ "$how" = forced ] || { echo "chromium-h3.sh: PEER=gtlsserver is for the forced mode only" >&2; exit 2; }
    command -v gtlsserver >/dev/null || { echo "chromium-h3.sh: gtlsserver is missing (apt-get install ngtcp2-server)" >&2; exit 1; }
    run="target/h2bench-chromium-h3-gtlsserver-run"; out="target/h2bench-chromium-h3-gtlsserver"
    first=h2bench second=gtlsserver ;;
  *) echo "chromium-h3.sh: PEER is gtlsserver or unset, was '$peer'" >&2; exit 2 ;;
esac
[ -x /usr/bin/chromium ] || { echo "chromium-h3.sh: chromium is missing (apt-get install chromium)" >&2; exit 1; }
[ "$how" = forced ] || command -v certutil >/dev/null ||
  { echo "chromium-h3.sh: certutil is missing (apt-get install libnss3-tools)" >&2; exit 1; }
# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
fresh_run "$run" "$out" || exit 1
mkdir -p "$out"
stop_capture() {
  if [ -n "$capture_pid" ] && kill -0 "$capture_pid" 2>/dev/null; then
    kill "$capture_pid"
    wait "$capture_pid" 2>/dev/null || true
  fi
  capture_pid=""
}
stop_peer() {
  if [ -n "$peer_pid" ] && kill -0 "$peer_pid" 2>/dev/null; then
    kill "$peer_pid"
    wait "$peer_pid" 2>/dev/null || true
  fi
  peer_pid=""
}
stop_on_any_exit 'stop_capture; stop_peer; stop_server'

{
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
  echo "start $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/machine.txt"

start_server "$run" --engine kernel --latency 100ms || exit 1
host="$(host_of "$run/server.log")"
h3_port="$(server_port h3_port)"
[ -n "$h3_port" ] || { echo "chromium-h3.sh: the server started no h3 listener ($run/server.log)" >&2; exit 1; }
# forced: straight to the h3 listener; altsvc: to the h2 listener, whose Alt-Svc names the h3 one
port="$h3_port"
[ "$how" = forced ] || port="$(server_port h2_port)"
echo "== $(server_network "$run"); $how: https://h2bench.test:$port/"
# start_peer: gtlsserver in the link's server namespace, at the server's address on a free UDP port
# (peer_port), with h2bench's certificate, serving the page's files as h2bench serves them
start_peer() {
  local link_net
  link_net="$(link_namespace "$server_pid")" || { echo "chromium-h3.sh: no thread of the server is in the link's namespace ($run/server.log)" >&2; return 1; }
  mkdir -p "$run/peer-docs"
  export_pem "$(server_keystore "$run")" h2bench "$run" && copy_page "http://$host:$(server_port h1_port)" "$run/peer-docs" ||
    { echo "chromium-h3.sh: could not copy the certificate or the page for gtlsserver" >&2; return 1; }
  peer_port="$(nsenter --net="$link_net" python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "$host")"
  # nsenter execs gtlsserver: $! is the server's pid
  nsenter --net="$link_net" gtlsserver -q --cc=cubic -d "$run/peer-docs" "$host" "$peer_port" "$run/key.pem" "$run/cert.pem" >"$run/gtlsserver.log" 2>&1 &
  peer_pid=$!
  for _ in $(seq 1 100); do
    if nsenter --net="$link_net" ss -Hlun "sport = :$peer_port" | grep -q .; then
      echo "== gtlsserver (ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?')) at https://h2bench.test:$peer_port/, $(find "$run/peer-docs" -type f | wc -l) files"
      return 0
    fi
    kill -0 "$peer_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "chromium-h3.sh: gtlsserver did not listen on UDP $peer_port ($run/gtlsserver.log)" >&2
  return 1
}
[ -z "$peer" ] || start_peer || exit 1
if [ -n "$capture" ]; then
  device="$(sed -n 's/^engine: kernel (TUN link \([^:]*\):.*/\1/p' "$run/server.log")"
  [ -n "$device" ] || { echo "chromium-h3.sh: CAPTURE needs the kernel link's device in the banner ($run/server.log)" >&2; exit 1; }
  dumpcap -q -i "$device" -f udp -s 128 -w "$run/link.pcapng" 2>"$run/dumpcap.log" &
  capture_pid=$!
  sleep 1
fi

javac -d "$run/classes" "$root"/benchmarks/chromium/*.java
chromium() { # MODE ROUND [NAME PORT]: Chromium at the h3 listener (files chromium-*), or at NAME's PORT
  local name="${3:-chromium}" at="${4:-$port}"
  java ${capture:+"-Dnetlog=$run/$name-$1-$2.netlog.json"} -cp "$run/classes" ChromiumPageLoads "https://h2bench.test:$at/" "$host" \
    "$(server_keystore "$run")" h2bench "$loads" "$gap_ms" "$1" "$how" "$run/$name-$1-$2.csv"
}
sampler() { # MODE ROUND
  local cold=false
  [ "$1" = cold ] && cold=true
  java -jar "$root/$jmeter_jar" -n -t benchmarks/chromium-h3.jmx -l "$run/sampler-$1-$2.jtl" -j "$run/jmeter-$1-$2.log" \
    -Jhost="$host" -Jport="$port" -Jversion="$version" -Jloads="$loads" -Jgap_ms="$gap_ms" -Jcold="$cold" \
    -Jjmeter.save.saveservice.subresults=false 2>&1 | grep -E '^summary =' || true
  echo "sampler $1: $(($(wc -l <"$run/sampler-$1-$2.jtl") - 1)) loads in $run/sampler-$1-$2.jtl"
}

client() { # NAME MODE ROUND
  case "$1" in
    chromium) chromium "$2" "$3" ;; sampler) sampler "$2" "$3" ;;
    h2bench) chromium "$2" "$3" h2bench "$port" ;; gtlsserver) chromium "$2" "$3" gtlsserver "$peer_port" ;;
  esac
}
for round in $(seq 1 "$rounds"); do
  for mode in $modes; do
    echo "== round $round, $mode"
    if [ $((round % 2)) = 1 ]; then client "$first" "$mode" "$round"; client "$second" "$mode" "$round"
    else client "$second" "$mode" "$round"; client "$first" "$mode" "$round"; fi
  done
done
echo "end $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
stop_capture
stop_peer
stop_server
if [ -n "$capture" ] && [ -n "$peer" ]; then
  python3 "$root/benchmarks/link-phases.py" "$run/link.pcapng" "$host" "--servers=h2bench=$port,gtlsserver=$peer_port" >"$out/link-phases.txt"
  python3 "$root/benchmarks/link-flights.py" "$run/link.pcapng" "$host" "h2bench=$port,gtlsserver=$peer_port" >"$out/link-flights.txt"
elif [ -n "$capture" ]; then
  order=""
  for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order="$order chromium sampler"; else order="$order sampler chromium"; fi
  done
  # shellcheck disable=SC2086 # one client name a word
  python3 "$root/benchmarks/link-phases.py" "$run/link.pcapng" "$host" $order >"$out/link-phases.txt"
fi

# Every kept load, one line each: "client mode elapsed first_byte connect loadEventEnd first_wave" (the
# last two Chromium's); the first of each series (altsvc: every load before the first all over h3) left out.
for mode in $modes; do
  for name in "$first" "$second"; do
    [ "$name" != sampler ] || continue
    for f in "$run/$name-$mode"-*.csv; do
      awk -F, -v name="$name" 'NR > 1 && $2 > 0 && $10 == "false" { print name, $1, $3, $5, $6, $4, $11 }' "$f"
    done
  done
  [ "$second" = sampler ] || continue
  for f in "$run"/sampler-"$mode"-*.jtl; do
    awk -F, -v mode="$mode" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { n++ }
      n > 1 && $col["success"] == "true" { print "sampler", mode, $col["elapsed"], $col["Latency"], $col["Connect"], "-", "-" }
      n > 1 && $col["success"] != "true" { failed++ }
      END { if (failed) printf "%d failed sampler loads in %s\n", failed, FILENAME > "/dev/stderr" }' "$f"
  done
done >"$out/loads.txt"

median() { # CLIENT MODE COLUMN
  awk -v c="$1" -v m="$2" -v k="$3" '$1 == c && $2 == m && $k != "-" { print $k }' "$out/loads.txt" | sort -n |
    awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
count() { awk -v c="$1" -v m="$2" '$1 == c && $2 == m' "$out/loads.txt" | wc -l; }

{
  if [ -n "$peer" ]; then
    echo "# h3 page loads: Chromium at h2bench's listener and at $peer on the same kernel link ($how)"
    echo
    echo "Chromium forced onto QUIC (--origin-to-force-quic-on) at h2bench's h3 listener (client h2bench) and"
    echo "at gtlsserver (ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?'), --cc cubic)"
    echo "in the link's server namespace, same address and certificate, the page's files copied from h2bench."
  else
    echo "# h3 page loads: the sampler against Chromium on the same kernel link ($how)"
  fi
  echo
  if [ -n "$peer" ]; then
    :
  elif [ "$how" = forced ]; then
    echo "Chromium forced onto QUIC (--origin-to-force-quic-on), the sampler's HTTP_3; both at the h3 listener."
  else
    echo "Chromium by Alt-Svc (the certificate trusted from an NSS database), the sampler's HTTP_3_ALT_SVC;"
    echo "both at the h2 listener, whose Alt-Svc names the h3 listener; Chromium's loads before its first all over h3"
    echo "left out, and the sampler's first."
  fi
  echo
  echo "Seed 000's page over HTTP/3 behind the kernel link (100 ms round trip), $rounds rounds of $loads kept"
  echo "loads per client and mode, reloads ${gap_ms} ms apart. Medians in ms: the page from the document's"
  echo "request to the last byte of any resource (Chromium: navigation and resource timing; the sampler:"
  echo "the page sample's elapsed), the document's first byte (Latency), the QUIC handshake (Connect),"
  echo "and Chromium's loadEventEnd and first wave (resources requested before the first of them ended)."
  echo
  echo "| mode | client | loads | page | first byte | connect | loadEventEnd | first wave |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  for mode in $modes; do
    for client in "$first" "$second"; do
      echo "| $mode | $client | $(count $client $mode) | $(median $client $mode 3) | $(median $client $mode 4) | $(median $client $mode 5) | $(median $client $mode 6) | $(median $client $mode 7) |"
    done
  done
  echo
  for mode in $modes; do
    if [ -n "$peer" ]; then
      awk -v m="$mode" -v a="$(median h2bench "$mode" 3)" -v b="$(median "$peer" "$mode" 3)" -v p="$peer" 'BEGIN {
        if (a == "" || b == "") printf "- %s: no figure\n", m; else printf "- %s: Chromium, h2bench / %s = %.2f\n", m, p, a / b }'
      continue
    fi
    awk -v m="$mode" -v s="$(median sampler "$mode" 3)" -v c="$(median chromium "$mode" 3)" 'BEGIN {
      if (s == "" || c == "") { printf "- %s: no figure\n", m; exit }
      r = s / c
      printf "- %s: sampler / Chromium = %.2f, %s 10 %% of Chromium\n", m, r, (r >= 0.9 && r <= 1.1) ? "within" : "NOT within" }'
  done
  echo
  sed 's/^/    /' "$out/machine.txt"
} >"$out/summary.md"
if [ -n "$peer" ]; then
  cp "$run"/h2bench-*.csv "$run/$peer"-*.csv "$run/server.log" "$run/$peer.log" "$out/"
  [ -z "$capture" ] || cp "$run"/h2bench-*.netlog.json "$run/$peer"-*.netlog.json "$out/"
else
  cp "$run"/chromium-*.csv "$run"/sampler-*.jtl "$run/server.log" "$out/"
  [ -z "$capture" ] || cp "$run"/chromium-*.netlog.json "$out/"
fi
cat "$out/summary.md"
echo "== done: $out/summary.md (every load in $out/loads.txt)"
