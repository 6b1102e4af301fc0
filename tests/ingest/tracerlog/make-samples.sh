#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Remakes the tracer-log samples in this folder from real runs (not part of
# the build; the samples are committed). Each log is GStreamer's own
# output, thinned to stay a few KiB: the stats tracer's event, query
# (except the accept-caps its pads accepted) and element-query records and
# the tracers' registration lines are dropped; gzip-compressed, and of the rusage records
# (one per hook call) every 16th of each kind is kept, which keeps the cumulative CPU
# times they carry exact. The truth planted in every pipeline:
#   identity sleep-time=10000: identity0's element latency is 10 ms;
#   videotestsrc is-live=true at 30/1: 30 frames/s at the sink, whose caps
#   say 30/1.
#
#   sh tests/ingest/tracerlog/make-samples.sh      (needs inroot for 1.18/1.26)
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
PIPE="videotestsrc is-live=true num-buffers=75 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! identity sleep-time=10000 ! queue ! fakesink sync=true"
ALL="latency(flags=pipeline+element+reported);stats;rusage;leaks"

thin () {
  grep -v -E ' (event|element-query), ' |
  grep -v -E 'gst_tracer_record_build_format|gst_tracer_register' |
  awk '/ query, / { if (index($0, "accept-caps") && index($0, "result\\=\\(boolean\\)true")) print; next }
       / thread-rusage, / { if (t++ % 16 == 0) print; next }
       / proc-rusage, / { if (p++ % 16 == 0) print; next }
       { print }' | gzip -9n
}

run () {  # run ROOT TRACERS OUT: ROOT "" is this machine
  if [ -z "$1" ]; then
    GST_DEBUG_NO_COLOR=1 GST_DEBUG=GST_TRACER:7 GST_TRACERS="$2" \
      gst-launch-1.0 $PIPE 2>&1 >/dev/null | thin > "$3"
  else
    inroot "$1" "GST_DEBUG_NO_COLOR=1 GST_DEBUG=GST_TRACER:7 GST_TRACERS='$2' \
      gst-launch-1.0 $PIPE 2>&1 >/dev/null" | thin > "$3"
  fi
}

run "" "$ALL" "$DIR/gst122-all.log.gz"
run bullseye "$ALL" "$DIR/gst118-all.log.gz"
# 1.26.0 to 1.26.4 hang with the latency tracer (its event hook under the
# pad's lock): stats, rusage and leaks only, as people run it there
run trixie "stats;rusage;leaks" "$DIR/gst126-stats.log.gz"
# gst-launch-1.0's own lines as they come with it (stdout and stderr)
GST_DEBUG_NO_COLOR=1 GST_DEBUG=GST_TRACER:7 GST_TRACERS="latency(flags=pipeline+element)" \
  gst-launch-1.0 $PIPE 2>&1 | thin > "$DIR/gst122-latency-launch.log.gz"
# with colours, as a terminal gets them
GST_DEBUG_COLOR_MODE=on GST_DEBUG=GST_TRACER:7 GST_TRACERS="latency(flags=element);rusage" \
  gst-launch-1.0 $PIPE 2>&1 >/dev/null | thin > "$DIR/gst122-color.log.gz"
# The trap: with a source that is not live, queue0 reports a latency 33.3
# ms below what it received, which the latency tracer prints as 2^64 -
# 33333333 (gst-stats: 5124095:34:33.676218283)
GST_DEBUG_NO_COLOR=1 GST_DEBUG=GST_TRACER:7 GST_TRACERS="latency(flags=pipeline+element+reported);stats" \
  gst-launch-1.0 videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! \
  identity sleep-time=10000 ! queue ! fakesink sync=true 2>&1 >/dev/null | thin > "$DIR/gst122-reported.log.gz"
# GStreamer 1.16 (no such system here): the 1.18 log with its latency
# records in 1.16's form (plugins/tracers/gstlatency.c of 1.16: no element
# ids, source and sink as one "element_pad" string)
zcat "$DIR/gst118-all.log.gz" | sed -E \
  -e 's/ latency, src-element-id=\(string\)[^,]*, src-element=\(string\)([^,]*), src=\(string\)([^,]*), sink-element-id=\(string\)[^,]*, sink-element=\(string\)([^,]*), sink=\(string\)([^,]*),/ latency, src=(string)\1_\2, sink=(string)\3_\4,/' \
  -e 's/ element-latency, element-id=\(string\)[^,]*, element=\(string\)([^,]*), src=\(string\)([^,]*),/ element-latency, src=(string)\1_\2,/' \
  -e 's/ element-reported-latency, element-id=\(string\)[^,]*, / element-reported-latency, /' |
  gzip -9n > "$DIR/gst116-all.log.gz"
# A bin's own children with names it gave them (splitmuxsink: "muxer",
# "sink", and a queue per input, "queue_video" in 1.22, "queue_sink_N" in
# later releases): a live 30/1 source whose GOPs of 15 frames wait in that
# queue (a keyframe every 0.5 s, split every second)
GST_DEBUG_NO_COLOR=1 GST_DEBUG=GST_TRACER:7 GST_TRACERS="latency(flags=pipeline+element)" \
  gst-launch-1.0 -e videotestsrc is-live=true num-buffers=90 ! \
  video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! \
  x264enc tune=zerolatency key-int-max=15 ! h264parse ! \
  splitmuxsink location=/tmp/gp-sample-split%02d.mp4 max-size-time=1000000000 \
  2>&1 >/dev/null | thin > "$DIR/gst122-splitmux.log.gz"
rm -f /tmp/gp-sample-split*.mp4
