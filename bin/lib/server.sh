# Sourced by bin/compare and the benchmarks/ scripts: the assembled JMeter, fresh run directories,
# and the h2bench server jar on free loopback ports, stopped by the caller's cleanup (stop_on_any_exit).
# Needs $root (the repository).

server_pid=""

# stop_on_any_exit CLEANUP: runs CLEANUP however the script ends: its own exit, Ctrl-C, kill, a closed
# terminal, or a reader gone away (a script piped into head), which would otherwise end bash by SIGPIPE
# without its EXIT trap and leave the server and its link behind. Nothing is printed after a SIGPIPE.
stop_on_any_exit() {
  trap "$1" EXIT
  trap 'exit 130' INT TERM
  trap 'exit 129' HUP
  trap 'exec >/dev/null 2>&1; exit 141' PIPE
}

jmeter_jar="jmeter-plugin/target/jmeter/bin/ApacheJMeter-5.6.3.jar"

# fresh_run RUN_DIR OUT_DIR: checks the build is there, empties both directories, creates RUN_DIR
fresh_run() {
  [ -f "$root/$jmeter_jar" ] || { echo "$(basename "$0"): build first (mvn -B package -DskipTests)" >&2; return 1; }
  rm -rf "$1" "$2"
  mkdir -p "$1"
}

# wait_for_line FILE TEXT PID WHAT: waits up to 60 s for TEXT in FILE while process PID lives
wait_for_line() {
  for _ in $(seq 1 600); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { echo "$4 did not start:" >&2; cat "$1" >&2; return 1; }
    sleep 0.1
  done
  echo "$4 was not ready after 60 s ($1)" >&2
  return 1
}

# start_server RUN_DIR [SERVER OPTION...]: starts the jar ($server_jar if the caller set it, else the
# build's; under $server_launcher if set, e.g. setsid for a session of its own), with extra options
# (e.g. --latency 100ms), waits
# for its banner, sets server_ports to the -J options that point the plans at it: the ports and the
# host (127.0.0.1, or the kernel link's server address when the network is emulated on that engine),
# h3_port when the server has an h3 listener, else h3=false, with the banner's reason in server_no_h3
server_no_h3=""
start_server() {
  local run="$1" port pair
  shift
  server_no_h3=""
  ${server_launcher:-} java -jar "${server_jar:-$root/server/target/h2bench-server.jar}" --bind 127.0.0.1 \
    --h1-port 0 --tls-port 0 --h2-port 0 --h2c-port 0 "$@" >"$run/server.log" 2>&1 &
  server_pid=$!
  wait_for_line "$run/server.log" "server ready" "$server_pid" "the h2bench server" || return 1
  server_ports=("-Jhost=$(host_of "$run/server.log")")
  for pair in h1:h1_port h1-tls:tls_port h2:h2_port h2c:h2c_port; do
    port="$(port_of "$run/server.log" "${pair%%:*}")"
    [ -n "$port" ] || { echo "no ${pair%%:*} port in the server's banner ($run/server.log)" >&2; return 1; }
    server_ports+=("-J${pair#*:}=$port")
  done
  # h3 is UDP: behind the byte proxy (TCP only) the banner's h3 section says why it did not start
  port="$(port_of "$run/server.log" h3)"
  if [ -n "$port" ]; then
    server_ports+=("-Jh3_port=$port")
  else
    server_no_h3="$(awk '$1 == "h3" && $2 == "-" { sub(/^h3 - /, ""); print; exit }' "$run/server.log")"
    [ -n "$server_no_h3" ] || server_no_h3="no h3 listener in the server banner"
    server_ports+=("-Jh3=false")
  fi
}

# server_port PROPERTY: the port behind one of server_ports (h1_port, tls_port, h2_port, h2c_port, h3_port)
server_port() {
  printf '%s\n' "${server_ports[@]}" | sed -n "s/^-J$1=//p"
}

# The banner prints a header line "<listener> - <description>" followed by that listener's URLs and
# a blank line; a listener that did not start (h3 behind the byte proxy) has no URLs.
port_of() {
  awk -v id="$2" '$1 == id && $2 == "-" { found = 1; next }
                  found && /^$/ { exit }
                  found && match($0, /:[0-9]+\//) { print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$1"
}

# The host of the h1 listener's first URL: where every listener is reached.
host_of() {
  awk '$1 == "h1" && $2 == "-" { found = 1; next }
       found && match($0, /:\/\/[^:\/]+:/) { print substr($0, RSTART + 3, RLENGTH - 4); exit }' "$1"
}

# server_network RUN_DIR: one line naming the emulated network, its engine and the h3 listener's QUIC
# settings (congestion control, initial window, Retry, the quiche library it loaded), from the banner
server_network() {
  local network engine quic
  network="$(sed -n 's/^network: //p' "$1/server.log" | head -1)"
  engine="$(sed -n 's/^engine: //p' "$1/server.log" | head -1)"
  quic="$(sed -n 's/^  QUIC: //p' "$1/server.log" | head -1)"
  if [ -n "$engine" ]; then
    network="$network; engine: $engine"
  else
    network="$network (plain loopback)"
  fi
  echo "$network${quic:+; h3: $quic}"
}

# server_keystore RUN_DIR: the key store the banner names ("h2bench server: TLS [KEY ]certificate
# PATH[ (generated now)], SHA-256 ..."): the generated one (password h2bench) unless --keystore
server_keystore() {
  sed -n 's/^h2bench server: TLS.* certificate \(.*\), SHA-256 .*/\1/p' "$1/server.log" | sed 's/ (generated now)$//' | head -1
}

# export_pem KEYSTORE PASSWORD DIR: the key store's key and certificate as DIR/key.pem and DIR/cert.pem,
# for the outside servers a benchmark starts beside h2bench with its certificate
export_pem() {
  openssl pkcs12 -in "$1" -passin "pass:$2" -nocerts -nodes 2>/dev/null | openssl pkey -out "$3/key.pem" &&
    openssl pkcs12 -in "$1" -passin "pass:$2" -nokeys -clcerts 2>/dev/null | openssl x509 -out "$3/cert.pem"
}

# copy_page BASE DIR: seed 000's page at BASE/ and every file its index links, as h2bench serves them,
# into DIR (index.html and the files under their own names), for peers that serve the same page
copy_page() {
  local file
  curl -sf -o "$2/index.html" "$1/" || return 1
  for file in $(page_files "$2/index.html"); do
    curl -sf -o "$2/$file" "$1/$file" || return 1
  done
}

# page_files INDEX: the files a copied index.html links (relative names only), one per line
page_files() {
  grep -o -E '(href|src)="[^"/:]+"' "$1" | sed -E 's/^[a-z]+="(.*)"$/\1/' | sort -u
}

# link_namespace PID: the ns/net path of a thread of PID in another network namespace than ours (the
# kernel link's server side, where peers run beside the server with nsenter --net=PATH); fails if none
link_namespace() {
  local self task
  self="$(readlink /proc/self/ns/net)"
  for task in /proc/"$1"/task/*; do
    if [ -n "$(readlink "$task/ns/net" 2>/dev/null)" ] && [ "$(readlink "$task/ns/net" 2>/dev/null)" != "$self" ]; then
      echo "$task/ns/net"
      return 0
    fi
  done
  return 1
}

# caddy_h3_config HOST PORT DIR: a Caddyfile serving DIR/docs over h1, h2 and h3 at HOST:PORT with
# DIR/cert.pem and DIR/key.pem. A client that connects to an IP address sends no SNI: default_sni
# picks the certificate.
caddy_h3_config() {
  cat <<CADDY
{
	admin off
	auto_https off
	default_sni localhost
	servers {
		protocols h1 h2 h3
	}
	log {
		output discard
	}
}
https://$1:$2 {
	bind $1
	tls $3/cert.pem $3/key.pem
	root * $3/docs
	file_server
}
CADDY
}

stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    echo "== stopping the server (pid $server_pid)"
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
