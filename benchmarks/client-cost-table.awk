# results.csv of client-cost.sh -> markdown: one line per object, users and protocol, h2bench
# beside HC4 with the ratio h2bench / HC4 (h2 against HC4's h1-tls, h2c against HC4's h1). With
# several repeats a figure is the median of its repeats, the ratio is the medians' ratio with the
# range of the repeats' own ratios (each repeat's h2bench against the same repeat's HC4), and
# "others" is the largest share of the machine another program took during the row's measurements;
# "server" is the server's CPU per request during them (median). A second table gives h2load's rows:
# the same object and connection count per protocol, with C at both ends. A third gives one user's mean
# elapsed over the whole run and after the warm-up (-v warmup=S; steady_mean_ms, column 16: the JIT
# warmed up); the first table shows that mean for the throughput rows too (where the client's own
# queue shows). The second table gives the throughput rows' requests/s and CPU per request over the
# same steady window (columns 17 and 18), ratios as in the first, and the share of each window's CPU
# that the JIT's compiler threads took (column 19, the largest of the repeats) and the heap allocated
# per request in it (column 20, median).
NR == 1 { next }
{
  key = $1 " " $2 " " $3 " " $4
  round = $13 == "" ? 1 : $13
  n = ++count[key]
  rate[key, n] = $6; cpu[key, n] = $7; threads[key, n] = $8; rss[key, n] = $9; errors[key, n] = $10; mean[key, n] = $11
  server[key, n] = $15; if ($15 != "") has_server[key] = 1
  steady[key, n] = $16
  rate_in[key, round] = $6
  steady_rate[key, n] = $17; steady_cpu[key, n] = $18; steady_rate_in[key, round] = $17; steady_jit[key, n] = $19; steady_alloc[key, n] = $20
  if ($19 != "") has_jit[key] = 1
  if ($20 != "") has_alloc[key] = 1
  if ($17 != "") has_steady[key] = 1
  if ($14 != "" && (!(key in others) || $14 + 0 > others[key] + 0)) others[key] = $14
  if (!(($1 " " $2) in seen)) { seen[$1 " " $2] = 1; order[++rows] = $1 " " $2 }
  if (round + 0 > repeats) repeats = round + 0
  if ($4 == "h2load" && $2 != 1) peers = 1
}
function peer(protocol) { return protocol == "h2" ? "h1-tls" : protocol == "h2c" ? "h1" : protocol }
# median(table, key): the median of table[key, 1..count[key]]
function median(table, key,    v, i, j, t, k) {
  k = count[key]
  for (i = 1; i <= k; i++) v[i] = table[key, i] + 0
  for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
  return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
# ratios(values, by_round, ours, theirs): the medians' ratio of values, and the range of the repeats'
# ratios (by_round[key, repeat]) when there are several
function ratios(values, by_round, ours, theirs,    r, low, high, q, m) {
  m = median(values, theirs)
  if (m <= 0) return "–"
  for (r = 1; r <= repeats; r++) {
    if (!((ours, r) in by_round) || !((theirs, r) in by_round) || by_round[theirs, r] <= 0) continue
    q = by_round[ours, r] / by_round[theirs, r]
    if (low == "" || q < low) low = q
    if (high == "" || q > high) high = q
  }
  return sprintf("%.2f×", median(values, ours) / m) (repeats > 1 && low != "" ? sprintf(" (%.2f–%.2f)", low, high) : "")
}
# jit_share(key): the largest JIT share of key's steady windows, or a dash for runs that did not record it
function jit_share(key) { return key in has_jit ? sprintf("%.0f %%", most(steady_jit, key)) : "–" }
# allocated(key): the median heap kB allocated per request in key's steady windows, or a dash
function allocated(key) { return key in has_alloc ? sprintf("%.1f", median(steady_alloc, key)) : "–" }
# server_ms(key): the median server CPU ms per request of key's measurements, or a dash
function server_ms(key) { return key in has_server ? sprintf("%.3f", median(server, key)) : "–" }
function most(table, key,    i, m) {
  for (i = 1; i <= count[key]; i++) if (table[key, i] + 0 > m) m = table[key, i] + 0
  return m
}
END {
  printf "%d %s per row and client; figures are medians, ratios the medians' with the repeats' range.\n\n", repeats, repeats == 1 ? "measurement" : "measurements"
  split("h1 h1-tls h2 h2c", protocols, " ")
  throughput_pairs()
  # A run of one user's rows only (--users "") has no throughput table: no header without rows.
  if (pairs) {
    print "| object | users | protocol | h2bench req/s | HC4 req/s | ratio | h2bench CPU ms/req | HC4 CPU ms/req | server CPU ms/req (h2bench / HC4) | mean ms after " warmup " s (h2bench / HC4) | h2bench threads / RSS MB | HC4 threads / RSS MB | errors | others' CPU |"
    print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  }
  for (i = 1; i <= pairs; i++) {
    ours = pair_ours[i]; theirs = pair_theirs[i]
    busy = others[ours] + 0 >= others[theirs] + 0 ? others[ours] : others[theirs]
    printf "| %s | %.0f | %.0f%s | %s | %.3f | %.3f | %s / %s | %.1f / %.1f | %d / %d | %d / %d | %d / %d | %s |\n", pair_row[i],
      median(rate, ours), median(rate, theirs), pair_peer[i],
      ratios(rate, rate_in, ours, theirs), median(cpu, ours), median(cpu, theirs), server_ms(ours), server_ms(theirs),
      median(steady, ours), median(steady, theirs), most(threads, ours), most(rss, ours),
      most(threads, theirs), most(rss, theirs), most(errors, ours), most(errors, theirs), busy == "" ? "–" : sprintf("%.0f %%", busy)
  }
  steady_table()
  if (peers) {
    print ""
    print "h2load, as many connections as users, one request at a time on each, against the same server:"
    print "what each protocol costs with C at both ends (h2c against h1, h2 against h1-tls)."
    print ""
    print "| object | connections | protocol | h2load req/s | against h1 / h1-tls | h2load CPU ms/req | server CPU ms/req | errors | others' CPU |"
    print "|---|---:|---|---:|---:|---:|---:|---:|---:|"
    for (r = 1; r <= rows; r++) {
      split(order[r], part, " ")
      for (p = 1; p <= 4; p++) {
        l = order[r] " " protocols[p] " h2load"; base = order[r] " " peer(protocols[p]) " h2load"
        if (!(l in count) || part[2] == 1) continue
        against = "–"
        if (peer(protocols[p]) != protocols[p] && median(rate, base) > 0) against = sprintf("%.2f×", median(rate, l) / median(rate, base))
        printf "| %s | %s | %s | %.0f | %s | %.3f | %s | %d | %s |\n", part[1], part[2], protocols[p], median(rate, l), against,
          median(cpu, l), server_ms(l), most(errors, l), (others[l] == "" ? "–" : sprintf("%.0f %%", others[l]))
      }
    }
  }
  single_table()
}
# single_table(): one user back to back, when the runs had those rows (not with --no-single)
function single_table(    p, o, h, l, busy, any) {
  for (p = 1; p <= 4; p++) if (("44kB 1 " protocols[p] " h2bench") in count) any = 1
  if (!any) return
  print ""
  print "One user back to back, 44 kB, mean elapsed in ms (h2load: mean time for request), medians of the repeats: over"
  print "the whole run, and over the samples that began " warmup " s or more into it, once the JVM's JIT has warmed up (h2load has"
  print "no warm-up: its one mean stands in both)."
  print ""
  print "| protocol | h2bench | HC4 | h2load | h2bench − HC4 | h2bench − h2load | after " warmup " s: h2bench | HC4 | h2bench − HC4 | h2bench − h2load | others' CPU |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (p = 1; p <= 4; p++) {
    o = "44kB 1 " protocols[p] " h2bench"; h = "44kB 1 " protocols[p] " hc4"; l = "44kB 1 " protocols[p] " h2load"
    if (!(o in count)) continue # not measured (--protocols)
    busy = others[o] + 0 >= others[h] + 0 ? others[o] : others[h]
    printf "| %s | %.3f | %s | %.3f | %s | %+.3f | %.3f | %s | %s | %+.3f | %s |\n", protocols[p], median(mean, o),
      (h in count ? sprintf("%.3f", median(mean, h)) : "–"), median(mean, l),
      (h in count ? sprintf("%+.3f", median(mean, o) - median(mean, h)) : "–"), median(mean, o) - median(mean, l),
      median(steady, o), (h in count ? sprintf("%.3f", median(steady, h)) : "–"),
      (h in count ? sprintf("%+.3f", median(steady, o) - median(steady, h)) : "–"), median(steady, o) - median(steady, l),
      busy == "" ? "–" : sprintf("%.0f %%", busy)
  }
}
# throughput_pairs(): the throughput rows measured, each h2bench protocol beside the HC4 run it is
# compared with: pair_ours[i], pair_theirs[i] (results keys), pair_row[i] (the object, users and
# protocol cells), pair_peer[i] (" (h1)" where HC4 speaks another protocol); sets pairs
function throughput_pairs(    r, p, part) {
  for (r = 1; r <= rows; r++) {
    split(order[r], part, " ")
    if (part[2] == 1) continue
    for (p = 1; p <= 4; p++) {
      if (!((order[r] " " protocols[p] " h2bench") in count)) continue
      pairs++
      pair_ours[pairs] = order[r] " " protocols[p] " h2bench"; pair_theirs[pairs] = order[r] " " peer(protocols[p]) " hc4"
      pair_row[pairs] = part[1] " | " part[2] " | " protocols[p]
      pair_peer[pairs] = peer(protocols[p]) != protocols[p] ? " (" peer(protocols[p]) ")" : ""
    }
  }
}
# steady_table(): the throughput rows over their steady window, when the runs measured one
function steady_table(    i, ours, theirs, any) {
  for (i = 1; i <= pairs; i++) if (pair_ours[i] in has_steady) any = 1
  if (!any) return
  print ""
  print "The same rows from " warmup " s after each run's first sample to its last second (the steady window): requests/s"
  print "and JMeter's CPU ms per request once the JIT's warm-up and JMeter's start are behind, medians, ratios as above;"
  print "the JIT's share is the largest part of a window's CPU that the JIT's compiler threads took (a few % at most: warm);"
  print "the heap allocated per request in the window (from the GC log) is what makes G1 grow the heap, and so the RSS."
  print ""
  print "| object | users | protocol | h2bench req/s | HC4 req/s | ratio | h2bench CPU ms/req | HC4 CPU ms/req | CPU ratio (h2bench / HC4) | JIT's share (h2bench / HC4) | heap kB/req (h2bench / HC4) |"
  print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= pairs; i++) {
    ours = pair_ours[i]; theirs = pair_theirs[i]
    if (!(ours in has_steady)) continue
    printf "| %s | %.0f | %.0f%s | %s | %.3f | %.3f | %s | %s / %s | %s / %s |\n", pair_row[i], median(steady_rate, ours), median(steady_rate, theirs),
      pair_peer[i], ratios(steady_rate, steady_rate_in, ours, theirs), median(steady_cpu, ours), median(steady_cpu, theirs),
      (median(steady_cpu, theirs) > 0 ? sprintf("%.2f×", median(steady_cpu, ours) / median(steady_cpu, theirs)) : "–"),
      jit_share(ours), jit_share(theirs), allocated(ours), allocated(theirs)
  }
}
