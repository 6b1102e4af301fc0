#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make bench: what the gstprof tracer costs, against no tracer, GStreamer's
# core tracers and a no-op tracer (the floor of hook dispatch). Not a test:
# it prints measurements and PASS/FAIL per target, and exits 0 either way.
#
#   sh bench/run-bench.sh [BUILD_DIR]
#
# Env: BENCH_RUNS (runs per configuration, default 5), BENCH_ONLY (e.g.
# "P_TINY,P_REAL,MEM"), BENCH_CONFIGS (e.g. "untraced,noop,gstprof"),
# BENCH_TIMEOUT (seconds per run, default 300), BENCH_GSTPROF_PARAMS
# (e.g. "cpu=true"). See bench/README.md.
BUILD=${1:-build}
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" "$SRC" >/dev/null || {
    echo "run-bench: meson setup of '$BUILD' failed" >&2; exit 2; }
fi

# Build only what the benchmark runs, so a half-written room elsewhere does
# not stop it.
ninja -C "$BUILD" bench/gp-bench-run bench/libgstprofnoop.so >/dev/null || {
  echo "run-bench: building bench/ in '$BUILD' failed" \
    "(run: ninja -C $BUILD)" >&2
  exit 2; }
TRACER=src/tracer/libgstprof.so
if ninja -C "$BUILD" -t targets all 2>/dev/null | grep -q "^$TRACER:"; then
  ninja -C "$BUILD" "$TRACER" >/dev/null ||
    echo "run-bench: warning: the gstprof tracer did not build;" \
      "its rows are skipped" >&2
fi

exec python3 "$SRC/bench/gp-bench.py" "$BUILD" "$SRC"
