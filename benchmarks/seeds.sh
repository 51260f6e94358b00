#!/usr/bin/env bash
# Re-runs the five seed experiments with the parameters the site's seed pages describe, one after the
# other, and keeps each run's tables, JTLs and logs in target/h2bench-seeds/<seed>/ together with
# the machine it ran on (machine.txt). Build first (mvn -B package -DskipTests).
#
#   benchmarks/seeds.sh [SEED ...]      SEED: 000 001-002 001-average 003 004 (default: all but 001-average, the seed's 16-origin
#                                       page, about 6 minutes on its own; 001-002 takes about 30 minutes; the default set about 2 hours)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="target/h2bench-seeds"
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(000 001-002 003 004)
for seed in "${seeds[@]}"; do
  case "$seed" in 000|001-002|001-average|003|004) ;; *) echo "seeds.sh: unknown seed '$seed' (000 001-002 001-average 003 004)" >&2; exit 2 ;; esac
done

machine() { # what the figures depend on, written next to them
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "memory: $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
}

run_seed() {
  local seed="$1" dir="$out/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  machine >"$dir/machine.txt"
  echo "===== seed $seed ($(date -u +%H:%M:%S))"
  case "$seed" in
    000) # Chrome DevTools with 100 ms added latency, cache off, 10 loads per cell: reloads in a
      # browser keep their connections (warm); cold pays TCP + TLS at 100 ms on every load
      bin/compare --skip-build --latency 100ms --iterations 10 --warm --out "$dir/warm"
      bin/compare --skip-build --latency 100ms --iterations 10 --cold --out "$dir/cold"
      for kind in warm cold; do
        for ext in md csv png; do cp "$dir/$kind/comparison.$ext" "$dir/comparison-$kind.$ext"; done
      done ;;
    001-002) # h2load over netem: latency x loss, h1 vs h2c (001) and h1-tls vs h2 (002), and h3 vs h2 (neither
      # seed), all on the kernel link, which carries h3's UDP through the same latency and loss as TCP
      benchmarks/network-sweep.sh "25ms 100ms 200ms" "0% 1% 2% 5%" 5
      cp target/h2bench-network-sweep/{sweep.md,sweep.csv,network.txt} "$dir/" ;;
    001-average) # seed 001's own page: 80 files on 16 origins, one connection per origin on h2
      benchmarks/network-sweep.sh "10ms 25ms 75ms 150ms" "0% 1%" 5 average
      cp target/h2bench-network-sweep/{sweep.md,sweep.csv,network.txt} "$dir/" ;;
    003) # 100 resources of 0.1 MB at server delay 0..40 ms, then 6..750 resources at 10 and 30 ms, then
      # 30 resources of 0.2..2 MB at 10 ms, 5 loads per cell; then 3,750 resources of 0.1 MB at 10 and
      # 30 ms, SEED003_MANY_ITERATIONS (default 2; 15 to 30 s per load) loads per cell; then 30 x 0.1 MB
      # at 10 ms on Chrome's network profiles and the 290 kB script requested or pushed, with and without
      # a profile, SEED003_PROFILE_ITERATIONS (default 2; a Regular 2G load takes about 100 s) loads per
      # cell, each cell after one warm-up load per protocol. A failed sample does not stop the seed:
      # every part's tables are kept, and its failed loads in failures-*.txt
      resource_part() { # resource_part NAME CELLS ITERATIONS: one sweep, its tables kept as NAME.*
        benchmarks/resource-sweep.sh "$2" "$3" ||
          echo "seed 003, $1: some loads failed or are missing ($dir/failures-$1.txt); the tables are kept anyway"
        for ext in md csv; do
          if [ -f "target/h2bench-resource-sweep/sweep.$ext" ]; then cp "target/h2bench-resource-sweep/sweep.$ext" "$dir/$1.$ext"; fi
        done
        if [ "$(wc -l <target/h2bench-resource-sweep/script.csv)" -gt 1 ]; then
          cp target/h2bench-resource-sweep/script.csv "$dir/script.csv"
        fi
        if [ -f target/h2bench-resource-sweep/failures.txt ]; then
          cp target/h2bench-resource-sweep/failures.txt "$dir/failures-$1.txt"
        fi
      }
      resource_part sweep "100:0.1m:0 100:0.1m:10 100:0.1m:20 100:0.1m:30 100:0.1m:40
        6:0.1m:10 30:0.1m:10 150:0.1m:10 750:0.1m:10 6:0.1m:30 30:0.1m:30 150:0.1m:30 750:0.1m:30
        30:0.2m:10 30:0.4m:10 30:0.6m:10 30:0.8m:10 30:1m:10 30:1.2m:10 30:1.4m:10 30:1.6m:10 30:1.8m:10 30:2m:10" 5
      resource_part many "3750:0.1m:10 3750:0.1m:30" "${SEED003_MANY_ITERATIONS:-2}"
      resource_part profiles "script script:wifi script:regular-4g script:good-3g script:regular-3g
        script:good-2g script:regular-2g 30:0.1m:10:wifi 30:0.1m:10:regular-4g 30:0.1m:10:good-3g
        30:0.1m:10:regular-3g 30:0.1m:10:good-2g 30:0.1m:10:regular-2g" "${SEED003_PROFILE_ITERATIONS:-2}" ;;
    004) # a REST collection eight ways, 25 and 500 items, 50 repeats as the seed (SEED004_ITERATIONS=5 for a
         # quick run); the seed's first setup added 40-80 ms per request
      bin/compare --skip-build --plan test-plans/rest-collection.jmx --latency 60ms \
        --iterations "${SEED004_ITERATIONS:-50}" --out "$dir/report" ||
        echo "seed 004: some samples failed (the report says which); its tables are kept anyway"
      cp "$dir/report/comparison."{md,csv,png} "$dir/" ;;
  esac
  echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/machine.txt"
}

for seed in "${seeds[@]}"; do
  run_seed "$seed"
done
echo "== done: $out/<seed>/ (machine.txt, the tables, and each run's report)"
