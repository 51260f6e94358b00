# Sourced by benchmarks/ scripts: what a client process costs on this machine, read from the
# shell's own accounting and from /proc (Linux), so that no tool beyond bash and ps is needed.

# measured PREFIX COMMAND...: runs COMMAND with its output in PREFIX.out; writes the CPU seconds
# (user + system) that it and its children used to PREFIX.cpu and the largest thread count one of
# its processes reached (sampled every half second) to PREFIX.threads, and at each of those samples
# a line "EPOCH_MS CPU_SECONDS JIT_SECONDS" (its living processes' CPU so far, and their JIT
# compilers' part of it) to PREFIX.cpuline, from which a script takes the CPU of a window within the run. Returns COMMAND's status.
measured() {
  local prefix="$1" pid peak=0 now status=0
  shift
  : >"$prefix.cpuline"
  ( TIMEFORMAT='%3U %3S'; { time "$@" >"$prefix.out" 2>&1; } 2>"$prefix.time" ) &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    now="$(largest_thread_count_below "$pid")"
    [ "$now" -gt "$peak" ] && peak="$now"
    echo "$(date +%s%3N) $(tree_cpu_seconds "$pid" jit)" >>"$prefix.cpuline"
    sleep 0.5
  done
  wait "$pid" || status=$?
  echo "$peak" >"$prefix.threads"
  awk '{ printf "%.3f\n", $1 + $2 }' "$prefix.time" >"$prefix.cpu"
  return "$status"
}

# largest_thread_count_below PID: the thread count of PID's busiest descendant (the JVM or h2load,
# not the timeout and shell processes around it)
largest_thread_count_below() {
  ps -e -o pid=,ppid=,nlwp= | awk -v root="$1" '{ parent[$1] = $2; threads[$1] = $3 }
    END {
      for (p in parent) {
        for (q = parent[p]; q in parent && q != root; q = parent[q]) { }
        if (q == root && threads[p] > most) most = threads[p]
      }
      print most + 0
    }'
}

# cpu_seconds PID: user + system CPU seconds a running process has used so far
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"
}

# machine_busy_seconds: CPU seconds all cores have spent busy (anything but idle and iowait) since boot
machine_busy_seconds() {
  machine_cpu_seconds | awk '{ printf "%.2f\n", $1 + $2 + $3 + $4 + $5 }'
}

# machine_cpu_seconds: CPU seconds of all cores since boot by kind, from /proc/stat: "user system
# softirq irq steal" (user with nice; guest time is inside user). Softirq is the kernel's deferred
# work, TCP's receive side among it: run in whichever process's context raised it (on loopback, the
# sender's) or in ksoftirqd, and charged to that process's system time too
machine_cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.2f %.2f %.2f %.2f %.2f\n", ($2 + $3) / hz, $4 / hz, $8 / hz, $7 / hz, $9 / hz; exit }' /proc/stat
}

# tree_cpu_seconds PID [jit]: user + system CPU seconds that PID and its living descendants have used
# so far (nginx's workers are children of its master, and their time reaches the master only at
# exit); with "jit", also the part of it in their JIT compilers' threads (HotSpot's "C1 CompilerThread"
# and "C2 CompilerThread"), after a space: at 400 users they get 1/400 of the cores each and still
# compile a minute into a run, so a window's share of it says whether the window was warm
tree_cpu_seconds() {
  # one record per process, then an empty line and one per thread if asked; the fields after the
  # command's closing parenthesis: 2 ppid (a thread's: its process's parent), 12 utime, 13 stime
  { cat /proc/[0-9]*/stat 2>/dev/null || true
    if [ "${2:-}" = jit ]; then echo; cat /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null || true; fi
  } | awk -v root="$1" -v hz="$(getconf CLK_TCK)" -v jit="${2:-}" '
    function below(p,    q) { for (q = p; q in parent && q != root; q = parent[q]) { }; return q == root }
    /^$/ { threads = 1; next }
    { split(substr($0, index($0, ") ") + 2), f, " ") }
    !threads { parent[$1] = f[2]; cpu[$1] = f[12] + f[13]; next }
    substr($0, index($0, "(") + 1, 15) ~ /^C[12] CompilerThre/ && (f[2] == root || below(f[2])) { compiling += f[12] + f[13] }
    END {
      for (p in parent) if (below(p)) sum += cpu[p]
      if (jit == "jit") printf "%.2f %.2f\n", sum / hz, compiling / hz
      else printf "%.2f\n", sum / hz
    }'
}
