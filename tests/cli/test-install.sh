#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make install's promise, staged under a temporary DESTDIR: the binary and
# the tracer land where the build is configured to put them, the installed
# binary runs, and a program given only GST_TRACERS finds the tracer in the
# plugin folder it was installed to (standing in for GStreamer's system
# folder through GST_PLUGIN_SYSTEM_PATH) and measures a planted cost.
#
#   test-install.sh BUILD GSTREAMER_SYSTEM_PLUGIN_DIR     (speaks TAP)
BUILD=$1
SYSDIR=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
fail () { n=$((n + 1)); echo "not ok $n - $1"; }
# a failing check's evidence goes out as TAP comments
show () { sed 's/^/# /' "$1"; false; }
# check's lines wrap at 80 columns: read them joined
says () { tr -s ' \n' '  ' <"$2" | grep -q "$1"; }
check () { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
echo "1..5"

DESTDIR=$T/root meson install -C "$BUILD" --no-rebuild >"$T/install.log" 2>&1
bin=$(find "$T/root" -path '*/bin/gstprof' -type f | head -n 1)
so=$(find "$T/root" -name libgstprof.so -type f | head -n 1)
check "install stages bin/gstprof and libgstprof.so" \
  '[ -x "$bin" ] && [ -f "$so" ] || show "$T/install.log"'
plugdir=$(dirname "$so")

# what the installed program says, with no GST_PLUGIN_PATH at all
alone () {
  sys=$1
  shift
  env -u GST_PLUGIN_PATH -u GST_PLUGIN_PATH_1_0 -u GSTPROF_PLUGIN_DIR \
    GST_REGISTRY="$T/registry.bin" GST_PLUGIN_SYSTEM_PATH="$sys" "$@"
}
alone "$plugdir:$SYSDIR" "$bin" check >"$T/check.txt" 2>&1
check "check says GST_TRACERS=gstprof alone loads the installed tracer" \
  'says "alone loads $so" "$T/check.txt" || show "$T/check.txt"'
alone "$T/empty:$SYSDIR" "$bin" check >"$T/check2.txt" 2>&1
check "check says when GStreamer's folders hold no tracer" \
  'says "alone finds no tracer in $T/empty" "$T/check2.txt" || show "$T/check2.txt"'

alone "$plugdir:$SYSDIR" GST_TRACERS="gstprof(out=$T/rec)" \
  gst-launch-1.0 -q videotestsrc num-buffers=40 ! identity sleep-time=3000 \
  ! fakesink >"$T/launch.txt" 2>&1
check "a program with only GST_TRACERS writes its records" \
  'ls "$T"/rec/gstprof-*.records >/dev/null 2>&1 || show "$T/launch.txt"'

# the planted 3 ms is identity0's p50 in the verdict's self-time table
alone "$plugdir:$SYSDIR" "$bin" analyze "$T/rec" >"$T/verdict.txt" 2>&1
p50=$(awk '$1 == "identity0" && $2 ~ /%$/ { print $3; exit }' "$T/verdict.txt")
check "the installed binary's verdict measures the planted 3 ms (got ${p50:-none})" \
  'awk -v v="$p50" "BEGIN { exit !(v >= 2.9 && v <= 3.6) }" || show "$T/verdict.txt"'
