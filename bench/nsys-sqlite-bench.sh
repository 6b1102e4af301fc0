#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# How fast `gstprof ds profile --from-stats` reads the GPU metrics of an
# nsys SQLite export, and what memory they take. Not a test: it prints
# measurements and PASS/FAIL per target and exits 0 either way
# (bench/README.md, "GPU metrics of an nsys export").
#
#   sh bench/nsys-sqlite-bench.sh [BUILD_DIR]   (default build-release)
#
# The export is made here with the tables nsys writes (GPU_METRICS,
# TARGET_INFO_GPU_METRICS): 20 metrics of one GPU at 10 kHz, the nsys
# default, for BENCH_SECONDS (default 30, the capture recipe's length).
# Env: BENCH_RUNS (default 3, medians).
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build-release}
SECS=${BENCH_SECONDS:-30}
RUNS=${BENCH_RUNS:-3}
WORK=${BENCH_WORK:-$BUILD/bench/nsys-sqlite}

case $SECS in ''|*[!0-9]*|0) echo "nsys-sqlite-bench: BENCH_SECONDS must be a whole number above 0" >&2; exit 3 ;; esac
case $RUNS in ''|*[!0-9]*|0) echo "nsys-sqlite-bench: BENCH_RUNS must be a whole number above 0" >&2; exit 3 ;; esac
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup --buildtype=release "$BUILD" "$SRC" >/dev/null || {
    echo "nsys-sqlite-bench: meson setup of '$BUILD' failed" >&2; exit 2; }
fi
ninja -C "$BUILD" src/cli/gstprof >/dev/null
rm -rf "$WORK"
mkdir -p "$WORK"

python3 - "$BUILD/src/cli/gstprof" "$WORK" "$SECS" "$RUNS" <<'PY'
import os, resource, sqlite3, subprocess, sys, time
gstprof, work, secs, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# the export
db = sqlite3.connect(os.path.join(work, 'report.sqlite'))
db.execute('CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, '
           'sourceId INTEGER NOT NULL, typeName TEXT NOT NULL, '
           'metricId INTEGER NOT NULL, metricName TEXT NOT NULL)')
db.execute('CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER '
           'NOT NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL)')
db.executemany('INSERT INTO TARGET_INFO_GPU_METRICS VALUES (1280, 0, '
               "'GH100', ?, ?)", [(k, 'Metric %d [Throughput %%]' % k)
                                  for k in range(20)])
n = secs * 10000
db.executemany('INSERT INTO GPU_METRICS VALUES (?, 1280, ?, ?)',
               ((x * 100000, k, (x * 7 + k) % 101) for x in range(n)
                for k in range(20)))
db.commit()
db.close()
# a stats file beside it, as --from-stats wants one
with open(os.path.join(work, 'nvtx_sum.csv'), 'w') as f:
    f.write('Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),'
            'Max (ns),StdDev (ns),Style,Range\n'
            '100.0,1000,1,1000.0,1000.0,1000,1000,0.0,PushPop,step\n')
samples = 20 * n
walls = []
for i in range(runs):
    t0 = time.monotonic()
    out = subprocess.run([gstprof, 'ds', 'profile', '--from-stats', work],
                         capture_output=True, text=True)
    walls.append(time.monotonic() - t0)
    if out.returncode != 0 or ('%d samples' % samples) not in out.stdout:
        print('nsys-sqlite-bench: gstprof ds profile failed: ' + out.stderr.strip())
        sys.exit(0)
rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
wall = sorted(walls)[len(walls) // 2]
rate = samples / wall / 1e6
per = rss_mib * 1024 * 1024 / samples
print('GPU metrics: %d samples (%d s at 10 kHz, 20 metrics), %.1f MiB export'
      % (samples, secs, os.path.getsize(os.path.join(work, 'report.sqlite')) / 1048576.0))
print('  read in %.2f s (median of %d): %.2f M samples/s   %s (target 2 M/s)'
      % (wall, runs, rate, 'PASS' if rate >= 2 else 'FAIL'))
print('  peak RSS %.0f MiB: %.1f bytes a sample   %s (target 12: the values '
      'kept for the quantiles, 8 each)' % (rss_mib, per, 'PASS' if per <= 12 else 'FAIL'))
PY
