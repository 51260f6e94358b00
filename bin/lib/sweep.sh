# Sourced by the benchmarks/ sweep scripts: one headless JMeter run per cell of a sweep and the
# numbers read back from its comparison.csv. Needs $root; brings in bin/lib/server.sh.

# shellcheck source=server.sh
. "$root/bin/lib/server.sh"

# sweep_start RUN_DIR OUT_DIR: fresh, empty directories, and the server stopped however the sweep ends
sweep_start() {
  fresh_run "$1" "$2" || exit 1
  mkdir -p "$2"
  trap stop_server EXIT
  trap 'exit 130' INT TERM
}

# run_cell CELL_DIR PLAN [-Jname=value ...]: runs PLAN headless against the running server, bounded
# by a timeout, then writes CELL_DIR/comparison.csv/.md; fails if JMeter or a sample failed
run_cell() {
  local cell="$1" plan="$2" limit=()
  shift 2
  command -v timeout >/dev/null && limit=(timeout --foreground --kill-after=10 900)
  ${limit[@]+"${limit[@]}"} java -Xmx1g -jar "$root/$jmeter_jar" -n -t "$plan" \
    -l "$cell/results.jtl" -j "$cell/jmeter.log" \
    -Jjmeter.save.saveservice.subresults=false -Jsummariser.interval=10 "${server_ports[@]}" "$@" \
    2>&1 | grep -E '^summary =' || true
  java -cp "$root/jmeter-plugin/target/h2bench-jmeter-plugin.jar" io.h2bench.report.ComparisonReport \
    "$cell/results.jtl" "$cell" >/dev/null || { echo "no comparison for $cell (see $cell/jmeter.log)" >&2; return 1; }
}

# mean_of CSV OBJECT PROTOCOL: the mean time (ms) of one row of a comparison.csv
mean_of() {
  awk -F, -v o="$2" -v p="$3" '$1 == o && $2 == p { print $3 }' "$1"
}

# errors_of CSV: failed samples in a comparison.csv
errors_of() {
  awk -F, 'NR > 1 { sum += $7 } END { print sum + 0 }' "$1"
}

# ratio A B: A / B with two decimals, empty when either is missing
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'
}
