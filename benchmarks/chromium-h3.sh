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
gap_ms=1750
case "$how" in
  forced) run="target/h2bench-chromium-h3-run"; out="target/h2bench-chromium-h3"; modes="warm cold"; version=HTTP_3 ;;
  altsvc) run="target/h2bench-chromium-h3-altsvc-run"; out="target/h2bench-chromium-h3-altsvc"; modes="warm"; version=HTTP_3_ALT_SVC ;;
  *) echo "chromium-h3.sh: the third argument is forced or altsvc, was '$how'" >&2; exit 2 ;;
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
trap 'stop_capture; stop_server' EXIT
trap 'exit 130' INT TERM

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
if [ -n "$capture" ]; then
  device="$(sed -n 's/^engine: kernel (TUN link \([^:]*\):.*/\1/p' "$run/server.log")"
  [ -n "$device" ] || { echo "chromium-h3.sh: CAPTURE needs the kernel link's device in the banner ($run/server.log)" >&2; exit 1; }
  dumpcap -q -i "$device" -f udp -s 128 -w "$run/link.pcapng" 2>"$run/dumpcap.log" &
  capture_pid=$!
  sleep 1
fi

javac -d "$run/classes" "$root"/benchmarks/chromium/*.java
chromium() { # MODE ROUND
  java ${capture:+"-Dnetlog=$run/chromium-$1-$2.netlog.json"} -cp "$run/classes" ChromiumPageLoads "https://h2bench.test:$port/" "$host" \
    "$(server_keystore "$run")" h2bench "$loads" "$gap_ms" "$1" "$how" "$run/chromium-$1-$2.csv"
}
sampler() { # MODE ROUND
  local cold=false
  [ "$1" = cold ] && cold=true
  java -jar "$root/$jmeter_jar" -n -t benchmarks/chromium-h3.jmx -l "$run/sampler-$1-$2.jtl" -j "$run/jmeter-$1-$2.log" \
    -Jhost="$host" -Jport="$port" -Jversion="$version" -Jloads="$loads" -Jgap_ms="$gap_ms" -Jcold="$cold" \
    -Jjmeter.save.saveservice.subresults=false 2>&1 | grep -E '^summary =' || true
  echo "sampler $1: $(($(wc -l <"$run/sampler-$1-$2.jtl") - 1)) loads in $run/sampler-$1-$2.jtl"
}

for round in $(seq 1 "$rounds"); do
  for mode in $modes; do
    echo "== round $round, $mode"
    if [ $((round % 2)) = 1 ]; then chromium "$mode" "$round"; sampler "$mode" "$round"
    else sampler "$mode" "$round"; chromium "$mode" "$round"; fi
  done
done
echo "end $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
stop_capture
stop_server
if [ -n "$capture" ]; then
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
  for f in "$run"/chromium-"$mode"-*.csv; do
    awk -F, 'NR > 1 && $2 > 0 && $10 == "false" { print "chromium", $1, $3, $5, $6, $4, $11 }' "$f"
  done
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
  echo "# h3 page loads: the sampler against Chromium on the same kernel link ($how)"
  echo
  if [ "$how" = forced ]; then
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
    for client in chromium sampler; do
      echo "| $mode | $client | $(count $client $mode) | $(median $client $mode 3) | $(median $client $mode 4) | $(median $client $mode 5) | $(median $client $mode 6) | $(median $client $mode 7) |"
    done
  done
  echo
  for mode in $modes; do
    awk -v m="$mode" -v s="$(median sampler "$mode" 3)" -v c="$(median chromium "$mode" 3)" 'BEGIN {
      if (s == "" || c == "") { printf "- %s: no figure\n", m; exit }
      r = s / c
      printf "- %s: sampler / Chromium = %.2f, %s 10 %% of Chromium\n", m, r, (r >= 0.9 && r <= 1.1) ? "within" : "NOT within" }'
  done
  echo
  sed 's/^/    /' "$out/machine.txt"
} >"$out/summary.md"
cp "$run"/chromium-*.csv "$run"/sampler-*.jtl "$run/server.log" "$out/"
[ -z "$capture" ] || cp "$run"/chromium-*.netlog.json "$out/"
cat "$out/summary.md"
echo "== done: $out/summary.md (every load in $out/loads.txt)"
