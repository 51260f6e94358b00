#!/usr/bin/env python3
"""What each server sends on a new h2 connection between the client's Finished and the client's next flight.

    benchmarks/session-setup-writes.py CAPTURE NAME=PORT [NAME=PORT ...]

From a full capture (dumpcap -s 0) beside the servers of the kernel link, one line per TLS connection to
a named port, in the order they started: the client's ClientHello size (curl and h2load: 517 B,
Chromium: two packets, the first 1,448 B), then the server's TCP segments with payload and the TLS
records in each (ciphertext lengths) from the client's Finished up to the client's first packet more
than 5 ms after its last one (its next flight: it has heard the server by then). For one request, that
is the server's session set-up and the response, with whatever session tickets its TLS library sends.
"""
import collections
import subprocess
import sys

FLIGHT_GAP = 0.005


def main(capture, named):
    ports = {int(port): name for name, port in (item.split('=', 1) for item in named)}
    decode = sum((['-d', f'tcp.port=={port},tls'] for port in ports), [])
    printed = subprocess.run(['tshark', '-r', capture, '-T', 'fields', '-E', 'separator=;', '-e', 'frame.time_epoch',
                              '-e', 'tcp.stream', '-e', 'tcp.srcport', '-e', 'tcp.dstport', '-e', 'tcp.len',
                              '-e', 'tls.record.content_type', '-e', 'tls.record.length'] + decode,
                             capture_output=True, text=True, check=True).stdout
    connections, name_of = collections.defaultdict(list), {}
    for line in printed.splitlines():
        time, stream, sport, dport, length, types, lengths = line.split(';')
        port = int(sport) if int(sport) in ports else int(dport) if int(dport) in ports else None
        if port is None or int(length or 0) == 0:
            continue
        name_of[stream] = ports[port]
        connections[stream].append((float(time), int(sport) == port, int(length),
                                    [int(n) for n in lengths.split(',') if n], [int(t) for t in types.split(',') if t]))
    for number, (stream, packets) in enumerate(sorted(connections.items(), key=lambda item: item[1][0][0]), 1):
        finished = next((k for k, p in enumerate(packets) if not p[1] and 20 in p[4]), None)
        if finished is None:
            continue
        heard, segments = packets[finished][0], []
        for time, from_server, length, records, _ in packets[finished + 1:]:
            if not from_server:
                if time - heard > FLIGHT_GAP:
                    break
                heard = time
            else:
                segments.append((length, records))
        listed = ' | '.join(f'{length} B [{"+".join(map(str, records))}]' for length, records in segments)
        print(f'{number:3} {name_of[stream]:8} ClientHello {packets[0][2]:5} B: {len(segments)} segments, '
              f'{sum(len(records) for _, records in segments)} records: {listed}')


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
