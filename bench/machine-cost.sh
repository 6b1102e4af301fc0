#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the machine samplers of `gstprof run` / `wrap` cost: all of them at
# the default window (250 ms) for BENCH_SECONDS (default 10), their CPU
# time as a % of one core, side by side: the kernel's files alone (this
# machine's tools, if any, left out of PATH), then with the tegrastats and
# nvidia-smi stand-ins of tests/telemetry/stand-in first in PATH replaying
# real lines at that window (the children's CPU counted too). Target: under
# 1 % of one core. Not a test: it prints PASS/FAIL and exits 0 either way
# (bench/README.md, "The machine samplers").
#
#   sh bench/machine-cost.sh [BUILD_DIR]        (default build)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECS=${BENCH_SECONDS:-10}
WINDOW=${BENCH_WINDOW_MS:-250}
FIX=${GP_FIXTURES:-$SRC/tests/fixtures}/telemetry
TARGET=1.0

case $SECS in ''|*[!0-9]*|0) echo "machine-cost: BENCH_SECONDS must be a whole number above 0" >&2; exit 3 ;; esac
case $WINDOW in ''|*[!0-9]*) echo "machine-cost: BENCH_WINDOW_MS must be a whole number" >&2; exit 3 ;; esac
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" "$SRC" >/dev/null || {
    echo "machine-cost: meson setup of '$BUILD' failed" >&2; exit 2; }
fi
ninja -C "$BUILD" bench/gp-bench-machine tests/telemetry/stand-in/tegrastats \
  tests/telemetry/stand-in/nvidia-smi >/dev/null
BENCH=$BUILD/bench/gp-bench-machine
STANDIN=$BUILD/tests/telemetry/stand-in

verdict () {
  awk -v t="$TARGET" '/^cost_pct/ { v = $5 } END {
    printf "%s: %.3f %% of one core (target < %s %%)\n", (v < t ? "PASS" : "FAIL"), v, t }'
}

echo "machine-cost: the kernel's files alone, ${SECS} s at ${WINDOW} ms"
out=$(PATH=/usr/bin:/bin "$BENCH" "$SECS" "$WINDOW")
echo "$out"
echo "$out" | verdict

echo "machine-cost: with the tegrastats and nvidia-smi stand-ins, ${SECS} s at ${WINDOW} ms"
out=$(PATH=$STANDIN:/usr/bin:/bin \
  GP_STANDIN_TEGRASTATS=$FIX/tegrastats_agx_orin64_r36.4.4_nvenc_active.txt \
  GP_STANDIN_NVSMI=$FIX/nvidia_smi_query_rtx3060ti_3gpu_pcie_link_csv_header.txt \
  "$BENCH" "$SECS" "$WINDOW")
echo "$out"
echo "$out" | verdict
exit 0
