#!/usr/bin/env python3
"""Issue 21: what Chromium's QUIC session to one host announced and did, from its net log
(--log-net-log; benchmarks/chromium-h3.sh with CAPTURE=1 writes one per series).

    benchmarks/netlog-quic.py NETLOG.json [HOST (default h2bench.test)] [PAGE_PATH (default /)]

Prints the transport parameters and HTTP/3 SETTINGS it sent and received, then one line per load
(from one request for PAGE_PATH to the next), in ms from the document's request: the document's
response headers, when the page's other requests were sent (its HEADERS frames, /favicon.ico left
out), the last stream FIN received, the packets received, the ACK frames sent (and packets received
per ACK frame), and the ACK delays those frames reported. A log cut off by a killed browser is read
up to its cut.
"""
import json
import statistics
import sys

ANNOUNCEMENTS = ("QUIC_SESSION_TRANSPORT_PARAMETERS_SENT", "QUIC_SESSION_TRANSPORT_PARAMETERS_RECEIVED",
                 "HTTP3_SETTINGS_SENT", "HTTP3_SETTINGS_RECEIVED")


def read_log(path):
    text = open(path, encoding="utf-8").read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:  # cut off: close the events' list after the last whole event
        lines = text.rstrip().splitlines()
        while lines and not lines[-1].rstrip().rstrip(",").endswith("}"):
            lines.pop()
        return json.loads("\n".join(lines).rstrip().rstrip(",") + "]}")


def session_events(log, host):
    """The events of the first QUIC session to host: (ms, name, params)."""
    names = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    events = [(int(e["time"]), names.get(e["type"]), e.get("params", {}), e["source"]["id"]) for e in log["events"]]
    sessions = [source for _, name, params, source in events if name == "QUIC_SESSION" and params.get("host") == host]
    if not sessions:
        sys.exit(f"no QUIC session to {host}")
    return [(time, name, params) for time, name, params, source in events if source == sessions[0]]


def path_of(params):
    return next((h[len(":path: "):] for h in params.get("headers", []) if h.startswith(":path: ")), None)


def describe(load):
    start = load[0][0]
    ms = lambda t: t - start
    response = next((ms(t) for t, name, p in load if name == "HTTP3_HEADERS_RECEIVED"), None)
    requests = [ms(t) for t, name, p in load[1:] if name == "HTTP3_HEADERS_SENT" and path_of(p) != "/favicon.ico"]
    fins = [ms(t) for t, name, p in load if name == "QUIC_SESSION_STREAM_FRAME_RECEIVED" and p.get("fin")
            and p.get("stream_id", 1) % 4 == 0]
    received = sum(1 for _, name, _ in load if name == "QUIC_SESSION_PACKET_RECEIVED")
    delays = [p["delta_time_largest_observed_us"] / 1000 for _, name, p in load if name == "QUIC_SESSION_ACK_FRAME_SENT"]
    line = f"response {response}, {len(requests)} requests"
    if requests:
        line += f" sent {min(requests)} to {max(requests)}"
    line += f", last FIN {max(fins) if fins else None}; {received} packets received, {len(delays)} ACK frames sent"
    if delays:
        line += (f" ({received / len(delays):.1f} packets a frame), ACK delay median {statistics.median(delays):.1f}"
                 f" max {max(delays):.1f}")
    return line


def main():
    log = read_log(sys.argv[1])
    host = sys.argv[2] if len(sys.argv) > 2 else "h2bench.test"
    page = sys.argv[3] if len(sys.argv) > 3 else "/"
    events = session_events(log, host)
    for _, name, params in events:
        if name in ANNOUNCEMENTS:
            print(f"{name}: {json.dumps(params)}")
    starts = [i for i, (_, name, params) in enumerate(events) if name == "HTTP3_HEADERS_SENT" and path_of(params) == page]
    for number, (begin, end) in enumerate(zip(starts, starts[1:] + [len(events)])):
        print(f"load {number}: {describe(events[begin:end])}")


if __name__ == "__main__":
    main()
