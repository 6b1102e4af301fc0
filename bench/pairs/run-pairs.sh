#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make pairs: the bench pairs that earn rules their severity. For each rule
# a bad pipeline and its fixed twin (bench/pairs/*.pair) run alternately with
# `gstprof run`; the metric that matters (fps, latency, CPU, drops) is read
# from each session.json, and the rule counts as verified on this machine
# when it fires on every bad run, stays silent on every good run, and the
# fix's median gain exceeds the runs' spread. Writes bench/pairs/RESULTS.md
# and bench/pairs/results.json. Not a test: exits 0 whatever it measured.
#
#   sh bench/pairs/run-pairs.sh [RULE...]        e.g. QUEUE SYNC
#
# Env: BUILD (build folder, default build), PAIRS_RUNS (runs of each side,
# default 5), PAIRS_OUT (where sessions go, default a temp folder),
# PAIRS_TIMEOUT (seconds allowed per run beyond its duration, default 60).
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}

if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" "$SRC" >/dev/null || {
    echo "run-pairs: meson setup of '$BUILD' failed" >&2; exit 2; }
fi
# Only what a run needs: the CLI and the tracer it loads.
ninja -C "$BUILD" src/cli/gstprof src/tracer/libgstprof.so >/dev/null || {
  echo "run-pairs: building gstprof in '$BUILD' failed" \
    "(run: ninja -C $BUILD)" >&2
  exit 2; }

exec python3 "$SRC/bench/pairs/gp-pairs.py" "$BUILD" "$SRC" "$@"
