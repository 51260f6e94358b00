#!/usr/bin/env python3
"""When a client-cost.sh run's TLS decryption became fast, from its JFR recording (the 44 kB h2 row's modes).

    benchmarks/jfr-crypto-warmth.py RECORDING.jfr RUN_DIR [--warmup S]

The JDK's AES-GCM hashes each record with GHASH.processBlocks, which C2 replaces with a CLMUL stub
(an intrinsic) only in compiled callers; until then its Java body runs, block by block, at many times
the stub's cost. Samples whose top frame is that body (GHASH.processBlock, GHASH.blockMult, or the
VarHandle reads of longs they make) show it. Prints, per second from the run's first sample
(RUN_DIR/results.jtl), the JMeter users' execution samples and the share in GHASH's Java body; then
the second after which the share stayed under 3 %, and the share in the steady window (from --warmup
s, default 5, to 1 s before the last sample ended). A run whose crypto is still cold in its steady
window costs more CPU per request, whichever client it measures.
"""
import argparse
import collections
import json
import os
import subprocess
from datetime import datetime

GHASH_BODY = ('com/sun/crypto/provider/GHASH.processBlock', 'com/sun/crypto/provider/GHASH.blockMult',
              'java/lang/invoke/VarHandleByteArrayAsLongs')


def samples(recording):
    """(epoch seconds, top frame) of the JMeter users' execution samples."""
    printed = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '1', '--events', 'jdk.ExecutionSample', recording],
                             capture_output=True, text=True, check=True).stdout
    for event in json.loads(printed)['recording']['events']:
        values = event['values']
        thread = (values.get('sampledThread') or {}).get('javaName') or ''
        if 'users' not in thread:
            continue
        frames = values['stackTrace']['frames'] if values.get('stackTrace') else []
        top = frames[0]['method']['type']['name'] + '.' + frames[0]['method']['name'] if frames else ''
        yield datetime.fromisoformat(values['startTime'].replace('Z', '+00:00')).timestamp(), top


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('recording')
    parser.add_argument('run')
    parser.add_argument('--warmup', type=float, default=5)
    args = parser.parse_args()
    with open(os.path.join(args.run, 'results.jtl')) as jtl:
        rows = [line.split(',') for line in list(jtl)[1:]]
    first = min(int(row[0]) for row in rows) / 1000
    last = max(int(row[0]) + int(row[1]) for row in rows) / 1000
    users, cold = collections.Counter(), collections.Counter()
    steady = steady_cold = 0
    for at, top in samples(args.recording):
        second = int(at - first)
        users[second] += 1
        body = top.startswith(GHASH_BODY)
        cold[second] += body
        if first + args.warmup <= at < last - 1:
            steady += 1
            steady_cold += body
    print('second  users\' samples  in GHASH\'s Java body')
    for second in sorted(users):
        print(f'{second:6d} {users[second]:15d} {100 * cold[second] / users[second]:18.1f} %')
    warm = max((second for second in users if users[second] >= 10 and cold[second] > 0.03 * users[second]), default=-1) + 1
    print(f'GHASH\'s Java body under 3 % of the samples from {warm} s; in the steady window (from {args.warmup:g} s): '
          f'{100 * steady_cold / max(steady, 1):.1f} % of {steady} samples')


if __name__ == '__main__':
    main()
