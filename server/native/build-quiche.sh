#!/usr/bin/env bash
# Builds Netty's QUIC JNI library (libnetty_quiche42_linux_x86_64.so) with a patched quiche, so that
# the h3 listener's congestion control can be changed where no quiche or Netty setting reaches
# (issue 38: quiche's CUBIC made to do what ngtcp2 0.12's does; each quiche-*.patch says what it changes and why).
#
# The parts, each the version Netty 4.2.18.Final's own linux-x86_64 library was built from:
#   quiche 0.29.3       the crate (its MANIFEST's Quiche-Revision 55886df is the 0.29.3 release
#                       commit), with the patches in this directory, features ffi and qlog as Netty's
#                       build, without the boring crate (that would need libclang for its bindgen)
#   BoringSSL           the copy vendored in the boring-sys 4.22.0 crate, the one quiche's default
#                       feature links (Netty's MANIFEST names BoringSSL d03dbc3; no registry serves
#                       that commit). Built with cmake and ninja; its pre-generated assembly needs
#                       neither Go nor Perl
#   the JNI glue        netty_quic_*.c and musl_compat.c from netty-codec-native-quic's sources jar,
#                       netty_jni_util.c from io.netty:netty-jni-util's, the JDK's jni.h
# Needs: cargo and rustc (1.88 or newer), cmake, ninja, gcc and g++ with libstdc++.a (Debian's
# g++), mvn, unzip, sha256sum; the crate registry and Maven Central on the first run. Exits 3 when
# a tool is missing or too old (the message names it), another non-zero status when a step fails.
# The library carries the string "h2bench-quiche-build: quiche VERSION with PATCHES", by which the
# server tells it from Netty's.
#
# Idempotent: everything is cached under ${H2BENCH_CACHE:-~/.cache/h2bench}/quiche/, the library
# under a key made of the versions, this script and the patches; a second run with nothing changed
# only prints the path. Prints that path on stdout as its last line; progress goes to stderr.
# The sources jars are looked up in ${MAVEN_REPO:-~/.m2/repository} and fetched there when absent.
# usage: server/native/build-quiche.sh [--print-path|--check]
#   --print-path  the path only, no build
#   --check       no build: one line per tool the build would miss (exit 3), nothing when it can run or is cached
set -euo pipefail

QUICHE_VERSION=0.29.3
BORING_SYS_VERSION=4.22.0
NETTY_VERSION=4.2.18.Final
JNI_UTIL_VERSION=0.0.11.Final
RUST_MIN=1.88
LIB_NAME=libnetty_quiche42_linux_x86_64.so

here="$(cd "$(dirname "$0")" && pwd)"
cache="${H2BENCH_CACHE:-$HOME/.cache/h2bench}/quiche"
# The patches: server/native/quiche-*.patch, or the files H2BENCH_QUICHE_PATCHES names (space-separated
# paths, e.g. to add one of experimental/), applied in that order.
if [ -n "${H2BENCH_QUICHE_PATCHES:-}" ]; then read -r -a patches <<<"$H2BENCH_QUICHE_PATCHES"; else patches=("$here"/quiche-*.patch); fi
for p in "${patches[@]}"; do [ -f "$p" ] || { echo "build-quiche: no patch file $p" >&2; exit 2; }; done
patch_key="$(cat "${patches[@]}" | sha256sum | cut -c1-12)"
key="$( { echo "$QUICHE_VERSION $BORING_SYS_VERSION $NETTY_VERSION $JNI_UTIL_VERSION"
          cat "$0" "${patches[@]}"; } | sha256sum | cut -c1-16)"
out="$cache/lib-$key"
INFO_NAME=h2bench-quiche-build.txt

case "${1:-}" in
  --print-path) echo "$out/$LIB_NAME"; exit 0 ;;
  --check|"") ;;
  *) echo "usage: $0 [--print-path|--check]" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "usage: $0 [--print-path|--check]" >&2; exit 2; }

step() { echo "build-quiche: $(date -u +%H:%M:%S) $*" >&2; }
if [ -f "$out/$LIB_NAME" ]; then
  [ "${1:-}" = --check ] && exit 0
  step "cached: $out/$LIB_NAME"
  echo "$out/$LIB_NAME"
  exit 0
fi

export PATH="$HOME/.cargo/bin:$PATH"
missing=()
for tool in cmake ninja gcc g++ mvn unzip sha256sum patch; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
# quiche 0.29.3's crates need Rust 1.88 (Debian 12's rustc is 1.63: rustup's is needed there)
rust_version="$( (rustc --version 2>/dev/null || true) | awk '{print $2}')"
if [ -z "$rust_version" ] || ! cargo --version >/dev/null 2>&1; then
  missing+=("Rust $RUST_MIN or newer (no cargo and rustc that run)")
elif [ "$(printf '%s\n' "$RUST_MIN" "$rust_version" | sort -V | head -1)" != "$RUST_MIN" ]; then
  missing+=("Rust $RUST_MIN or newer (rustc is $rust_version)")
fi
if [ "${1:-}" = --check ]; then # one line per missing tool, for bin/test
  [ ${#missing[@]} -eq 0 ] || { printf '%s\n' "${missing[@]}"; exit 3; }
  exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
  printf -v named '%s, ' "${missing[@]}"
  echo "build-quiche: missing ${named%, } (Debian: apt-get install cmake ninja-build g++ maven unzip patch; Rust $RUST_MIN+: rustup)" >&2
  exit 3
fi
javac_path="$(command -v javac || true)"
java_home="${JAVA_HOME:-$( [ -n "$javac_path" ] && dirname "$(dirname "$(readlink -f "$javac_path")")")}"
[ -f "$java_home/include/jni.h" ] || { echo "build-quiche: no jni.h under JAVA_HOME ($java_home): a JDK is needed" >&2; exit 1; }

started=$(date +%s)
work="$cache/work"
mkdir -p "$work"
step "building into $work (intermediate steps kept, each keyed by its inputs)"

# 1. The crate sources, by cargo: a throwaway package that depends on both crates makes cargo fetch them.
registry_src() { # the unpacked crate's directory in cargo's registry
  local d
  for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$1"; do [ -d "$d" ] && { echo "$d"; return 0; }; done
  return 1
}
if ! registry_src "quiche-$QUICHE_VERSION" >/dev/null || ! registry_src "boring-sys-$BORING_SYS_VERSION" >/dev/null; then
  step "fetching quiche $QUICHE_VERSION and boring-sys $BORING_SYS_VERSION with cargo"
  mkdir -p "$work/fetch/src"
  echo 'fn main() {}' >"$work/fetch/src/main.rs"
  cat >"$work/fetch/Cargo.toml" <<EOF
[package]
name = "h2bench-quiche-fetch"
version = "0.0.0"
edition = "2021"
[dependencies]
quiche = { version = "=$QUICHE_VERSION", default-features = false }
boring-sys = "=$BORING_SYS_VERSION"
EOF
  (cd "$work/fetch" && cargo fetch -q)
fi
quiche_crate="$(registry_src "quiche-$QUICHE_VERSION")"
boringssl_src="$(registry_src "boring-sys-$BORING_SYS_VERSION")/deps/boringssl"

# 2. BoringSSL's static libraries.
bssl="$work/boringssl-$BORING_SYS_VERSION"
if [ ! -f "$bssl/libssl.a" ] || [ ! -f "$bssl/libcrypto.a" ]; then
  step "BoringSSL (boring-sys $BORING_SYS_VERSION's copy): cmake and ninja crypto ssl"
  cmake -S "$boringssl_src" -B "$bssl" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_POSITION_INDEPENDENT_CODE=TRUE -DCMAKE_C_FLAGS_RELEASE="-O3 -fno-omit-frame-pointer" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O3 -fno-omit-frame-pointer" -DCMAKE_ASM_FLAGS="-Wa,--noexecstack" >"$work/boringssl-cmake.log" 2>&1 \
    || { tail -20 "$work/boringssl-cmake.log" >&2; exit 1; }
  ninja -C "$bssl" crypto ssl >"$work/boringssl-ninja.log" 2>&1 || { tail -30 "$work/boringssl-ninja.log" >&2; exit 1; }
fi

# 3. quiche, patched, as a static library.
qsrc="$work/quiche-$QUICHE_VERSION-$patch_key"
if [ ! -f "$qsrc/.patched" ]; then
  step "quiche $QUICHE_VERSION: copying the crate and applying ${#patches[@]} patch(es)"
  rm -rf "$qsrc"
  cp -r "$quiche_crate" "$qsrc"
  for p in "${patches[@]}"; do
    step "  $(basename "$p")"
    patch -s -p1 -d "$qsrc" <"$p"
  done
  touch "$qsrc/.patched"
fi
libquiche="$qsrc/target/release/libquiche.a"
if [ ! -f "$libquiche" ] || [ "$qsrc/.patched" -nt "$libquiche" ]; then
  step "quiche $QUICHE_VERSION: cargo build (release, features ffi qlog; a few minutes)"
  (cd "$qsrc" && RUSTFLAGS="-Cforce-frame-pointers=yes" cargo rustc -q --locked --release --lib \
     --no-default-features --features "ffi qlog" --crate-type staticlib)
fi

# 4. Netty's JNI glue, from the sources jars in the local Maven repository (fetched when absent).
m2="${MAVEN_REPO:-$HOME/.m2/repository}"
sources_jar() { # group path, artifact, version
  local jar="$m2/$1/$2/$3/$2-$3-sources.jar"
  if [ ! -f "$jar" ]; then
    step "fetching $2 $3 sources with mvn"
    mvn -B -q dependency:get -Dmaven.repo.local="$m2" -Dartifact="${1//\//.}:$2:$3:jar:sources" -Dtransitive=false \
      >"$work/mvn-$2.log" 2>&1 || { cat "$work/mvn-$2.log" >&2; exit 1; }
  fi
  echo "$jar"
}
glue="$work/glue-$NETTY_VERSION-$JNI_UTIL_VERSION"
if [ ! -f "$glue/.unpacked" ]; then
  rm -rf "$glue"
  mkdir -p "$glue"
  unzip -q -o "$(sources_jar io/netty netty-codec-native-quic "$NETTY_VERSION")" '*.c' '*.h' -d "$glue"
  unzip -q -o "$(sources_jar io/netty netty-jni-util "$JNI_UTIL_VERSION")" '*.c' '*.h' -d "$glue"
  touch "$glue/.unpacked"
fi

# 5. Compile the glue and link it with quiche and BoringSSL, as Netty's build does for linux-x86_64.
step "compiling Netty's JNI glue and linking $LIB_NAME"
cflags=(-std=gnu99 -fPIC -O3 -fno-omit-frame-pointer -fvisibility=hidden -Wunused -Wno-unused-value
        -I"$qsrc/include" -I"$boringssl_src/src/include" -I"$glue" -I"$java_home/include" -I"$java_home/include/linux")
objs=()
for c in "$glue"/*.c; do
  o="$glue/$(basename "${c%.c}").o"
  gcc "${cflags[@]}" -c "$c" -o "$o"
  objs+=("$o")
done
# A string in the library naming the build, which the server reads from the library it loaded (QuicheLibrary)
marker="$work/h2bench-quiche-marker-$key.c"
printf '__attribute__((used, visibility("hidden"))) const char h2bench_quiche_build[] =\n  "h2bench-quiche-build: quiche %s with %s";\n' \
  "$QUICHE_VERSION" "$(for p in "${patches[@]}"; do printf '%s ' "$(basename "$p")"; done | sed 's/ $//')" >"$marker"
gcc "${cflags[@]}" -c "$marker" -o "${marker%.c}.o"
objs+=("${marker%.c}.o")
mkdir -p "$out.tmp"
g++ -shared -o "$out.tmp/$LIB_NAME" "${objs[@]}" "$libquiche" "$bssl/libssl.a" "$bssl/libcrypto.a" \
  -Wl,-soname="$LIB_NAME" -Wl,--build-id=sha1 -Wl,--strip-debug -Wl,--exclude-libs,ALL -Wl,-z,defs \
  -static-libstdc++ -static-libgcc -lpthread -ldl -lm -lrt -lc
{
  echo "$LIB_NAME built by server/native/build-quiche.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "quiche $QUICHE_VERSION with: $(for p in "${patches[@]}"; do printf '%s ' "$(basename "$p")"; done)"
  echo "BoringSSL: boring-sys $BORING_SYS_VERSION's vendored copy; glue: netty-codec-native-quic $NETTY_VERSION, netty-jni-util $JNI_UTIL_VERSION"
  echo "$(rustc --version); $(gcc --version | head -1)"
  echo "wall time of this run: $(( $(date +%s) - started )) s (steps cached from earlier runs not counted)"
} >"$out.tmp/$INFO_NAME"
rm -rf "$out"
mv "$out.tmp" "$out"
step "done in $(( $(date +%s) - started )) s: $out/$LIB_NAME"
echo "$out/$LIB_NAME"
