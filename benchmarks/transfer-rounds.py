#!/usr/bin/env python3
"""How many round trips each large transfer took, from a capture beside the servers (issue 42).

    benchmarks/transfer-rounds.py CAPTURE PORT=NAME [PORT=NAME ...] [--min-bytes N]

For every TCP connection to a named port that carried at least N bytes from the server (default
300,000: a page of seed 000), from its first data packet of 1,000 bytes or more to its last: the
time in ms, the server's flights (a gap of more than 50 ms starts a new one; the link's round trip
must be longer), and the largest receive window the client advertised meanwhile, in kB. A transfer
held by the client's window takes more flights than slow start needs; one whose server sends less
than the window allows, too. Written for server-fidelity.sh's pages.pcapng; needs tshark.
"""
import collections
import subprocess
import sys

FLIGHT_GAP_S = 0.05
DATA_PACKET = 1000


def packets(capture, ports):
    """Per connection to a named port: (name, [(time, from_server, length, window)])."""
    fields = ['frame.time_epoch', 'tcp.stream', 'tcp.srcport', 'tcp.dstport', 'tcp.len', 'tcp.window_size']
    printed = subprocess.run(['tshark', '-r', capture, '-T', 'fields', '-E', 'separator=,']
                             + sum((['-e', f] for f in fields), []),
                             capture_output=True, text=True, check=True).stdout
    connections = collections.defaultdict(lambda: [None, []])
    for line in printed.splitlines():
        time, stream, sport, dport, length, window = line.split(',')
        sport, dport = int(sport), int(dport)
        port = sport if sport in ports else dport if dport in ports else None
        if port is None:
            continue
        connection = connections[int(stream)]
        connection[0] = ports[port]
        connection[1].append((float(time), sport == port, int(length or 0), int(window or 0)))
    return connections.values()


def transfer(trace):
    """(ms, flights, the client's largest window in kB) from the first data packet to the last."""
    data = [time for time, from_server, length, _ in trace if from_server and length >= DATA_PACKET]
    flights, previous = 1, data[0]
    for time in data:
        flights += time - previous > FLIGHT_GAP_S
        previous = time
    windows = [window for time, from_server, _, window in trace if not from_server and data[0] <= time <= data[-1]]
    return round((data[-1] - data[0]) * 1000), flights, max(windows, default=0) // 1000


def main(args):
    min_bytes = 300_000
    if '--min-bytes' in args:
        at = args.index('--min-bytes')
        min_bytes = int(args[at + 1])
        args = args[:at] + args[at + 2:]
    capture, named = args[0], args[1:]
    ports = {int(item.split('=', 1)[0]): item.split('=', 1)[1] for item in named}
    results = collections.defaultdict(list)
    for name, trace in packets(capture, ports):
        if sum(length for _, from_server, length, _ in trace if from_server) >= min_bytes:
            results[name].append(transfer(trace))
    for name in ports.values():
        rows = sorted(results[name])
        print(f'{name}: {len(rows)} connections, ms / flights / client window kB: '
              + ' '.join(f'{ms}/{flights}/{window}' for ms, flights, window in rows))


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:])
