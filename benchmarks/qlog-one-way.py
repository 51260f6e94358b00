#!/usr/bin/env python3
"""How long each 1-RTT packet took from its server's qlog stamp to the client's, beyond the connection's fastest.

    benchmarks/qlog-one-way.py QLOG_DIR

QLOG_DIR is what benchmarks/h3-peers.sh --qlog writes: h2bench/ and gtlsserver/ (the servers' qlogs)
and client-of-h2bench/ and client-of-gtlsserver/ (gtlsclient's), paired by the order they were written.
The two clocks differ, so only the time above the connection's minimum means something: what the
packet waited after its server stamped it (a pacer between quiche and the socket holds packets that
quiche already counted as sent, so quiche's RTT samples include that wait) and on its way. Connections
with fewer than 500 packets in common are skipped.
"""
import glob
import importlib.util
import os
import sys

# records(path): the qlog's events, as benchmarks/cubic-qlog.py reads them (quiche's JSON-SEQ, ngtcp2's lines)
_spec = importlib.util.spec_from_file_location("cubic_qlog", os.path.join(os.path.dirname(os.path.abspath(__file__)), "cubic-qlog.py"))
_cubic_qlog = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cubic_qlog)
records = _cubic_qlog.records

MIN_COMMON = 500


def one_rtt_times(path, event):
    """Packet number to the time of its EVENT (packet_sent or packet_received), 1-RTT packets only."""
    times = {}
    for record in records(path):
        if record.get("name", "").endswith(event):
            header = record.get("data", {}).get("header", {})
            if header.get("packet_type") == "1RTT":
                times[header["packet_number"]] = record["time"]
    return times


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    root = sys.argv[1]
    for server in ("h2bench", "gtlsserver"):
        servers = sorted(glob.glob(os.path.join(root, server, "*")), key=os.path.getmtime)
        clients = sorted(glob.glob(os.path.join(root, f"client-of-{server}", "*")), key=os.path.getmtime)
        for server_log, client_log in zip(servers, clients):
            sent, received = one_rtt_times(server_log, "packet_sent"), one_rtt_times(client_log, "packet_received")
            common = [number for number in sent if number in received]
            if len(common) < MIN_COMMON:
                continue
            delays = [received[number] - sent[number] for number in common]
            above = sorted(delay - min(delays) for delay in delays)
            at = lambda share: above[int(share * (len(above) - 1))]
            print(f"{server} {os.path.basename(server_log)[:10]}: {len(common)} packets; one-way time above its "
                  f"minimum, ms: median {at(.5):.1f}, p90 {at(.9):.1f}, p99 {at(.99):.1f}")


if __name__ == "__main__":
    main()
