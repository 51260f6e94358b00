#!/usr/bin/env python3
"""benchmarks/truth.sh's two readers.

  truth-table.py jtl RESULTS.jtl      client,size,ms for each sample of a CSV JTL written by
                                      benchmarks/truth.jmx ("h2bench 2MiB", "hc4 2MiB"), the first
                                      sample of each label left out (JIT warm-up; on reused
                                      connections also the one that opened the connection)
  truth-table.py table RESULTS.csv    the Markdown table: per cell the sampler's median and p90,
                                      its peer's, their ratios and whether the cell meets the
                                      target (median within 5 %, p90 within 15 % of the peer's)
"""
import csv
import statistics
import sys
from collections import defaultdict

MEDIAN_BAND = 0.05
P90_BAND = 0.15
PEER = {"h1": "hc4", "h1-tls": "hc4"}
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
    print("| loss | connections | protocol | size | h2bench median | p90 | peer | peer median | p90 "
          "| median ratio | p90 ratio | target |")
    print("|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---|")
    met = total = 0
    for key in keys:
        ours = cells.get(key + ("h2bench",))
        peer_name, theirs = peer_of(cells, key)
        if not ours or not theirs:
            continue
        median_ratio = statistics.median(ours) / statistics.median(theirs)
        p90_ratio = p90(ours) / p90(theirs)
        ok = abs(median_ratio - 1) <= MEDIAN_BAND and abs(p90_ratio - 1) <= P90_BAND
        met += ok
        total += 1
        print(f"| {' | '.join(key)} | {statistics.median(ours):,.0f} | {p90(ours):,.0f} | {peer_name} "
              f"| {statistics.median(theirs):,.0f} | {p90(theirs):,.0f} | {median_ratio:.2f} | {p90_ratio:.2f} "
              f"| {'met' if ok else 'missed'} |")
    print(f"\n{met} of {total} cells within the target (median within {MEDIAN_BAND:.0%}, "
          f"p90 within {P90_BAND:.0%} of the peer's).")


def peer_of(cells, key):
    names = [PEER[key[2]]] if key[2] in PEER else ["curl", "h2load"]
    for name in names:
        if key + (name,) in cells:
            return name, cells[key + (name,)]
    return None, None


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "jtl":
        jtl(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
