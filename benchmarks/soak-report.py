#!/usr/bin/env python3
"""Soak verdict and chart from benchmarks/soak.sh's CSV (and JTL).

The rule, per series (threads, heap after GC, open file descriptors; JMeter and the server):
- A series is judged by its floor, the lowest sample of the trailing minute (60 s, at most a sixth of a
  shorter run): heap after a full GC still holds what 200 users have in flight at that instant, which only
  adds noise above the floor, while a leak raises the floor.
- It has settled at the earliest sample after which its floor stays within 10 % (highest floor at most
  1.1 x the lowest), and that settled window must hold every sample of the run's last half. A pool
  filling up to its cap settles once it is full; a leak keeps raising the floor and does not settle.
The run passes when every series settles in time and, given a JTL, it holds as many samples as JMeter
counted and none of them failed. Exits 1 when the run fails.

    soak-report.py soak.csv soak.svg [--jtl results.jtl[.gz] --counted N]
"""
import argparse
import csv
import gzip
import sys

MEASURES = [("threads", "threads", 1), ("heap_after_gc_kib", "heap after GC (MiB)", 1024), ("open_fds", "open file descriptors", 1)]
PROCESSES = [("jmeter", "#1f77b4"), ("server", "#d62728")]
TOLERANCE = 0.10
FLOOR_WINDOW_S = 60
MIN_SETTLED_SAMPLES = 3


def load(path):
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f) if all(row[m] for m, _, _ in MEASURES)]


def run_end(rows):
    return max(int(r["elapsed_s"]) for r in rows)


def floor_window(end):
    return min(FLOOR_WINDOW_S, end / 6)  # the judged half holds at least three floor windows


def series(rows, process, measure, scale):
    return [(int(r["elapsed_s"]), float(r[measure]) / scale) for r in rows if r["process"] == process]


def floors(points, window):
    return [(t, min(v for u, v in points if t - window < u <= t)) for t, _ in points]


def within(low, high):
    return high <= (1 + TOLERANCE) * low if low > 0 else high == low


def settled_from(floor_points):
    """Index where the longest suffix of floors within the tolerance band starts."""
    start, low, high = len(floor_points), None, None
    for i in range(len(floor_points) - 1, -1, -1):
        v = floor_points[i][1]
        low, high = (v, v) if low is None else (min(low, v), max(high, v))
        if not within(low, high):
            break
        start = i
    return start


def judge(points, end, window):
    """One series' verdict: (settled, line)."""
    deadline = end / 2
    floor_points = floors(points, window)
    start = settled_from(floor_points)
    settle = floor_points[start][0]
    kept = [v for _, v in floor_points[start:]]
    raw = [v for _, v in points[start:]]
    half = [v for t, v in floor_points if t >= deadline]
    detail = (f"floor {min(kept):7.1f}-{max(kept):7.1f} ({max(kept) / min(kept) - 1 if min(kept) else 0:+6.1%})"
              f"  samples {min(raw):7.1f}-{max(raw):7.1f}")
    if len(half) < MIN_SETTLED_SAMPLES:
        return False, f"too few samples: {len(half)} in the last half (needs {MIN_SETTLED_SAMPLES})  NOT SETTLED"
    if not within(min(half), max(half)):  # the settled window must hold every sample of the last half
        return False, (f"settled only at {settle:3} s (by {deadline:.0f} s)  {detail};"
                       f" last half's floor {min(half):.1f}-{max(half):.1f}  NOT SETTLED")
    return True, f"settled at {settle:3} s  window {settle}-{end} s  {detail}  ok"


def verdicts(rows):
    end = run_end(rows)
    window = floor_window(end)
    lines, settles, ok = [], {}, True
    for process, _ in PROCESSES:
        for measure, title, scale in MEASURES:
            settled, line = judge(series(rows, process, measure, scale), end, window)
            ok &= settled
            lines.append(f"{process:6} {title:22} {line}")
    return lines, ok


def samples(jtl_path, counted):
    """(ok, line): the JTL against JMeter's own count, and its failed samples."""
    opener = gzip.open if jtl_path.endswith(".gz") else open
    with opener(jtl_path, "rt", newline="") as f:
        reader = csv.reader(f)
        success = next(reader).index("success")
        written = failed = 0
        for row in reader:
            written += 1
            failed += row[success] != "true"
    lost = counted - written
    ok = lost == 0 and failed == 0
    return ok, (f"samples: JMeter counted {counted}, the JTL holds {written} ({lost} lost), {failed} failed"
                f"  {'ok' if ok else 'NOT OK'}")


def chart(rows, path):
    width, panel, left, gap = 760, 170, 70, 40
    end = run_end(rows)
    window = floor_window(end)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{len(MEASURES) * (panel + gap) + 45}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="14">blue: JMeter, red: server; thin: samples, thick: floor (lowest of the last {window:.0f} s);'
           ' grey: first half (may settle)</text>']
    for i, (measure, title, scale) in enumerate(MEASURES):
        top = 40 + i * (panel + gap)
        peak = max(float(r[measure]) / scale for r in rows) * 1.1 or 1
        x = lambda s: left + (width - left - 20) * s / max(end, 1)
        y = lambda v: top + panel - panel * v / peak
        svg.append(f'<rect x="{left}" y="{top}" width="{x(end / 2) - left:.1f}" height="{panel}" fill="#eee"/>')
        svg.append(f'<rect x="{left}" y="{top}" width="{width - left - 20}" height="{panel}" fill="none" stroke="#999"/>')
        svg.append(f'<text x="{left}" y="{top - 5}">{title}</text>')
        svg.append(f'<text x="{left - 5}" y="{top + 10}" text-anchor="end">{peak:.0f}</text><text x="{left - 5}" y="{top + panel}" text-anchor="end">0</text>')
        for process, colour in PROCESSES:
            points = series(rows, process, measure, scale)
            for line, stroke in ((points, 'stroke-width="1" stroke-opacity="0.5"'), (floors(points, window), 'stroke-width="2.5"')):
                drawn = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in line)
                svg.append(f'<polyline fill="none" stroke="{colour}" {stroke} points="{drawn}"/>')
    bottom = 40 + len(MEASURES) * (panel + gap) - gap + 15
    svg.append(f'<text x="{left}" y="{bottom}">0 s</text><text x="{width - 20}" y="{bottom}" text-anchor="end">{end} s</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def main(argv):
    parser = argparse.ArgumentParser(description="Soak verdict and chart from benchmarks/soak.sh's CSV.")
    parser.add_argument("csv")
    parser.add_argument("svg")
    parser.add_argument("--jtl", help="the run's JTL (plain or .gz): its samples are checked against --counted")
    parser.add_argument("--counted", type=int, help="samples JMeter's summariser counted")
    args = parser.parse_args(argv)
    if (args.jtl is None) != (args.counted is None):
        parser.error("--jtl and --counted go together")
    rows = load(args.csv)
    lines, ok = verdicts(rows)
    chart(rows, args.svg)
    end = run_end(rows)
    print(f"rule: each series' floor (lowest sample of the last {floor_window(end):.0f} s) settles within"
          f" {TOLERANCE:.0%} by {end / 2:.0f} s, half of the {end} s sampled, and stays there")
    print("\n".join(lines))
    if args.jtl is not None:
        counted_ok, line = samples(args.jtl, args.counted)
        ok &= counted_ok
        print(line)
    print(f"soak: {'pass' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
