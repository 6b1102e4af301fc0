/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-format.c: FORMAT's text on sessions made by hand, one for
 * each encoder and format it can be given (videotestsrc ! videoconvert !
 * ENC, the format made by the converter): the profile a decoder then
 * needs is the codec's own for that depth and chroma (ITU-T H.264 A.2:
 * High 10 and High 4:2:2 to 10 bits, High 4:4:4 Predictive beyond; H.265
 * A.3's range extensions, Main 4:4:4 12 for 12-bit 4:4:4; VP9 profiles
 * 1-3; AV1 Main, High, Professional), never another codec's, and whether
 * most decoders have it.  On real runs: tests/corpus/test-advice.c.
 */
#include <string.h>

#include "rules/gp-rules.h"
#include "gp-test-session.h"
#include "gp-test-util.h"

typedef struct
{
  const gchar *encoder;
  const gchar *format;
  const gchar *words;           /* the format's weight in the title */
  const gchar *profile;         /* the codec's own name */
  gboolean common;              /* most decoders have it */
} FormatCase;

static const FormatCase cases[] = {
  {"x264enc", "Y444_10LE", "10-bit 4:4:4", "H.264 High 4:4:4 Predictive",
      FALSE},
  {"x264enc", "Y444", "8-bit 4:4:4", "H.264 High 4:4:4 Predictive", FALSE},
  {"x264enc", "I420_10LE", "10-bit", "H.264 High 10", FALSE},
  {"x264enc", "I422_10LE", "10-bit 4:2:2", "H.264 High 4:2:2", FALSE},
  {"openh264enc", "I420_12LE", "12-bit", "H.264 High 4:4:4 Predictive",
      FALSE},
  {"x265enc", "Y444_12LE", "12-bit 4:4:4", "HEVC Main 4:4:4 12", FALSE},
  {"x265enc", "Y444_10LE", "10-bit 4:4:4", "HEVC Main 4:4:4 10", FALSE},
  {"x265enc", "Y444", "8-bit 4:4:4", "HEVC Main 4:4:4", FALSE},
  {"x265enc", "I422_12LE", "12-bit 4:2:2", "HEVC Main 4:2:2 12", FALSE},
  {"x265enc", "I422_10LE", "10-bit 4:2:2", "HEVC Main 4:2:2 10", FALSE},
  {"x265enc", "I420_12LE", "12-bit", "HEVC Main 12", FALSE},
  {"x265enc", "I420_10LE", "10-bit", "HEVC Main 10", TRUE},
  {"vp9enc", "Y444", "8-bit 4:4:4", "VP9 profile 1", FALSE},
  {"vp9enc", "I420_10LE", "10-bit", "VP9 profile 2", TRUE},
  {"vp9enc", "Y444_12LE", "12-bit 4:4:4", "VP9 profile 3", FALSE},
  {"av1enc", "I420_10LE", "10-bit", "AV1 Main", TRUE},
  {"svtav1enc", "Y444_10LE", "10-bit 4:4:4", "AV1 High", FALSE},
  {"rav1enc", "I420_12LE", "12-bit", "AV1 Professional", FALSE},
  {"av1enc", "I422_10LE", "10-bit 4:2:2", "AV1 Professional", FALSE},
};

/* Every codec's name that must not appear in another's text. */
static const gchar *const codecs[] = { "H.264", "HEVC", "VP9", "AV1", NULL };

/* videotestsrc ! videoconvert ! @encoder ! fakesink, 10 s, the converter
 * making @format out of I420. */
static GpSession *
format_session (const gchar * encoder, const gchar * format)
{
  GpSession *s = gp_test_session_new (10.0);
  gchar *caps = g_strdup_printf ("video/x-raw, format=(string)%s, "
      "width=(int)640, height=(int)360, framerate=(fraction)30/1", format);

  gp_test_add_element (s, "src", "videotestsrc", "source");
  gp_test_add_element (s, "conv", "videoconvert", "filter");
  gp_test_add_element (s, "enc", encoder, "filter");
  gp_test_add_element (s, "sink", "fakesink", "sink");
  gp_session_add_link (s, "src.src", "conv.sink", "video/x-raw, "
      "format=(string)I420, width=(int)640, height=(int)360, "
      "framerate=(fraction)30/1", "system");
  gp_session_add_link (s, "conv.src", "enc.sink", caps, "system");
  gp_session_add_link (s, "enc.src", "sink.sink", "video/x-unknown",
      "system");
  g_free (caps);
  return s;
}

static void
test_profile (gconstpointer data)
{
  const FormatCase *c = data;
  GpSession *s = format_session (c->encoder, c->format);
  gchar *words = g_strdup_printf ("(%s)", c->words);
  gchar *named = g_strdup_printf ("the %s profile", c->profile);
  const gchar *codec = c->profile;
  GpFinding *f;
  guint i;

  gp_rules_run (s);
  f = gp_session_find_finding (s, "FORMAT", "enc");
  g_assert_nonnull (f);
  gp_test_message_text (f->why);
  gp_test_assert_has (f->title, words);
  gp_test_assert_has (f->why, named);
  g_assert_cmpstr (gp_test_evidence_string (f, "profile"), ==, c->profile);
  gp_test_assert_has (f->why, c->common ? "which most decoders have" :
      "which most players and hardware decoders lack");
  for (i = 0; codecs[i]; i++)
    if (!g_str_has_prefix (codec, codecs[i]))
      g_assert_null (strstr (f->why, codecs[i]));
  g_free (named);
  g_free (words);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  guint i;

  g_test_init (&argc, &argv, NULL);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *path = g_strdup_printf ("/rules/format/%s/%s", cases[i].encoder,
        cases[i].format);

    g_test_add_data_func (path, &cases[i], test_profile);
    g_free (path);
  }
  return g_test_run ();
}
