#!/usr/bin/env bash
# Issue 39: the sampler against the servers its users run. Runs the interoperability matrix, the
# *InteropTest classes of the plugin (nginx, Apache httpd, Caddy, h2o, nghttpd, gtlsserver from
# Debian's packages, each started by its test on free loopback ports with h2bench's certificate and
# the same files), then prints the table: one row per server, one column per mode of the sampler,
# and below it the reason of every cell that is not a plain pass.
#   pass         GETs of 100 B, 44 kB and 2 MiB (SHA-256 equal to the file's), a POST with a body,
#                a HEAD, each content coding and push the server offers, a 304 revalidation by the
#                Cache Manager, a redirect chain (Follow Redirects) and a cookie carried by the Cookie
#                Manager where the server can be configured for them; every sample over the asked
#                protocol (what a passing cell could not check is listed under the table)
#   not offered  the server does not offer the mode and the sample said so (a clear failure, or a
#                message naming the protocol used instead); never a hang, never a silent other protocol
#   LIMIT        red: a limit of the server the test names (see src/site/markdown/interop.md)
#   FAIL         red: anything else
# Then the sampler's Connect, Latency and elapsed beside curl's phases from nginx, Caddy, Apache httpd and
# h2o behind a 100 ms kernel link (PhasesBesideCurlTest), and over HTTP/3 beside gtlsclient's from
# gtlsserver, Caddy and h2bench's own h3 listener (SamplerBesideNgtcp2Test); root only: they need the
# kernel link, and are skipped without.
# Then the rows through a forward proxy (ProxyInteropTest): every mode through squid and Apache httpd's
# mod_proxy, with no credentials, Basic credentials and a wrong password, to h2bench's server and to
# nginx; one row per proxy, credentials and origin, one column per mode (the same labels; no "scheme
# http", which through a proxy is h1). There "pass" is: two GETs and a POST whose status, HTTP version and
# body bytes equal those of the peer through the same proxy (HttpClient4 for HTTP/1.1, curl -x for HTTP/2),
# no Proxy-Authorization at the origin, the request or tunnel in the proxy's log; with the wrong password,
# the proxy's 407 as HttpClient4 reports it, and nothing at the origin. "not offered": HTTP/3, which no
# HTTP proxy carries, failed saying so before reaching the proxy. A pass that used another protocol, as its
# peer did, says so below the table; a reason shared by a whole column is printed once.
# Then the other direction (OutsideClientsInteropTest, server module): curl, nghttp, h2load,
# gtlsclient, Go's net/http (benchmarks/peer/fetch) and headless Chromium against h2bench's own
# listeners, one row per client, one column per mode (the same labels): GETs of 100 B, 44 kB and
# 2 MiB (length, and SHA-256 where the client keeps the body), a POST whose byte count the server
# answers, a HEAD, every exchange over the asked protocol as the client reports it; "not offered"
# where the client has no such mode, with the reason.
# A server or client whose program is missing is skipped by its test and absent from the tables
# (apt-get install nginx apache2 squid caddy h2o nghttp2-server ngtcp2-server curl nghttp2-client
# ngtcp2-client chromium, which bin/test installs; and Go 1.24 or later, from go.dev/dl).
#
#   benchmarks/interop.sh [--out DIR] [maven arguments, e.g. -o]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

out="target/interop"
maven_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) maven_args+=("$1"); shift ;;
  esac
done
command -v python3 >/dev/null || { echo "interop.sh: needs python3 for the table (apt-get install python3)" >&2; exit 1; }

classes="NginxInteropTest,ApacheInteropTest,CaddyInteropTest,H2oInteropTest,NghttpdInteropTest,Ngtcp2InteropTest,PhasesBesideCurlTest,SamplerBesideNgtcp2Test,ProxyInteropTest,OutsideClientsInteropTest"
cells="jmeter-plugin/target/interop"
client_cells="server/target/interop/clients"
rm -rf "$cells" "$client_cells"
mkdir -p "$out"
started=$(date +%s)
echo "== the matrix: $classes (log: $out/maven.log)" >&2
status=0
# The server module for OutsideClientsInteropTest (the plugin's tests compile the server's sources
# themselves, for h2bench's certificate from TlsMaterial, so -am alone adds only the parent pom);
# no other test of either module runs.
mvn -B -q -pl server,jmeter-plugin -am test -Dtest="$classes" -Dsurefire.failIfNoSpecifiedTests=false "${maven_args[@]}" \
  >"$out/maven.log" 2>&1 || status=$?
took=$(( $(date +%s) - started ))

version() { "$@" 2>&1 | head -1 || true; }
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); matrix ${took} s; h2bench $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  [ -x /usr/sbin/nginx ] && echo "nginx: $(version /usr/sbin/nginx -v)"
  [ -x /usr/sbin/apache2 ] && echo "apache: $(version /usr/sbin/apache2 -v)"
  [ -x /usr/sbin/squid ] && echo "squid: $(version /usr/sbin/squid -v)"
  [ -x /usr/bin/caddy ] && echo "caddy: $(version /usr/bin/caddy version)"
  [ -x /usr/bin/h2o ] && echo "h2o: $(version /usr/bin/h2o --version)"
  [ -x /usr/sbin/nghttpd ] && echo "nghttpd: $(version /usr/sbin/nghttpd --version)"
  [ -x /usr/sbin/gtlsserver ] && echo "gtlsserver: ngtcp2-server $(dpkg-query -W -f '${Version}' ngtcp2-server 2>/dev/null || echo '?')"
  [ -x /usr/bin/curl ] && echo "curl: $(version /usr/bin/curl --version)"
  [ -x /usr/bin/nghttp ] && echo "nghttp: $(version /usr/bin/nghttp --version)"
  [ -x /usr/bin/h2load ] && echo "h2load: $(version /usr/bin/h2load --version)"
  [ -x /usr/bin/gtlsclient ] && echo "gtlsclient: ngtcp2-client $(dpkg-query -W -f '${Version}' ngtcp2-client 2>/dev/null || echo '?')"
  command -v go >/dev/null && echo "go: $(version go version)"
  # Debian's wrapper script prints a shell error of its own on stderr first
  [ -x /usr/bin/chromium ] && echo "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
} >"$out/versions.txt"
cat "$out/versions.txt"

cat "$cells"/*.tsv >"$out/cells.tsv" 2>/dev/null || true
[ -s "$out/cells.tsv" ] || { echo "interop.sh: no cell ran (see $out/maven.log)" >&2; tail -20 "$out/maven.log" >&2; exit 1; }
# table FILE ROW_HEADER ROWS MODES LABELS WIDTH [PASS_NOTE]: one row per server or client (ROWS, in
# order), one column per mode (MODES as the TSV names them, LABELS as shown), then the reason of each
# cell that is not a plain pass (a pass's detail after PASS_NOTE, "pass, not checked" unless given;
# with PASS_NOTE, a reason every row of a column shares once), and the count of red cells.
table() {
  python3 - "$@" <<'PY'
import sys
path, header, rows, modes, labels, width = sys.argv[1], sys.argv[2], *[a.split(",") for a in sys.argv[3:6]], int(sys.argv[6])
pass_note = sys.argv[7] if len(sys.argv) > 7 else "pass, not checked"
grouped = len(sys.argv) > 7
shown = {"PASS": "pass", "NOT_OFFERED": "not offered", "LIMIT": "LIMIT", "FAIL": "FAIL"}
cells = {}
for line in open(path):
    row, mode, verdict, millis, detail = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
    cells[(row, mode)] = (verdict, int(millis), detail)
present = [r for r in rows if any(k[0] == r for k in cells)]
first = max(len(r) for r in present + [header]) + 1
print(header.ljust(first) + "".join(label.ljust(width) for label in labels))
for row in present:
    print(row.ljust(first) + "".join(shown.get(cells.get((row, m), ("-",))[0], "-").ljust(width) for m in modes))
print()
def told(verdict, detail):
    return verdict in ("NOT_OFFERED", "LIMIT", "FAIL") or (verdict == "PASS" and detail)
shared = set()
if grouped:
    for mode, label in zip(modes, labels):
        column = [cells[(row, mode)] for row in present if (row, mode) in cells]
        if len(column) > 1 and told(*column[0][::2]) and all(v[0] == column[0][0] and v[2] == column[0][2] for v in column):
            shared.add(mode)
            verdict, detail = column[0][0], column[0][2]
            word = shown[verdict] if verdict != "PASS" else pass_note
            print(f"{label}, all {len(column)} rows: {word} (slowest {max(v[1] for v in column)} ms): {detail}")
for row in rows:
    for mode, label in zip(modes, labels):
        verdict, millis, detail = cells.get((row, mode), ("-", 0, ""))
        if mode in shared:
            continue
        if verdict in ("NOT_OFFERED", "LIMIT", "FAIL"):
            print(f"{row} {label}: {shown[verdict]} ({millis} ms): {detail}")
        elif verdict == "PASS" and detail:
            print(f"{row} {label}: {pass_note}: {detail}")
red = sum(1 for v in cells.values() if v[0] in ("FAIL", "LIMIT"))
print(f"\n{len(cells)} cells, {red} red, slowest {max(v[1] for v in cells.values())} ms")
PY
}
modes="H1,H1_TLS,H2,H2C,H2C_UPGRADE,H3"
labels="h1,h1 TLS,h2,h2c prior,h2c Upgrade,h3"
table "$out/cells.tsv" server "nginx,apache,caddy,h2o,nghttpd,gtlsserver" "$modes,H3_ALT_SVC,SCHEME_HTTP,SCHEME_HTTPS" \
  "$labels,h3 Alt-Svc,scheme http,scheme https" 12
if ls "$cells"/phases/*.tsv >/dev/null 2>&1; then
  # the TCP modes' rows (beside curl) first, then HTTP/3's (beside gtlsclient)
  cat "$cells"/phases/servers.tsv "$cells"/phases/h3.tsv >"$out/phases.tsv" 2>/dev/null || true
  echo
  echo "Phases beside curl over TCP and gtlsclient over HTTP/3 (servers behind a 100 ms kernel link, new connections,"
  echo "fastest of 5; sampler/curl or sampler/gtlsclient, ms):"
  printf '%-10s %-8s %-10s %-10s %-10s %-10s\n' server mode object connect latency elapsed
  while IFS=$'\t' read -r server mode object connect latency elapsed; do
    printf '%-10s %-8s %-10s %-10s %-10s %-10s\n' "$server" "$mode" "$object" "$connect" "$latency" "$elapsed"
  done <"$out/phases.tsv"
fi
if cat "$cells"/proxies/*.tsv >"$out/proxies.tsv" 2>/dev/null && [ -s "$out/proxies.tsv" ]; then
  echo
  echo "Through a forward proxy (ProxyInteropTest), beside HttpClient4 or curl through the same proxy:"
  proxy_rows=""
  for proxy in squid apache; do
    for auth in none Basic wrong; do
      proxy_rows="$proxy_rows${proxy_rows:+,}$proxy $auth h2bench,$proxy $auth nginx"
    done
  done
  table "$out/proxies.tsv" "proxy credentials origin" "$proxy_rows" "H1,H1_TLS,H2,H2C,H2C_UPGRADE,H3,H3_ALT_SVC,SCHEME_HTTPS" \
    "h1,h1 TLS,h2,h2c prior,h2c Upgrade,h3,h3 Alt-Svc,scheme https" 12 "pass"
else
  echo "interop.sh: no proxy cell ran (see $out/maven.log)" >&2
fi
if cat "$client_cells"/*.tsv >"$out/clients.tsv" 2>/dev/null && [ -s "$out/clients.tsv" ]; then
  echo
  echo "Outside clients against h2bench's listeners (OutsideClientsInteropTest):"
  table "$out/clients.tsv" client "curl,nghttp,h2load,gtlsclient,go,chromium" "$modes" "$labels" 13
else
  echo "interop.sh: no outside-client cell ran (see $out/maven.log)" >&2
fi
echo "(matrix took ${took} s; cells in $out/cells.tsv, $out/proxies.tsv and $out/clients.tsv)"
exit "$status"
