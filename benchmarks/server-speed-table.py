#!/usr/bin/env python3
"""The tables of benchmarks/server-speed.sh, in Markdown, from its --out directory.

    benchmarks/server-speed-table.py OUT_DIR

From results.csv: one row per body, connection count and protocol, h2bench beside nginx: requests/s,
the server's CPU per request, the machine's (every core's busy time over the same seconds: h2load and
all kernel work, whichever process ran it, counted alike for both servers), its peak RSS, h2load's
errors and its own CPU (% of its one thread), and the ratios h2bench/nginx, also of the MiB/s h2load
received and of the machine's CPU per MiB for 2 MiB bodies (the rate where many large responses are
in flight at once: with 10 streams of 2 MiB per connection the requests finished follow the order a
server interleaves its streams in); with repeats, medians
(peak RSS: the largest; errors: the sum; the load: its range). Then where each row's CPU went: the
server's, h2load's, ksoftirqd's and the rest of the machine's, and the machine's by kind. From
cold.csv, when it has rounds: requests/s in each 5 s round from each server's start. Results of runs
before the machine's CPU was measured show '-' for it.
"""
import csv
import statistics
import sys
from collections import defaultdict

BODIES = ['100B', '44kB', '2MiB']
PROTOCOLS = ['h1', 'h1-tls', 'h2', 'h2c']
SERVERS = ['h2bench', 'nginx']
# bodies whose MiB/s is their rate: the bytes of smaller ones are mostly each server's own response
# headers (nginx's Date, ETag, Last-Modified...), so theirs would compare headers, not speed
BYTE_RATE_BODIES = ['2MiB']


def number(value, digits=0):
    return f'{value:,.{digits}f}'


def ratio(a, b):
    return f'{a / b:.2f}' if a is not None and b else '-'


def measured(value, digits=0):
    return '-' if value is None else number(value, digits)


def median_of(runs, column):
    """The median of a column over repeats; None when the run's results.csv has no such column."""
    values = [r.get(column) for r in runs]
    if any(v in (None, '') for v in values):
        return None
    return statistics.median(float(v) for v in values)


# where_cpu_went's columns: results.csv's column of each, µs per request
SHARES = [('server', 'server_cpu_us_per_request'), ('h2load', 'h2load_cpu_us_per_request'),
          ('ksoftirqd', 'ksoftirqd_cpu_us_per_request'), ('machine', 'machine_cpu_us_per_request'),
          ('user', 'machine_user_us_per_request'), ('system', 'machine_system_us_per_request'),
          ('softirq', 'machine_softirq_us_per_request'), ('segments', 'tcp_segments_per_request'),
          ('mib_per_s', 'mib_per_s')]


def results_table(rows):
    cells = defaultdict(list)
    for row in rows:
        cells[(row['body'], int(row['connections']), row['protocol'], row['server'])].append(row)
    keys = sorted({key[:3] for key in cells},
                  key=lambda k: (BODIES.index(k[0]), k[1], PROTOCOLS.index(k[2])))
    repeats = max(len(v) for v in cells.values()) if cells else 0
    median_note = f' (medians of {repeats})' if repeats > 1 else ''
    print(f'| body | connections | protocol | h2bench req/s | nginx req/s | ratio{median_note} '
          '| h2bench CPU µs/req | nginx CPU µs/req | CPU ratio '
          '| h2bench machine CPU µs/req | nginx machine CPU µs/req | machine CPU ratio '
          '| MiB/s ratio | machine CPU per MiB ratio '
          '| h2bench peak RSS MB | nginx peak RSS MB '
          '| h2load CPU % h2bench / nginx | errors h2bench / nginx | load |')
    print('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    shares = []
    for key in keys:
        figures = {}
        for server in SERVERS:
            runs = cells.get(key + (server,), [])
            if not runs:
                figures[server] = None
                continue
            figures[server] = {
                'rate': statistics.median(float(r['req_per_s']) for r in runs),
                'cpu': statistics.median(float(r['server_cpu_us_per_request']) for r in runs),
                'rss': max(float(r['rss_mb']) for r in runs),
                'client': statistics.median(float(r['client_cpu_pct']) for r in runs),
                'errors': 'h2load did not end' if any(int(r['errors']) < 0 for r in runs) else sum(int(r['errors']) for r in runs),
                'loads': [float(r['load1']) for r in runs],
                'shares': {name: median_of(runs, column) for name, column in SHARES},
            }
        h, n = figures['h2bench'], figures['nginx']
        if h is None or n is None:
            continue
        loads = h['loads'] + n['loads']
        load = f'{min(loads):.1f}' if min(loads) == max(loads) else f'{min(loads):.1f}–{max(loads):.1f}'
        hm, nm = h['shares']['machine'], n['shares']['machine']
        hb, nb = (h['shares']['mib_per_s'], n['shares']['mib_per_s']) if key[0] in BYTE_RATE_BODIES else (None, None)
        print(f'| {key[0]} | {number(key[1])} | {key[2]} | {number(h["rate"])} | {number(n["rate"])} | '
              f'{ratio(h["rate"], n["rate"])} | {number(h["cpu"])} | {number(n["cpu"])} | {ratio(h["cpu"], n["cpu"])} | '
              f'{measured(hm)} | {measured(nm)} | {ratio(hm, nm)} | {ratio(hb, nb)} | '
              f'{ratio(per_mib(hm, h["rate"], hb), per_mib(nm, n["rate"], nb))} | '
              f'{number(h["rss"])} | {number(n["rss"])} | {number(h["client"])} / {number(n["client"])} | '
              f'{h["errors"]} / {n["errors"]} | {load} |')
        shares.append((key, h['shares'], n['shares']))
    where_cpu_went(shares)


def per_mib(us_per_request, requests_per_s, mib_per_s):
    """The machine's CPU per MiB received, from its CPU per request; None where the run lacks either."""
    if us_per_request is None or not mib_per_s:
        return None
    return us_per_request * requests_per_s / mib_per_s


def where_cpu_went(shares):
    """Per row and server, µs per request: the processes', the rest of the machine's (other processes, softirq on idle cores), the machine's by kind."""
    shares = [s for s in shares if s[1]['machine'] is not None and s[2]['machine'] is not None]
    if not shares:
        return
    print()
    print('Where the CPU went, µs per request over the measured seconds (rest: the machine less the server, '
          'h2load and ksoftirqd: other processes and softirq on idle cores; on a shared machine, others\' work)')
    print()
    print('| body | connections | protocol | server | server CPU | h2load | ksoftirqd | rest | machine '
          '| machine user | machine system | machine softirq | TCP segments/req |')
    print('|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for key, *figures in shares:
        for server, f in zip(SERVERS, figures):
            rest = f['machine'] - f['server'] - f['h2load'] - f['ksoftirqd']
            print(f'| {key[0]} | {number(key[1])} | {key[2]} | {server} | {number(f["server"])} | '
                  f'{number(f["h2load"])} | {number(f["ksoftirqd"])} | {number(rest)} | {number(f["machine"])} | '
                  f'{number(f["user"])} | {number(f["system"])} | {number(f["softirq"])} | {number(f["segments"])} |')


def cold_table(rows):
    if not rows:
        return
    rounds = defaultdict(dict)
    for row in rows:
        rounds[int(row['round'])][row['server']] = row
    print()
    print('From each server\'s start: 44 kB over h1-tls, 100 connections, 5 s rounds')
    print()
    print('| round | h2bench req/s | nginx req/s | ratio | h2bench CPU µs/req | nginx CPU µs/req | load h2bench / nginx |')
    print('|---:|---:|---:|---:|---:|---:|---|')
    for number_of_round in sorted(rounds):
        h, n = rounds[number_of_round].get('h2bench'), rounds[number_of_round].get('nginx')
        if h is None or n is None:
            continue
        print(f'| {number_of_round} | {number(float(h["req_per_s"]))} | {number(float(n["req_per_s"]))} | '
              f'{ratio(float(h["req_per_s"]), float(n["req_per_s"]))} | {number(float(h["server_cpu_us_per_request"]))} | '
              f'{number(float(n["server_cpu_us_per_request"]))} | {h["load1"]} / {n["load1"]} |')


def main():
    out = sys.argv[1]
    with open(f'{out}/results.csv', newline='') as f:
        results_table(list(csv.DictReader(f)))
    try:
        with open(f'{out}/cold.csv', newline='') as f:
            cold_table(list(csv.DictReader(f)))
    except FileNotFoundError:
        pass


if __name__ == '__main__':
    main()
