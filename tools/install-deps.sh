#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what gstprof needs to build, test and run, when it is missing.
# Debian/Ubuntu; as root it runs apt-get itself, otherwise it says what to run.
# chromium: its headless JSON parser loads gstprof export --perfetto's file in
# tests/export (Debian 11, 12 and 13 all ship it as "chromium").
# libcairo2-dev: gstprof plot draws with cairo (PNG and SVG; Debian 11, 12
# and 13 ship it under that name).
# libsqlite3-dev: gstprof ds profile reads the GPU metrics of an nsys
# SQLite export.
# Where the distribution has them (Debian 12 and later, not Debian 11):
# libsoup-3.0-dev, the live panel's server (--serve, gstprof serve; the
# build leaves it out without); prometheus, which tests/serve scrapes
# gstprof with.
# nodejs and npm, where the release's node is 18 or newer (Debian 12 and
# later; Debian 11's is 12) and no such node is there already: the browser
# tests install playwright-core from the npm registry and drive chromium
# with it (tests/browser/run.sh skips them, saying why, without).
set -e

OPTIONAL="libsoup-3.0-dev prometheus"

PKGS="meson ninja-build pkg-config gcc make python3 \
  libglib2.0-dev libjson-glib-dev \
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools \
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
  gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-x \
  xvfb gstreamer1.0-gl libgl1-mesa-dri \
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 \
  libgraphviz-dev libcairo2-dev libsqlite3-dev chromium"

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
# an optional package is wanted only where apt knows a version of it
optional_missing() {
  for p in $OPTIONAL; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" && continue
    if apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
      printf ' %s' "$p"
    fi
  done
  return 0
}
# node 18 or newer and npm, from the release where it has that node
node_missing() {
  if command -v npm >/dev/null 2>&1 &&
     [ "$(node -e 'console.log(process.versions.node.split(".")[0])' \
          2>/dev/null || echo 0)" -ge 18 ]; then
    return 0
  fi
  major=$(apt-cache policy nodejs 2>/dev/null |
    sed -n 's/^ *Candidate: \([0-9]*\)\..*/\1/p')
  if [ -n "$major" ] && [ "$major" -ge 18 ]; then
    printf ' nodejs npm'
  fi
  return 0
}
optional="$(optional_missing)$(node_missing)"
[ -z "$missing$optional" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  if [ -z "$missing" ]; then
    echo "gstprof: without$optional: no live panel server, or its Prometheus or browser tests skipped (sudo apt-get install -y$optional)" >&2
    exit 0
  fi
  echo "gstprof: missing packages:$missing$optional" >&2
  echo "gstprof: run as root, or: sudo apt-get install -y$missing$optional" >&2
  exit 3
fi
missing="$missing$optional"
echo "gstprof: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# the package lists are fresh now: the optional ones this release has
for p in $(optional_missing) $(node_missing); do
  case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
apt-get install -y -q --no-install-recommends $missing >/dev/null
