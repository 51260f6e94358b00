#!/usr/bin/env python3
"""Server-side times of new connections, from a capture taken beside the servers (issue 42).

    benchmarks/server-turnaround.py CAPTURE [tls:]PORT=NAME [[tls:]PORT=NAME ...]

A capture on the server's side of the kernel link (inside its namespace) sees each packet as the
server's kernel does, so the time between a client's flight arriving and the server's answer
leaving is the server's alone: no link, no client. Per TCP connection to a named port:

  TLS: the ClientHello's arrival to the first byte of the server's first flight leaving (key
       exchange, signature, certificate: the server's part of the TLS handshake)
  response: the client's next flight's arrival (TLS: its Finished with the request; clear text:
       the request) to the last byte the server sends before it waits for the client again

A port given as tls:PORT speaks TLS; one given as PORT, clear text. Prints, per name, the connections and the median and p90 of each, in ms. Needs tshark.
"""
import collections
import statistics
import subprocess
import sys


def packets(capture):
    fields = ['frame.time_epoch', 'tcp.stream', 'tcp.srcport', 'tcp.dstport', 'tcp.len']
    printed = subprocess.run(['tshark', '-r', capture, '-T', 'fields', '-E', 'separator=,']
                             + sum((['-e', f] for f in fields), []),
                             capture_output=True, text=True, check=True).stdout
    for line in printed.splitlines():
        time, stream, sport, dport, length = line.split(',')
        yield float(time), int(stream), int(sport), int(dport), int(length or 0)


def flights(capture, ports):
    """Per connection to a named port: its payload packets as (time, from_server), in order."""
    connections = collections.defaultdict(list)
    name_of = {}
    for time, stream, sport, dport, length in packets(capture):
        server_port = sport if sport in ports else dport if dport in ports else None
        if server_port is None or length == 0:
            continue
        name_of[stream] = ports[server_port]
        connections[stream].append((time, sport == server_port))
    return connections, name_of


def turnarounds(payloads, tls):
    """The server's time for each client flight it answered: (TLS, response) in ms, None where absent."""
    answers = []
    i = 0
    while i < len(payloads):
        if payloads[i][1]:
            i += 1
            continue
        arrived = payloads[i][0]
        while i < len(payloads) and not payloads[i][1]:
            arrived = payloads[i][0]  # the flight's last packet: what the server waited for
            i += 1
        first = last = None
        while i < len(payloads) and payloads[i][1]:
            first = payloads[i][0] if first is None else first
            last = payloads[i][0]
            i += 1
        if first is not None:
            answers.append((arrived, first, last))
    if tls:
        hello = (answers[0][1] - answers[0][0]) * 1000 if answers else None
        response = (answers[1][2] - answers[1][0]) * 1000 if len(answers) > 1 else None
        return hello, response
    return None, (answers[0][2] - answers[0][0]) * 1000 if answers else None


def main(capture, named):
    ports, secure = {}, set()
    for item in named:
        port, name = item.split('=', 1)
        if port.startswith('tls:'):
            port = port[4:]
            secure.add(name)
        ports[int(port)] = name
    connections, name_of = flights(capture, ports)
    results = collections.defaultdict(lambda: ([], []))
    for stream, payloads in connections.items():
        name = name_of[stream]
        hello, response = turnarounds(payloads, name in secure)
        if hello is not None:
            results[name][0].append(hello)
        if response is not None:
            results[name][1].append(response)

    def summary(values):
        if not values:
            return '–'
        ordered = sorted(values)
        return f'{statistics.median(ordered):.2f} (p90 {ordered[int(0.9 * (len(ordered) - 1))]:.2f})'

    print('| server | connections | TLS: ClientHello → first flight, ms | request → response sent, ms |')
    print('|---|---:|---:|---:|')
    for name in ports.values():
        tls, response = results[name]
        print(f'| {name} | {max(len(tls), len(response))} | {summary(tls)} | {summary(response)} |')


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
