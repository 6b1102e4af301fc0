/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of the CPU roofline (gp-roofline-build) on real pipelines of this
 * machine: one that is bandwidth-bound here (videocrop copying 4K BGRx
 * frames line by line: its busy-time bandwidth against a memcpy of a
 * frame timed here), and two that are not (snow, a computed pattern, in
 * frames bigger than the caches; tiny frames that stay in them). The
 * links' bytes are held to frame size × frame rate. */
#include <math.h>
#include <string.h>
#include <time.h>
#include <gst/gst.h>

#include "gp-test-util.h"
#include "telemetry/gp-roofline-build.h"

static GpCaptureOptions base_opts;
static GpMembw *bw;

/* memcpy of @bytes between frames of a ring of 4, as a pipeline's buffer
 * pools hand them round (one pair copied again and again would stay in
 * the caches), best of 16, read + write counted, on its own clock */
static gdouble
memcpy_rate (gsize bytes)
{
  gchar *a[4], *b[4];
  gdouble best = INFINITY;
  guint r;

  for (r = 0; r < 4; r++) {
    a[r] = g_malloc (bytes);
    b[r] = g_malloc (bytes);
    memset (a[r], 1, bytes);
    memset (b[r], 2, bytes);
  }
  for (r = 0; r < 16; r++) {
    struct timespec t0, t1;

    clock_gettime (CLOCK_MONOTONIC_RAW, &t0);
    memcpy (b[r % 4], a[r % 4], bytes);
    clock_gettime (CLOCK_MONOTONIC_RAW, &t1);
    best = MIN (best, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec)
        * 1e-9);
  }
  for (r = 0; r < 4; r++) {
    g_assert_cmpint (b[r][bytes - 1], ==, 1);
    g_free (a[r]);
    g_free (b[r]);
  }
  return 2.0 * bytes / best;
}

static GpCpuElementBw *
element (GPtrArray * els, const gchar * name)
{
  guint i;

  for (i = 0; i < els->len; i++) {
    GpCpuElementBw *e = g_ptr_array_index (els, i);

    if (strcmp (e->name, name) == 0)
      return e;
  }
  g_error ("no element %s on the CPU roofline", name);
  return NULL;
}

/* The link out of @name carries frames of @frame bytes at its rate. */
static void
assert_link_bytes (GpSession * s, const gchar * name, gdouble frame)
{
  guint i;

  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);
    GpLink *l = gp_session_find_link (s, ls->id);
    gchar *src = gp_pad_element (l->src);
    gboolean mine = strcmp (src, name) == 0;

    g_free (src);
    if (!mine)
      continue;
    g_assert_cmpfloat (ls->fps, >, 0);
    g_assert_cmpfloat_with_epsilon (ls->bytes_per_s / ls->fps, frame,
        frame * 0.01);
    return;
  }
  g_error ("no link out of %s", name);
}

static gboolean
has_element (GPtrArray * els, const gchar * name)
{
  guint i;

  for (i = 0; i < els->len; i++)
    if (strcmp (((GpCpuElementBw *) g_ptr_array_index (els, i))->name,
            name) == 0)
      return TRUE;
  return FALSE;
}

static void
log_elements (GPtrArray * els)
{
  guint i;

  for (i = 0; i < els->len; i++) {
    GpCpuElementBw *e = g_ptr_array_index (els, i);

    g_test_message ("%s: %s: %s", e->name, e->point->bound,
        e->point->reason);
  }
}

/* videocrop copies every line of its input into a new frame: while it
 * runs it moves what a memcpy of the frame moves, at memcpy's rate.  That
 * rate is the best this process gives, timed before the pipeline ran and
 * after: after it alone, in memory the pipeline's 33 MB buffers churned,
 * a fresh frame copied at 14.1-15.6 GB/s on Debian 11 (glibc 2.31, 9
 * runs) where the same copy before the pipeline ran at 21.1-24.6 GB/s (6
 * runs), and crop's own 19.2-25.0 GB/s read up to twice the truth (2.0047
 * on one machine): one copy at the machine's rate, against a truth timed
 * slow. */
static void
test_bound (void)
{
  const gdouble frame = 3840.0 * 2160 * 4;
  GpSession *s;
  GpRoofline *r;
  GPtrArray *els = NULL;
  GpCpuElementBw *crop;
  gdouble truth, before, after;

  if (!gp_test_have_tracer ())
    return;
  before = memcpy_rate (frame);
  s = gp_test_capture (&base_opts, "videotestsrc name=src pattern=black ! "
      "video/x-raw,format=BGRx,width=3840,height=2160 ! "
      "videocrop name=crop top=2 bottom=2 ! fakesink name=sink", 2.0, NULL);
  r = gp_roofline_cpu (s, bw, &els);
  log_elements (els);
  assert_link_bytes (s, "src", frame);
  assert_link_bytes (s, "crop", 3840.0 * 2156 * 4);
  crop = element (els, "crop");
  after = memcpy_rate (frame);
  truth = MAX (before, after);
  g_test_message ("crop: %.2f GB/s while busy (%.1f %% busy); memcpy of a "
      "frame here %.2f GB/s (%.2f before the pipeline, %.2f after); probe "
      "copy %.2f GB/s", crop->busy_bytes_per_s / 1e9, crop->busy_pct,
      truth / 1e9, before / 1e9, after / 1e9, bw->copy_1 / 1e9);
  /* the truth: a frame's memcpy rate, within a factor 2 (line-by-line
   * copies, the tracer's own cost per push, a loaded machine) */
  g_assert_cmpfloat (crop->busy_bytes_per_s / truth, >, 0.5);
  g_assert_cmpfloat (crop->busy_bytes_per_s / truth, <, 2.0);
  g_assert_cmpstr (crop->point->bound, ==, "memory");
  g_assert_nonnull (strstr (crop->point->reason, "while busy"));
  /* the capsfilter and the sink hand buffers on without touching their
   * bytes: not on the roofline (the capsfilter read "2.61 TB/s") */
  g_assert_false (has_element (els, "sink"));
  g_assert_false (has_element (els, "capsfilter0"));
  /* the point is drawn at its busy-time bandwidth, bytes only */
  g_assert_true (isnan (crop->point->ai));
  g_assert_cmpfloat (crop->point->bytes_per_s, ==, crop->busy_bytes_per_s);
  g_ptr_array_unref (els);
  gp_roofline_free (r);
  gp_session_free (s);
}

/* snow is computed pixel by pixel: a source busy most of the time that
 * writes a small share of what the memory could take; tiny frames stay
 * in the caches. */
static void
test_not_bound (void)
{
  GpSession *s;
  GpRoofline *r;
  GPtrArray *els = NULL;
  GpCpuElementBw *src;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src pattern=snow ! "
      "video/x-raw,format=BGRx,width=1280,height=720 ! fakesink name=sink",
      1.5, NULL);
  r = gp_roofline_cpu (s, bw, &els);
  log_elements (els);
  assert_link_bytes (s, "src", 1280.0 * 720 * 4);
  src = element (els, "src");
  g_assert_cmpfloat (src->busy_pct, >, 30);
  g_assert_cmpfloat (src->share, <, GP_ROOFLINE_CPU_MEMBOUND / 2);
  g_assert_cmpstr (src->point->bound, ==, "neither");
  g_assert_nonnull (strstr (src->point->reason, "computation"));
  g_ptr_array_unref (els);
  gp_roofline_free (r);
  gp_session_free (s);

  s = gp_test_capture (&base_opts, "videotestsrc name=src ! "
      "video/x-raw,format=BGRx,width=64,height=48 ! videoconvert ! "
      "video/x-raw,format=I420 ! fakesink name=sink", 1.5, NULL);
  r = gp_roofline_cpu (s, bw, &els);
  log_elements (els);
  assert_link_bytes (s, "src", 64.0 * 48 * 4);
  g_assert_cmpuint (els->len, >=, 2);
  for (i = 0; i < els->len; i++) {
    GpCpuElementBw *e = g_ptr_array_index (els, i);

    g_assert_cmpstr (e->point->bound, ==, "neither");
  }
  g_assert_nonnull (strstr (element (els, "src")->point->reason,
          "level-2 cache"));
  g_ptr_array_unref (els);
  gp_roofline_free (r);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gint ret;

  gp_capture_options_init (&base_opts);
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  /* this machine's bandwidth, measured now (no cache of the user's) */
  bw = gp_membw_probe (0, 0, 0, &error);
  g_assert_no_error (error);
  g_test_add_func ("/roofline-cpu/bound", test_bound);
  g_test_add_func ("/roofline-cpu/not-bound", test_not_bound);
  ret = g_test_run ();
  gp_membw_free (bw);
  return ret;
}
