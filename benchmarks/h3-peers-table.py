#!/usr/bin/env python3
"""benchmarks/h3-peers.sh's table.

  h3-peers-table.py [--paired] RESULTS.csv HANDSHAKE.csv RTT_MS "SERVERS" "SIZES" [BAND_PEER]

With h2bench-b among SERVERS (a second h2bench build, h3-peers.sh --server-jar-b), a second table
gives its ratios and band the same way.

RESULTS.csv (round,server,size,ms,client_drops,error): one row per download; a row with an error is
counted, not timed; client_drops (absent in runs before it was recorded) is how many datagrams the
client's side dropped at a full UDP receive buffer meanwhile. HANDSHAKE.csv (server,retry,handshake_done_ms,response_headers_ms,wall_ms): one logged 100 B
fetch per server. Prints Markdown: per size and server the median and p90 (nearest rank) of the
downloads, the median in round trips of the link, and h2bench's ratio to each peer, with issue 38's
band for BAND_PEER (same client, same congestion settings: median within 5 %, p90 within 15 %):
gtlsserver by default, caddy or quic-go when h2bench runs with quic-go's initial window of 32; then what
gtlsclient's log said of each server's handshake. --paired (the link's --loss-pattern nth-connection:
each server's download of a round met the same losses) adds h2bench's ratio round by round.
"""
import csv
import statistics
import sys
from collections import defaultdict

MEDIAN_BAND = 0.05
P90_BAND = 0.15
BAND_PEERS = ("gtlsserver", "caddy", "quic-go")


def p90(values):
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def paired(rounds, servers, sizes, ours="h2bench"):
    """Round by round: each round's downloads met the same loss pattern, so their ratio is the servers' own."""
    print(f"\nRound by round (every server's download of a round met the same losses): {ours} / peer\n")
    print("| size | peer | rounds | median of the ratios | within 5 % | slower by more | faster by more |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for size in sizes:
        for peer in servers:
            if peer == ours:
                continue
            ratios = [ms / rounds[(peer, size)][r] for r, ms in rounds.get((ours, size), {}).items()
                      if r in rounds.get((peer, size), {})]
            if not ratios:
                continue
            within = sum(abs(x - 1) <= MEDIAN_BAND for x in ratios)
            slower = sum(x > 1 + MEDIAN_BAND for x in ratios)
            print(f"| {size} | {peer} | {len(ratios)} | {statistics.median(ratios):.2f} | {within} | {slower} "
                  f"| {len(ratios) - within - slower} |")


def read_results(path):
    """Per (server, size): {round: ms} of the downloads that worked, failures counted, drops at the client."""
    rounds, failures, drops = defaultdict(dict), defaultdict(int), defaultdict(list)
    with open(path, newline="") as results:
        for row in csv.DictReader(results):
            # h3-peers.sh --warm: a cold and a warm download per connection, rows SIZE/cold and SIZE/warm
            download = row.get("download")
            key = (row["server"], row["size"] + (f"/{download}" if download else ""))
            if row.get("client_drops") not in (None, ""):
                drops[key].append(int(row["client_drops"]))
            if row["error"]:
                failures[key] += 1
            else:
                rounds[key][row["round"]] = float(row["ms"])
    return rounds, failures, drops


def drop_cell(values):
    """Downloads with drops at the client, of all, and the median dropped by those: '3 of 10, 60 each'."""
    if not values:
        return "-"
    hit = [v for v in values if v]
    return f"{len(hit)} of {len(values)}" + (f", {statistics.median(hit):,.0f} each (median)" if hit else "")


def ratio(ours, theirs):
    if not ours or not theirs:
        return "-", "-", None
    median_ratio = statistics.median(ours) / statistics.median(theirs)
    p90_ratio = p90(ours) / p90(theirs)
    within = abs(median_ratio - 1) <= MEDIAN_BAND and abs(p90_ratio - 1) <= P90_BAND
    return f"{median_ratio:.2f}", f"{p90_ratio:.2f}", within


def table(times, failures, drops, rtt_ms, servers, sizes, band_peer, ours="h2bench"):
    print(f"| size | server | downloads | median ms | p90 ms | median in round trips "
          f"| {ours} / server, median | p90 | band | dropped at the client |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    verdicts = []
    for size in sizes:
        for server in servers:
            values = times.get((server, size), [])
            failed = failures.get((server, size), 0)
            count = f"{len(values)}" + (f" ({failed} failed)" if failed else "")
            if not values:
                print(f"| {size} | {server} | {count} | - | - | - | - | - | | {drop_cell(drops.get((server, size)))} |")
                continue
            median = statistics.median(values)
            trips = f"{median / rtt_ms:.1f}" if rtt_ms > 0 else "-"
            band = ""
            if server == ours or ours not in servers:
                median_ratio = p90_ratio = "-"
            else:
                median_ratio, p90_ratio, within = ratio(times.get((ours, size)), values)
                if server == band_peer and within is not None:
                    verdicts.append((size, within))
                    band = "met" if within else "not met"
            print(f"| {size} | {server} | {count} | {median:,.0f} | {p90(values):,.0f} | {trips} "
                  f"| {median_ratio} | {p90_ratio} | {band} | {drop_cell(drops.get((server, size)))} |")
    if verdicts:
        met = [size for size, within in verdicts if within]
        print(f"\n{ours} within issue 38's band of {band_peer} (median within {MEDIAN_BAND * 100:.0f} %, "
              f"p90 within {P90_BAND * 100:.0f} %): {len(met)} of {len(verdicts)} sizes"
              + (f" ({', '.join(met)})" if met else "") + ".")
    if ours != "h2bench":
        return
    if any(size.endswith("/warm") for size in sizes):
        print("\nMedian of the downloads; p90 by nearest rank. A connection is a new process of "
              "benchmarks/h3warm (quic-go's HTTP/3 client): SIZE/cold is its first download, timed from "
              "dialling (handshake included) to the last body byte; SIZE/warm the same object on the same "
              "connection after the idle gap, timed from the request to the last body byte. Dropped at the "
              "client: downloads during which datagrams were lost at the client before quic-go read them "
              "(at a full socket receive buffer, Udp RcvbufErrors of its namespace, or at quic-go's full "
              "queue of 256 unprocessed packets per connection), of all, and the median count among them.")
        return
    print("\nMedian of the downloads; p90 by nearest rank. A download is a new gtlsclient process and "
          "QUIC connection, timed from its start to its exit (the process's own start and exit take "
          "about 15 to 20 ms of it: compare the wall time and the response below). Dropped at the "
          "client: downloads during which the client's network namespace dropped UDP datagrams at a "
          "full socket receive buffer (Udp RcvbufErrors), of all, and the median count among them; another "
          "program receiving UDP in that namespace would add to it.")


def handshakes(path):
    print("\nOne 100 B fetch per server with gtlsclient's log on (milliseconds since its first packet):\n")
    print("| server | Retry | handshake completed | response headers | wall time, start to exit |")
    print("|---|---|---:|---:|---:|")
    with open(path, newline="") as rows:
        for row in csv.DictReader(rows):
            print(f"| {row['server']} | {row['retry']} | {row['handshake_done_ms'] or '-'} "
                  f"| {row['response_headers_ms'] or '-'} | {float(row['wall_ms']):,.0f} |")


def main(argv):
    pairs = "--paired" in argv
    argv = [arg for arg in argv if arg != "--paired"]
    if len(argv) not in (6, 7) or (len(argv) == 7 and argv[6] not in BAND_PEERS):
        print(__doc__, file=sys.stderr)
        return 2
    band_peer = argv[6] if len(argv) == 7 else BAND_PEERS[0]
    rounds, failures, drops = read_results(argv[1])
    times = {key: list(by_round.values()) for key, by_round in rounds.items()}
    rtt_ms = float(argv[3]) if argv[3] else 0.0
    servers = argv[4].split()
    table(times, failures, drops, rtt_ms, servers, argv[5].split(), band_peer)
    if "h2bench-b" in servers:
        print("\nThe same downloads with h2bench-b (--server-jar-b) as ours:\n")
        table(times, failures, drops, rtt_ms, servers, argv[5].split(), band_peer, ours="h2bench-b")
    if pairs:
        paired(rounds, servers, argv[5].split())
    handshakes(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
