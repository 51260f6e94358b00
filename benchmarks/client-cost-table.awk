# results.csv of client-cost.sh -> markdown: one line per object, users and protocol, h2bench
# beside HC4 with the ratio h2bench / HC4 (h2 against HC4's h1-tls, h2c against HC4's h1).
NR == 1 { next }
{
  key = $1 " " $2 " " $3 " " $4
  rate[key] = $6; cpu[key] = $7; threads[key] = $8; rss[key] = $9; errors[key] = $10; mean[key] = $11; load[key] = $12
  if (!(($1 " " $2) in seen)) { seen[$1 " " $2] = 1; order[++rows] = $1 " " $2 }
}
function peer(protocol) { return protocol == "h2" ? "h1-tls" : protocol == "h2c" ? "h1" : protocol }
function ratio(a, b) { return b > 0 ? sprintf("%.2f×", a / b) : "–" }
END {
  print "| object | users | protocol | h2bench req/s | HC4 req/s | ratio | h2bench CPU ms/req | HC4 CPU ms/req | h2bench threads / RSS MB | HC4 threads / RSS MB | errors | load |"
  print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (r = 1; r <= rows; r++) {
    split(order[r], part, " ")
    if (part[2] == 1) continue
    split("h1 h1-tls h2 h2c", protocols, " ")
    for (p = 1; p <= 4; p++) {
      ours = order[r] " " protocols[p] " h2bench"; theirs = order[r] " " peer(protocols[p]) " hc4"
      if (!(ours in rate)) continue
      printf "| %s | %s | %s | %.0f | %.0f%s | %s | %.3f | %.3f | %d / %d | %d / %d | %d / %d | %s |\n", part[1], part[2], protocols[p],
        rate[ours], rate[theirs], (peer(protocols[p]) != protocols[p] ? " (" peer(protocols[p]) ")" : ""), ratio(rate[ours], rate[theirs]),
        cpu[ours], cpu[theirs], threads[ours], rss[ours], threads[theirs], rss[theirs], errors[ours], errors[theirs], load[ours]
    }
  }
  print ""
  print "One user back to back, 44 kB, mean elapsed in ms (h2load: mean time for request):"
  print ""
  print "| protocol | h2bench | HC4 | h2load | h2bench − HC4 |"
  print "|---|---:|---:|---:|---:|"
  split("h1 h1-tls h2 h2c", protocols, " ")
  for (p = 1; p <= 4; p++) {
    o = "44kB 1 " protocols[p] " h2bench"; h = "44kB 1 " protocols[p] " hc4"; l = "44kB 1 " protocols[p] " h2load"
    printf "| %s | %.3f | %s | %.3f | %s |\n", protocols[p], mean[o], (h in mean ? sprintf("%.3f", mean[h]) : "–"), mean[l],
      (h in mean ? sprintf("%+.3f", mean[o] - mean[h]) : "–")
  }
}
