#!/usr/bin/env python3
"""Soak verdict and chart from benchmarks/soak.sh's CSV.

Flat means: after the warm-up (the first 60 s, or the first fifth of a longer run, at most half), the
lowest sample of the last third of a series is within 10 % of the lowest of its first third. The lowest,
because a leak raises the floor, while what 200 users have in flight when a sample is taken (a page
load's bodies each, hundreds of MiB of JMeter's heap even right after a full GC) only adds noise above it. Writes an SVG chart
with one panel per measure (threads, heap after GC, open file descriptors), JMeter and server.

    soak-report.py soak.csv soak.svg
"""
import csv
import sys

MEASURES = [("threads", "threads", 1), ("heap_after_gc_kib", "heap after GC (MiB)", 1024), ("open_fds", "open file descriptors", 1)]
PROCESSES = [("jmeter", "#1f77b4"), ("server", "#d62728")]
TOLERANCE = 0.10


def load(path):
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f) if all(row[m] for m, _, _ in MEASURES)]


def warm_up(rows):
    end = max(int(r["elapsed_s"]) for r in rows)
    return min(max(60, end // 5), end // 2)  # short trial runs keep their second half


def verdict(rows, warm):
    lines, flat = [], True
    for process, _ in PROCESSES:
        for measure, title, scale in MEASURES:
            values = [float(r[measure]) / scale for r in rows if r["process"] == process and int(r["elapsed_s"]) >= warm]
            third = max(1, len(values) // 3)
            first, last = min(values[:third]), min(values[-third:])
            change = (last - first) / first if first else 0.0
            ok = abs(change) <= TOLERANCE
            flat &= ok
            lines.append(f"{process:6} {title:24} lowest of first third {first:9.1f}, of last third {last:9.1f}  change {change:+6.1%}"
                         f"  min {min(values):9.1f}  max {max(values):9.1f}  {'ok' if ok else 'NOT FLAT'}")
    return lines, flat


def chart(rows, warm, path):
    width, panel, left, gap = 760, 170, 70, 40
    end = max(int(r["elapsed_s"]) for r in rows)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{len(MEASURES) * (panel + gap) + 30}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>']
    for i, (measure, title, scale) in enumerate(MEASURES):
        top = 20 + i * (panel + gap)
        peak = max(float(r[measure]) / scale for r in rows) * 1.1 or 1
        x = lambda s: left + (width - left - 20) * s / max(end, 1)
        y = lambda v: top + panel - panel * v / peak
        svg.append(f'<rect x="{left}" y="{top}" width="{x(warm) - left:.1f}" height="{panel}" fill="#eee"/>')
        svg.append(f'<rect x="{left}" y="{top}" width="{width - left - 20}" height="{panel}" fill="none" stroke="#999"/>')
        svg.append(f'<text x="{left}" y="{top - 5}">{title} (grey: warm-up; blue: JMeter, red: server)</text>')
        svg.append(f'<text x="{left - 5}" y="{top + 10}" text-anchor="end">{peak:.0f}</text><text x="{left - 5}" y="{top + panel}" text-anchor="end">0</text>')
        for process, colour in PROCESSES:
            points = " ".join(f"{x(int(r['elapsed_s'])):.1f},{y(float(r[measure]) / scale):.1f}" for r in rows if r["process"] == process)
            svg.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/>')
    bottom = 20 + len(MEASURES) * (panel + gap) - gap + 15
    svg.append(f'<text x="{left}" y="{bottom}">0 s</text><text x="{width - 20}" y="{bottom}" text-anchor="end">{end} s</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def main(csv_path, svg_path):
    rows = load(csv_path)
    warm = warm_up(rows)
    lines, flat = verdict(rows, warm)
    chart(rows, warm, svg_path)
    print(f"warm-up: first {warm} s; flat = the last third's lowest sample within {TOLERANCE:.0%} of the first third's")
    print("\n".join(lines))
    print(f"flat: {'yes' if flat else 'no'}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
