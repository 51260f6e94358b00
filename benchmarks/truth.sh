#!/usr/bin/env bash
# Is what the sampler measures the network's? (issue 19) On the kernel link at 100 ms, one user
# downloads objects of several sizes over h1, h1-tls, h2 and h2c, on new and on reused connections,
# at each loss rate. With loss, every connection loses the same data packets (--loss-pattern), so
# the clients' times differ by what the clients do, not by where their losses fell. Every cell has
# peers in the same run, against the same server:
#   go           Go's net/http (benchmarks/peer), every protocol, its sockets given the receive
#                buffer the sampler gives its own (SO_RCVBUF, see sampler.md): the target's peer
#   go-auto      the same client with Linux's receive autotuning, as curl and HttpClient4 run
#   hc4          JMeter's own HTTP Request (HttpClient4) for h1 and h1-tls, interleaved with the
#                sampler in one plan
#   curl, h2load for h2 and h2c: curl (one transfer per connection) for new connections, h2load
#                (nghttp2) on one connection for reused ones
# Prints and writes target/h2bench-truth/truth.md (median and p90 per cell and their ratios to the
# peers'; the target: median within 5 %, p90 within 15 % of go's) with results.csv and machine.txt.
# Needs root or user namespaces (the kernel engine), Go, curl and h2load (apt-get install curl
# nghttp2-client). Build first (mvn -B package -DskipTests). At 1 % loss a 10 MiB download takes
# about a minute (TCP backs off at every loss), so the whole grid takes hours: narrow it with --loss
# and --sizes.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: benchmarks/truth.sh [options]

  --sizes "..."       objects, from 100B 44kB 400kB 2MiB 10MiB; default all five
  --protocols "..."   from h1 h1-tls h2 h2c; default all four
  --connections "..." new, reused or both; default "new reused"
  --loss "..."        loss rates; default "0% 1%"
  --loss-pattern P    per-connection (default: every connection loses the same data packets, so
                      clients compare sample by sample) or random (each packet drawn anew, as netem)
  --repeats N         samples per cell and client; default 10
  --latency D         round trip of the link; default 100ms
  --out DIR           output directory; default target/h2bench-truth (emptied first)
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
sizes="100B 44kB 400kB 2MiB 10MiB" protocols="h1 h1-tls h2 h2c" connections="new reused"
losses="0% 1%" loss_pattern=per-connection repeats=10 latency=100ms out=target/h2bench-truth
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --sizes) sizes="$2" ;;
    --protocols) protocols="$2" ;;
    --connections) connections="$2" ;;
    --loss) losses="$2" ;;
    --loss-pattern) loss_pattern="$2" ;;
    --repeats) repeats="$2" ;;
    --latency) latency="$2" ;;
    --out) out="$2" ;;
    *) echo "truth.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift 2
done
case "$loss_pattern" in random|per-connection) ;; *) echo "truth.sh: --loss-pattern is random or per-connection" >&2; exit 2 ;; esac
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || { echo "truth.sh: --repeats takes a positive number" >&2; exit 2; }
for tool in curl h2load go; do
  command -v "$tool" >/dev/null || { echo "truth.sh: needs $tool (apt-get install curl nghttp2-client; Go from go.dev)" >&2; exit 1; }
done

path_of() {
  case "$1" in
    100B) echo "/option?size=100" ;; 44kB) echo "/option?size=44k" ;; 400kB) echo "/option?size=400k" ;;
    2MiB) echo "/option?size=2m" ;; 10MiB) echo "/option?size=10m" ;;
    *) echo "truth.sh: unknown size $1 (100B 44kB 400kB 2MiB 10MiB)" >&2; exit 2 ;;
  esac
}
for size in $sizes; do path_of "$size" >/dev/null; done

# shellcheck source=../bin/lib/server.sh
. "$root/bin/lib/server.sh"
run="$out/raw"
fresh_run "$run" "$out" || exit 1
stop_on_any_exit stop_server
for size in $sizes; do echo "$size,$(path_of "$size")"; done >"$run/sizes.csv"
run="$(cd "$run" && pwd)" # absolute: the peer is built from its own folder, and --out may be either
(cd benchmarks/peer && go build -o "$run/peer" .) || { echo "truth.sh: could not build benchmarks/peer" >&2; exit 1; }
# The sampler's receive buffer (ReceiveBuffer): what net.core.rmem_max allows, at most 16 MiB, and
# autotuning where that is below 4 MiB.
rmem_max="$(cat /proc/sys/net/core/rmem_max)"
sampler_rcvbuf=$(( rmem_max < 4194304 ? 0 : (rmem_max < 16777216 ? rmem_max : 16777216) ))
results="$out/results.csv"
echo "loss,connections,protocol,size,client,ms" >"$results"

# record LOSS CONN PROTOCOL SIZE CLIENT: appends the milliseconds read on stdin to results.csv
record() {
  awk -v prefix="$1,$2,$3,$4,$5" 'NF { printf "%s,%.1f\n", prefix, $1 }' >>"$results"
}

# sampler_cells LOSS CONN PROTOCOL: the plan, then each sample's elapsed into results.csv; on reused
# connections each label's first sample (the one that opened the connection) is left out
sampler_cells() {
  local loss="$1" conn="$2" protocol="$3" scheme=http version=HTTP_1_1 peer=1 port_key cell
  case "$protocol" in
    h1) port_key=h1_port ;;
    h1-tls) port_key=tls_port scheme=https ;;
    h2) port_key=h2_port scheme=https version=HTTP_2 peer=0 ;;
    h2c) port_key=h2c_port version=H2C peer=0 ;;
  esac
  cell="$run/$loss-$conn-$protocol"
  mkdir -p "$cell"
  timeout --foreground --kill-after=10 1800 java -Xmx1g -jar "$root/$jmeter_jar" -n -t benchmarks/truth.jmx \
    -l "$cell/results.jtl" -j "$cell/jmeter.log" -Jjmeter.save.saveservice.output_format=csv \
    -Jhost="$host" -Jport="$(server_port "$port_key")" -Jscheme="$scheme" -Jhttp_version="$version" \
    -Jpeer_loops="$peer" -Jreuse="$([ "$conn" = reused ] && echo true || echo false)" \
    -Jsizes_file="$run/sizes.csv" -Jiterations="$(( (repeats + 1) * $(wc -l <"$run/sizes.csv") ))" >"$cell/jmeter.out" 2>&1
  python3 benchmarks/truth-table.py jtl "$cell/results.jtl" | while IFS=, read -r client size ms; do
    echo "$ms" | record "$loss" "$conn" "$protocol" "$size" "$client"
  done
}

# object_urls PROTOCOL: sets urls and names, the objects in the sampler's order on PROTOCOL's listener
object_urls() {
  local base size
  case "$1" in
    h1) base="http://$host:$(server_port h1_port)" ;;
    h1-tls) base="https://$host:$(server_port tls_port)" ;;
    h2) base="https://$host:$(server_port h2_port)" ;;
    h2c) base="http://$host:$(server_port h2c_port)" ;;
  esac
  urls=() names=()
  for size in $sizes; do urls+=("$base$(path_of "$size")"); names+=("$size"); done
}

# peer_cells LOSS CONN PROTOCOL: curl (new) or h2load (reused) for h2 and h2c, the objects in the
# sampler's order (one of each in turn), so that a reused connection has the same history in both
peer_cells() {
  local loss="$1" conn="$2" protocol="$3" size i urls names
  object_urls "$protocol"
  if [ "$conn" = new ]; then
    for i in $(seq "$repeats"); do
      for size in "${!urls[@]}"; do
        if [ "$protocol" = h2 ]; then curl -sk --http2 -o /dev/null -w '%{time_total}\n' "${urls[$size]}"
        else curl -s --http2-prior-knowledge -o /dev/null -w '%{time_total}\n' "${urls[$size]}"; fi \
          | awk '{ print $1 * 1000 }' | record "$loss" "$conn" "$protocol" "${names[$size]}" curl
      done
    done
  else
    # one connection, one request at a time, the objects in turn (h2load takes its URIs round robin);
    # the first round left out, as the sampler's
    timeout 1800 h2load -n "$(( (repeats + 1) * ${#urls[@]} ))" -c 1 -m 1 --log-file="$run/h2load.log" \
      "${urls[@]}" >"$run/h2load-$loss-$protocol.out"
    for size in "${!urls[@]}"; do
      awk -v n="${#urls[@]}" -v i="$size" 'NR > n && (NR - 1) % n == i { print $3 / 1000 }' "$run/h2load.log" \
        | record "$loss" "$conn" "$protocol" "${names[$size]}" h2load
    done
  fi
}

# go_cells LOSS CONN PROTOCOL: benchmarks/peer with the sampler's receive buffer (go) and with
# autotuning (go-auto), the objects in the sampler's order; the first round left out, as the sampler's.
# Go downloads back to back. On reused h1 and h1-tls connections the sampler's connection idles while
# HttpClient4 takes its turn; past the retransmission timeout Linux restarts slow start. In the full
# grid that happens only before 100 B (after HttpClient4's 10 MiB), where it costs nothing; with a
# single --sizes object it happens before every sample, and the sampler and HttpClient4 then take a
# round trip more than Go (smoke run: 44 kB reused over h1, 205 and 203 against 102 ms).
go_cells() {
  local loss="$1" conn="$2" protocol="$3" client rcvbuf size urls names
  object_urls "$protocol"
  for client in go go-auto; do
    rcvbuf=$([ "$client" = go ] && echo "$sampler_rcvbuf" || echo 0)
    timeout 1800 "$run/peer" -protocol "$protocol" -connections "$conn" -n "$(( repeats + 1 ))" \
      -rcvbuf "$rcvbuf" "${urls[@]}" >"$run/$loss-$conn-$protocol-$client.csv"
    for size in "${!urls[@]}"; do
      awk -F, -v i="$size" 'NR > 1 && $1 > 1 && $2 == i { print $3 }' "$run/$loss-$conn-$protocol-$client.csv" \
        | record "$loss" "$conn" "$protocol" "${names[$size]}" "$client"
    done
  done
}

for loss in $losses; do
  echo "== loss $loss: server behind the kernel link, $latency"
  stop_server
  start_server "$run" --engine kernel --latency "$latency" --loss "$loss" --loss-pattern "$loss_pattern" || exit 1
  server_network "$run" | tee "$run/network-$loss.txt"
  host="$(printf '%s\n' "${server_ports[@]}" | sed -n 's/^-Jhost=//p')"
  for conn in $connections; do
    for protocol in $protocols; do
      echo "   $conn connections, $protocol: $(date -u +%H:%M:%S)"
      sampler_cells "$loss" "$conn" "$protocol"
      go_cells "$loss" "$conn" "$protocol"
      case "$protocol" in h2|h2c) peer_cells "$loss" "$conn" "$protocol" ;; esac
    done
  done
done
stop_server

{ echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo none)"
  echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(uname -r), load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "peers: $(go version | cut -d' ' -f3) net/http (go: SO_RCVBUF $sampler_rcvbuf as the sampler's; go-auto: autotuning), $(curl --version | head -1 | cut -d' ' -f1-2), $(h2load --version | head -1)"
  echo "repeats: $repeats per cell and client; link: $latency round trip, kernel engine, loss pattern $loss_pattern"
} >"$out/machine.txt"
python3 benchmarks/truth-table.py table "$results" >"$out/truth.md"
cat "$out/machine.txt" "$out/truth.md"
echo "== done: $out/truth.md"
