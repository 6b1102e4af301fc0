#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make test-asan`: the whole suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, LeakSanitizer on, in its own build folder
# (build-asan). Ends like `make test` ("N passed, N failed"), then fails too
# when a test left a process of its own running.
#
# What it takes care of by itself:
# - libasan preloaded into the programs that are not built with ASan but
#   dlopen the ASan-built tracer (which needs the runtime first in the
#   library list): gst-launch-1.0, python3 and GStreamer's plugin scanner,
#   each through a shim in BUILD/asan-shims.
# - a fresh registry (the suite's build-asan/tests/registry.bin, removed),
#   so no plugin list from the normal build is reused.
# - ASAN_OPTIONS / UBSAN_OPTIONS: stop at the first report, with a stack.
# - LSan suppressions only for allocations libraries make once per process
#   (GLib's constructor; fontconfig's, cairo's and graphviz's font caches):
#   tests/sanitizers/lsan.supp, each entry explained there.
# - GP_SANITIZER=address in the tests' environment: the few tests that hold
#   a timing ASan slows past its bound widen only that bound (grep for
#   gp_test_sanitized).
# - (as make test: tools/run-tests.sh) a process a test left running fails
#   the run.
#
# Usage: tools/run-asan.sh [BUILD_DIR] [meson test arguments: test names]
# GP_TEST_JOBS=N runs N test programs at once (default 1, as `make test`).
set -e
BUILD=${1:-build-asan}
shift 2>/dev/null || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# ASan with full stacks on every allocation makes a test program 2-10x
# slower: meson's per-test timeouts are multiplied by this much.
TIMEOUT_MULTIPLIER=${GP_ASAN_TIMEOUT_MULTIPLIER:-8}

if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" -Db_sanitize=address,undefined -Db_lundef=false \
    $(if [ -n "$CI" ]; then echo -Dwerror=true; fi)
fi
ninja -C "$BUILD"

libasan=$(cc -print-file-name=libasan.so)
case "$libasan" in
  /*) ;;
  *) echo "run-asan: no libasan.so for $(command -v cc) (gcc's libasan)" >&2; exit 3 ;;
esac

rm -f "$BUILD/tests/registry.bin"
export GP_SANITIZER=address
# detect_odr_violation=0: libgstprof.so and the test programs each link a
# copy of the gpcore static library, so its globals exist twice by design.
# exitcode=1 keeps a report an ordinary test failure.
# fast_unwind_on_malloc=0: GLib and GStreamer are built without frame
# pointers, and the fast unwinder stops at g_malloc, so that no leak could
# be told from another (nor matched by a suppression). The slow unwinder
# costs: 16 frames reach gstprof's callers and the loader's; a test that
# allocates in a loop (capture-aggregate /aggregate/event-cap) takes 100 s
# instead of 44 on a loaded 2-core machine. The slow unwinder
# (libgcc's) deadlocks on its own lock when code registers frames at run
# time: GALLIUM_DRIVER=softpipe keeps Mesa's llvmpipe JIT out of GL tests.
# log_path: every report also in a file of its own, also those of programs
# whose stderr a test keeps to itself.
logs="$(pwd)/$BUILD/asan-logs"
rm -rf "$logs"
mkdir -p "$logs"
asan="halt_on_error=1:detect_odr_violation=0:print_stacktrace=1:exitcode=1:fast_unwind_on_malloc=0:malloc_context_size=16:log_path=$logs/report"
export GALLIUM_DRIVER=softpipe
export ASAN_OPTIONS="$asan:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=1:log_path=$logs/report"
export LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0:exitcode=1"

# Programs not built with ASan that load the tracer get libasan preloaded
# through a shim of the same name ahead on PATH; nothing else does (a shell,
# meson, chromium: preloaded, each would report its own leaks at exit).
# gst-launch-1.0 keeps LeakSanitizer (the tracer's own leaks show there);
# python3 and GStreamer's plugin scanner do not: an interpreter and a
# scanner free nothing at exit, and neither leak would be gstprof's.
shims="$BUILD/asan-shims"
rm -rf "$shims"
mkdir -p "$shims"
shim () {
  real=${3:-$(command -v "$1" || true)}
  [ -x "$real" ] || return 0
  # bash for exec -a: the program keeps the plain name as its argv[0] (what
  # a test reads back from /proc/PID/cmdline), not the real path
  cat >"$shims/$1" <<SHIM
#!/bin/bash
# made by tools/run-asan.sh: $1 with libasan preloaded
LD_PRELOAD="$libasan\${LD_PRELOAD:+ \$LD_PRELOAD}" ASAN_OPTIONS="$2" exec -a "$(basename "$real")" "$real" "\$@"
SHIM
  chmod +x "$shims/$1"
}
shim gst-launch-1.0 "$asan:detect_leaks=1"
shim python3 "$asan:detect_leaks=0"
# Debian's own python3 (the one with python3-gi), which tests name by its
# path: they run GP_TEST_SYSTEM_PYTHON when it is set
shim system-python3 "$asan:detect_leaks=0" /usr/bin/python3
if [ -x "$shims/system-python3" ]; then
  export GP_TEST_SYSTEM_PYTHON="$(pwd)/$shims/system-python3"
fi
scanner="$(pkg-config --variable=pluginscannerdir gstreamer-1.0)/gst-plugin-scanner"
if [ -x "$scanner" ]; then
  PATH="$(dirname "$scanner"):$PATH" shim gst-plugin-scanner "$asan:detect_leaks=0"
  export GST_PLUGIN_SCANNER="$(pwd)/$shims/gst-plugin-scanner"
fi
PATH="$(pwd)/$shims:$PATH"
export PATH

start=$(date +%s)
rc=0
GP_TEST_JOBS=${GP_TEST_JOBS:-1} sh "$ROOT/tools/run-tests.sh" "$BUILD" \
  --timeout-multiplier "$TIMEOUT_MULTIPLIER" "$@" || rc=$?
end=$(date +%s)
echo "test-asan: $((end - start)) s"

# Every sanitizer report of the run, with its first frames in gstprof's code
# (a test's failure may have shown none of it).
reports=$(ls "$logs" 2>/dev/null | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "test-asan: $reports sanitizer report(s) in $logs:" >&2
  for f in "$logs"/*; do
    printf '  %s: %s\n' "$(basename "$f")" "$(grep -m1 -E 'ERROR|runtime error' "$f" | cut -c1-120)" >&2
    grep -m3 -E '#[0-9]+ .* in (gp_|gst_prof|test_)' "$f" | sed 's/^ */      /' | cut -c1-160 >&2
  done
  rc=1
fi

exit $rc
