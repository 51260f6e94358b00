#!/usr/bin/env python3
"""The tables of benchmarks/server-speed.sh, in Markdown, from its --out directory.

    benchmarks/server-speed-table.py OUT_DIR

From results.csv: one row per body, connection count and protocol, h2bench beside nginx: requests/s,
the server's CPU per request, its peak RSS, h2load's errors and its own CPU (% of its one thread),
and the ratios h2bench/nginx; with repeats, medians (peak RSS: the largest; errors: the sum; the
load: its range). From cold.csv, when it has rounds: requests/s in each 5 s round from each server's
start.
"""
import csv
import statistics
import sys
from collections import defaultdict

BODIES = ['100B', '44kB', '2MiB']
PROTOCOLS = ['h1', 'h1-tls', 'h2', 'h2c']
SERVERS = ['h2bench', 'nginx']


def number(value, digits=0):
    return f'{value:,.{digits}f}'


def ratio(a, b):
    return f'{a / b:.2f}' if b else '-'


def results_table(rows):
    cells = defaultdict(list)
    for row in rows:
        cells[(row['body'], int(row['connections']), row['protocol'], row['server'])].append(row)
    keys = sorted({key[:3] for key in cells},
                  key=lambda k: (BODIES.index(k[0]), k[1], PROTOCOLS.index(k[2])))
    repeats = max(len(v) for v in cells.values()) if cells else 0
    median_note = f' (medians of {repeats})' if repeats > 1 else ''
    print(f'| body | connections | protocol | h2bench req/s | nginx req/s | ratio{median_note} '
          '| h2bench CPU µs/req | nginx CPU µs/req | CPU ratio | h2bench peak RSS MB | nginx peak RSS MB '
          '| h2load CPU % h2bench / nginx | errors h2bench / nginx | load |')
    print('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
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
            }
        h, n = figures['h2bench'], figures['nginx']
        if h is None or n is None:
            continue
        loads = h['loads'] + n['loads']
        load = f'{min(loads):.1f}' if min(loads) == max(loads) else f'{min(loads):.1f}–{max(loads):.1f}'
        print(f'| {key[0]} | {number(key[1])} | {key[2]} | {number(h["rate"])} | {number(n["rate"])} | '
              f'{ratio(h["rate"], n["rate"])} | {number(h["cpu"])} | {number(n["cpu"])} | {ratio(h["cpu"], n["cpu"])} | '
              f'{number(h["rss"])} | {number(n["rss"])} | {number(h["client"])} / {number(n["client"])} | '
              f'{h["errors"]} / {n["errors"]} | {load} |')


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
