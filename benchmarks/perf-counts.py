#!/usr/bin/env python3
"""Per request, what benchmarks/perf-counts.sh counted beside one client-cost.sh run.

    benchmarks/perf-counts.py RUN_DIR

Reads RUN_DIR/results.jtl, perf.window, perf-client.csv and perf-server.csv; prints one line: the
requests that ended in the counting window, and per request the client's and the server's system
calls (all, epoll_wait, read, write, writev, futex) and context switches.
"""
import csv
import os
import sys

SHORT = {"raw_syscalls:sys_enter": "syscalls", "context-switches": "switches"}


def per_request(path, requests):
    counts = {}
    with open(path) as perf:
        for line in perf:
            fields = line.strip().split(",")
            if len(fields) > 2 and fields[0].isdigit():
                name = fields[2]
                counts[SHORT.get(name, name.replace("syscalls:sys_enter_", ""))] = int(fields[0]) / requests
    return " ".join(f"{name} {value:.2f}" for name, value in counts.items())


def main(run):
    start, end = (int(value) for value in open(os.path.join(run, "perf.window")).read().split())
    with open(os.path.join(run, "results.jtl")) as jtl:
        rows = csv.reader(jtl)
        next(rows)
        requests = sum(1 for row in rows if start <= int(row[0]) + int(row[1]) < end)
    if requests == 0:
        print(f"{os.path.basename(run)}: no request ended in the counting window")
        return
    print(f"{os.path.basename(run)}: {requests} requests in {(end - start) / 1000:.1f} s; per request, client: "
          f"{per_request(os.path.join(run, 'perf-client.csv'), requests)}; server: "
          f"{per_request(os.path.join(run, 'perf-server.csv'), requests)}")


if __name__ == "__main__":
    main(sys.argv[1])
