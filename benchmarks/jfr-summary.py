#!/usr/bin/env python3
"""Execution samples of a JFR recording, summarised for comparing two clients (issue 13).

    benchmarks/jfr-summary.py RECORDING.jfr [--tree METHOD [--depth N] [--min N]] [--top N]

Prints the samples per thread (numbers stripped from thread names), the methods on top of the stack
(self), the methods anywhere on it (total), and with --tree the call tree below METHOD (as
'package/Class.method', e.g. io/h2bench/client/UserConnections.sendAsync), each node with its
sample count. The shaded Jetty package is shown as J/. Needs the JDK's `jfr` tool. Record with
execution samples at 2 to 10 ms (a copy of the JDK's profile.jfc with jdk.ExecutionSample's period
lowered) so that a 15 s run has a few thousand samples.
"""
import argparse
import collections
import json
import re
import subprocess


def stacks_of(recording):
    printed = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '96', '--events', 'jdk.ExecutionSample', recording],
                             capture_output=True, text=True, check=True).stdout
    for event in json.loads(printed)['recording']['events']:
        values = event['values']
        sampled = values.get('sampledThread') or {}  # JFR leaves it out for a thread that ended meanwhile
        thread = sampled.get('javaName') or sampled.get('osName') or 'unknown thread'
        frames = values['stackTrace']['frames'] if values.get('stackTrace') else []
        names = [(frame['method']['type']['name'] + '.' + frame['method']['name']).replace('io/h2bench/shaded/jetty/', 'J/')
                 for frame in frames]
        yield re.sub(r'[-\d ]+$', '', thread), names[::-1]


def show_tree(node, indent, minimum):
    for name, (count, children) in sorted(node.items(), key=lambda item: -item[1][0]):
        if count >= minimum:
            print(f'{"  " * indent}{count:6d} {name}')
            show_tree(children, indent + 1, minimum)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('recording')
    parser.add_argument('--top', type=int, default=25)
    parser.add_argument('--tree')
    parser.add_argument('--depth', type=int, default=4)
    parser.add_argument('--min', type=int, default=5)
    args = parser.parse_args()
    samples = list(stacks_of(args.recording))
    threads = collections.Counter(thread for thread, _ in samples)
    own = collections.Counter(stack[-1] for _, stack in samples if stack)
    anywhere = collections.Counter(name for _, stack in samples for name in set(stack))
    print(f'{len(samples)} execution samples')
    for title, counter in (('by thread', threads), ('self', own), ('total', anywhere)):
        print(f'-- {title}')
        for name, count in counter.most_common(args.top):
            print(f'{count:6d} {100 * count / max(1, len(samples)):5.1f}% {name}')
    if args.tree:
        tree = {}
        for _, stack in samples:
            if args.tree in stack:
                node = tree
                start = stack.index(args.tree)
                for name in stack[start:start + args.depth + 1]:
                    node = node.setdefault(name, [0, {}])
                    node[0] += 1
                    node = node[1]
        print(f'-- tree below {args.tree}')
        show_tree(tree, 0, args.min)


if __name__ == '__main__':
    main()
