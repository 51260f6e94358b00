#!/usr/bin/env bash
# The server build's step before its tests (server/pom.xml, maven-antrun-plugin): puts the h3
# listener's JNI library and a note on it into OUT_DIR, from which the tests load it
# (java.library.path) and the shaded jar carries it (META-INF/native/).
#   patched  (the default) the library build-quiche.sh builds with server/native/quiche-*.patch
#            (issue 38: quiche's CUBIC keeps its window cuts, as ngtcp2's does). When that build
#            cannot run here (no Rust 1.88+, cmake, ninja or g++; no network for its first fetch)
#            this falls back to Netty's library with a WARNING: a build never breaks on it.
#   netty    Netty's library as netty-codec-native-quic ships it, on purpose (-Dh2bench.quiche=netty,
#            for A/B runs against the patched one)
# The note, h2bench-quiche-build.txt, says which it is and, for Netty's, why: a line "chosen: ..."
# or "fallback: ..." (Http3WindowCutHoldsTest reads the latter as a machine without the toolchain).
# Progress goes to stdout (the build's log), warnings to stderr.
# usage: server/native/quiche-library.sh OUT_DIR NETTY_QUIC_JAR [patched|netty]
set -euo pipefail

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 OUT_DIR NETTY_QUIC_JAR [patched|netty]" >&2; exit 2; }
out="$1"
netty_jar="$2"
choice="${3:-patched}"
here="$(cd "$(dirname "$0")" && pwd)"
LIB_NAME=libnetty_quiche42_linux_x86_64.so
INFO_NAME=h2bench-quiche-build.txt

mkdir -p "$out"
rm -f "$out/$LIB_NAME" "$out/$INFO_NAME"

# Netty's library, and a note whose last line is REASON_LINE ("chosen: ..." or "fallback: ...").
netty_library() {
  unzip -p "$netty_jar" "META-INF/native/$LIB_NAME" >"$out/$LIB_NAME"
  {
    echo "$LIB_NAME as $(basename "$netty_jar" .jar) ships it: quiche 0.29.3 without h2bench's CUBIC patches"
    echo "its CUBIC rolls back a window cut after a sparse loss, so h3's large bodies under loss are quiche's rollback, not ngtcp2's CUBIC"
    echo "$1"
  } >"$out/$INFO_NAME"
}

case "$choice" in
  netty)
    echo "h2bench quiche: Netty's library, as -Dh2bench.quiche=netty asks (the A/B build)"
    netty_library "chosen: -Dh2bench.quiche=netty"
    exit 0 ;;
  patched|"") ;;
  *) echo "quiche-library: -Dh2bench.quiche must be patched or netty, was '$choice'" >&2; exit 2 ;;
esac

echo "h2bench quiche: the patched library (server/native/build-quiche.sh; about 4 minutes the first time, cached after)"
log="$(mktemp)"
path_file="$(mktemp)"
trap 'rm -f "$log" "$path_file"' EXIT
status=0
{ "$here/build-quiche.sh" >"$path_file"; } 2>&1 | tee "$log" || status=$?
if [ "$status" = 0 ]; then
  library="$(tail -1 "$path_file")"
  cp "$library" "$(dirname "$library")/$INFO_NAME" "$out/"
  exit 0
fi

# build-quiche.sh exits 3 when a tool is missing or too old; its last line names it
if [ "$status" = 3 ]; then
  why="$(tail -1 "$log" | sed -e 's/^build-quiche: //' -e 's/ (Debian: .*//')"
  fix="install Rust 1.88+ with rustup, and cmake, ninja and g++ (Debian: apt-get install cmake ninja-build g++), and build again"
else
  why="build-quiche.sh failed (exit $status; its output above, e.g. no network for the first fetch of the crates)"
  fix="remove the cause in build-quiche.sh's output above and build again"
fi
netty_library "fallback: $why; $fix"
{
  echo "WARNING: the h3 listener gets Netty's quiche library, not h2bench's patched one: $why."
  echo "WARNING: h3's large bodies under loss are then quiche's rollback of its window cuts, not ngtcp2's CUBIC"
  echo "WARNING: (2 MiB at 1 % loss in about 0.4x gtlsserver's time); the server's banner and the jar's $INFO_NAME say so."
  echo "WARNING: for the patched one: $fix."
} >&2
