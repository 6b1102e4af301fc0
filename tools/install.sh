#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make install`: puts gstprof on PATH and the tracer plugin where
# GStreamer finds it by itself, so that any program loads it with
# GST_TRACERS=gstprof alone (no GST_PLUGIN_PATH).
#
#   sh tools/install.sh BUILD
#
# As root: the binary in $PREFIX/bin (default /usr/local) and the plugin in
# GStreamer's system plugin folder (pkg-config's pluginsdir). As a user: the
# binary in ~/.local/bin and the plugin in ~/.local/share/gstreamer-1.0/
# plugins, the folder GStreamer searches for each user. PREFIX and PLUGINDIR
# override either; DESTDIR stages the whole install under a folder. The
# install has its own build folder (BUILD-install), configured for those
# paths, so BUILD itself, which make run and make test use, is left as it
# is.
set -eu

BUILD=${1:?usage: install.sh BUILD}
if [ "$(id -u)" = 0 ]; then
  PREFIX=${PREFIX:-/usr/local}
  PLUGINDIR=${PLUGINDIR:-}
else
  PREFIX=${PREFIX:-$HOME/.local}
  PLUGINDIR=${PLUGINDIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gstreamer-1.0/plugins}
fi

IBUILD=$BUILD-install
if [ -f "$IBUILD/build.ninja" ]; then
  meson configure "$IBUILD" -Dprefix="$PREFIX" -Dplugindir="$PLUGINDIR" >/dev/null
else
  meson setup "$IBUILD" -Dprefix="$PREFIX" -Dplugindir="$PLUGINDIR" >/dev/null
fi
echo "gstprof: building for $PREFIX in $IBUILD"
ninja -C "$IBUILD" >/dev/null
meson install -C "$IBUILD" --no-rebuild >/dev/null
dir=${PLUGINDIR:-$(pkg-config --variable=pluginsdir gstreamer-1.0)}
echo "gstprof: installed ${DESTDIR:-}$PREFIX/bin/gstprof"
echo "gstprof: installed ${DESTDIR:-}$dir/libgstprof.so (GST_TRACERS=gstprof loads it;" \
  "gstprof check says where it is found)"
