#!/usr/bin/env python3
"""The warm download of each connection of `h3-peers.sh --warm --qlog`, from both ends' qlogs.

    benchmarks/h3warm-qlog.py DIR_OR_FILE...

A connection of benchmarks/h3warm asks for the object twice: stream 0 cold, stream 4 after the idle
gap. Per qlog, one line on stream 4, times in ms from its request:

- a server's (quiche's .qlog from h2bench's --qlog-dir, ngtcp2's .sqlog from gtlsserver's): the
  window and smoothed RTT when the request came, when the response's first and last packets were
  built (quiche stamps a packet when it builds it; the listener's pacer may hold it after that),
  its bursts (packets less than BURST_GAP_MS apart) and the mean time from one burst's start to
  the next's, beside the time its bytes take at 1.25 x window / srtt, the rate both servers' pacers
  aim at (RFC 9002 7.7): a server whose timer waits longer than its pacer asks sends slower,
  its packets and those sent again, its packets never acknowledged, the RTT samples meanwhile
  (median and largest), the lowest window meanwhile, and when its last packet was acknowledged;
- the client's (quic-go's *_client.sqlog from h3warm -qlog-dir): when the response's first packet
  arrived, when a quarter, half and all of its bytes had, the longest pause between two of its
  packets, and the datagrams quic-go dropped meanwhile by reason ("rejected": the connection's
  queue of 256 unprocessed packets was full): what the server put on the wire, as the client saw it.

Connections with no stream 4 (the warm-up's logged 100 B fetch by gtlsclient) are skipped.
"""
import glob
import json
import os
import statistics
import sys

WARM_STREAM = 4
BURST_GAP_MS = 0.5
PACING_GAIN = 1.25


def records(path):
    with open(path, encoding="utf-8", errors="replace") as qlog:
        for text in qlog.read().replace("\n", "\x1e").split("\x1e"):
            text = text.strip()
            if not text:
                continue
            try:
                yield json.loads(text)
            except json.JSONDecodeError:
                continue  # a record cut off


def warm_frames(data):
    return [f for f in data.get("frames", []) if f.get("frame_type") == "stream" and f.get("stream_id") == WARM_STREAM]


def acked_numbers(data):
    for frame in data.get("frames", []):
        if frame.get("frame_type") == "ack":
            for acked in frame.get("acked_ranges", []):
                yield from range(int(acked[0]), int(acked[-1]) + 1)


def server(events):
    request = None
    window = srtt = None
    sent, offsets, resent, rtts, windows, sizes = {}, set(), 0, [], [], []
    acked_at = {}
    for event in events:
        name, data, time = event.get("name", ""), event.get("data", {}), event.get("time")
        if time is None:
            continue
        if name.endswith("metrics_updated"):
            if request is None:
                window = data.get("congestion_window", window)
                srtt = data.get("smoothed_rtt", srtt)
            else:
                if data.get("latest_rtt"):
                    rtts.append(data["latest_rtt"])
                if data.get("congestion_window"):
                    windows.append(data["congestion_window"])
        elif name.endswith("packet_received"):
            if request is None and warm_frames(data):
                request = time
            elif request is not None:
                for number in acked_numbers(data):
                    if number in sent and number not in acked_at:
                        acked_at[number] = time
        elif name.endswith("packet_sent") and request is not None:
            frames = warm_frames(data)
            if frames:
                sent[data["header"]["packet_number"]] = time
                sizes.append((time, data.get("raw", {}).get("length", 0)))
                for frame in frames:
                    offset = frame.get("offset", 0)
                    resent += offset in offsets
                    offsets.add(offset)
    if request is None or not sent:
        return None
    times = sorted(sent.values())
    return (f"window {window or 0:,} B, srtt {srtt or 0:.0f} ms at the request; built {times[0] - request:.0f} to "
            f"{times[-1] - request:.0f} ms, {len(sent)} packets ({resent} sent again, "
            f"{len(set(sent) - set(acked_at))} never acknowledged); RTT samples median "
            f"{statistics.median(rtts) if rtts else 0:.0f}, largest {max(rtts, default=0):.0f} ms; lowest window "
            f"{min(windows, default=window or 0):,} B; all acknowledged at {max(acked_at.values(), default=request) - request:.0f} ms"
            + pacing(sizes, window, srtt))


def pacing(sizes, window, srtt):
    """'; 33 bursts, 3.4 ms apart (2.5 at 1.25 x window / srtt)', from (time, bytes) of each packet sent."""
    bursts = []
    for time, length in sorted(sizes):
        if bursts and time - bursts[-1][2] <= BURST_GAP_MS:
            bursts[-1] = (bursts[-1][0], bursts[-1][1] + length, time)
        else:
            bursts.append((time, length, time))
    if len(bursts) < 3 or not window or not srtt:
        return ""
    # the mean: ngtcp2's qlog counts whole milliseconds
    apart = (bursts[-1][0] - bursts[0][0]) / (len(bursts) - 1)
    aimed = statistics.median(b[1] for b in bursts[:-1]) / (PACING_GAIN * window / srtt)
    return f"; {len(bursts)} bursts, {apart:.1f} ms apart ({aimed:.1f} at 1.25 x window / srtt)"


def client(events):
    request, arrivals, total, dropped = None, [], 0, {}
    for event in events:
        name, data, time = event.get("name", ""), event.get("data", {}), event.get("time")
        if time is None:
            continue
        if name.endswith("packet_sent") and request is None and warm_frames(data):
            request = time
        elif name.endswith("packet_dropped") and request is not None:
            dropped[data.get("trigger", "?")] = dropped.get(data.get("trigger", "?"), 0) + 1
        elif name.endswith("packet_received") and request is not None:
            length = sum(f.get("length", f.get("raw", {}).get("payload_length", 0)) for f in warm_frames(data))
            if length:
                arrivals.append((time - request, length))
                total += length
    if request is None or not arrivals:
        return None
    marks, seen, i = [], 0, 0
    for share in (0.25, 0.5, 1.0):
        while i < len(arrivals) and seen < share * total:
            seen += arrivals[i][1]
            i += 1
        marks.append(arrivals[i - 1][0])
    pause = max((b[0] - a[0] for a, b in zip(arrivals, arrivals[1:])), default=0)
    return (f"first packet at {arrivals[0][0]:.0f} ms; a quarter of {total:,} B at {marks[0]:.0f}, half at "
            f"{marks[1]:.0f}, all at {marks[2]:.0f} ms ({len(arrivals)} packets); longest pause {pause:.0f} ms; dropped "
            + (", ".join(f"{count} {trigger}" for trigger, count in sorted(dropped.items())) or "none"))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    paths = []
    for arg in argv[1:]:
        paths += sorted(glob.glob(os.path.join(arg, "**", "*.*qlog"), recursive=True)) if os.path.isdir(arg) else [arg]
    for path in paths:
        events = list(records(path))
        line = (client if path.endswith("_client.sqlog") else server)(events)
        if line:
            print(f"{os.path.relpath(path)}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
