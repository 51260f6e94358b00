#!/usr/bin/env python3
"""The server's flights of cold page loads, from a capture of chromium-h3.sh with PEER and CAPTURE=1.

    benchmarks/link-flights.py PCAP SERVER_ADDRESS NAME=PORT[,NAME=PORT...]

A cold load is a client socket's only burst with a server port (datagrams no 400 ms or more apart, 100
or more from the server: a page, not a lone closing datagram). Per 100 ms from the burst's first
datagram (the client's Initial), the medians over each server's cold loads of the datagrams from the
server, their payload in kB, the short ones among them (100 to 999 bytes: neither ACKs nor full
packets), and the largest; then the totals. Where two servers' pages differ in time, this says whether
it is their windows (kB per round trip) or their packing (short datagrams).
"""
import statistics
import subprocess
import sys

BIN_MS = 100
BINS = 12


def series(pcap, address, servers):
    fields = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "frame.time_relative", "-e", "ip.src",
                             "-e", "udp.srcport", "-e", "udp.dstport", "-e", "udp.length"],
                            check=True, capture_output=True, text=True).stdout
    found = {}
    for line in fields.splitlines():
        time, source, sport, dport, length = line.split("\t")
        up = source != address
        server_port, client_port = (int(dport), int(sport)) if up else (int(sport), int(dport))
        if server_port in servers:
            found.setdefault((server_port, client_port), []).append((float(time) * 1000, up, int(length) - 8))
    return found


def bursts(datagrams):
    split = [[]]
    for datagram in datagrams:
        if split[-1] and datagram[0] - split[-1][-1][0] >= 400:
            split.append([])
        split[-1].append(datagram)
    return [burst for burst in split if sum(1 for _, up, _ in burst if not up) >= 100]


def flights(burst):
    start = burst[0][0]
    rows = []
    for index in range(BINS):
        down = [size for time, up, size in burst if not up and index * BIN_MS <= time - start < (index + 1) * BIN_MS]
        rows.append((len(down), sum(down) / 1000, sum(1 for size in down if 100 <= size < 1000), max(down, default=0)))
    return rows


def main():
    pcap, address = sys.argv[1], sys.argv[2]
    servers = {int(port): name for name, port in (pair.split("=") for pair in sys.argv[3].split(","))}
    cold = {}
    for (server_port, _), datagrams in series(pcap, address, servers).items():
        pages = bursts(datagrams)
        if len(pages) == 1:
            cold.setdefault(servers[server_port], []).append(flights(pages[0]))
    for name, loads in cold.items():
        print(f"# {name}: {len(loads)} cold loads; per {BIN_MS} ms from the client's first datagram, medians of the"
              " datagrams from the server, kB, short ones (100-999 B), largest payload")
        for index in range(BINS):
            column = [load[index] for load in loads]
            print(f"{name} {index * BIN_MS}-{(index + 1) * BIN_MS} ms: " + " ".join(
                f"{statistics.median(row[k] for row in column):g}" for k in range(4)))
        print(f"{name} total: " + " ".join(f"{statistics.median(sum(row[k] for row in load) for load in loads):g}" for k in range(3)))


if __name__ == "__main__":
    main()
