#!/usr/bin/env python3
"""The page-load tables of benchmarks/server-fidelity.sh: Chromium's loads per server.

    benchmarks/server-fidelity-pages.py PAGES.csv

A load's time is from the document's fetch to the last byte of any response (navigation and
resource timing). Left out: each series' load 0 (the warm connections' first load, or the first
browser's) and loads the driver marked disturbed. First the medians per latency, mode, protocol and
server, with h2bench's median against each peer's; then, per latency, mode and server, the ratios
h2/h1-tls and h1/h1-tls, and h2bench's ratio minus each peer's. Issue 42's target for a ratio: within
5 % of each peer's ("met"); where the peers differ by more than that, h2bench between them ("between").
"""
import collections
import csv
import statistics
import sys

RATIOS = (('h2/h1-tls', 'h2', 'h1-tls'), ('h1/h1-tls', 'h1', 'h1-tls'))
BAND = 0.05


def read(path):
    samples = collections.defaultdict(list)
    order = {'latency': [], 'mode': [], 'protocol': [], 'server': []}
    disturbed = 0
    with open(path) as f:
        for row in csv.DictReader(f):
            for key in order:
                if row[key] not in order[key]:
                    order[key].append(row[key])
            if int(row['load']) == 0:
                continue
            if row['disturbed'] == 'true':
                disturbed += 1
                continue
            samples[row['latency'], row['mode'], row['protocol'], row['server']].append(float(row['last_byte_ms']))
    return samples, order, disturbed


def verdict(ours, peers):
    """met: within BAND of every peer; between: outside it, but between the peers' lowest and highest."""
    if all(abs(ours / peer - 1) <= BAND for peer in peers):
        return 'met'
    if len(peers) > 1 and min(peers) <= ours <= max(peers):
        return 'between'
    return 'MISSED'


def medians_table(samples, order, peers):
    header = ['latency', 'mode', 'protocol', 'n'] + [f'{s} median' for s in order['server']]
    header += [f'h2bench vs {p}' for p in peers]
    print('| ' + ' | '.join(header) + ' |')
    print('|' + '---|' * 3 + '---:|' * (len(header) - 3))
    for latency in order['latency']:
        for mode in order['mode']:
            for protocol in order['protocol']:
                medians = {s: statistics.median(samples[latency, mode, protocol, s])
                           for s in order['server'] if samples.get((latency, mode, protocol, s))}
                if not medians:
                    continue
                counts = '/'.join(str(len(samples.get((latency, mode, protocol, s), []))) for s in order['server'])
                cells = [latency, mode, protocol, counts]
                cells += [f'{medians[s]:.0f}' if s in medians else '–' for s in order['server']]
                for peer in peers:
                    ok = 'h2bench' in medians and peer in medians
                    cells.append(f"{(medians['h2bench'] / medians[peer] - 1) * 100:+.1f} %" if ok else '–')
                print('| ' + ' | '.join(cells) + ' |')


def ratios_table(samples, order, peers):
    header = ['latency', 'mode', 'ratio'] + order['server'] + [f'h2bench − {p}' for p in peers] + ['target']
    print('| ' + ' | '.join(header) + ' |')
    print('|' + '---|' * 3 + '---:|' * (len(header) - 4) + '---|')
    counts = collections.Counter()
    for latency in order['latency']:
        for mode in order['mode']:
            for name, over, under in RATIOS:
                ratios = {}
                for server in order['server']:
                    a, b = samples.get((latency, mode, over, server)), samples.get((latency, mode, under, server))
                    if a and b:
                        ratios[server] = statistics.median(a) / statistics.median(b)
                if 'h2bench' not in ratios:
                    continue
                cells = [latency, mode, name] + [f'{ratios[s]:.3f}' if s in ratios else '–' for s in order['server']]
                cells += [f"{ratios['h2bench'] - ratios[p]:+.3f}" if p in ratios else '–' for p in peers]
                present = [ratios[p] for p in peers if p in ratios]
                target = verdict(ratios['h2bench'], present) if present else '–'
                counts[target] += 1
                cells.append(target)
                print('| ' + ' | '.join(cells) + ' |')
    return counts


def main(path):
    samples, order, disturbed = read(path)
    if 'h2bench' not in order['server']:
        print('No page loads of h2bench.')
        return
    peers = [s for s in order['server'] if s != 'h2bench']
    print("Chromium's page loads (ms, the document's fetch to the last byte of any response; n per server):")
    print()
    medians_table(samples, order, peers)
    print()
    print('The ratios of the medians, per server:')
    print()
    counts = ratios_table(samples, order, peers)
    print()
    print(f"{counts['met']} of {sum(counts.values())} ratios within 5 % of every peer's, {counts['between']} between "
          f"the peers, {counts['MISSED']} missed" + (f'; {disturbed} disturbed loads left out' if disturbed else ''))


if __name__ == '__main__':
    main(sys.argv[1])
