#!/usr/bin/env python3
"""benchmarks/truth.sh's two readers.

  truth-table.py jtl RESULTS.jtl      client,size,ms for each sample of a CSV JTL written by
                                      benchmarks/truth.jmx ("h2bench 2MiB", "hc4 2MiB"), the first
                                      sample of each label left out (JIT warm-up; on reused
                                      connections also the one that opened the connection)
  truth-table.py table RESULTS.csv    the Markdown table: per cell the sampler's median and p90,
                                      the target peer's (go: Go's net/http with the sampler's
                                      receive buffer), their ratios and whether the cell meets the
                                      target (median within 5 %, p90 within 15 %); beside them the
                                      medians of the autotuned peers (go-auto, and HttpClient4, curl
                                      or h2load) and the sampler's ratio to them
"""
import csv
import statistics
import sys
from collections import defaultdict

MEDIAN_BAND = 0.05
P90_BAND = 0.15
TARGET_PEER = "go"
AUTOTUNED_PEERS = {"h1": ["hc4"], "h1-tls": ["hc4"], "h2": ["curl", "h2load"], "h2c": ["curl", "h2load"]}
SIZES = ["100B", "44kB", "400kB", "2MiB", "10MiB"]


def jtl(path):
    seen = set()
    with open(path, newline="") as jtl_file:
        for row in csv.DictReader(jtl_file):
            label = row["label"]
            if label not in seen:
                seen.add(label)
                continue
            if row["success"] != "true":
                print(f"truth-table.py: failed sample {label}: {row['responseMessage']}", file=sys.stderr)
                continue
            client, size = label.split(" ", 1)
            print(f"{client},{size},{row['elapsed']}")


def p90(values):
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def table(path):
    cells = defaultdict(list)
    with open(path, newline="") as results:
        for row in csv.DictReader(results):
            cells[(row["loss"], row["connections"], row["protocol"], row["size"], row["client"])].append(float(row["ms"]))
    keys = sorted({key[:4] for key in cells},
                  key=lambda k: (k[0], k[1] != "new", ["h1", "h1-tls", "h2", "h2c"].index(k[2]), SIZES.index(k[3])))
    print("| loss | connections | protocol | size | h2bench median | p90 | go median | p90 "
          "| median ratio | p90 ratio | target | go-auto median | ratio | JMeter/curl peer | median | ratio |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|")
    met = total = 0
    for key in keys:
        ours = cells.get(key + ("h2bench",))
        theirs = cells.get(key + (TARGET_PEER,))
        if not ours or not theirs:
            continue
        median_ratio = statistics.median(ours) / statistics.median(theirs)
        p90_ratio = p90(ours) / p90(theirs)
        ok = abs(median_ratio - 1) <= MEDIAN_BAND and abs(p90_ratio - 1) <= P90_BAND
        met += ok
        total += 1
        other = autotuned(cells, key)
        print(f"| {' | '.join(key)} | {statistics.median(ours):,.0f} | {p90(ours):,.0f} "
              f"| {statistics.median(theirs):,.0f} | {p90(theirs):,.0f} | {median_ratio:.2f} | {p90_ratio:.2f} "
              f"| {'met' if ok else 'missed'} | {beside(ours, cells.get(key + ('go-auto',)))} "
              f"| {other or '-'} | {beside(ours, cells.get(key + (other,)))} |")
    print(f"\n{met} of {total} cells within the target (median within {MEDIAN_BAND:.0%}, "
          f"p90 within {P90_BAND:.0%} of go's).")


def beside(ours, theirs):
    """A peer's median and the sampler's ratio to it, as two table cells."""
    if not theirs:
        return "- | -"
    return f"{statistics.median(theirs):,.0f} | {statistics.median(ours) / statistics.median(theirs):.2f}"


def autotuned(cells, key):
    for name in AUTOTUNED_PEERS[key[2]]:
        if key + (name,) in cells:
            return name
    return None


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "jtl":
        jtl(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
