#!/usr/bin/env python3
"""The table of benchmarks/server-fidelity.sh: curl's phases per latency, protocol and server.

    benchmarks/server-fidelity-table.py RESULTS.csv TLS.csv CPU.csv

Phases of one request on a new connection (ms): TCP (time_connect), TLS (time_appconnect -
time_connect), first byte (time_starttransfer after TLS, or after TCP in clear text), total. For
each peer: h2bench's median minus the peer's, and whether it is within issue 42's target: 3 ms for
a phase (TCP, TLS, first byte), 5 % of the peer's median (at least 3 ms) for the total. Then the
TLS each server picks and its CPU per timed connection.
"""
import collections
import csv
import statistics
import sys


def phases(row):
    connect, app, first, total = (float(row[k]) for k in ('connect_ms', 'appconnect_ms', 'starttransfer_ms', 'total_ms'))
    tls = row['protocol'] != 'h1'
    values = {'TCP': connect, 'first byte': first - (app if tls else connect), 'total': total}
    if tls:
        values['TLS'] = app - connect
    return values


def main(results, tls, cpu):
    samples = collections.defaultdict(list)
    order = {'latency': [], 'protocol': [], 'server': []}
    failed = 0
    with open(results) as f:
        for row in csv.DictReader(f):
            for key in order:
                if row[key] not in order[key]:
                    order[key].append(row[key])
            if row['error']:
                failed += 1
                continue
            for phase, value in phases(row).items():
                samples[row['latency'], row['protocol'], row['server'], phase].append(value)
    peers = [s for s in order['server'] if s != 'h2bench']
    header = ['latency', 'protocol', 'phase', 'n'] + [f'{s} median' for s in order['server']]
    for peer in peers:
        header += [f'h2bench − {peer}', 'target']
    print('| ' + ' | '.join(header) + ' |')
    print('|' + '---|' * 3 + '---:|' * (len(header) - 3))
    met = total = 0
    for latency in order['latency']:
        for protocol in order['protocol']:
            for phase in ('TCP', 'TLS', 'first byte', 'total'):
                if not samples.get((latency, protocol, 'h2bench', phase)):
                    continue
                medians = {s: statistics.median(samples[latency, protocol, s, phase])
                           for s in order['server'] if samples.get((latency, protocol, s, phase))}
                cells = [latency, protocol, phase, str(len(samples[latency, protocol, 'h2bench', phase]))]
                cells += [f'{medians[s]:.1f}' if s in medians else '–' for s in order['server']]
                for peer in peers:
                    if peer not in medians:
                        cells += ['–', '–']
                        continue
                    diff = medians['h2bench'] - medians[peer]
                    ok = abs(diff) <= (max(3.0, 0.05 * medians[peer]) if phase == 'total' else 3.0)
                    met += ok
                    total += 1
                    cells += [f'{diff:+.1f}', 'ok' if ok else 'MISSED']
                print('| ' + ' | '.join(cells) + ' |')
    print()
    print(f'{met} of {total} medians within the target (a phase within 3 ms of the peer\'s, a total within 5 % or 3 ms)'
          + (f'; {failed} requests failed and are left out' if failed else ''))
    print()
    print('| latency | server | TLS 1.3 (curl) | group | signature | TLS 1.2 (openssl s_client) |')
    print('|---|---|---|---|---|---|')
    with open(tls) as f:
        for row in csv.DictReader(f):
            print(f"| {row['latency']} | {row['server']} | {row['tls13']} | {row['group']} | {row['signature']} | {row['tls12']} |")
    print()
    print('| latency | server | timed connections | server CPU per connection (ms) |')
    print('|---|---|---:|---:|')
    with open(cpu) as f:
        for row in csv.DictReader(f):
            per = float(row['cpu_s']) * 1000 / int(row['connections'])
            print(f"| {row['latency']} | {row['server']} | {row['connections']} | {per:.2f} |")
    print()
    print('h2bench\'s CPU leaves out the kernel link\'s threads (they carry every server\'s packets) and '
          'includes its JIT compilers\'; the CPU is /proc\'s, in 10 ms ticks.')


if __name__ == '__main__':
    main(*sys.argv[1:4])
