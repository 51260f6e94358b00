#!/usr/bin/env python3
"""Issue 21: each page load as the kernel link saw it, from a capture of its UDP (chromium-h3.sh with CAPTURE=1).

    benchmarks/link-phases.py PCAP SERVER_ADDRESS CLIENT...

CLIENT names the client of each series (one client socket, in order of its first datagram), e.g.
"chromium sampler sampler chromium" for two rounds. A load is a socket's datagrams in a burst 400 ms or
more from the next (a burst without the page's requests, such as a lone datagram while idle, is listed
but not counted). Per load, in ms from the document's request (its last datagram to the server 50 ms or more before
the document's response):
the document's response (the first datagram from the server of 500 bytes or more), the first and last
of the page's other requests (the first run of 5 or more datagrams to the server that follows it, none
more than 30 ms after the one before), the last datagram from the server of more than 100 bytes; the
datagrams each way; and the most datagrams from the server in any 50 ms, which its congestion window
bounds. Then the medians per client of every load with the page's requests but each series' first.
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
        yield float(time) * 1000, up, int(sport if up else dport), int(length) - 8


def loads(packets):
    """{port: [[(ms, up, payload), ...], ...]} in order of each port's first datagram."""
    series = {}
    for time, up, port, payload in packets:
        bursts = series.setdefault(port, [])
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
            "up": sum(1 for _, up, _ in load if up), "down": len(down), "peak_50ms": peak}


def main():
    pcap, server, clients = sys.argv[1], sys.argv[2], sys.argv[3:]
    keys = ["response", "first_request", "last_request", "end", "up", "down", "peak_50ms"]
    print("# client series load " + " ".join(keys))
    kept = {}
    for number, (port, bursts) in enumerate(loads(datagrams(pcap, server)).items()):
        client = clients[number] if number < len(clients) else "?"
        pages = 0
        for index, load in enumerate(bursts):
            row = phases(load)
            print(client, number + 1, index + 1, " ".join(str(row[k]) for k in keys))
            if row["first_request"] is not None:
                pages += 1
                if pages > 1:
                    kept.setdefault(client, []).append(row)
    print("# medians of every load with the page's requests but each series' first")
    for client, rows in kept.items():
        print(f"# {client} ({len(rows)} loads): " + ", ".join(
            f"{k} {statistics.median(r[k] for r in rows):g}" for k in keys))


if __name__ == "__main__":
    main()
