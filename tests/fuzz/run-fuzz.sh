#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds and runs every fuzz target with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, each for N seconds (default 60):
#
#   sh tests/fuzz/run-fuzz.sh [seconds]        (make fuzz FUZZ_SECONDS=N)
#
#   session     session.json reading (tests/fuzz/fuzz-session.c)
#   gstprofile  saved files of any schema, gst-profile/1 imports, a
#               tegrastats log or nvidia-smi output alone
#               (tests/fuzz/fuzz-gstprofile.c)
#   launch      the launch-string tokenizer and rewriter
#               (tests/fuzz/fuzz-launch.c)
#   records     the tracer's own records files (tests/fuzz/fuzz-records.c)
#   wrap-socket the bytes gstprof wrap reads from its socket's connections,
#               through wrap's own reader (tests/fuzz/fuzz-wrap-socket.c)
#   tracerlog   GStreamer tracer logs (tests/fuzz/fuzz-tracerlog.c)
#   trace       run --trace's trace.bin and its Perfetto export
#               (tests/fuzz/fuzz-trace.c)
#   export      the graph (graphviz) and CSV exports of whatever session
#               loads (tests/fuzz/fuzz-export.c)
#   queuelevels the queue-levels tracer's CSV, alone and beside a log
#               (tests/fuzz/fuzz-queuelevels.c)
#   nvsmi       nvidia-smi's --query-gpu CSV and dmon tables
#               (tests/fuzz/fuzz-nvsmi.c)
#   tegrastats  Jetson tegrastats lines (tests/fuzz/fuzz-tegrastats.c)
#   peaks       GPU and board names into the peaks table
#               (tests/fuzz/fuzz-peaks.c)
#   procfs      the /proc and sysfs texts the machine samplers read
#               (tests/fuzz/fuzz-procfs.c)
#   telemetry   saved tegrastats logs and nvidia-smi outputs into the
#               machine's series, and back through session.machine
#               (tests/fuzz/fuzz-telemetry.c)
#   ds-perf     DeepStream apps' **PERF and latency lines
#               (tests/fuzz/fuzz-ds-perf.c)
#   nsys        nsys stats reports in their csv, column and table forms,
#               NVTX rows added up again (tests/fuzz/fuzz-nsys.c)
#   dsconfig    DeepStream's INI and YAML configs through the line editor
#               (tests/fuzz/fuzz-dsconfig.c)
#   ds-files    the files ds preset and ds coverage are given, through
#               both commands (tests/fuzz/fuzz-ds-files.c)
#   nsys-sqlite the GPU metrics of an nsys SQLite export, the database
#               built from fuzzed SQL (tests/fuzz/fuzz-nsys-sqlite.c)
#   serve       requests to the live panel's server, a real one on
#               loopback with the sessions' state (tests/fuzz/fuzz-serve.c;
#               built where libsoup 3 is found)
#   gate        gstprof gate's baseline file, saved and read back, judged
#               against itself (tests/fuzz/fuzz-gate.c)
#   redact      the redactor against tests/fixtures/redact/secrets.tsv: each
#               case among fuzzed text, no secret survives
#               (tests/fuzz/fuzz-redact.c)
#
# Builds with plain clang command lines (pkg-config flags, the sources each
# target needs), so it touches no meson build directory. When clang or its
# libFuzzer runtime is missing it installs them with apt as root, and says
# what to install otherwise. Work files go to $FUZZ_DIR (default
# build-fuzz/): the binaries, and per target TARGET/seeds (remade each run
# from the fixtures, saved sessions and the launch strings in tests/),
# TARGET/corpus (kept, so a run starts where the last one stopped),
# TARGET/fuzz.log and crash-*/leak-*/timeout-*/oom-* artifacts when something
# is found. Every target runs even when an earlier one found something.
# FUZZ_ONLY=nvsmi,telemetry runs only those targets (all are built).
# Exit status: 0 nothing found, 1 a finding, 3 bad usage or no toolchain.
# Not part of `make test`.
set -eu

SECS=${1:-60}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_DIR:-$ROOT/build-fuzz}
CC=${CC:-clang}
FIX=$ROOT/tests/fixtures

case $SECS in
  ''|*[!0-9]*|0) echo "run-fuzz.sh: seconds must be a whole number above 0, got '$SECS'" >&2; exit 3 ;;
esac

apt_install () {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "run-fuzz.sh: $1; install it (as root: apt-get install -y $2) or set CC" >&2
    exit 3
  fi
  echo "run-fuzz.sh: $1; installing $2" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $2 >/dev/null
}

mkdir -p "$OUT"
if ! command -v "$CC" >/dev/null 2>&1; then
  apt_install "$CC not found" "clang libclang-rt-dev"
  command -v "$CC" >/dev/null 2>&1 || { echo "run-fuzz.sh: still no $CC" >&2; exit 3; }
fi
# clang without its compiler-rt package cannot link -fsanitize=fuzzer
# (Debian ships the runtime apart from the compiler): try a one-line target.
probe () {
  printf 'int LLVMFuzzerTestOneInput (const unsigned char *d, unsigned long n) { (void) d; return (int) (n & 0); }\n' \
    > "$OUT/probe.c"
  "$CC" -fsanitize=fuzzer,address,undefined -o "$OUT/probe" "$OUT/probe.c" >/dev/null 2>&1
}
if ! probe; then
  apt_install "$CC cannot link libFuzzer" "libclang-rt-dev"
  probe || { echo "run-fuzz.sh: $CC still cannot link -fsanitize=fuzzer" >&2; exit 3; }
fi
rm -f "$OUT/probe" "$OUT/probe.c"

# ---- build ---------------------------------------------------------------
# (GStreamer too: a session caches its parsed launch string, whose element
# names come from GStreamer's registry)
PKG="glib-2.0 json-glib-1.0 gstreamer-1.0"
CFLAGS_PKG=$(pkg-config --cflags $PKG)
LIBS_PKG=$(pkg-config --libs $PKG)
# (session.json holds typed launch-string edits, and the session's
# questions read its parsed launch string and caps: every gp-launch-*.c and
# gp-caps.c go with it)
# shellcheck disable=SC2086
CORE="$(echo $ROOT/src/core/gp-session*.c) $ROOT/src/core/gp-json.c $ROOT/src/core/gp-file.c \
  $ROOT/src/core/gp-stats.c $ROOT/src/core/gp-trace.c $ROOT/src/core/gp-lines.c \
  $ROOT/src/core/gp-machine.c $ROOT/src/core/gp-caps.c \
  $(echo $ROOT/src/core/gp-launch-*.c)"
# the readers of src/ingest open files through GIO (a pipe too: gio-unix)
GIO="gio-2.0 gio-unix-2.0"
LAUNCH="$CORE"
# shellcheck disable=SC2086
RECORDS="$ROOT/src/capture/gp-records.c $(echo $ROOT/src/capture/gp-aggregate*.c) \
  $ROOT/src/core/gp-platform.c"
TRACERLOG="$ROOT/src/ingest/gp-ingest-tracerlog.c \
  $ROOT/src/ingest/gp-ingest-stream.c"
QUEUELEVELS="$ROOT/src/ingest/gp-ingest-queuelevels.c $TRACERLOG"
TELEMETRY="$ROOT/src/telemetry/gp-telemetry.c $ROOT/src/telemetry/gp-nvsmi.c \
  $ROOT/src/telemetry/gp-tegrastats.c"
# gp-ingest-load.c picks among every reader, a machine log alone and the
# tracer's records too
INGEST="$ROOT/src/ingest/gp-ingest-load.c $ROOT/src/ingest/gp-ingest-gstprofile.c \
  $ROOT/src/ingest/gp-ingest-telemetry.c $TELEMETRY $QUEUELEVELS $RECORDS"
# the rules and the verdict fuzz-gstprofile runs on a machine log (the
# launch-string kit the rules' patches use asks GStreamer's registry)
# shellcheck disable=SC2086
# (its Machine section names the accelerator's peaks: the roofline's kit)
VERDICT="$(echo $ROOT/src/rules/*.c) $(echo $ROOT/src/report/gp-verdict*.c) \
  $ROOT/src/telemetry/gp-roofline-build.c \
  $ROOT/src/telemetry/gp-roofline.c $ROOT/src/telemetry/gp-peaks.c \
  $ROOT/src/telemetry/gp-membw.c $ROOT/src/telemetry/gp-models.c"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# gp-version.c (the exports name the version) reads meson's gp-config.h:
# the project's version in one of our own
mkdir -p "$OUT/config"
printf '#define GP_VERSION "%s"\n#define GP_HAVE_SERVE 1\n' \
  "$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$ROOT/meson.build" | head -n 1)" \
  > "$OUT/config/gp-config.h"
INC="-I$ROOT/src -I$OUT/config"

# shellcheck disable=SC2086
EXPORT="$(echo $ROOT/src/export/gp-export*.c) $ROOT/src/core/gp-version.c"

echo "run-fuzz.sh: building fuzz-session, fuzz-gstprofile, fuzz-launch, fuzz-records, fuzz-tracerlog, fuzz-trace, fuzz-export, fuzz-queuelevels, fuzz-nvsmi, fuzz-tegrastats, fuzz-procfs, fuzz-telemetry, fuzz-peaks, fuzz-ds-perf, fuzz-nsys, fuzz-dsconfig, fuzz-ds-files, fuzz-nsys-sqlite, fuzz-wrap-socket, fuzz-gate, fuzz-redact and, with libsoup 3, fuzz-serve in $OUT with $CC"
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-session" "$ROOT/tests/fuzz/fuzz-session.c" $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG $GIO gstreamer-1.0) \
  -o "$OUT/fuzz-gstprofile" "$ROOT/tests/fuzz/fuzz-gstprofile.c" $INGEST \
  $VERDICT $CORE $(pkg-config --libs $PKG $GIO gstreamer-1.0) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG gstreamer-1.0) \
  -o "$OUT/fuzz-launch" "$ROOT/tests/fuzz/fuzz-launch.c" \
  $LAUNCH $(pkg-config --libs $PKG gstreamer-1.0)
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG gstreamer-1.0) \
  -o "$OUT/fuzz-records" "$ROOT/tests/fuzz/fuzz-records.c" $RECORDS $CORE \
  $(pkg-config --libs $PKG gstreamer-1.0) -lm
# (it includes gp-wrap.c for wrap's static reader; the capture it calls
# into needs the samplers and the plugin folders' names)
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC -I"$ROOT/tests/fuzz" \
  -DGP_BUILD_PLUGIN_DIR='""' -DGP_INSTALL_PLUGIN_DIR='""' \
  $(pkg-config --cflags $PKG gstreamer-1.0) \
  -o "$OUT/fuzz-wrap-socket" "$ROOT/tests/fuzz/fuzz-wrap-socket.c" \
  "$ROOT/src/capture/gp-capture.c" $(echo $ROOT/src/telemetry/gp-sampler*.c) \
  "$ROOT/src/telemetry/gp-procfs.c" $TELEMETRY $RECORDS $CORE \
  $(pkg-config --libs $PKG gstreamer-1.0) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG $GIO) \
  -o "$OUT/fuzz-tracerlog" "$ROOT/tests/fuzz/fuzz-tracerlog.c" $TRACERLOG \
  $CORE $(pkg-config --libs $PKG $GIO) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-trace" "$ROOT/tests/fuzz/fuzz-trace.c" \
  "$ROOT/src/export/gp-export-perfetto.c" "$ROOT/src/export/gp-export.c" \
  $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG libcgraph libgvc) \
  -o "$OUT/fuzz-export" "$ROOT/tests/fuzz/fuzz-export.c" $EXPORT $CORE \
  $(pkg-config --libs $PKG libcgraph libgvc) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG $GIO) \
  -o "$OUT/fuzz-queuelevels" "$ROOT/tests/fuzz/fuzz-queuelevels.c" \
  $QUEUELEVELS $CORE $(pkg-config --libs $PKG $GIO) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-nvsmi" "$ROOT/tests/fuzz/fuzz-nvsmi.c" \
  "$ROOT/src/telemetry/gp-nvsmi.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-tegrastats" "$ROOT/tests/fuzz/fuzz-tegrastats.c" \
  "$ROOT/src/telemetry/gp-tegrastats.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-procfs" "$ROOT/tests/fuzz/fuzz-procfs.c" \
  "$ROOT/src/telemetry/gp-procfs.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-telemetry" "$ROOT/tests/fuzz/fuzz-telemetry.c" \
  $TELEMETRY $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-peaks" "$ROOT/tests/fuzz/fuzz-peaks.c" \
  "$ROOT/src/telemetry/gp-peaks.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-ds-perf" "$ROOT/tests/fuzz/fuzz-ds-perf.c" \
  "$ROOT/src/deepstream/gp-ds-perf.c" $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-nsys" "$ROOT/tests/fuzz/fuzz-nsys.c" \
  "$ROOT/src/deepstream/gp-nsys.c" "$ROOT/src/core/gp-lines.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-dsconfig" "$ROOT/tests/fuzz/fuzz-dsconfig.c" \
  "$ROOT/src/deepstream/gp-ds-config.c" $CORE $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC $CFLAGS_PKG \
  -o "$OUT/fuzz-ds-files" "$ROOT/tests/fuzz/fuzz-ds-files.c" \
  "$ROOT/src/deepstream/gp-ds-preset.c" "$ROOT/src/deepstream/gp-ds-coverage.c" \
  "$ROOT/src/deepstream/gp-ds-config.c" "$ROOT/src/deepstream/gp-nsys.c" \
  $CORE "$ROOT/src/core/gp-platform.c" $LIBS_PKG -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG sqlite3) \
  -o "$OUT/fuzz-nsys-sqlite" "$ROOT/tests/fuzz/fuzz-nsys-sqlite.c" \
  "$ROOT/src/deepstream/gp-nsys-sqlite.c" \
  "$ROOT/src/deepstream/gp-nsys-metrics.c" "$ROOT/src/deepstream/gp-nsys.c" \
  $CORE \
  $(pkg-config --libs $PKG sqlite3) -lm
# the gate's baseline (its figures keyed by the session's questions, its
# findings by the rules' severities)
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC -I"$ROOT/tests/fuzz" \
  $(pkg-config --cflags $PKG $GIO gstreamer-1.0) \
  -o "$OUT/fuzz-gate" "$ROOT/tests/fuzz/fuzz-gate.c" \
  "$ROOT/src/report/gp-gate.c" "$ROOT/src/report/gp-compare.c" \
  "$ROOT/src/core/gp-platform.c" $VERDICT $CORE \
  $(pkg-config --libs $PKG $GIO gstreamer-1.0) -lm
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
  $(pkg-config --cflags $PKG $GIO gstreamer-1.0) \
  -o "$OUT/fuzz-redact" "$ROOT/tests/fuzz/fuzz-redact.c" \
  "$ROOT/src/report/gp-redact.c" $CORE \
  $(pkg-config --libs $PKG $GIO gstreamer-1.0) -lm
# the panel's server: libsoup 3 where it is found (not on Debian 11); its
# page's assets compiled as meson compiles them
SERVE=""
if pkg-config --exists libsoup-3.0; then
  SERVE=serve
  glib-compile-resources --generate-source --manual-register --c-name gp_panel \
    --sourcedir "$ROOT/src/serve/panel" --target "$OUT/gp-panel-resources.c" \
    "$ROOT/src/serve/panel/gp-panel.gresource.xml"
  # shellcheck disable=SC2086
  # (the roofline it draws where a machine shows memory traffic: the
  # roofline's choice and the plot room, cairo)
  "$CC" -std=gnu11 -g -O1 $SAN -fsanitize=fuzzer $INC \
    $(pkg-config --cflags $PKG libsoup-3.0 libcgraph libgvc cairo) \
    -o "$OUT/fuzz-serve" "$ROOT/tests/fuzz/fuzz-serve.c" \
    "$ROOT/src/serve/gp-serve-common.c" "$ROOT/src/serve/gp-metrics.c" \
    "$OUT/gp-panel-resources.c" "$ROOT/src/report/gp-redact.c" \
    $(echo "$ROOT"/src/plot/gp-plot*.c) "$ROOT/src/telemetry/gp-roofline-choose.c" \
    $EXPORT $VERDICT $CORE \
    $(pkg-config --libs $PKG libsoup-3.0 libcgraph libgvc cairo cairo-png cairo-svg) -lm
else
  echo "run-fuzz.sh: no libsoup 3: fuzz-serve not built (the server is not either)"
fi
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 $INC $CFLAGS_PKG \
  -o "$OUT/make-seeds" "$ROOT/tests/fuzz/make-seeds.c" $CORE $LIBS_PKG -lm

# ---- seeds ---------------------------------------------------------------
for t in session gstprofile launch records tracerlog trace export queuelevels \
  nvsmi tegrastats procfs telemetry peaks ds-perf nsys dsconfig ds-files \
  nsys-sqlite wrap-socket serve gate redact; do
  rm -rf "${OUT:?}/$t/seeds"
  mkdir -p "$OUT/$t/seeds" "$OUT/$t/corpus"
done
# the corpus of the single-target script that came before
if [ -d "$OUT/corpus" ] && [ -z "$(ls -A "$OUT/session/corpus")" ]; then
  mv "$OUT/corpus"/* "$OUT/session/corpus/" 2>/dev/null || true
  rmdir "$OUT/corpus" 2>/dev/null || true
fi

# Sessions: saved through the model (every section filled), a real capture
# when a gstprof binary is built, the demo's; gst-profile captures (for
# fuzz-session they exercise the refusal paths). fuzz-gstprofile reads both
# schemas, so it gets all of them.
"$OUT/make-seeds" "$OUT/session/seeds" "$OUT/trace/seeds"
for bin in "$ROOT"/build*/src/cli/gstprof; do
  [ -x "$bin" ] || continue
  rm -rf "$OUT/real"
  timeout 60 "$bin" run --trace=2 --duration 2s --out "$OUT/real" \
    "videotestsrc num-buffers=60 ! identity sleep-time=1000 ! queue ! fakesink sync=false" \
    >/dev/null 2>&1 || true
  if [ -f "$OUT/real/session.json" ]; then
    cp "$OUT/real/session.json" "$OUT/session/seeds/real.json"
    cp "$OUT/real/trace.bin" "$OUT/trace/seeds/real.bin" 2>/dev/null || true
    break
  fi
done
for f in "$ROOT"/demo-session/session.json "$FIX"/gst-profile-sessions/*.json; do
  [ -f "$f" ] && cp "$f" "$OUT/session/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
cp "$OUT"/session/seeds/* "$OUT/gstprofile/seeds/"
cp "$OUT"/session/seeds/* "$OUT/export/seeds/"

# Launch strings: every C string literal in tests/ (adjacent literals
# joined, as the compiler joins them) that holds a '!' link, plus the
# Makefile's demo. Escapes stay as written: close enough for a seed.
for f in "$ROOT"/tests/*/*.c "$ROOT"/bench/*.c; do
  [ -f "$f" ] && cat "$f"
done | awk -v dir="$OUT/launch/seeds" '
  function flush () {
    if (cur ~ /!/) {
      n++
      printf "%s", cur > (dir "/t" n)
      close (dir "/t" n)
    }
    cur = ""
  }
  {
    rest = $0; found = 0
    while (match (rest, /"([^"\\]|\\.)*"/)) {
      cur = cur substr (rest, RSTART + 1, RLENGTH - 2)
      rest = substr (rest, RSTART + RLENGTH)
      found = 1
    }
    gsub (/[ \t]/, "", rest)
    # a literal that ends its line may go on in the next line
    if (!found || rest != "")
      flush()
  }
  END { flush() }'
sed -n 's/^DEMO[[:space:]]*?=[[:space:]]*//p' "$ROOT/Makefile" > "$OUT/launch/seeds/demo"

# Records: what the tracer writes itself with out=, for a real pipeline
# with a queue (two threads) and an RTP link (the sequence counts), when
# the tracer is built.
for lib in "$ROOT"/build*/src/tracer/libgstprof.so; do
  [ -f "$lib" ] || continue
  rm -rf "$OUT/real-records"
  GST_PLUGIN_PATH=$(dirname "$lib") GST_TRACERS="gstprof(out=$OUT/real-records,window=50)" \
    timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=30 ! \
    video/x-raw,width=64,height=48 ! identity sleep-time=2000 ! queue ! \
    rtpvrawpay ! fakesink >/dev/null 2>&1 || true
  cp "$OUT"/real-records/*.records "$OUT/records/seeds/" 2>/dev/null && break
done
# The socket: the same lines as one connection, and the first lines of two
# processes as two (the separator of fuzz-wrap-socket.c between them).
for f in "$OUT"/records/seeds/*.records; do
  [ -f "$f" ] || continue
  cp "$f" "$OUT/wrap-socket/seeds/one"
  head -n 4 "$f" > "$OUT/wrap-socket/seeds/one-small"
  { head -n 4 "$f"; printf '\n--gstprof-fuzz-connection--\n'; head -n 3 "$f"; } \
    > "$OUT/wrap-socket/seeds/two"
  break
done
cp "$ROOT"/tests/fuzz/wrap-socket-seeds/* "$OUT/wrap-socket/seeds/" 2>/dev/null || true

# Tracer logs: the real samples (decompressed, one compressed, and the
# first lines of each, where the scanner starts), and their record lines
# in every prefix people's logs have.
for f in "$ROOT"/tests/ingest/tracerlog/*.log.gz; do
  b=$(basename "$f" .log.gz)
  gzip -dc "$f" > "$OUT/tracerlog/seeds/$b.log"
  gzip -dc "$f" | head -n 40 > "$OUT/tracerlog/seeds/$b-head.log"
  gzip -dc "$f" | sed -n 's/.*:0:: //p' | head -n 40 > "$OUT/tracerlog/seeds/$b-cut.log"
done
cp "$ROOT/tests/ingest/tracerlog/gst122-reported.log.gz" "$OUT/tracerlog/seeds/"

# queue-levels CSVs: the samples, one compressed, and their first rows
for f in "$ROOT"/tests/ingest/queuelevels/*.csv; do
  b=$(basename "$f" .csv)
  cp "$f" "$OUT/queuelevels/seeds/"
  head -n 6 "$f" > "$OUT/queuelevels/seeds/$b-head.csv"
done
gzip -9nc "$ROOT/tests/ingest/queuelevels/two-queues.csv" > "$OUT/queuelevels/seeds/two-queues.csv.gz"

# nvidia-smi: every captured query and dmon output, and the driver's
# refusal of a field
for f in "$FIX"/telemetry/nvidia_smi_*.txt; do
  [ -f "$f" ] && cp "$f" "$OUT/nvsmi/seeds/"
done
printf 'Field "memory.total" is not a valid field to query.\n' > "$OUT/nvsmi/seeds/refused"
# tegrastats: the real lines of every board, whole files and a line each
for f in "$FIX"/telemetry/tegrastats_*.txt; do
  [ -f "$f" ] || continue
  b=$(basename "$f" .txt)
  cp "$f" "$OUT/tegrastats/seeds/"
  head -n 1 "$f" > "$OUT/tegrastats/seeds/$b-1.txt"
done
# procfs: this machine's own kernel texts, and sysfs attributes as a
# Jetson's read
for f in /proc/stat /proc/meminfo /proc/self/status /proc/self/stat \
  /proc/self/schedstat; do
  [ -r "$f" ] && cat "$f" > "$OUT/procfs/seeds/$(echo "$f" | tr / _)" 2>/dev/null
done
printf '52562\n' > "$OUT/procfs/seeds/temp"
printf -- '-256000\n' > "$OUT/procfs/seeds/temp-offline"
printf 'passive\n' > "$OUT/procfs/seeds/trip-type"
printf 'VDD_GPU_SOC\n' > "$OUT/procfs/seeds/label"
printf '1234 (gst (a) b) S 1 2 3 4 5 6 7 8 9 10 11 12 13 -20 0 1\n' > "$OUT/procfs/seeds/task-stat"
# telemetry: every saved tegrastats and nvidia-smi output, whole; the
# saved files of any schema include them (a machine log alone)
cp "$OUT"/tegrastats/seeds/* "$OUT"/nvsmi/seeds/* "$OUT/telemetry/seeds/"
cp "$OUT"/tegrastats/seeds/* "$OUT"/nvsmi/seeds/* "$OUT/gstprofile/seeds/"
# nsys: every saved nsys stats output, whole, and each report of the
# console ones alone
for f in "$FIX"/telemetry/nsys_stats_*.txt; do
  [ -f "$f" ] || continue
  b=$(basename "$f" .txt)
  cp "$f" "$OUT/nsys/seeds/"
  awk -v p="$OUT/nsys/seeds/$b-" '/^Processing \[/ { n++ } { print > (p n) }' "$f"
done
# peaks: the names nvidia-smi prints in the fixtures, the table's own, the
# Jetson device-tree models
for f in "$FIX"/telemetry/nvidia_smi_query_*.txt; do
  [ -f "$f" ] && sed -n 's/^\(NVIDIA [^,]*\|Tesla [^,]*\),.*/\1/p; s/^[0-9]*, \(NVIDIA [^,]*\),.*/\1/p' "$f"
done > "$OUT/peaks/seeds/nvsmi-names"
sed -n 's/^  {"\([^"]*\)", [JD], .*/\1/p' "$ROOT/src/telemetry/gp-peaks.c" > "$OUT/peaks/seeds/rows"
printf 'NVIDIA Jetson AGX Orin Developer Kit\nJetson-AGX\nNVIDIA Jetson Orin Nano Engineering Reference Developer Kit Super\nNVIDIA GeForce RTX 3090 Ti\nNVIDIA A100-SXM4-80GB\n' > "$OUT/peaks/seeds/models"
# ds-perf: the real deepstream-app logs, the Python apps' dict, and a line
# of each latency form as DeepStream prints it
for f in "$FIX"/telemetry/deepstream_app_perf_*_log.txt; do
  [ -f "$f" ] && cp "$f" "$OUT/ds-perf/seeds/"
done
printf "**PERF:  {'stream0': 30.0, 'stream1': 29.9}\n**PERF(1):  12.50 (12.00)\t\n" > "$OUT/ds-perf/seeds/dict"
printf 'Comp name = nvv4l2decoder0 in_system_timestamp = 1700000000000.000000 out_system_timestamp = 1700000000012.345000               component latency= 12.345000\nComp name = nvstreammux-stream0 source_id = 0 pad_index = 0 frame_num = 3               in_system_timestamp = 1.000000 out_system_timestamp = 3.500000               component_latency = 2.500000\nSource id = 0 Frame_num = 3 Frame latency = 41.000000 (ms) \n' > "$OUT/ds-perf/seeds/latency"

# dsconfig: every DeepStream config of the fixtures, its first byte the
# format ('0' INI, '1' YAML)
for f in "$FIX"/telemetry/deepstream_*config*.txt "$FIX"/telemetry/deepstream_*.yml; do
  [ -f "$f" ] || continue
  case $f in *.yml) k=1 ;; *) k=0 ;; esac
  { printf '%s' "$k"; cat "$f"; } > "$OUT/dsconfig/seeds/$(basename "$f")"
done

# ds-files: the same configs given to ds preset and to ds coverage, the
# first byte the command and the format ('0' preset INI, '1' coverage INI,
# '2' preset YAML, '3' coverage YAML)
for f in "$FIX"/telemetry/deepstream_*config*.txt "$FIX"/telemetry/deepstream_*.yml; do
  [ -f "$f" ] || continue
  case $f in *.yml) k0=2 k1=3 ;; *) k0=0 k1=1 ;; esac
  { printf '%s' "$k0"; cat "$f"; } > "$OUT/ds-files/seeds/preset-$(basename "$f")"
  { printf '%s' "$k1"; cat "$f"; } > "$OUT/ds-files/seeds/coverage-$(basename "$f")"
done

# nsys-sqlite: the SQL that builds the tests' export of a known truth, an
# older layout, and an export without GPU metrics
cp "$ROOT/tests/deepstream/data/gpu-metrics.sql" "$OUT/nsys-sqlite/seeds/"
printf "CREATE TABLE TARGET_INFO_GPU_METRICS (id INTEGER, name TEXT);\nCREATE TABLE GPU_METRICS (timestamp REAL, typeId INTEGER, metricId INTEGER, value);\nINSERT INTO TARGET_INFO_GPU_METRICS VALUES (5, 'SMs Active');\nINSERT INTO GPU_METRICS VALUES (1000.0, 2, 5, 20), (2000.0, 2, 5, 'busy'), (-5, 2, 5, NULL);\nCREATE TABLE META_DATA_CAPTURE (name, value);\nINSERT INTO META_DATA_CAPTURE VALUES ('GPU_METRICS_OPTIONS:SAMPLING_FREQUENCY', 'x');\n" > "$OUT/nsys-sqlite/seeds/old"
printf 'CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);\n' > "$OUT/nsys-sqlite/seeds/none"

# serve: a request to every route (a first byte that picks the session,
# placeholders for the token and the port); the sessions' state comes from
# the saved ones, a real capture's among them
cp "$ROOT"/tests/fuzz/serve-seeds/* "$OUT/serve/seeds/"
# gate: a baseline gstprof gate --record wrote (two of its runs kept)
cp "$ROOT"/tests/fuzz/gate-seeds/* "$OUT/gate/seeds/"
export GP_FUZZ_SESSIONS="$OUT/session/seeds"

# ---- run -----------------------------------------------------------------
# GLib's slice allocator would hide use-after-free from ASan (GLib < 2.76).
export G_SLICE=always-malloc
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

found=0
summary=""
run_target () {
  t=$1; max_len=$2; dict=$3
  case ",${FUZZ_ONLY:-$t}," in *",$t,"*) ;; *) return 0 ;; esac
  dir=$OUT/$t
  echo "run-fuzz.sh: $t: $(ls "$dir/seeds" | wc -l) seeds, $(ls "$dir/corpus" | wc -l) corpus entries; running ${SECS}s"
  set +e
  # a target with suppressions needs whole allocation stacks to match them
  supp=$ROOT/tests/fuzz/$t.supp
  asan=$ASAN_OPTIONS
  if [ -f "$supp" ]; then
    export LSAN_OPTIONS="suppressions=$supp"
    asan="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
  else
    unset LSAN_OPTIONS
  fi
  (cd "$dir" && ASAN_OPTIONS=$asan "$OUT/fuzz-$t" -max_total_time="$SECS" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    ${dict:+-dict="$dict"} -artifact_prefix="$dir/" "$dir/corpus" "$dir/seeds") \
    > "$dir/fuzz.log" 2>&1
  set -e
  execs=$(grep -E '^stat::number_of_executed_units' "$dir/fuzz.log" | awk '{print $2}' | tail -n 1)
  cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$dir/fuzz.log" | sed -n 's/.*cov: \([0-9]*\).*/\1/p' | tail -n 1)
  units=$(ls "$dir/corpus" | wc -l)
  if grep -q -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|Test unit written' "$dir/fuzz.log"; then
    found=1
    verdict="FINDING, see $dir/fuzz.log"
    # the target's own message (it prints one line before abort ()), then
    # the sanitizer's
    grep -E -B 1 'ERROR:' "$dir/fuzz.log" | head -n 4 >&2
    grep -E 'SUMMARY|runtime error|Test unit written' "$dir/fuzz.log" | head -n 4 >&2
  else
    verdict="nothing found"
  fi
  line=$(printf '  %-11s %10s executions  cov %-6s corpus %-6s %s' "$t" "${execs:-?}" "${cov:-?}" "$units" "$verdict")
  echo "$line"
  summary="$summary$line
"
}

run_target session 65536 "$ROOT/tests/fuzz/session.dict"
run_target gstprofile 65536 "$ROOT/tests/fuzz/gstprofile.dict"
run_target launch 4096 ""
run_target records 262144 ""
run_target wrap-socket 65536 ""
run_target tracerlog 65536 "$ROOT/tests/fuzz/tracerlog.dict"
run_target trace 65536 ""
run_target export 65536 "$ROOT/tests/fuzz/session.dict"
run_target queuelevels 65536 "$ROOT/tests/fuzz/queuelevels.dict"
run_target nvsmi 16384 ""
run_target tegrastats 4096 "$ROOT/tests/fuzz/tegrastats.dict"
run_target procfs 8192 ""
run_target telemetry 16384 "$ROOT/tests/fuzz/tegrastats.dict"
run_target peaks 1024 ""
run_target ds-perf 16384 ""
run_target nsys 16384 ""
run_target dsconfig 16384 ""
run_target ds-files 16384 ""
run_target nsys-sqlite 16384 "$ROOT/tests/fuzz/nsys-sqlite.dict"
run_target gate 65536 "$ROOT/tests/fuzz/session.dict"
# the corpus's texts as seeds, each after the byte that picks its case
export GP_FUZZ_REDACT="$ROOT/tests/fixtures/redact/secrets.tsv"
i=0
grep -v -e '^#' -e '^$' "$GP_FUZZ_REDACT" | cut -f 3 | while IFS= read -r line; do
  { printf "\\$(printf '%03o' $((i % 256)))"; printf '%s' "$line"; } > "$OUT/redact/seeds/case-$i"
  i=$((i + 1))
done
run_target redact 4096 ""
if [ -n "$SERVE" ]; then run_target serve 32768 "$ROOT/tests/fuzz/serve.dict"; fi

echo "run-fuzz.sh: ${SECS}s per target"
printf '%s' "$summary"
if [ $found != 0 ]; then
  echo "run-fuzz.sh: FINDING (artifacts under $OUT/TARGET/)" >&2
  exit 1
fi
echo "run-fuzz.sh: nothing found"
