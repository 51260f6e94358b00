#!/usr/bin/env python3
"""What each server lost in the rounds of an h3-peers.sh run with --loss-pattern nth-connection, from its qlogs.

    benchmarks/paired-losses.py DIR [--servers "h2bench gtlsserver"] [--differ 0.10] [--all]

DIR is what `benchmarks/h3-peers.sh --qlog --server-args "--loss-pattern nth-connection"` wrote:
results.csv and qlog/SERVER/, qlog/client-of-SERVER/. The kernel link drops a connection's n-th
datagram in each direction by a hash of the connection's number at its server port and n (every
datagram counts, ACK-only ones and PMTU probes too; PerConnectionLoss.java), so two servers' k-th
connections meet the same drops only if they send the same datagrams in the same order. This shows
what they were: for each round whose times differ by more than --differ (or every round with --all),
each server's lost datagrams down (server to client) and up, as place:content@ms, where place is the
datagram's index in its connection (Initial and Handshake packets sent together count once; ngtcp2
pads its Initial datagram to 1200 bytes), content the stream and kB offset it carried (re: sent
before), or ack, PMTU-probe, HS_DONE; ms the sender's clock. Lost = sent by one side, not received by
the other, up to the receiver's last packet. Then, per size, the datagrams each server sent (its
exposure to the link's loss) and how many were short data packets, ACK-only, PMTU probes.

The qlogs of a server are paired with the client's by creation time (stat %w); the connection
number is the warm-up's (one per size, and a 100 B fetch) plus the round's. Not for --warm runs.
"""
import argparse
import csv
import glob
import json
import os
import statistics
import subprocess
import sys


def records(path):
    with open(path, encoding="utf-8", errors="replace") as qlog:
        for text in qlog.read().replace("\x1e", "\n").split("\n"):
            text = text.strip()
            if text:
                try:
                    yield json.loads(text)
                except json.JSONDecodeError:
                    continue  # the last record of a connection still open


def by_creation(directory):
    paths = glob.glob(os.path.join(directory, "*.*qlog"))
    if not paths:
        return []
    lines = subprocess.run(["stat", "-c", "%w|%n"] + paths, capture_output=True, text=True, check=True).stdout.split("\n")
    stamped = sorted(line.split("|", 1) for line in lines if line)
    if any(stamp == "-" for stamp, _ in stamped):
        sys.exit(f"paired-losses: no creation times in {directory} (the file system keeps none)")
    return [path for _, path in stamped]


def packets(path):
    """(sent, received): lists of (time, (type, number), length, data) of the connection's packets."""
    sent, received = [], []
    for event in records(path):
        name = event.get("name") or ""
        if name.endswith("packet_sent") or name.endswith("packet_received"):
            data = event["data"]
            kind = data["header"]["packet_type"]
            key = ("1RTT" if kind.lower() == "1rtt" else kind, data["header"]["packet_number"])
            entry = (event["time"], key, data.get("raw", {}).get("length") or 0, data)
            (sent if name.endswith("packet_sent") else received).append(entry)
    return sent, received


def datagrams(sent):
    """The sender's packets grouped as they left: a long-header packet and what followed it at once, within a datagram."""
    out = []
    for time, key, length, data in sent:
        at = data.get("send_at_time", time)
        limit = 1472 if "send_at_time" in data else 1200  # quiche stamps send_at_time; ngtcp2 0.12 coalesces in 1200
        last = out[-1] if out else None
        if last and last["long"] and last["at"] == at and last["length"] + length <= limit:
            last["packets"].append((key, length, data))
            last["length"] += length
            last["long"] = key[0] != "1RTT"
        else:
            out.append({"at": at, "packets": [(key, length, data)], "length": length, "long": key[0] != "1RTT"})
    return out


def frames(data):
    return [f for f in data.get("frames", []) if f["frame_type"] != "padding"]


def content(datagram, streams_sent):
    parts = []
    for key, length, data in datagram["packets"]:
        kinds = [f["frame_type"] for f in frames(data)]
        stream = next((f for f in frames(data) if f["frame_type"] == "stream"), None)
        if key[0] != "1RTT":
            parts.append(key[0][:2])
        elif stream:
            again = "re" if (stream["stream_id"], stream["offset"]) in streams_sent else ""
            parts.append(f"{again}S{stream['stream_id']}@{stream['offset'] // 1000}k")
        elif kinds == ["ping"]:
            parts.append("PMTU-probe" if length > 1300 else "ping")
        elif "handshake_done" in kinds:
            parts.append("HS_DONE")
        else:
            parts.append("/".join(kinds) or "padding")
    return "+".join(parts)


def lost(sender_path, receiver_path):
    """The sender's datagrams the receiver never saw, as place:content@ms."""
    sent, _ = packets(sender_path)
    _, received = packets(receiver_path)
    seen = {key for _, key, _, _ in received}
    last = max((key[1] for key in seen if key[0] == "1RTT"), default=-1)
    out, streams_sent = [], set()
    for place, datagram in enumerate(datagrams(sent)):
        keys = [key for key, _, _ in datagram["packets"]]
        if all(key not in seen for key in keys) and not all(k[0] == "1RTT" and k[1] > last for k in keys):
            out.append(f"{place}:{content(datagram, streams_sent)}@{datagram['at']:.0f}")
        for _, _, data in datagram["packets"]:
            streams_sent.update((f["stream_id"], f["offset"]) for f in frames(data) if f["frame_type"] == "stream")
    return out


def exposure(path):
    ds = datagrams(packets(path)[0])
    kinds = [{f["frame_type"] for _, _, data in d["packets"] for f in frames(data)} for d in ds]
    short = sum(1 for d, k in zip(ds, kinds) if "stream" in k and d["length"] < 1300)
    acks = sum(1 for k in kinds if k == {"ack"})
    probes = sum(1 for d, k in zip(ds, kinds) if k == {"ping"} and d["length"] > 1300)
    return len(ds), short, acks, probes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--servers", default="h2bench gtlsserver")
    parser.add_argument("--differ", type=float, default=0.10)
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    servers = args.servers.split()
    times, sizes = {}, []
    with open(os.path.join(args.dir, "results.csv"), encoding="utf-8") as results:
        for row in csv.DictReader(results):
            times[(int(row["round"]), row["size"], row["server"])] = float(row["ms"])
            if row["size"] not in sizes:
                sizes.append(row["size"])
    qlog = os.path.join(args.dir, "qlog")
    files = {s: (by_creation(os.path.join(qlog, s)), by_creation(os.path.join(qlog, "client-of-" + s))) for s in servers}
    warm_up = len(sizes) + 1
    rounds = max(r for r, _, _ in times)
    for s, (own, client) in files.items():
        if len(own) != len(client) or len(own) != warm_up + rounds * len(sizes):
            sys.exit(f"paired-losses: {s} has {len(own)} qlogs and its client {len(client)}, "
                     f"not the {warm_up + rounds * len(sizes)} of {warm_up} warm-up fetches and {rounds} rounds")
    seen = {s: {size: [] for size in sizes} for s in servers}
    for rnd in range(1, rounds + 1):
        for index, size in enumerate(sizes):
            n = warm_up + (rnd - 1) * len(sizes) + index
            ms = [times[(rnd, size, s)] for s in servers]
            for s in servers:
                seen[s][size].append(exposure(files[s][0][n]))
            if not args.all and max(ms) <= min(ms) * (1 + args.differ):
                continue
            print(f"{size} round {rnd} (connection {n}): " + ", ".join(f"{s} {m:.0f} ms" for s, m in zip(servers, ms)))
            for s in servers:
                own, client = files[s][0][n], files[s][1][n]
                down, up = lost(own, client), lost(client, own)
                print(f"  {s}: down {' '.join(down) or '-'}; up {' '.join(up) or '-'}")
    print()
    print("datagrams each server sent per download, median (min-max): all; data packets under 1300 B; ACK-only; PMTU probes")
    for size in sizes:
        for s in servers:
            rows = seen[s][size]
            cols = [statistics.median(c) for c in zip(*rows)]
            print(f"  {size} {s}: {cols[0]:g} ({min(r[0] for r in rows)}-{max(r[0] for r in rows)}); {cols[1]:g}; {cols[2]:g}; {cols[3]:g}")


if __name__ == "__main__":
    main()
