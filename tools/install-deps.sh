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
set -e

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
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "gstprof: missing packages:$missing" >&2
  echo "gstprof: run as root, or: sudo apt-get install -y$missing" >&2
  exit 3
fi
echo "gstprof: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
