#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make test-tsan: the tracer and the capture under ThreadSanitizer, on the
# test programs whose pipelines run many threads: test-tracer (tee and
# queues, decodebin's multiqueue, dynamic pads, worker threads),
# capture-capture (run in-process), capture-wrap (wrap's socket, a tracer
# in every child process) and telemetry-sampler (the machine samplers'
# thread). Passes when no race, no lock-order inversion and no other TSan
# report (a crash included) is left after tools/tsan/tsan.supp (GLib's and
# GStreamer's insides only, each entry explained there); a test's own
# timing assertion that TSan's slowness breaks is said, not failed on.
#
#   sh tools/run-tsan.sh [BUILD_DIR]         (default build-tsan)
#
# Its own meson build dir (-Db_sanitize=thread), with only what these
# tests need built. GLib's locks are invisible to TSan (GLib 2.74 locks
# with futexes inside a library TSan does not see): tools/tsan/
# gp-tsan-glib.c, preloaded with the TSan runtime into every process (the
# tests' children too, so that they can load the TSan-built tracer), tells
# TSan what they order. Exit status: 0 clean, 1 a TSan report, 2 the build
# failed.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build-tsan}
TESTS="test-tracer capture-capture capture-wrap telemetry-sampler"
TARGETS="src/tracer/libgstprof.so src/cli/gstprof tests/tracer/test-tracer \
  tests/capture/test-capture tests/capture/test-wrap tests/telemetry/test-sampler \
  tests/telemetry/stand-in/tegrastats tests/telemetry/stand-in/nvidia-smi"
# TSan runs the code 5 to 15 times slower
TIMEOUT_MULTIPLIER=10

start=$(date +%s)
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" "$SRC" -Db_sanitize=thread -Doptimization=1 \
    -Db_lundef=false >/dev/null || {
    echo "run-tsan: meson setup of '$BUILD' failed" >&2; exit 2; }
fi
# shellcheck disable=SC2086
ninja -C "$BUILD" $TARGETS >/dev/null || {
  echo "run-tsan: building in '$BUILD' failed (run: ninja -C $BUILD)" >&2
  exit 2; }

RT=$(${CC:-cc} -print-file-name=libtsan.so.2)
[ -f "$RT" ] || RT=$(${CC:-cc} -print-file-name=libtsan.so)
# (not instrumented itself: it only calls the runtime)
# shellcheck disable=SC2046
${CC:-cc} -shared -fPIC -O1 -o "$BUILD/gp-tsan-glib.so" \
  "$SRC/tools/tsan/gp-tsan-glib.c" $(pkg-config --cflags --libs glib-2.0) \
  "$RT" -ldl || { echo "run-tsan: building the GLib lock shim failed" >&2; exit 2; }

# the plugin scanner is no TSan program: scan in-process, into a registry
# of this build's own; reports go to files, one per process
LOGS=$BUILD/tsan-logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
export LD_PRELOAD="$RT:$BUILD/gp-tsan-glib.so"
# ignore_noninstrumented_modules: what GLib and GStreamer do inside
# themselves (a free after their own atomic unref) is not ours to judge,
# and TSan cannot see their atomics; every access of gstprof's code is
# checked. exitcode=0: a report fails the run below, not the test.
export TSAN_OPTIONS="suppressions=$SRC/tools/tsan/tsan.supp log_path=$LOGS/tsan second_deadlock_stack=1 report_signal_unsafe=0 halt_on_error=0 ignore_noninstrumented_modules=1 exitcode=0"
export GST_REGISTRY_FORK=no
export G_SLICE=always-malloc
# Each case in a process of its own (-p PATH), so that a case whose
# timing TSan's slowness breaks does not keep the cases after it from
# running. Left out: /sampler/rss holds the process's RSS to a planted
# allocation (TSan's shadow memory is part of the RSS); /wrap/duration
# holds how long the program ran before the planted duration stopped it
# (a program 5 to 15 times slower to start ran less of it).
failed=""
cases=0
for t in $TESTS; do
  case $t in
    test-tracer) bin=tests/tracer/test-tracer ;;
    capture-capture) bin=tests/capture/test-capture ;;
    capture-wrap) bin=tests/capture/test-wrap ;;
    telemetry-sampler) bin=tests/telemetry/test-sampler ;;
  esac
  for p in $("$BUILD/$bin" -l 2>/dev/null | grep '^/'); do
    case $p in /sampler/rss|/wrap/duration) continue ;; esac
    cases=$((cases + 1))
    if ! meson test -C "$BUILD" --no-rebuild --num-processes 1 \
      --timeout-multiplier "$TIMEOUT_MULTIPLIER" --test-args "-p $p" "$t" \
      >/dev/null 2>&1; then
      failed="$failed $t:$p"
    fi
  done
done
unset LD_PRELOAD

# a race, an inversion, a crash (TSan's own SEGV report) alike
reports=$(cat "$LOGS"/tsan.* 2>/dev/null |
  grep -c -E '^(WARNING|ERROR): ThreadSanitizer' || true)
echo "run-tsan: $(( $(date +%s) - start )) s; $reports TSan report(s) left after the suppressions"
if [ "$reports" != 0 ]; then
  grep -h -E -A 12 '^(WARNING|ERROR): ThreadSanitizer' "$LOGS"/tsan.* |
    head -n 60 >&2
  echo "run-tsan: every report: $LOGS/tsan.*" >&2
  exit 1
fi
echo "run-tsan: no race reported"
# The tests' own truths are times and rates, which TSan stretches 5 to 15
# times, and some run sh, which the TSan runtime preloaded into every child
# crashes (Debian 12's dash): a case that fails here on its own assertion
# is said, and does not fail the run (`make test` holds it); a crash in
# gstprof's code would be a report above.
echo "run-tsan: $cases test cases run under TSan"
[ -z "$failed" ] || echo "run-tsan: note: these cases' own assertions" \
  "failed under TSan (timing truths, or a child the preloaded TSan runtime" \
  "cannot run: sh dies of SIGSEGV):$failed" >&2
