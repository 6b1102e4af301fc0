/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-density's launch strings: n copies of one stream, each in its
 * bin sK, parsed by GStreamer's own parser into n bins of their own; a
 * template's {n} and its {each} ... {/each} with {k}; an {each} not
 * closed refused. The streams' rates and the wall on real steps:
 * tests/cli/test-density.c. */
#include <gst/gst.h>
#include <string.h>

#include "report/gp-density.h"

static void
test_density_copies (void)
{
  gchar *launch = gp_density_launch ("videotestsrc num-buffers=1 ! "
      "tee name=t ! fakesink t. ! fakesink", 3, NULL);
  GError *err = NULL;
  GstElement *p;
  guint k;

  g_assert_cmpstr (launch, ==, "bin.( name=s0 videotestsrc num-buffers=1 "
      "! tee name=t ! fakesink t. ! fakesink ) bin.( name=s1 videotestsrc "
      "num-buffers=1 ! tee name=t ! fakesink t. ! fakesink ) bin.( name=s2 "
      "videotestsrc num-buffers=1 ! tee name=t ! fakesink t. ! fakesink )");
  g_assert_false (gp_density_is_template ("videotestsrc ! fakesink"));
  /* GStreamer's parser: three bins, each with its own tee named t */
  p = gst_parse_launch (launch, &err);
  g_assert_no_error (err);
  for (k = 0; k < 3; k++) {
    gchar *name = g_strdup_printf ("s%u", k);
    GstElement *bin = gst_bin_get_by_name (GST_BIN (p), name);
    GstElement *t;

    g_assert_nonnull (bin);
    g_assert_true (GST_IS_BIN (bin));
    t = gst_bin_get_by_name (GST_BIN (bin), "t");
    g_assert_nonnull (t);
    g_assert_true (GST_OBJECT_PARENT (t) == GST_OBJECT (bin));
    gst_object_unref (t);
    gst_object_unref (bin);
    g_free (name);
  }
  gst_object_unref (p);
  g_free (launch);
}

static void
test_density_template (void)
{
  GError *err = NULL;
  gchar *launch;

  launch = gp_density_launch ("nvstreammux batch-size={n} name=m", 4, NULL);
  g_assert_cmpstr (launch, ==, "nvstreammux batch-size=4 name=m");
  g_free (launch);
  launch = gp_density_launch ("compositor name=c ! fakesink {each} "
      "videotestsrc pattern={k} ! c.sink_{k} {/each}", 2, NULL);
  g_assert_cmpstr (launch, ==, "compositor name=c ! fakesink   "
      "videotestsrc pattern=0 ! c.sink_0   videotestsrc pattern=1 ! "
      "c.sink_1  ");
  g_free (launch);
  g_assert_true (gp_density_is_template ("a {each} b {/each}"));
  g_assert_null (gp_density_launch ("a {each} b", 2, &err));
  g_assert_nonnull (strstr (err->message, "{/each}"));
  g_clear_error (&err);
  g_assert_null (gp_density_launch ("a {each} b {each} c {/each}", 2, &err));
  g_clear_error (&err);
  g_assert_null (gp_density_launch ("{n} b {/each}", 2, &err));
  g_clear_error (&err);
  /* a stray {/each} before a whole pair */
  g_assert_null (gp_density_launch ("a {/each} {each} b {/each}", 2, &err));
  g_assert_nonnull (strstr (err->message, "without its {each}"));
  g_clear_error (&err);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/density/copies", test_density_copies);
  g_test_add_func ("/report/density/template", test_density_template);
  return g_test_run ();
}
