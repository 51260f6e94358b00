# The markdown of benchmarks/throughput.sh from its results.csv: the absolute figures per protocol,
# users and client, then the ratios h2bench / peer, each ratio taken within one round (the peer ran
# right after h2bench) before the median and the range over rounds are taken.
# Variables: duration, path, rounds, machine (the path of machine.txt).
BEGIN {
  FS = ","
  split("req_per_s mean_ms p90_ms connections client_cpu_s cpu_ms_per_req server_cpu_ms_per_req client_peak_threads", metrics, " ")
  split("%.0f %.1f %.1f %.0f %.1f %.2f %.2f %.0f", formats, " ")
  split("%.2f %.2f %.2f - - %.2f %.2f %.2f", ratio_formats, " ")
}

NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }

{
  key = $col["protocol"] SUBSEP $col["users"] SUBSEP $col["client"]
  if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
  requests = $col["requests"]
  value["req_per_s"] = $col["req_per_s"]
  value["mean_ms"] = $col["mean_ms"]
  value["p90_ms"] = $col["p90_ms"]
  value["connections"] = $col["connections"]
  value["client_cpu_s"] = $col["client_cpu_s"]
  value["cpu_ms_per_req"] = $col["client_cpu_s"] * 1000 / requests
  value["server_cpu_ms_per_req"] = $col["server_cpu_s"] * 1000 / requests
  value["client_peak_threads"] = $col["client_peak_threads"]
  for (m in value) {
    if (value[m] == "") continue
    measured[key, m] = measured[key, m] " " value[m]
    round_value[$col["round"], key, m] = value[m]
  }
  errors[key] += $col["errors"]
  loads[key] = loads[key] " " $col["load1"]
  round_seen[$col["round"]] = 1
}

END {
  print "# Sampler throughput: h2bench against peers in the same run"
  print ""
  printf "GET `%s` for %d s per measurement, connections kept alive, on one h2bench server on loopback; ", path, duration
  printf "%d %s; with more than one round a cell shows the median and the range in brackets.\n", rounds, rounds == 1 ? "round" : "rounds"
  print "`connections`: samples with a connect time (JMeter) or connections opened (h2load); CPU includes each"
  print "client's start and stop (for JMeter, the JVM and the plan: see `jmeter-idle` below).\n"
  print "| protocol | users | client | req/s | mean ms | p90 ms | connections | client CPU s | client CPU ms/req | server CPU ms/req | client peak threads | errors | load before |"
  print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for (k = 1; k <= keys; k++) {
    row_start(order[k])
    for (i = 1; i in metrics; i++) printf " %s |", summary(measured[order[k], metrics[i]], formats[i])
    printf " %d |%s |\n", errors[order[k]], loads[order[k]]
  }
  print ""
  print "Ratios h2bench / peer at the same protocol and users (above 1 for req/s: h2bench is faster; "
  print "below 1 for times, CPU and threads: h2bench needs less):"
  print ""
  print "| protocol | users | peer | req/s | mean | p90 | client CPU per request | server CPU per request | client peak threads |"
  print "|---|---:|---|---:|---:|---:|---:|---:|---:|"
  for (k = 1; k <= keys; k++) {
    split(order[k], part, SUBSEP)
    ours = part[1] SUBSEP part[2] SUBSEP "h2bench"
    if (part[3] != "h2bench" && ours in seen) ratio_row(order[k], ours)
  }
  print ""
  print "Machine (client and server share its cores):"
  print ""
  print "```"
  while ((getline line < machine) > 0) print line
  print "```"
}

function row_start(key,    part) {
  split(key, part, SUBSEP)
  printf "| %s | %s | %s |", part[1], part[2], part[3]
}

# ratio_row(peer, ours): per metric, ours / peer within each round, then summarised over the rounds
function ratio_row(peer, ours,    i, r, ratios) {
  row_start(peer)
  for (i = 1; i in metrics; i++) {
    if (ratio_formats[i] == "-") continue
    ratios = ""
    for (r in round_seen)
      if ((r, ours, metrics[i]) in round_value && (r, peer, metrics[i]) in round_value && round_value[r, peer, metrics[i]] > 0)
        ratios = ratios " " round_value[r, ours, metrics[i]] / round_value[r, peer, metrics[i]]
    printf " %s |", summary(ratios, ratio_formats[i])
  }
  print ""
}

# summary(" v1 v2 ...", format): the median, with the range when there is more than one value
function summary(list, format,    v, n, i, j, t, median) {
  n = split(list, v, " ")
  if (n == 0) return "–"
  for (i = 2; i <= n; i++)
    for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
  median = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  if (n == 1) return sprintf(format, median)
  return sprintf(format " (" format "–" format ")", median, v[1], v[n])
}
