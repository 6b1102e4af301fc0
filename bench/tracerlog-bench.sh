#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# How fast `gstprof analyze` reads a GStreamer tracer log, side by side with
# gst-stats-1.0 on the same log, and whether its memory depends on the
# log's size. Not a test: it prints measurements and PASS/FAIL per target
# and exits 0 either way (bench/README.md, "Reading tracer logs").
#
#   sh bench/tracerlog-bench.sh [BUILD_DIR]     (default build-release)
#
# The log is made here: the real 1.22 sample of tests/ingest/tracerlog
# (latency, stats, rusage, leaks around a live 30 fps pipeline) repeated
# with every record's ts moved on by the sample's length, so the series
# runs on for hours as a long capture does: BENCH_LOG_MB (default 200) and
# a tenth of it for the memory check. Env: BENCH_RUNS (default 3, medians).
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build-release}
MB=${BENCH_LOG_MB:-200}
RUNS=${BENCH_RUNS:-3}
WORK=${BENCH_WORK:-$BUILD/bench/tracerlog}

case $MB in ''|*[!0-9]*|0) echo "tracerlog-bench: BENCH_LOG_MB must be a whole number above 0" >&2; exit 3 ;; esac
case $RUNS in ''|*[!0-9]*|0) echo "tracerlog-bench: BENCH_RUNS must be a whole number above 0" >&2; exit 3 ;; esac
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup --buildtype=release "$BUILD" "$SRC" >/dev/null || {
    echo "tracerlog-bench: meson setup of '$BUILD' failed" >&2; exit 2; }
fi
ninja -C "$BUILD" src/cli/gstprof >/dev/null
GSTPROF=$BUILD/src/cli/gstprof
STATS=$(command -v gst-stats-1.0 || true)
mkdir -p "$WORK"

# make_log MB OUT: the sample repeated to MB MiB
make_log () {
  python3 - "$SRC/tests/ingest/tracerlog/gst122-all.log.gz" "$1" "$2" <<'PY'
import gzip, re, sys
src, mb, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = gzip.open(src, 'rt').read().splitlines(True)
ts = re.compile(r'ts=\(guint64\)(\d+)')
span = max(int(m.group(1)) for l in lines for m in [ts.search(l)] if m) + 1
want, done, k = mb << 20, 0, 0
with open(out, 'w') as f:
    while done < want:
        shift = k * span
        chunk = ''.join(ts.sub(lambda m: 'ts=(guint64)%d' % (int(m.group(1)) + shift), l)
                        if k else l for l in lines)
        f.write(chunk)
        done += len(chunk)
        k += 1
PY
}

[ -f "$WORK/big.log" ] && [ "$(stat -c %s "$WORK/big.log")" -ge $((MB << 20)) ] || make_log "$MB" "$WORK/big.log"
SMALL=$((MB / 10)); [ "$SMALL" -ge 1 ] || SMALL=1
[ -f "$WORK/small.log" ] || make_log "$SMALL" "$WORK/small.log"
[ -f "$WORK/big.log.gz" ] && [ "$WORK/big.log.gz" -nt "$WORK/big.log" ] || gzip -1 -c "$WORK/big.log" > "$WORK/big.log.gz"
BYTES=$(stat -c %s "$WORK/big.log")

# median wall seconds of RUNS runs of a command; its peak RSS (KiB) in
# $WORK/rss
median () {
  i=0; : > "$WORK/times"
  while [ $i -lt "$RUNS" ]; do
    /usr/bin/time -f "%e %M" -o "$WORK/t" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$WORK/t" >> "$WORK/times"; i=$((i + 1))
  done
  sort -n -k2 "$WORK/times" | tail -n 1 | cut -d' ' -f2 > "$WORK/rss"
  sort -n "$WORK/times" | sed -n "$(( (RUNS + 1) / 2 ))p" | cut -d' ' -f1
}
rate () { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.0f", (s > 0 ? b / 1048576 / s : 0) }'; }

echo "tracerlog-bench: $(awk -v b="$BYTES" 'BEGIN { printf "%.0f", b / 1048576 }') MiB log, $RUNS runs each, $(nproc) CPUs"
T_GP=$(median "$GSTPROF" analyze "$WORK/big.log"); RSS_BIG=$(cat "$WORK/rss")
T_GZ=$(median "$GSTPROF" analyze "$WORK/big.log.gz")
median "$GSTPROF" analyze "$WORK/small.log" >/dev/null; RSS_SMALL=$(cat "$WORK/rss")
printf '  %-28s %7s s  %5s MiB/s\n' "gstprof analyze" "$T_GP" "$(rate "$T_GP")"
printf '  %-28s %7s s  %5s MiB/s (of text)\n' "gstprof analyze (gzip)" "$T_GZ" "$(rate "$T_GZ")"
if [ -n "$STATS" ]; then
  T_ST=$(median "$STATS" "$WORK/big.log")
  printf '  %-28s %7s s  %5s MiB/s\n' "gst-stats-1.0" "$T_ST" "$(rate "$T_ST")"
  X=$(awk -v a="$T_ST" -v b="$T_GP" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  awk -v x="$X" 'BEGIN { exit !(x >= 3) }' && v=PASS || v=FAIL
  echo "  $v speed: ${X}x gst-stats-1.0's throughput (target: 3x)"
else
  echo "  SKIP speed: gst-stats-1.0 not installed"
fi
awk -v s="$(rate "$T_GZ")" 'BEGIN { exit !(s >= 150) }' && v=PASS || v=FAIL
echo "  $v gzip: $(rate "$T_GZ") MiB/s of text (target: 150)"
D=$(( (RSS_BIG - RSS_SMALL) / 1024 ))
[ "${D#-}" -le 10 ] && v=PASS || v=FAIL
echo "  $v memory: peak RSS $((RSS_SMALL / 1024)) MiB on $SMALL MiB, $((RSS_BIG / 1024)) MiB on $MB MiB (target: within 10 MiB)"
