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
# by a timeout, in a JMeter heap of JMETER_HEAP (default 1g), then writes CELL_DIR/comparison.csv/.md
# (whose heading says why there are no h3 rows when the server has no h3 listener);
# fails when there is no comparison (no JTL, or one it cannot read)
run_cell() {
  local cell="$1" plan="$2" limit=() no_h3=()
  shift 2
  [ -z "$server_no_h3" ] || no_h3=(--no-h3 "$server_no_h3")
  command -v timeout >/dev/null && limit=(timeout --foreground --kill-after=10 900)
  ${limit[@]+"${limit[@]}"} java -Xmx"${JMETER_HEAP:-1g}" -jar "$root/$jmeter_jar" -n -t "$plan" \
    -l "$cell/results.jtl" -j "$cell/jmeter.log" \
    -Jjmeter.save.saveservice.subresults=false -Jsample_variables=h2benchTls,h2benchTlsParts,h2benchEngine \
    -Jsummariser.interval=10 "${server_ports[@]}" "$@" \
    2>&1 | grep -E '^summary =' || true
  java -cp "$root/jmeter-plugin/target/h2bench-jmeter-plugin.jar" io.h2bench.report.ComparisonReport \
    "$cell/results.jtl" "$cell" ${no_h3[@]+"${no_h3[@]}"} >/dev/null || { echo "no comparison for $cell (see $cell/jmeter.log)" >&2; return 1; }
}

# cell_failures CELL_DIR ITERATIONS LABEL...: writes CELL_DIR/failures.txt, what a failed cell needs
# to be explained afterwards: every failed sample of the JTL (time, label, elapsed, message: a page's
# message names the failed resources and why), each LABEL with fewer than ITERATIONS samples
# (a JMeter thread that died leaves none), and the JVM errors of jmeter.log (OutOfMemoryError).
# Prints the number of problems; the file is removed when there are none.
cell_failures() {
  local cell="$1" iterations="$2" file="$1/failures.txt" labels
  shift 2
  labels="$(IFS=';'; echo "$*")"
  {
    [ -f "$cell/results.jtl" ] && awk -v want="$labels" -v iterations="$iterations" '
      # JMeter quotes a field holding a comma or a quote and doubles the quotes in it
      function split_csv(line, out,    n, i, c, field, quoted) {
        n = 0; field = ""; quoted = 0
        for (i = 1; i <= length(line); i++) {
          c = substr(line, i, 1)
          if (quoted) {
            if (c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; i++ }
            else if (c == "\"") quoted = 0
            else field = field c
          } else if (c == "\"") quoted = 1
          else if (c == ",") { out[++n] = field; field = "" }
          else field = field c
        }
        out[++n] = field
        return n
      }
      NR == 1 { n = split_csv($0, head); for (i = 1; i <= n; i++) col[head[i]] = i; next }
      {
        split_csv($0, f)
        label = f[col["label"]]
        seen[label]++
        if (f[col["success"]] == "false")
          printf "%d\t%s, %s ms, code %s: %s\n", f[col["timeStamp"]] / 1000, label, f[col["elapsed"]], f[col["responseCode"]], f[col["responseMessage"]]
      }
      END {
        n = split(want, wanted, ";")
        for (i = 1; i <= n; i++)
          if (seen[wanted[i]] + 0 < iterations)
            printf "-\t%s: %d of %d samples in the JTL (a JMeter thread that died leaves none; see jmeter.log)\n", wanted[i], seen[wanted[i]], iterations
      }' "$cell/results.jtl" | while IFS=$'\t' read -r seconds line; do
        # JMeter stamps a sample at its end unless told otherwise: the time finds the load in the logs
        if [ "$seconds" = "-" ]; then echo "$line"; else echo "$(date -u -d "@$seconds" '+%Y-%m-%d %H:%M:%S UTC') $line"; fi
      done
    [ -f "$cell/jmeter.log" ] && grep -E 'OutOfMemoryError|Uncaught exception' "$cell/jmeter.log" | sort -u | head -5
  } >"$file"
  local problems
  problems=$(grep -c . "$file" || true)
  [ "$problems" -gt 0 ] || rm -f "$file"
  echo "$problems"
}

# mean_of CSV OBJECT PROTOCOL: the mean time (ms) of one row of a comparison.csv
mean_of() {
  awk -F, -v o="$2" -v p="$3" '$1 == o && $2 == p { print $3 }' "$1"
}

# median_of CSV OBJECT PROTOCOL: the median time (ms) of one row of a comparison.csv
median_of() {
  awk -F, -v o="$2" -v p="$3" '$1 == o && $2 == p { print $4 }' "$1"
}

# errors_of CSV: failed samples in a comparison.csv
errors_of() {
  awk -F, 'NR > 1 { sum += $7 } END { print sum + 0 }' "$1"
}

# ratio A B: A / B with two decimals, empty when either is missing
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'
}
