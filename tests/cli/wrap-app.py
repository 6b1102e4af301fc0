#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# A Python GStreamer program as people write them (PyGObject, a GLib main
# loop, a bus watch), for test-records.c's /wrap/python: 60 buffers through
# an identity that sleeps 4 ms each. It knows nothing of gstprof.
import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

Gst.init(None)
pipeline = Gst.parse_launch(
    "videotestsrc num-buffers=60 ! video/x-raw,width=160,height=120 ! "
    "identity name=slow sleep-time=4000 ! fakesink")
loop = GLib.MainLoop()
bus = pipeline.get_bus()
bus.add_signal_watch()
bus.connect("message::eos", lambda *args: loop.quit())
bus.connect("message::error", lambda *args: loop.quit())
pipeline.set_state(Gst.State.PLAYING)
loop.run()
pipeline.set_state(Gst.State.NULL)
