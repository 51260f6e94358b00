#!/usr/bin/env python3
"""Issue 21: each page load as the kernel link saw it, from a capture of its UDP (chromium-h3.sh with CAPTURE=1).

    benchmarks/link-phases.py PCAP SERVER_ADDRESS CLIENT...
    benchmarks/link-phases.py PCAP SERVER_ADDRESS --servers NAME=PORT[,NAME=PORT...]

CLIENT names the client of each series (one client socket, in order of its first datagram), e.g.
"chromium sampler sampler chromium" for two rounds. With --servers (one client, several servers at
the address: chromium-h3.sh's PEER) a series is one client socket's datagrams with one server port,
named by that port and /warm or, for a series of a single load (a cold browser's, kept in the
medians), /cold. A load is a socket's datagrams in a burst 400 ms or
more from the next (a burst without the page's requests, such as a lone datagram while idle, is listed
but not counted). Per load, in ms from the document's request (its last datagram to the server 50 ms or more before
the document's response):
the document's response (the first datagram from the server of 500 bytes or more), the first and last
of the page's other requests (the first run of 5 or more datagrams to the server that follows it, none
more than 30 ms after the one before), the last datagram from the server of more than 100 bytes; the
datagrams each way; the most datagrams from the server in any 50 ms, which its congestion window
bounds; and the datagrams from the server of 100 to 999 bytes (short ones, not ACKs nor full packets). Then the medians per client of every load with the page's requests but each series' first.
"""
import statistics
import subprocess
import sys


def datagrams(pcap, server):
    fields = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-e", "frame.time_relative", "-e", "ip.src",
                             "-e", "udp.srcport", "-e", "udp.dstport", "-e", "udp.length"],
                            check=True, capture_output=True, text=True).stdout
    for line in fields.splitlines():
        time, source, sport, dport, length = line.split("\t")
        up = source != server
        yield float(time) * 1000, up, int(sport if up else dport), int(dport if up else sport), int(length) - 8


def loads(packets, servers=None):
    """{client port (with servers: (server port, client port)): [[(ms, up, payload), ...], ...]} in order
    of each series' first datagram; with servers, only datagrams of their ports."""
    series = {}
    for time, up, port, server_port, payload in packets:
        if servers is not None and server_port not in servers:
            continue
        bursts = series.setdefault(port if servers is None else (server_port, port), [])
        if not bursts or time - bursts[-1][-1][0] >= 400:
            bursts.append([])
        bursts[-1].append((time, up, payload))
    return series


def phases(load):
    response = next((t for t, up, size in load if not up and size >= 500), None)
    # the document's request: the burst's last datagram to the server 50 ms or more before the response
    start = max((t for t, up, _ in load if up and response is not None and t <= response - 50), default=load[0][0])
    load = [datagram for datagram in load if datagram[0] >= start]
    requests = []
    for t, up, size in load:
        if response is None or t < response or not up:
            continue
        if requests and t - requests[-1] > 30:
            if len(requests) >= 5:
                break
            requests = []
        requests.append(t)
    requests = requests if len(requests) >= 5 else []
    end = max((t for t, up, size in load if not up and size > 100), default=start)
    down = [t for t, up, _ in load if not up]
    peak = max((sum(1 for u in down if t <= u < t + 50) for t in down), default=0)
    ms = lambda t: round(t - start, 1) if t is not None else None
    return {"response": ms(response), "first_request": ms(requests[0]) if requests else None,
            "last_request": ms(requests[-1]) if requests else None, "end": ms(end),
            "up": sum(1 for _, up, _ in load if up), "down": len(down), "peak_50ms": peak,
            "short_down": sum(1 for _, up, size in load if not up and 100 <= size < 1000)}


def main():
    pcap, server, clients = sys.argv[1], sys.argv[2], sys.argv[3:]
    servers = None
    if clients and clients[0].startswith("--servers="):
        servers = {int(port): name for name, port in (pair.split("=") for pair in clients[0][len("--servers="):].split(","))}
    keys = ["response", "first_request", "last_request", "end", "up", "down", "peak_50ms", "short_down"]
    print("# client series load " + " ".join(keys))
    kept = {}
    for number, (key, bursts) in enumerate(loads(datagrams(pcap, server), servers).items()):
        if servers is not None:
            client = servers[key[0]]
        else:
            client = clients[number] if number < len(clients) else "?"
        rows = [phases(load) for load in bursts]
        pages = [row for row in rows if row["first_request"] is not None]
        if servers is not None:
            client += "/cold" if len(pages) == 1 else "/warm"
        for index, row in enumerate(rows):
            print(client, number + 1, index + 1, " ".join(str(row[k]) for k in keys))
        kept.setdefault(client, []).extend(pages if servers is not None and len(pages) == 1 else pages[1:])
    kept = {client: rows for client, rows in kept.items() if rows}
    print("# medians of every load with the page's requests but each series' first"
          + (" (a series of one load, a cold browser's, kept)" if servers is not None else ""))
    for client, rows in kept.items():
        print(f"# {client} ({len(rows)} loads): " + ", ".join(
            f"{k} {statistics.median(r[k] for r in rows):g}" for k in keys))


if __name__ == "__main__":
    main()
