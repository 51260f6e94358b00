#!/usr/bin/env python3
"""Server-side times of new connections, from a capture taken beside the servers (issue 42).

    benchmarks/server-turnaround.py CAPTURE [tls:]PORT=NAME [[tls:]PORT=NAME ...]

A capture on the server's side of the kernel link (inside its namespace) sees each packet as the
server's kernel does, so the time between a client's flight arriving and the server's answer
leaving is the server's alone: no link, no client. Per TCP connection to a named port:

  TLS: the ClientHello's arrival to the first byte of the server's first flight leaving (key
       exchange, signature, certificate: the server's part of the TLS handshake)
  response: the arrival of the client's first flight of data (TLS: after its Finished; a packet
       holding only ChangeCipherSpec and Finished is not data) to the last byte the server sends
       before it hears from the client again. A connection on which the client sent no data, or
       whose first answer came only after the client closed it, has no response time.

A port given as tls:PORT speaks TLS; one given as PORT, clear text. Prints, per name, the connections
and the median and p90 of each, in ms. Needs tshark. --self-test checks the pairing on a made-up capture.
"""
import collections
import math
import statistics
import subprocess
import sys


# Client payload packets this close together are one flight: the client sent them without waiting for
# the server (Chromium's h2 preface and its first request, 0.2-2 ms apart), far below any emulated round trip.
FLIGHT_GAP = 0.005


def packets(capture, tls_ports):
    fields = ['frame.time_epoch', 'tcp.stream', 'tcp.srcport', 'tcp.dstport', 'tcp.len',
              'tcp.flags.fin', 'tcp.flags.reset', 'tls.record.content_type', 'tls.record.length']
    decode = sum((['-d', f'tcp.port=={port},tls'] for port in tls_ports), [])
    printed = subprocess.run(['tshark', '-r', capture, '-T', 'fields', '-E', 'separator=;'] + decode
                             + sum((['-e', f] for f in fields), []),
                             capture_output=True, text=True, check=True).stdout
    for line in printed.splitlines():
        time, stream, sport, dport, length, fin, reset, types, lengths = line.split(';')
        records = list(zip((int(t) for t in types.split(',') if t), (int(n) for n in lengths.split(',') if n)))
        yield (float(time), int(stream), int(sport), int(dport), int(length or 0),
               fin in ('1', 'True') or reset in ('1', 'True'), records)


def handshake_only(length, records):
    """A client packet holding nothing but the end of its TLS handshake (ChangeCipherSpec and Finished)."""
    types = [t for t, _ in records]
    if 20 not in types:
        return False
    through_finished = records[:types.index(20) + 2]
    return length <= sum(5 + n for _, n in through_finished)


def flights(capture, ports, tls_ports):
    """Per connection to a named port: its packets as (time, from_server, payload, closing), in order."""
    connections = collections.defaultdict(list)
    name_of = {}
    for time, stream, sport, dport, length, closing, records in packets(capture, tls_ports):
        server_port = sport if sport in ports else dport if dport in ports else None
        if server_port is None:
            continue
        from_server = sport == server_port
        payload = length > 0 and not (not from_server and server_port in tls_ports and handshake_only(length, records))
        name_of[stream] = ports[server_port]
        connections[stream].append((time, from_server, payload, closing))
    return connections, name_of


def answers(packets):
    """(arrived, first, last) per client flight the server answered.

    A client flight: its payload packets, each within FLIGHT_GAP of the one before, whatever the server
    sent meanwhile; it arrived with its last packet. Its answer: the server's payload packets after that,
    up to the next packet of any kind from the client once the answer began (an ACK may open the
    window: from then on the server is no longer answering on its own). Nothing the server sends after
    the client closed answers.
    """
    found = []
    i, n = 0, len(packets)
    while i < n:
        if packets[i][1] or not packets[i][2]:
            i += 1
            continue
        end = i
        for j in range(i + 1, n):
            time, from_server, payload, _ = packets[j]
            if not from_server and payload:
                if time - packets[end][0] >= FLIGHT_GAP:
                    break
                end = j
        i = end + 1
        first = last = None
        while i < n:
            time, from_server, payload, closing = packets[i]
            if not from_server and (first is not None or payload or closing):
                break
            if from_server and payload:
                first = time if first is None else first
                last = time
            i += 1
        if first is not None:
            found.append((packets[end][0], first, last))
    return found


def turnarounds(payloads, tls):
    """The server's time for each client flight it answered: (TLS, response) in ms, None where absent."""
    answered = answers(payloads)
    if tls:
        hello = (answered[0][1] - answered[0][0]) * 1000 if answered else None
        response = (answered[1][2] - answered[1][0]) * 1000 if len(answered) > 1 else None
        return hello, response
    return None, (answered[0][2] - answered[0][0]) * 1000 if answered else None


def main(capture, named):
    ports, secure = {}, set()
    for item in named:
        port, name = item.split('=', 1)
        if port.startswith('tls:'):
            port = port[4:]
            secure.add(name)
        ports[int(port)] = name
    connections, name_of = flights(capture, ports, {p for p, name in ports.items() if name in secure})
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
        return f'{statistics.median(ordered):.2f} (p90 {ordered[math.ceil(0.9 * len(ordered)) - 1]:.2f})'

    print('| server | connections | TLS: ClientHello → first flight, ms | request → response sent, ms |')
    print('|---|---:|---:|---:|')
    for name in ports.values():
        tls, response = results[name]
        print(f'| {name} | {max(len(tls), len(response))} | {summary(tls)} | {summary(response)} |')


def self_test():
    """Writes a capture of two made-up TLS connections and checks what main() reads in it.

    The first client sends only its Finished, then goes idle; the server's SETTINGS after the Finished and
    its GOAWAY 400 ms later answer no request (the pairing once timed them: Chromium's spare h2
    connection, 395 ms). The second client's request comes 129 ms after its Finished and the response
    takes two flights; its time is up to the first flight's end, when the client's ACK arrives (once
    100 ms: the second flight was counted).
    """
    import contextlib
    import io
    import os
    import struct
    import tempfile

    client, server = ('198.18.0.1', 40000), ('198.18.0.2', 8443)

    def record(kind, length):
        return struct.pack('!BHH', kind, 0x0303, length) + bytes(length)

    sent = collections.Counter()

    def packet(time, from_server, port, payload=b'', flags=0x18):
        src, dst = (server, (client[0], port)) if from_server else ((client[0], port), server)
        seq, ack = sent[src[1], dst[1]] + 1, sent[dst[1], src[1]] + 1
        sent[src[1], dst[1]] += len(payload)
        tcp = struct.pack('!HHIIBBHHH', src[1], dst[1], seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(tcp), 0, 0, 64, 6, 0,
                         bytes(map(int, src[0].split('.'))), bytes(map(int, dst[0].split('.'))))
        frame = ip + tcp
        return struct.pack('<IIII', int(time), int(round(time % 1 * 1e6)), len(frame), len(frame)) + frame

    hello, flight, finished = record(22, 512), record(22, 122) + record(23, 800), record(20, 1) + record(23, 53)
    idle, slow = 40001, 40002
    packets = [
        packet(1.000, False, idle, hello), packet(1.001, True, idle, flight),
        packet(1.101, False, idle, finished), packet(1.1013, True, idle, record(23, 50)),
        packet(1.201, False, idle, flags=0x10), packet(1.501, True, idle, record(23, 30)),
        packet(1.502, False, idle, flags=0x11),
        packet(2.000, False, slow, hello), packet(2.001, True, slow, flight),
        packet(2.101, False, slow, finished), packet(2.230, False, slow, record(23, 600)),
    ]
    packets += [packet(2.2307 + k * 0.00001, True, slow, record(23, 1400)) for k in range(10)]
    packets += [packet(2.331, False, slow, flags=0x10)]
    packets += [packet(2.3312 + k * 0.00001, True, slow, record(23, 1400)) for k in range(10)]
    packets += [packet(2.431, False, slow, flags=0x10)]
    with tempfile.TemporaryDirectory() as directory:
        capture = os.path.join(directory, 'made-up.pcap')
        with open(capture, 'wb') as out:
            out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101))  # 101: raw IP
            out.writelines(packets)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            main(capture, [f'tls:{server[1]}=made-up'])
    expected = '| made-up | 2 | 1.00 (p90 1.00) | 0.79 (p90 0.79) |'
    if expected not in printed.getvalue():
        sys.exit(f'server-turnaround.py self-test: expected the line\n{expected}\nin:\n{printed.getvalue()}')
    print('server-turnaround.py self-test: ok')


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        self_test()
    elif len(sys.argv) < 3:
        sys.exit(__doc__)
    else:
        main(sys.argv[1], sys.argv[2:])
