#!/usr/bin/env bash
# One cold request (a new connection every time) for /small-text.txt over h1, h1-tls, h2 and h2c
# prior knowledge, by curl and h2load, against the server with an emulated round trip: the outside
# tools' side of the sampler's connection model (the sampler's side is compare-protocols.jmx's cold
# small-text rows, e.g. benchmarks/seeds.sh 000). Times in ms into target/h2bench-cold-request/.
# Build first (mvn -B package -DskipTests).
#
#   benchmarks/cold-request.sh [LATENCY (default 100ms)] [REPEATS (default 10)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
latency="${1:-100ms}"
repeats="${2:-10}"
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || { echo "cold-request.sh: REPEATS must be a positive number" >&2; exit 2; }
for tool in curl h2load; do
  command -v "$tool" >/dev/null || { echo "cold-request.sh: needs $tool (apt-get install curl nghttp2-client)" >&2; exit 1; }
done
run="target/h2bench-cold-request-run"
out="target/h2bench-cold-request"
# shellcheck source=../bin/lib/sweep.sh
. "$root/bin/lib/sweep.sh"
sweep_start "$run" "$out"
start_server "$run" --latency="$latency" || exit 1
port() { port_of "$run/server.log" "$1"; }

# fastest and median of REPEATS runs of a command that prints seconds
summary() {
  sort -n | awk '{ t[NR] = $1 * 1000 } END { printf "%.0f,%.0f\n", t[1], t[int((NR + 1) / 2)] }'
}
curl_times() { for _ in $(seq "$repeats"); do curl -s -o /dev/null -w '%{time_total}\n' "$@"; done | summary; }
h2load_times() {
  for _ in $(seq "$repeats"); do
    # "finished in 320.45ms, ..." (or s, us): connect, TLS, request and response of the one request
    timeout 30 h2load -n1 -c1 "$@" | awk '/^finished in/ { v = $3; sub(/,$/, "", v); n = v + 0;
      sub(/^[0-9.]+/, "", v); print (v == "us" ? n / 1e6 : (v == "ms" ? n / 1000 : n)) }'
  done | summary
}

echo "tool,protocol,fastest_ms,median_ms" >"$out/cold-request.csv"
small=/small-text.txt
{
  echo "curl,h1,$(curl_times --http1.1 "http://127.0.0.1:$(port h1)$small")"
  echo "curl,h1-tls,$(curl_times -k --http1.1 "https://127.0.0.1:$(port h1-tls)$small")"
  echo "curl,h2,$(curl_times -k --http2 "https://127.0.0.1:$(port h2)$small")"
  echo "curl,h2c,$(curl_times --http2-prior-knowledge "http://127.0.0.1:$(port h2c)$small")"
  echo "h2load,h2,$(h2load_times "https://127.0.0.1:$(port h2)$small")"
  echo "h2load,h2c,$(h2load_times "http://127.0.0.1:$(port h2c)$small")"
} >>"$out/cold-request.csv"
{ echo "latency: $latency, repeats: $repeats, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
  echo "$(curl --version | head -1)"; echo "$(h2load --version | head -1)"; } >"$out/machine.txt"
cat "$out/machine.txt" "$out/cold-request.csv"
echo "== done: $out/cold-request.csv"
