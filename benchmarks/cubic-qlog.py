#!/usr/bin/env python3
"""What a server's CUBIC did between losses, from its qlogs: quiche's (h2bench-server --qlog-dir, .qlog)
and ngtcp2's (gtlsserver --qlog-dir, .sqlog), so that the two can be compared number by number.

    benchmarks/cubic-qlog.py DIR_OR_FILE... [--after MS] [--epochs]

One line per connection that sent at least --min-packets packets (default 500: the bulk downloads,
not the warm-up's small fetches): its window cuts (a drop of the congestion window by more than 5 %),
the window after the median cut, the growth between cuts in packets (of 1,452 bytes) per smoothed
round trip (from the window after a cut to the window before the next, over the time between them:
the round trip of recovery, when neither grows, included), the time-averaged window and the median
smoothed and latest RTT from --after ms (default 1000) after the first 1-RTT packet to the last
packet sent, packets sent and lost, and the ACK frames received: how many, how many packets each
acknowledged newly by median, and their median ack_delay. With --epochs also every epoch's line.
"""
import argparse
import glob
import json
import os
import statistics
import sys

PACKET = 1452


def records(path):
    with open(path, encoding="utf-8", errors="replace") as qlog:
        for text in qlog.read().split("\x1e" if path.endswith(".qlog") else "\n"):
            text = text.strip().lstrip("\x1e")
            if not text:
                continue
            try:
                yield json.loads(text)
            except json.JSONDecodeError:
                continue  # the last record of a connection still open


def connection(path):
    windows, srtts, latests, sent, lost, acks, delays = [], [], [], [], 0, [], []
    acked = set()
    for event in records(path):
        name, data, time = event.get("name", ""), event.get("data", {}), event.get("time")
        if time is None:
            continue
        if name.endswith("metrics_updated"):
            if "congestion_window" in data:
                windows.append((time, data["congestion_window"]))
            if data.get("smoothed_rtt") and data.get("latest_rtt"):
                srtts.append((time, data["smoothed_rtt"]))
                latests.append((time, data["latest_rtt"]))
        elif name.endswith("packet_sent"):
            if data.get("header", {}).get("packet_type") == "1RTT":
                sent.append(time)
        elif name.endswith("packet_lost"):
            lost += 1
        elif name.endswith("packet_received") and data.get("header", {}).get("packet_type") == "1RTT":
            for frame in data.get("frames", []):
                if frame.get("frame_type") != "ack":
                    continue
                newly = 0
                for acked_range in frame.get("acked_ranges", []):
                    low, high = acked_range[0], acked_range[-1]
                    for number in range(int(low), int(high) + 1):
                        if number not in acked:
                            acked.add(number)
                            newly += 1
                acks.append(newly)
                delays.append(float(frame.get("ack_delay", 0)))
    return windows, srtts, latests, sent, lost, acks, delays


def at_or_before(series, time):
    value = None
    for when, v in series:
        if when > time:
            break
        value = v
    return value


def time_average(series, start, end):
    total, last_time, last_value = 0.0, start, at_or_before(series, start)
    for when, value in series:
        if when <= start:
            continue
        if when >= end:
            break
        if last_value is not None:
            total += last_value * (when - last_time)
        last_time, last_value = when, value
    if last_value is not None:
        total += last_value * (end - last_time)
    return total / (end - start) if end > start else 0


def summary(path, after, min_packets, epochs):
    windows, srtts, latests, sent, lost, acks, delays = connection(path)
    if len(sent) < min_packets or not windows:
        return None
    cuts = []  # (time, before, after)
    previous = windows[0][1]
    for time, window in windows[1:]:
        if window < previous * 0.95:
            cuts.append((time, previous, window))
        previous = window
    lines, growth = [], []
    for i, (time, _, window) in enumerate(cuts):
        end = cuts[i + 1][0] if i + 1 < len(cuts) else sent[-1]
        top = max([w for t, w in windows if time <= t < end] or [window])
        srtt = statistics.median([s for t, s in srtts if time <= t < end] or [100])
        rate = (top - window) / PACKET / ((end - time) / srtt) if end > time else 0
        if i + 1 < len(cuts):
            growth.append(rate)
        lines.append(f"    epoch {i + 1}: {time:.0f} ms, cut {cuts[i][1]} -> {window} B, top {top} B after "
                     f"{end - time:.0f} ms, {rate:.2f} packets per round trip")
    start, end = sent[0] + after, sent[-1]
    mean_window = time_average(windows, start, end)
    srtt = statistics.median([s for t, s in srtts if start <= t <= end] or [0])
    latest = statistics.median([s for t, s in latests if start <= t <= end] or [0])
    after_cut = statistics.median([c[2] for c in cuts]) if cuts else 0
    text = (f"{os.path.basename(path)[:12]}: {end - sent[0]:.0f} ms sending, {len(sent)} packets, {lost} lost, "
            f"{len(cuts)} cuts (window after, median {after_cut:.0f} B), growth between cuts "
            f"{statistics.median(growth) if growth else 0:.2f} packets/RTT (median; mean "
            f"{statistics.mean(growth) if growth else 0:.2f}); from {after} ms: mean window {mean_window:.0f} B, "
            f"srtt {srtt:.1f} ms, latest_rtt {latest:.1f} ms; {len(acks)} ACK frames, "
            f"{statistics.median(acks) if acks else 0:.0f} packets newly acked each, ack_delay "
            f"{statistics.median(delays) if delays else 0:.1f} ms (medians)")
    return "\n".join([text] + lines) if epochs else text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="qlog directories or .qlog/.sqlog files")
    parser.add_argument("--after", type=int, default=1000, help="ms after the first 1-RTT packet the averages start")
    parser.add_argument("--min-packets", type=int, default=500, help="connections that sent fewer are skipped")
    parser.add_argument("--epochs", action="store_true", help="print every epoch between cuts")
    args = parser.parse_args()
    files = []
    for path in args.paths:
        if not os.path.exists(path):
            sys.exit(f"cubic-qlog.py: {path}: no such file or directory")
        files += (sorted(glob.glob(os.path.join(path, "*.qlog")) + glob.glob(os.path.join(path, "*.sqlog")))
                  if os.path.isdir(path) else [path])
    for path in files:
        line = summary(path, args.after, args.min_packets, args.epochs)
        if line:
            print(line)


if __name__ == "__main__":
    main()
