#!/bin/sh
# Fuzzes the session.json reader (tests/fuzz/fuzz-session.c) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer for N seconds (default 60).
#
#   sh tests/fuzz/run-fuzz.sh [seconds]
#
# Builds with a plain clang command line (pkg-config flags, the core sources
# it needs), so it does not touch any meson build directory. Work files go
# to $FUZZ_DIR (default build-fuzz/): the binaries, seeds/ (regenerated each
# run), corpus/ (kept between runs, so each run starts where the last one
# stopped) and crash-*/leak-*/timeout-* artifacts when something is found.
# Exit status: 0 when nothing was found, libFuzzer's status otherwise.
# Not part of `make test`.
set -eu

SECS=${1:-60}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_DIR:-$ROOT/build-fuzz}
CC=${CC:-clang}

case $SECS in
  ''|*[!0-9]*) echo "run-fuzz.sh: seconds must be a whole number, got '$SECS'" >&2; exit 3 ;;
esac
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "run-fuzz.sh: $CC not found (clang with libFuzzer is needed)" >&2
  exit 3
fi

mkdir -p "$OUT/corpus"
rm -rf "$OUT/seeds"
mkdir -p "$OUT/seeds"

PKG="glib-2.0 json-glib-1.0"
CFLAGS_PKG=$(pkg-config --cflags $PKG)
LIBS_PKG=$(pkg-config --libs $PKG)
CORE="$ROOT/src/core/gp-session.c $ROOT/src/core/gp-session-json.c $ROOT/src/core/gp-stats.c"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

echo "run-fuzz.sh: building $OUT/fuzz-session with $CC"
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer -I"$ROOT/src/core" $CFLAGS_PKG \
  -o "$OUT/fuzz-session" "$ROOT/tests/fuzz/fuzz-session.c" $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 -I"$ROOT/src/core" $CFLAGS_PKG \
  -o "$OUT/make-seeds" "$ROOT/tests/fuzz/make-seeds.c" $CORE $LIBS_PKG -lm

# Seeds: sessions saved through the model (every section filled), a real
# capture when a gstprof binary is built, and foreign JSON (gst-profile
# sessions) that exercises the refusal paths.
"$OUT/make-seeds" "$OUT/seeds"
for bin in "$ROOT"/build*/src/cli/gstprof; do
  [ -x "$bin" ] || continue
  rm -rf "$OUT/real"
  timeout 60 "$bin" run --duration 2s --out "$OUT/real" \
    "videotestsrc num-buffers=60 ! identity sleep-time=1000 ! queue ! fakesink sync=false" \
    >/dev/null 2>&1 || true
  if [ -f "$OUT/real/session.json" ]; then
    cp "$OUT/real/session.json" "$OUT/seeds/real.json"
    break
  fi
done
for f in "$ROOT"/demo-session/session.json "$ROOT"/../shared/fixtures/gst-profile-sessions/*.json; do
  [ -f "$f" ] && cp "$f" "$OUT/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
echo "run-fuzz.sh: $(ls "$OUT/seeds" | wc -l) seeds, $(ls "$OUT/corpus" | wc -l) corpus entries; running ${SECS}s"

# GLib's slice allocator would hide use-after-free from ASan (GLib < 2.76).
export G_SLICE=always-malloc
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$OUT"
set +e
"$OUT/fuzz-session" -max_total_time="$SECS" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -print_final_stats=1 -dict="$ROOT/tests/fuzz/session.dict" \
  -artifact_prefix="$OUT/" "$OUT/corpus" "$OUT/seeds" 2>&1 | tee "$OUT/fuzz.log" | \
  grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|bad error|written session|save \(load)' 
set -e
# the pipeline's status is grep's; read libFuzzer's verdict from its log
if grep -q -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|Test unit written' "$OUT/fuzz.log"; then
  echo "run-fuzz.sh: FINDING, see $OUT/fuzz.log and the artifacts in $OUT" >&2
  exit 1
fi
echo "run-fuzz.sh: nothing found ($(grep -E '^stat::number_of_executed_units' "$OUT/fuzz.log" | awk '{print $2}') executions)"
