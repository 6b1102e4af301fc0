#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The browser tests' set-up and run (meson test --suite browser): installs
# the pinned playwright-core (package-lock.json) with `npm ci` into the
# build folder, once per lock file, then runs panel.test.js, TAP on stdout.
# Skipped, with the reason, where node is older than 18, npm cannot
# install, /usr/bin/chromium is absent or this gstprof has no server.
#
# Usage: run.sh SOURCE_DIR BUILD_DIR   (GSTPROF_BIN in the environment)
set -u
src=$1
build=$2
chromium=${GP_CHROMIUM:-/usr/bin/chromium}

skip () {
  echo "1..0 # SKIP $*"
  exit 0
}

command -v node >/dev/null 2>&1 || skip "no node (Debian: apt install nodejs npm)"
major=$(node -e 'console.log(process.versions.node.split(".")[0])' 2>/dev/null)
[ -n "$major" ] && [ "$major" -ge 18 ] ||
  skip "node $(node --version 2>/dev/null) is older than 18 (playwright-core needs 18)"
command -v npm >/dev/null 2>&1 || skip "no npm (Debian: apt install npm)"
[ -x "$chromium" ] || skip "no $chromium (Debian: apt install chromium)"
[ -n "${GSTPROF_BIN:-}" ] && [ -x "$GSTPROF_BIN" ] || skip "no GSTPROF_BIN"
# a build without libsoup 3 has no server: its --serve says so
if "$GSTPROF_BIN" serve /nonexistent 2>&1 | grep -q "without libsoup"; then
  skip "this gstprof was built without libsoup 3 (no server)"
fi

mkdir -p "$build/npm" || skip "cannot write $build/npm"
if ! cmp -s "$src/package-lock.json" "$build/npm/package-lock.json" ||
   [ ! -f "$build/npm/node_modules/playwright-core/package.json" ]; then
  cp "$src/package.json" "$src/package-lock.json" "$build/npm/" ||
    skip "cannot copy the package files to $build/npm"
  # without a registry, fail in seconds rather than npm's minute of retries
  if ! (cd "$build/npm" && npm ci --no-audit --no-fund --loglevel=error \
        --fetch-retries=1 --fetch-retry-mintimeout=1000 \
        --fetch-retry-maxtimeout=3000 --fetch-timeout=30000 \
        >npm-ci.log 2>&1); then
    rm -f "$build/npm/package-lock.json"
    skip "npm ci failed (no registry?): $(grep -v -e 'complete log' \
      -e '^npm error *$' "$build/npm/npm-ci.log" | head -n 1)"
  fi
fi

export NODE_PATH="$build/npm/node_modules"
export GP_BROWSER_OUT="$build/screenshots"
export GP_CHROMIUM="$chromium"
exec node "$src/panel.test.js"
