/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-fix.c: `gstprof fix` and `gstprof compare`. The plan (which edits,
 * which skipped and why) on hand-made findings; a real slow pipeline fixed
 * in-process with gp_fix_apply and measured faster; the real binary
 * (GSTPROF_BIN) on saved sessions: the patched string, --apply, compare,
 * and bad input (exit 3, one line).
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "core/gp-session.h"
#include "core/gp-session-query.h"
#include "capture/gp-capture.h"
#include "fix/gp-fix.h"
#include "report/gp-compare.h"
#include "rules/gp-rules.h"
#include "gp-test-util.h"

#define SLOW "videotestsrc is-live=true ! identity sleep-time=50000 ! fakesink"
#define FAST "videotestsrc is-live=true ! identity sleep-time=1000 ! fakesink"

static const gchar *gp_bin;
static gchar *gp_tmp;
static gchar *slow_path;        /* a real capture of SLOW, with a patch */
static GpSession *slow_session;

/* A bad input: exit 3, one line on stderr naming the command, no stdout. */
static void
assert_one_line_error (GpTestRun * r)
{
  g_assert_cmpint (r->code, ==, 3);
  g_assert_true (g_str_has_prefix (r->err, "gstprof "));
  gp_test_assert_one_line (r->err, NULL);
  g_assert_cmpstr (r->out, ==, "");
}

static GpFinding *
add_patched (GpSession * s, const gchar * rule, const gchar * title,
    gdouble rank, const gchar * patch_json)
{
  GpFinding *f = gp_session_add_finding (s, rule, GP_SEVERITY_INFO, title);

  f->heuristic = TRUE;
  f->rank_value = rank;
  g_free (f->why);
  g_free (f->fix);
  f->why = g_strdup ("test");
  f->fix = g_strdup ("test");
  if (patch_json != NULL) {
    JsonNode *node = json_from_string (patch_json, NULL);
    GError *err = NULL;

    f->fix_patch = gp_session_patch_from_json (node, "test", &err);
    g_assert_no_error (err);
    json_node_unref (node);
  }
  return f;
}

/* The edits of ranked findings: the same edit twice is made once for both,
 * another value for the same property is a conflict, an edit naming no
 * element does not apply, and a finding without a patch is listed as such;
 * the result parses. */
static void
test_plan (void)
{
  GpSession *s = gp_session_new ();
  GpFixPlan *p;
  GError *err = NULL;
  GstElement *pipe;
  gchar *text;
  const gchar *want = "videotestsrc is-live=true ! queue ! "
      "identity sleep-time=1000 ! fakesink sync=false";

  s->launch = g_strdup ("videotestsrc is-live=true ! identity "
      "sleep-time=50000 ! videoconvert ! fakesink");
  add_patched (s, "A1", "identity sleeps", 90,
      "{\"op\":\"set\",\"target\":\"identity0\",\"prop\":\"sleep-time\","
      "\"value\":1000}");
  add_patched (s, "A2", "same edit again", 80,
      "{\"op\":\"set\",\"target\":\"identity0\",\"prop\":\"sleep-time\","
      "\"value\":1000}");
  add_patched (s, "A3", "another value", 70,
      "{\"op\":\"set\",\"target\":\"identity0\",\"prop\":\"sleep-time\","
      "\"value\":2000}");
  add_patched (s, "A4", "queue and sync", 60,
      "[{\"op\":\"insert\",\"after\":\"videotestsrc0\",\"element\":\"queue\"},"
      "{\"op\":\"set\",\"target\":\"fakesink0\",\"prop\":\"sync\","
      "\"value\":false}]");
  add_patched (s, "A5", "converter not needed", 50,
      "{\"op\":\"remove\",\"target\":\"videoconvert0\"}");
  add_patched (s, "A6", "names nothing", 40,
      "{\"op\":\"set\",\"target\":\"nosuch0\",\"prop\":\"x\",\"value\":1}");
  add_patched (s, "A7", "sets a removed element", 30,
      "{\"op\":\"set\",\"target\":\"videoconvert0\",\"prop\":\"qos\","
      "\"value\":false}");
  add_patched (s, "A8", "no launch edit", 20, NULL);
  gp_rules_rank (s);

  p = gp_fix_plan_new (s, gp_bin, &err);
  g_assert_no_error (err);
  g_assert_cmpuint (gp_fix_plan_get_n_edits (p), ==, 4);
  g_assert_cmpstr (gp_fix_plan_get_launch (p), ==, want);
  pipe = gst_parse_launch (gp_fix_plan_get_launch (p), &err);
  g_assert_no_error (err);
  gst_object_unref (pipe);

  text = gp_fix_plan_format (p);
  gp_test_message_text (text);
  g_assert_nonnull (strstr (text, "\n  1. set identity0 sleep-time=1000\n"
          "       for A1 info: identity sleeps\n"
          "       for A2 info: same edit again\n"));
  g_assert_nonnull (strstr (text, "A3 info: another value\n    conflicts "
          "with edit 1 (set identity0 sleep-time=1000)"));
  g_assert_nonnull (strstr (text, "A6 info: names nothing\n    does not "
          "apply: "));
  g_assert_nonnull (strstr (text, "A7 info: sets a removed element\n    "
          "conflicts with edit 4 (remove videoconvert0)"));
  g_assert_nonnull (strstr (text, "No launch-string edit"));
  g_assert_nonnull (strstr (text, "  A8 info: no launch edit\n"));
  g_assert_nonnull (strstr (text, "- videotestsrc"));
  g_free (text);
  gp_fix_plan_free (p);

  /* no launch string: no plan, and a reason */
  g_clear_pointer (&s->launch, g_free);
  g_assert_null (gp_fix_plan_new (s, gp_bin, &err));
  g_assert_nonnull (err);
  g_clear_error (&err);
  gp_session_free (s);
}

/* A patched string is built with GStreamer's parser before it is taken:
 * caps GStreamer cannot link, or a capsfilter whose caps no neighbour
 * takes, are skipped with the reason; a pipeline that does
 * not build here is patched with a note that it was not checked. */
static void
test_plan_links (void)
{
  GpSession *s = gp_session_new ();
  GpFixPlan *p;
  GError *err = NULL;
  gchar *text;

  s->launch = g_strdup ("videotestsrc ! capsfilter caps=video/x-raw "
      "! videoconvert ! jpegenc ! fakesink");
  add_patched (s, "B1", "jpeg caps before raw video", 90,
      "{\"op\":\"caps\",\"before\":\"videoconvert0\","
      "\"caps\":\"image/jpeg,framerate=1/1\"}");
  add_patched (s, "B2", "a capsfilter no one takes", 80,
      "{\"op\":\"set\",\"target\":\"capsfilter0\",\"prop\":\"caps\","
      "\"value\":\"audio/x-raw\"}");
  add_patched (s, "B3", "jpeg caps after the encoder", 70,
      "{\"op\":\"caps\",\"after\":\"jpegenc0\","
      "\"caps\":\"image/jpeg,framerate=30/1\"}");
  gp_rules_rank (s);
  p = gp_fix_plan_new (s, gp_bin, &err);
  g_assert_no_error (err);
  text = gp_fix_plan_format (p);
  gp_test_message_text (text);
  g_assert_cmpuint (gp_fix_plan_get_n_edits (p), ==, 1);
  g_assert_cmpstr (gp_fix_plan_get_launch (p), ==, "videotestsrc "
      "! capsfilter caps=video/x-raw ! videoconvert ! jpegenc "
      "! image/jpeg,framerate=30/1 ! fakesink");
  g_assert_nonnull (strstr (text, "B1 info: jpeg caps before raw video\n"
          "    does not link: could not link"));
  g_assert_nonnull (strstr (text, "B2 info: a capsfilter no one takes\n"
          "    does not link: could not link"));
  g_assert_null (strstr (text, "Not checked"));
  g_free (text);
  gp_fix_plan_free (p);

  /* not buildable here: patched, and said so */
  g_free (s->launch);
  s->launch = g_strdup ("videotestsrc ! gpnosuchelement ! capsfilter "
      "caps=video/x-raw ! fakesink");
  p = gp_fix_plan_new (s, gp_bin, &err);
  g_assert_no_error (err);
  text = gp_fix_plan_format (p);
  gp_test_message_text (text);
  g_assert_nonnull (strstr (text, "Not checked that it links: the original "
          "launch does not build here either: no element "
          "\"gpnosuchelement\"."));
  g_free (text);
  gp_fix_plan_free (p);
  gp_session_free (s);
}

/* The slow pipeline, captured once by the binary (so that this process's
 * first pipeline is the patched one and gets the same element names:
 * GStreamer numbers elements per process), its rules run and a finding
 * added that patches the sleep away; saved for the binary's tests. */
static GpSession *
slow_capture (void)
{
  GError *err = NULL;
  gchar *dir;
  GpTestRun r;

  if (slow_session != NULL)
    return slow_session;
  dir = g_build_filename (gp_tmp, "slow", NULL);
  slow_path = g_build_filename (dir, "session.json", NULL);
  gp_test_run_gstprof (&r, gp_tmp,
      "run", "-q", "-d", "2s", "-o", dir, SLOW, NULL);
  /* 1: BEHIND (medium) says this live pipeline falls behind */
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  slow_session = gp_session_load (slow_path, &err);
  g_assert_no_error (err);
  gp_rules_run (slow_session);
  /* the rules' own edits are theirs to test: here only this one counts */
  for (guint i = 0; i < slow_session->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (slow_session->findings, i);

    g_clear_pointer (&f->fix_patch, g_ptr_array_unref);
  }
  add_patched (slow_session, "TEST", "identity0 sleeps 50 ms a buffer", 1,
      "{\"op\":\"set\",\"target\":\"identity0\",\"prop\":\"sleep-time\","
      "\"value\":1000}");
  gp_rules_rank (slow_session);
  g_assert_true (gp_session_save (slow_session, slow_path, &err));
  g_assert_no_error (err);
  g_free (dir);
  return slow_session;
}

/* --apply in-process: the patched pipeline runs as long as the original
 * and its sink gets clearly more frames (20 fps -> about 30), beyond the
 * noise the windows show. */
static void
test_apply (void)
{
  GpSession *before = slow_capture (), *after;
  GpFixPlan *p;
  GpCompareValue v;
  GError *err = NULL;
  gboolean failed = TRUE;
  gchar *table;

  p = gp_fix_plan_new (before, gp_bin, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (gp_fix_plan_get_launch (p), ==, FAST);
  after = gp_fix_apply (before, gp_fix_plan_get_launch (p), FALSE, &failed,
      &err);
  g_assert_no_error (err);
  g_assert_nonnull (after);
  g_assert_false (failed);
  gp_rules_run (after);
  g_assert_cmpfloat (G_APPROX_VALUE (after->duration_s, before->duration_s,
          0.5), ==, TRUE);
  /* asked to stop when the original was, not after its drain on top */
  g_assert_cmpstr (before->end, ==, "duration");
  g_assert_cmpfloat (fabs (after->stop_s - before->stop_s), <, 0.2);
  g_assert_cmpfloat (after->window_s, ==, before->window_s);

  g_assert_true (gp_compare_sink_fps (before, after, "fakesink0", &v));
  g_test_message ("fakesink0: %.1f -> %.1f fps (noise band %.1f)", v.a, v.b,
      v.spread);
  g_assert_cmpfloat (v.a, <, 23.0);
  g_assert_cmpfloat (v.b, >, v.a + 5.0);
  g_assert_cmpfloat (v.spread, >=, 0.0);
  g_assert_false (v.noise);

  table = gp_compare_format (before, after, "before", "after");
  gp_test_message_text (table);
  g_assert_nonnull (strstr (table, "Rate (per sink, in its own media)"));
  g_assert_nonnull (strstr (table, "beyond noise"));
  g_assert_nonnull (strstr (table, "p50 videotestsrc0.src->fakesink0"));
  g_assert_nonnull (strstr (table, "cleared   TEST"));
  g_free (table);
  gp_session_free (after);
  gp_fix_plan_free (p);
}

/* A session compared with itself: every change is 0 and none is claimed. */
static void
test_compare_same (void)
{
  GpSession *s = slow_capture ();
  gchar *table = gp_compare_format (s, s, "A", "B");

  g_assert_null (strstr (table, "beyond noise"));
  g_assert_nonnull (strstr (table, "+0.0 (+0%)  noise"));
  g_assert_nonnull (strstr (table, "Findings: 0 cleared, "));
  g_assert_nonnull (strstr (table, " remaining, 0 new\n"));
  g_assert_nonnull (strstr (table, "remaining TEST"));
  g_free (table);
}

/* The machine's drift between two runs is noise too: the same run with
 * its reference work made 60 % slower in B and its process CPU 50 % higher
 * is within the drift, and said; without a reference in B the same change
 * is beyond each run's own spread. */
static void
test_compare_drift (void)
{
  GpSession *a, *b;
  GpMachineSeries *ref;
  GError *err = NULL;
  gchar *table;
  const gchar *row;
  guint i;

  slow_capture ();
  a = gp_session_load (slow_path, &err);
  g_assert_no_error (err);
  b = gp_session_load (slow_path, &err);
  g_assert_no_error (err);
  ref = gp_machine_find (b->machine, GP_MACHINE_CPU_REF, "xorshift");
  g_assert_nonnull (ref);
  for (i = 0; i < ref->v->len; i++)
    g_array_index (ref->v, gdouble, i) *= 1.6;
  g_assert_cmpfloat (a->process.cpu_pct_mean, >, 0);
  b->process.cpu_pct_mean = a->process.cpu_pct_mean * 1.5;

  table = gp_compare_format (a, b, "A", "B");
  gp_test_message_text (table);
  g_assert_nonnull (strstr (table, "So is the machine's drift between the "
          "runs"));
  g_assert_nonnull (strstr (table, "(+60 %): a change of work, rate\nor "
          "latency within 60 % is noise."));
  row = strstr (table, "  process ");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (row, "(+50%)  noise (within"));
  g_free (table);

  for (i = 0; i < ref->v->len; i++)
    g_array_index (ref->v, gdouble, i) = NAN;
  table = gp_compare_format (a, b, "A", "B");
  g_assert_nonnull (strstr (table, "The machine's drift between the runs is "
          "not known (B has no reference work"));
  row = strstr (table, "  process ");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (row, "(+50%)  beyond noise"));
  g_free (table);
  gp_session_free (a);
  gp_session_free (b);
}

/* The binary: the patched string, then --apply writing a second session
 * and the table, then compare on the two saved sessions. */
static void
test_cli_fix_apply_compare (void)
{
  GpTestRun r;
  gchar *out_dir, *after_path, *want;

  slow_capture ();
  gp_test_run_gstprof (&r, gp_tmp, "fix", "--stored", slow_path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  /* printf formats, so that tests/launch does not take these texts for
   * launch strings */
  want = g_strdup_printf ("Patched launch (1 edit):\n  %s\n", FAST);
  g_assert_nonnull (strstr (r.out, want));
  g_free (want);
  want = g_strdup_printf ("- %s\n+ %s\n", SLOW, FAST);
  g_assert_nonnull (strstr (r.out, want));
  g_free (want);
  gp_test_run_clear (&r);

  /* without --stored the rules run again: the hand-made finding is gone */
  gp_test_run_gstprof (&r, gp_tmp, "fix", slow_path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_null (strstr (r.out, "TEST"));
  g_assert_null (strstr (r.out, "sleep-time=1000"));
  gp_test_run_clear (&r);

  out_dir = g_build_filename (gp_tmp, "after", NULL);
  gp_test_run_gstprof (&r, gp_tmp,
      "fix", "--stored", "--apply", "--out", out_dir,
      slow_path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  want = g_strdup_printf ("before: %s\nafter:  %s\n", SLOW, FAST);
  g_assert_nonnull (strstr (r.out, want));
  g_free (want);
  g_assert_nonnull (strstr (r.out, "beyond noise"));
  g_assert_nonnull (strstr (r.out, "Findings: "));
  /* a sleep shorter: the sink receives what it did */
  g_assert_null (strstr (r.out, "What the sinks receive changed"));
  after_path = g_build_filename (out_dir, "session.json", NULL);
  g_assert_true (g_file_test (after_path, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (r.err, after_path));
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "compare", slow_path, after_path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "fakesink0"));
  g_assert_nonnull (strstr (r.out, "beyond noise"));
  g_assert_null (strstr (r.out, "no sink of the same name"));
  gp_test_run_clear (&r);

  /* the default folder for the after-session: beside the first */
  gp_test_run_gstprof (&r, gp_tmp,
      "fix", "--stored", "--apply", "-q", slow_path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_free (after_path);
  after_path = g_build_filename (gp_tmp, "slow-fixed", "session.json", NULL);
  g_assert_true (g_file_test (after_path, G_FILE_TEST_IS_REGULAR));
  gp_test_run_clear (&r);
  g_free (after_path);
  g_free (out_dir);
}

/* A capture of @launch in @name/session.json whose only finding is a
 * hand-made one of @rule, whose edit sets identity0's sleep-time to
 * @sleep_us; its path. */
static gchar *
patched_capture (const gchar * name, const gchar * launch, const gchar * rule,
    guint sleep_us)
{
  gchar *patch = g_strdup_printf ("{\"op\":\"set\",\"target\":"
      "\"identity0\",\"prop\":\"sleep-time\",\"value\":%u}", sleep_us);
  gchar *dir = g_build_filename (gp_tmp, name, NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "-d", "2s", "-o", dir,
      launch, NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_ptr_array_set_size (s->findings, 0);
  add_patched (s, rule, "hand-made", 1, patch);
  gp_rules_rank (s);
  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  gp_session_free (s);
  g_free (patch);
  g_free (dir);
  return path;
}

/* `gstprof fix --stored --apply -q @path` into @r, said in the log; where
 * its output says what got worse, from @first on (NULL when it does not:
 * "The fix made it worse" followed by @first's line). */
static const gchar *
apply_worse (GpTestRun * r, const gchar * path, const gchar * first)
{
  gchar *want = g_strdup_printf ("The fix made it worse, beyond noise, on "
      "what it was for:\n  %s", first);
  const gchar *said;

  gp_test_run_gstprof (r, gp_tmp, "fix", "--stored", "--apply", "-q", path,
      NULL);
  gp_test_message_lines ("%s: exit %d\n%s", path, r->code, r->out);
  said = strstr (r->out, want);
  g_free (want);
  return said;
}

/* A fix that leaves the stream as it was says nothing of what the sink
 * receives, into a Matroska file too (issue 29: "cries wolf on every
 * Matroska or WebM output: the caps carry a stream header with a random
 * SegmentUID and the date", two 1.2 KB hex blobs): the two runs' caps on
 * the link into the filesink differ, and the words do not. */
static void
test_cli_fix_apply_matroska (void)
{
  gchar *mkv = g_build_filename (gp_tmp, "fix.mkv", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! identity "
      "sleep-time=1000 ! x264enc speed-preset=ultrafast tune=zerolatency ! "
      "matroskamux ! filesink location=%s", mkv);
  gchar *path = patched_capture ("mkv", launch, "TEST", 2000);
  gchar *out_dir = g_build_filename (gp_tmp, "mkv-after", NULL);
  gchar *after_path = g_build_filename (out_dir, "session.json", NULL);
  GpSession *a, *b;
  GError *err = NULL;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "fix", "--stored", "--apply", "-q",
      "--out", out_dir, path, NULL);
  g_assert_null (strstr (r.out, "What the sinks receive changed"));
  g_assert_nonnull (strstr (r.out, "Rate (per sink, in its own media)"));
  gp_test_run_clear (&r);
  a = gp_session_load (path, &err);
  g_assert_no_error (err);
  b = gp_session_load (after_path, &err);
  g_assert_no_error (err);
  /* the wolf was there: the caps strings themselves differ */
  g_assert_cmpstr (gp_session_link_into (a, "filesink0")->caps, !=,
      gp_session_link_into (b, "filesink0")->caps);
  gp_session_free (b);
  gp_session_free (a);
  g_free (after_path);
  g_free (out_dir);
  g_free (path);
  g_free (launch);
  g_free (mkv);
}

/* A fix that makes the pipeline worse beyond noise exits 1 and says so
 * before anything else (issue 29: a queue that lost 24 % of the rate
 * "beyond noise" ended with "no high or medium finding after", exit 0).
 * The truths are the planted sleeps: 100 ms a buffer instead of 1 holds a
 * live 30 fps to at most 10 (every fix is held to the rate); 20 ms instead
 * of 1 keeps 30 fps but adds 19 ms of latency, worse for a SYNC fix
 * (latency is what it is for) and not claimed for a rule that has no
 * such measure. */
static void
test_cli_fix_apply_worse (void)
{
  const gchar *launch = "videotestsrc is-live=true ! video/x-raw,width=160,"
      "height=120,framerate=30/1 ! identity sleep-time=1000 ! fakesink";
  gchar *slower = patched_capture ("worse-rate", launch, "TEST", 100000);
  gchar *later = patched_capture ("worse-latency", launch, "SYNC", 20000);
  gchar *later_test = patched_capture ("later-test", launch, "TEST", 20000);
  gchar *mkv = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! identity "
      "sleep-time=1000 ! x264enc speed-preset=ultrafast tune=zerolatency ! "
      "matroskamux ! filesink location=%s/worse.mkv", gp_tmp);
  gchar *muxed = patched_capture ("worse-muxed", mkv, "TEST", 100000);
  const gchar *said;
  GpTestRun r;

  said = apply_worse (&r, slower, "fakesink0: ");
  g_assert_cmpint (r.code, ==, 1);
  g_assert_nonnull (said);
  g_assert_nonnull (strstr (said, " fps ("));
  g_assert_true (said < strstr (r.out, "Rate (per sink, in its own media)"));
  gp_test_run_clear (&r);

  said = apply_worse (&r, later, "latency p50 videotestsrc0.src->fakesink0: ");
  g_assert_cmpint (r.code, ==, 1);
  g_assert_nonnull (said);
  g_assert_null (strstr (r.out, "  fakesink0: "));
  gp_test_run_clear (&r);

  g_assert_null (apply_worse (&r, later_test, ""));
  gp_test_run_clear (&r);

  /* into a muxer, the video's frames a second say it, not the file's
   * kbit/s (issue 29: an encoder from 6.5 to 16.2 fps into the muxer read
   * "+64 % kbit/s, noise"): in what got worse and in the table */
  said = apply_worse (&r, muxed, "video into matroskamux0: ");
  g_assert_cmpint (r.code, ==, 1);
  g_assert_nonnull (said);
  g_assert_nonnull (strstr (r.out, "\n    video into matroskamux0 (fps) "));
  gp_test_run_clear (&r);
  g_free (muxed);
  g_free (mkv);
  g_free (later_test);
  g_free (later);
  g_free (slower);
}

/* A fix that changes the caps a sink receives (BGRx made I420 by a caps
 * edit) is said first, before the rates, in words, from both caps as the
 * tracer saw them on the link into the sink. */
static void
test_cli_fix_apply_delivery (void)
{
  gchar *dir = g_build_filename (gp_tmp, "bgrx", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *out_dir = g_build_filename (gp_tmp, "bgrx-after", NULL);
  const gchar *changed;
  GpSession *s;
  GError *err = NULL;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "-d", "1s", "-o", dir,
      "videotestsrc is-live=true ! video/x-raw,format=BGRx,width=320,"
      "height=240 ! videoconvert ! fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_ptr_array_set_size (s->findings, 0);
  add_patched (s, "TEST", "caps made I420", 1,
      "{\"op\":\"caps\",\"before\":\"videoconvert0\","
      "\"caps\":\"video/x-raw,format=I420,width=320,height=240\"}");
  gp_rules_rank (s);
  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  gp_session_free (s);

  gp_test_run_gstprof (&r, gp_tmp, "fix", "--stored", "--apply", "-q",
      "--out", out_dir, path, NULL);
  g_assert_cmpint (r.code, <=, 1);
  changed = strstr (r.out, "What the sinks receive changed: this is not a "
      "pure speed-up.\n  fakesink0: raw video BGRx 320x240 30 fps -> raw "
      "video I420 320x240 30 fps\n");
  g_assert_nonnull (changed);
  /* first: before the side-by-side table */
  g_assert_true (changed < strstr (r.out, "Rate (per sink, in its own media)"));
  gp_test_run_clear (&r);
  g_free (out_dir);
  g_free (path);
  g_free (dir);
}

/* An audio sink's rate compares in its own media, real time per second of
 * wall time: buffers/s times the 1024 samples at 8 kHz each carries (the
 * source's settings), never "fps". */
static void
test_cli_compare_audio (void)
{
  gchar *dir = g_build_filename (gp_tmp, "pcm", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GpSession *s;
  GError *err = NULL;
  GpTestRun r;
  const gchar *row;
  gdouble a, b, want;

  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "-o", dir,
      "audiotestsrc num-buffers=400 samplesperbuffer=1024 ! "
      "audio/x-raw,rate=8000,channels=1 ! identity sleep-time=2000 ! "
      "fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  want = gp_session_find_sink (s, "fakesink0")->fps * 1024 / 8000.0;
  gp_session_free (s);

  gp_test_run_gstprof (&r, gp_tmp, "compare", path, path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_message_text (r.out);
  row = strstr (r.out, "  fakesink0 (x real time)");
  g_assert_nonnull (row);
  g_assert_cmpint (sscanf (row + strlen ("  fakesink0 (x real time)"),
          "%lf %lf", &a, &b), ==, 2);
  g_assert_cmpfloat (a, ==, b);
  g_assert_cmpfloat (fabs (a - want), <, 0.1);
  g_assert_null (strstr (r.out, "fakesink0 (fps)"));
  gp_test_run_clear (&r);
  g_free (path);
  g_free (dir);
}

static void
test_cli_compare_mismatch (void)
{
  GpSession *other = gp_session_new ();
  GpSinkSummary *ss;
  GError *err = NULL;
  gchar *path = g_build_filename (gp_tmp, "other.json", NULL);
  GpTestRun r;

  slow_capture ();
  other->launch = g_strdup ("videotestsrc ! fakesink name=elsewhere");
  other->duration_s = 2.0;
  other->window_s = 0.25;
  ss = gp_session_add_sink (other, "elsewhere");
  ss->fps = 30.0;
  g_assert_true (gp_session_save (other, path, &err));
  g_assert_no_error (err);
  gp_test_run_gstprof (&r, gp_tmp, "compare", slow_path, path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "no sink of the same name"));
  /* said first, before anything is set side by side */
  g_assert_nonnull (strstr (r.out, "A and B profile different pipelines"));
  g_assert_true (strstr (r.out, "profile different pipelines") <
      strstr (r.out, "duration "));
  g_assert_nonnull (strstr (r.out, "only in A"));
  g_assert_nonnull (strstr (r.out, "only in B (30.0 buffers/s)"));
  gp_test_run_clear (&r);
  gp_session_free (other);
  g_free (path);
}

/* Bad input: exit 3 and one line, whatever is wrong. */
static void
test_cli_bad_input (void)
{
  const gchar *fixtures = g_getenv ("GP_FIXTURES");
  gchar *garbage = g_build_filename (gp_tmp, "garbage.json", NULL);
  gchar *nolaunch = g_build_filename (gp_tmp, "nolaunch.json", NULL);
  gchar *badlaunch = g_build_filename (gp_tmp, "badlaunch.json", NULL);
  gchar *zc = NULL;
  GpSession *s = gp_session_new ();
  GError *err = NULL;
  GpTestRun r;

  g_assert_true (g_file_set_contents (garbage, "{\"schema\": 12", -1, NULL));
  g_assert_true (gp_session_save (s, nolaunch, &err));
  s->launch = g_strdup ("videotestsrc ! ! fakesink");
  g_assert_true (gp_session_save (s, badlaunch, &err));
  g_assert_no_error (err);

  gp_test_run_gstprof (&r, gp_tmp, "fix", NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", "no-such-file.json", NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", garbage, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", nolaunch, NULL);
  assert_one_line_error (&r);
  g_assert_nonnull (strstr (r.err, "no launch string"));
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", badlaunch, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", "--out", gp_tmp, nolaunch, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "fix", nolaunch, garbage, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "compare", nolaunch, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "compare", nolaunch, garbage, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp,
      "compare", "--bogus", nolaunch, nolaunch, NULL);
  assert_one_line_error (&r);
  gp_test_run_clear (&r);

  /* a gst-profile import without a launch string: nothing to patch */
  g_assert_nonnull (fixtures);
  zc = g_build_filename (fixtures, "gst-profile-sessions",
      "jetson-zc-break.json", NULL);
  g_assert_true (g_file_test (zc, G_FILE_TEST_IS_REGULAR));
  gp_test_run_gstprof (&r, gp_tmp, "fix", zc, NULL);
  assert_one_line_error (&r);
  g_assert_nonnull (strstr (r.err, "an import from another tool"));
  gp_test_run_clear (&r);
  gp_session_free (s);
  g_free (garbage);
  g_free (nolaunch);
  g_free (badlaunch);
  g_free (zc);
}

int
main (int argc, char **argv)
{
  GpCaptureOptions opts;
  GError *err = NULL;
  gint ret;

  gp_capture_options_init (&opts);
  /* as the CLI does: the tracer set up before GStreamer starts */
  if (!gp_capture_prepare_env (&opts, &err))
    g_error ("%s", err->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_bin = g_getenv ("GSTPROF_BIN");
  g_assert_nonnull (gp_bin);
  gp_tmp = g_dir_make_tmp ("gstprof-test-fix-XXXXXX", &err);
  g_assert_no_error (err);

  /* apply first: its pipeline must be the first one this process makes */
  g_test_add_func ("/fix/apply", test_apply);
  g_test_add_func ("/fix/plan", test_plan);
  g_test_add_func ("/fix/plan-links", test_plan_links);
  g_test_add_func ("/compare/same", test_compare_same);
  g_test_add_func ("/compare/drift", test_compare_drift);
  g_test_add_func ("/fix/cli-apply-compare", test_cli_fix_apply_compare);
  g_test_add_func ("/fix/cli-apply-delivery", test_cli_fix_apply_delivery);
  g_test_add_func ("/fix/cli-apply-worse", test_cli_fix_apply_worse);
  g_test_add_func ("/fix/cli-apply-matroska", test_cli_fix_apply_matroska);
  g_test_add_func ("/compare/cli-mismatch", test_cli_compare_mismatch);
  g_test_add_func ("/compare/cli-audio", test_cli_compare_audio);
  g_test_add_func ("/fix/cli-bad-input", test_cli_bad_input);
  ret = g_test_run ();

  if (slow_session)
    gp_session_free (slow_session);
  g_free (slow_path);
  if (!g_test_verbose ()) {
    gchar *argv_rm[] = { (gchar *) "rm", (gchar *) "-rf", gp_tmp, NULL };
    g_spawn_sync (NULL, argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
        NULL, NULL, NULL, NULL);
  }
  g_free (gp_tmp);
  return ret;
}
