#!/usr/bin/env python3
"""What quiche measured in each h3 connection, from the server's qlogs (h2bench-server --qlog-dir DIR).

    benchmarks/quiche-qlog.py DIR_OR_FILE... [--every MS] [--until MS]

One line per connection (.qlog file, JSON-SEQ as quiche writes it; .sqlog from older servers): when its last event came, the
lowest min_rtt quiche held (the link's round trip when packets are stamped as they leave; below it
when they are not, as with pacing on in Jetty 12.1.5), the congestion states with the time each began
(slow_start, conservative_slow_start for HyStart++'s exit, recovery after a loss, ...), packets sent,
how many were under 1,000 bytes, packets declared lost, and the congestion window every --every ms
(default 200) up to --until ms (default 2000): in slow start it doubles every round trip unless
something holds it. A record cut off by a connection still writing is skipped.
"""
import argparse
import glob
import json
import os
import sys

SMALL_PACKET = 1000


def records(path):
    with open(path, encoding="utf-8") as qlog:
        for text in qlog.read().split("\x1e"):
            if not text.strip():
                continue
            try:
                yield json.loads(text)
            except json.JSONDecodeError:
                continue  # the last record of a connection still open


def summary(path, every, until):
    events = [r for r in records(path) if "name" in r and "time" in r]
    if not events:
        return f"{os.path.basename(path)}: no events"
    min_rtt, states, sent, small, lost, windows = None, [], 0, 0, 0, []
    for event in events:
        name, data = event["name"], event.get("data", {})
        if name in ("recovery:metrics_updated", "quic:recovery_metrics_updated"):
            if "min_rtt" in data and event["time"] > 0:
                min_rtt = data["min_rtt"] if min_rtt is None else min(min_rtt, data["min_rtt"])
            if "congestion_window" in data:
                windows.append((event["time"], data["congestion_window"]))
        elif name in ("recovery:congestion_state_updated", "quic:congestion_state_updated"):
            states.append(f"{data.get('new')}@{event['time']:.0f}")
        elif name in ("transport:packet_sent", "quic:packet_sent"):
            sent += 1
            if data.get("raw", {}).get("length", SMALL_PACKET) < SMALL_PACKET:
                small += 1
        elif name in ("recovery:packet_lost", "quic:packet_lost"):
            lost += 1
    marks = []
    for at in range(every, until + 1, every):
        seen = [window for time, window in windows if time <= at]
        marks.append(f"{seen[-1] // 1000}k" if seen else "-")
    rtt = "-" if min_rtt is None else f"{min_rtt:.1f} ms"
    return (f"{os.path.basename(path)[:12]}: last event {events[-1]['time']:.0f} ms, min_rtt {rtt}, "
            f"states {' '.join(states) or '-'}, {sent} packets sent ({small} small), {lost} lost; "
            f"cwnd every {every} ms: {' '.join(marks)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="qlog directories or .qlog/.sqlog files")
    parser.add_argument("--every", type=int, default=200, help="ms between congestion window marks")
    parser.add_argument("--until", type=int, default=2000, help="last mark, ms into the connection")
    args = parser.parse_args()
    files = []
    for path in args.paths:
        if not os.path.exists(path):
            sys.exit(f"quiche-qlog.py: {path}: no such file or directory")
        files += sorted(glob.glob(os.path.join(path, "*.qlog")) + glob.glob(os.path.join(path, "*.sqlog"))) if os.path.isdir(path) else [path]
    if not files:
        sys.exit(f"quiche-qlog.py: no .qlog or .sqlog files in {' '.join(args.paths)}")
    for path in files:
        print(summary(path, args.every, args.until))


if __name__ == "__main__":
    main()
