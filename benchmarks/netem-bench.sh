#!/bin/sh
# What the network emulator costs at zero settings (issue 5): added round-trip time per request
# and loopback forwarding rate, each against the same server reached directly. Run it on a quiet
# machine; the numbers are only as steady as the scheduler lets them be.
set -eu
cd "$(dirname "$0")/.."
mvn -q -B -pl server test-compile
CP="server/target/classes:server/target/test-classes"
exec java -cp "$CP" io.h2bench.server.netem.NetemBenchmark "$@"
