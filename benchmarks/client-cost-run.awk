# One client-cost.sh run's figures, from three files: client.cpuline ("EPOCH_MS CPU_SECONDS
# JIT_SECONDS", JMeter's CPU so far every half second and its JIT compilers' part of it, from
# bin/lib/process.sh's measured), gc.log (the JVM's -Xlog:gc with the timemillis decoration) and
# results.jtl (CSV; with JMeter's own jmeter.properties, sampleresult.timestamp.start=true, timeStamp
# is the sample's start).
#   -v cpu=S      the run's CPU seconds less an idle JMeter's     -v threads=N -v rss=KB
#   -v warmup=S   seconds from the first sample's start to the steady window's
# Prints: requests req/s cpu_ms_per_request threads rss_mb errors mean_ms steady_mean_ms
#         steady_req_per_s steady_cpu_ms_per_request steady_jit_pct steady_alloc_kb_per_request
# The steady window runs from the warm-up's end to 1 s before the last sample ended (the last
# second has users stopping). Its mean is over the samples that began in it, its rate and CPU per
# request over the samples that ended in it, and its CPU is JMeter's between its two ends, taken
# between the two nearest half-second readings, in proportion. Its JIT share is the part of that CPU
# in the JIT compilers' threads, in %: near 0 when the window was warm. Its allocation per request is
# the heap the JVM filled between the collections in the window (each one's occupancy before, less
# the previous one's after) over the time between the first and the last of them, per request at
# the window's rate: what drives G1 to grow the heap, and so the peak RSS.
FILENAME ~ /cpuline$/ { if (split($0, reading, " ") >= 2) { at[++readings] = reading[1]; used[readings] = reading[2]; jit[readings] = reading[3] + 0 }; next }
# "[1795776773564ms] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 7M->2M(64M) 3.985ms"
FILENAME ~ /gc\.log$/ {
  if (!match($0, /[0-9]+[KMG]->[0-9]+[KMG]/)) next
  split(substr($0, RSTART, RLENGTH), occupancy, "->")
  gc_at[++gcs] = substr($1, 2) + 0; before[gcs] = kilobytes(occupancy[1]); after[gcs] = kilobytes(occupancy[2])
  next
}
FNR == 1 { next }
{
  began = $1; ended = $1 + $2
  n++; sum += $2; if ($8 != "true") errors++
  if (first == "" || began < first) first = began
  if (ended > last) last = ended
  start[n] = began; end[n] = ended; elapsed[n] = $2
}
function kilobytes(size,    unit) {
  unit = substr(size, length(size)); size = substr(size, 1, length(size) - 1) + 0
  return unit == "G" ? size * 1048576 : unit == "M" ? size * 1024 : size
}
# at_time(seconds, t): a column of the readings (used, jit) at epoch ms t, between the readings around it
function at_time(seconds, t,    i) {
  for (i = 2; i <= readings; i++)
    if (at[i] >= t) return seconds[i - 1] + (seconds[i] - seconds[i - 1]) * (t - at[i - 1]) / (at[i] - at[i - 1])
  return seconds[readings]
}
END {
  span = (last - first) / 1000; if (span <= 0) span = 1
  from = first + warmup * 1000; to = last - 1000
  for (i = 1; i <= n; i++) {
    if (start[i] >= from) { began_in++; began_sum += elapsed[i] }
    if (end[i] >= from && end[i] <= to) ended_in++
  }
  window = (to - from) / 1000
  steady_rate = window > 0 ? ended_in / window : 0
  window_cpu = readings >= 2 ? at_time(used, to) - at_time(used, from) : 0
  steady_cpu = ended_in ? window_cpu * 1000 / ended_in : 0
  steady_jit = window_cpu > 0 ? 100 * (at_time(jit, to) - at_time(jit, from)) / window_cpu : 0
  for (i = 2; i <= gcs; i++) {
    if (gc_at[i - 1] < from || gc_at[i] > to) continue
    if (filled == "") first_gc = gc_at[i - 1]
    filled += before[i] - after[i - 1]; last_gc = gc_at[i]
  }
  alloc = last_gc > first_gc && steady_rate > 0 ? filled / ((last_gc - first_gc) / 1000) / steady_rate : 0
  printf "%d %.1f %.3f %d %.0f %d %.3f %.3f %.1f %.3f %.1f %.1f\n", n, n / span, cpu * 1000 / (n ? n : 1), threads, rss / 1024,
    errors, sum / (n ? n : 1), began_in ? began_sum / began_in : 0, steady_rate, steady_cpu, steady_jit, alloc
}
