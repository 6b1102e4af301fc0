/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-caps.c: src/core/gp-caps.c on caps strings as GStreamer 1.22 gave
 * them on the links of real pipelines (gst-launch-1.0 -v).
 */
#include <glib.h>
#include <string.h>

#include "core/gp-caps.h"

static void
expect_words (const gchar * caps, const gchar * want)
{
  gchar *got = gp_caps_stream_words (caps);

  g_test_message ("%s -> %s", caps, got);
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

/* What the stream is, and nothing a run makes up: x264enc's default
 * 4:4:4 10-bit output, the constrained baseline it gives with I420 and
 * profile=constrained-baseline, each with its stream format; raw video
 * and audio, interlaced PAL with its pixel shape, planar audio; MPEG
 * audio by version and layer; NVMM memory; RTP without its ssrc; two
 * Matroska caps of one pipeline whose stream headers (a random segment
 * id, the date) differ read the same. */
static void
test_stream_words (void)
{
  const gchar *mkv_a = "video/x-matroska, streamheader=(buffer)< "
      "1a45dfa39f4286810142f7810142f2810442f381084282886d6174726f736b61, "
      "18538067010000000000010c >";
  const gchar *mkv_b = "video/x-matroska, streamheader=(buffer)< "
      "1a45dfa39f4286810142f7810142f2810442f381084282886d6174726f736b61, "
      "18538067010000000000ffee >";
  gchar *a, *b;

  expect_words ("video/x-h264, codec_data=(buffer)01f4001effe1001b67f4001e9"
      "1968150, stream-format=(string)avc, alignment=(string)au, "
      "level=(string)3, profile=(string)high-4:4:4, width=(int)320, "
      "height=(int)240, pixel-aspect-ratio=(fraction)1/1, "
      "framerate=(fraction)30/1, interlace-mode=(string)progressive, "
      "colorimetry=(string)bt601, chroma-site=(string)jpeg, "
      "multiview-mode=(string)mono, "
      "multiview-flags=(GstVideoMultiviewFlagsSet)0:ffffffff:/"
      "right-view-first/left-flipped/left-flopped/right-flipped/"
      "right-flopped/half-aspect/mixed-mono, chroma-format=(string)4:4:4, "
      "bit-depth-luma=(uint)10, bit-depth-chroma=(uint)10",
      "H.264 High 4:4:4 10-bit 320x240 30 fps, avc/au, bt601");
  expect_words ("video/x-h264, stream-format=(string)byte-stream, "
      "alignment=(string)au, profile=(string)constrained-baseline, "
      "width=(int)1920, height=(int)1080, framerate=(fraction)30000/1001, "
      "chroma-format=(string)4:2:0, bit-depth-luma=(uint)8",
      "H.264 Constrained Baseline 4:2:0 8-bit 1920x1080 29.97 fps, "
      "byte-stream/au");
  expect_words ("video/x-raw, format=(string)I420, width=(int)320, "
      "height=(int)240, framerate=(fraction)30/1, "
      "multiview-mode=(string)mono, pixel-aspect-ratio=(fraction)1/1, "
      "interlace-mode=(string)progressive",
      "raw video I420 320x240 30 fps");
  expect_words ("video/x-raw(memory:NVMM), format=(string)NV12, "
      "width=(int)1920, height=(int)1080, framerate=(fraction)30/1",
      "raw video NV12 1920x1080 30 fps in memory:NVMM");
  expect_words ("audio/x-raw, format=(string)S16LE, layout=(string)"
      "interleaved, rate=(int)48000, channels=(int)2, "
      "channel-mask=(bitmask)0x0000000000000003",
      "raw audio S16LE 48000 Hz 2 ch");
  expect_words ("application/x-rtp, media=(string)video, "
      "clock-rate=(int)90000, encoding-name=(string)H264, "
      "payload=(int)96, ssrc=(uint)1234, timestamp-offset=(uint)99",
      "RTP H264");
  expect_words ("video/x-raw, format=(string)UYVY, width=(int)720, "
      "height=(int)576, framerate=(fraction)25/1, "
      "pixel-aspect-ratio=(fraction)16/15, interlace-mode=(string)"
      "interleaved, colorimetry=(string)bt601",
      "raw video UYVY 720x576 25 fps, interleaved, pixel aspect 16/15, "
      "bt601");
  expect_words ("audio/mpeg, mpegversion=(int)1, layer=(int)3, "
      "rate=(int)44100, channels=(int)2, parsed=(boolean)true",
      "MPEG audio (MP3) 44100 Hz 2 ch");
  expect_words ("audio/mpeg, mpegversion=(int)1, layer=(int)2, "
      "rate=(int)48000, channels=(int)2", "MPEG audio (MP2) 48000 Hz 2 ch");
  expect_words ("audio/mpeg, mpegversion=(int)4, stream-format=(string)raw, "
      "rate=(int)48000, channels=(int)2, codec_data=(buffer)1190",
      "MPEG audio (AAC) 48000 Hz 2 ch, raw");
  expect_words ("audio/x-raw, format=(string)F32LE, layout=(string)"
      "non-interleaved, rate=(int)48000, channels=(int)2",
      "raw audio F32LE 48000 Hz 2 ch, non-interleaved");
  expect_words (NULL, "");
  a = gp_caps_stream_words (mkv_a);
  b = gp_caps_stream_words (mkv_b);
  g_assert_cmpstr (a, ==, "Matroska");
  g_assert_cmpstr (a, ==, b);
  g_free (a);
  g_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/caps/stream-words", test_stream_words);
  return g_test_run ();
}
