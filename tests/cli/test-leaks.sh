#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# gstprof's own leaks, under valgrind: `gstprof check` and a short
# `gstprof wrap` lose no block allocated in gstprof's code (a "definitely
# lost" record with a gp_ frame in its stack). GLib's and GStreamer's
# one-time allocations are not gstprof's and are not counted. Skipped
# without valgrind.
#
#   test-leaks.sh GSTPROF_BIN     (speaks TAP)
BIN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
fail () { n=$((n + 1)); echo "not ok $n - $1"; }
if ! command -v valgrind >/dev/null 2>&1; then
  echo "1..0 # SKIP valgrind not found"
  exit 0
fi
# Under AddressSanitizer (tools/run-asan.sh) valgrind cannot run the
# programs at all, and LeakSanitizer checks the same leaks there.
if [ -n "$GP_SANITIZER" ]; then
  echo "1..0 # SKIP under $GP_SANITIZER: valgrind cannot run a sanitized build; LeakSanitizer checks these leaks"
  exit 0
fi
echo "1..2"

# The records of "definitely lost" blocks with a gp_ frame: none.
leaks () {
  G_SLICE=always-malloc GST_REGISTRY_FORK=no timeout 280 valgrind \
    --leak-check=full --show-leak-kinds=definite --num-callers=30 \
    "$@" >"$T/out" 2>"$T/vg"
  awk '/definitely lost in/ { rec = 1; text = $0; next }
       rec && /^==[0-9]+== *$/ { if (text ~ /gp_/) print text; rec = 0; next }
       rec { text = text "\n" $0 }' "$T/vg" >"$T/ours"
  if [ -s "$T/ours" ]; then
    sed 's/^/# /' "$T/ours"
    return 1
  fi
  grep -q "definitely lost:" "$T/vg"
}

if leaks "$BIN" check; then ok "gstprof check leaks nothing of its own"
else fail "gstprof check leaks nothing of its own"; fi
if leaks "$BIN" wrap --no-machine --quiet --out "$T/wrap" -- \
    gst-launch-1.0 -q videotestsrc num-buffers=30 ! fakesink; then
  ok "gstprof wrap leaks nothing of its own"
else fail "gstprof wrap leaks nothing of its own"; fi
