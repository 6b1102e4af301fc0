/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-wrap.c: gp_wrap_run in-process on real programs, with the tracer of
 * this build tree, against known truths: gst-launch-1.0 with identity
 * sleep-time=N (N us a buffer, every one of num-buffers), a live source
 * stopped by the duration (SIGINT, EOS drained), a shell that runs two
 * pipelines (the first to speak is the session, the other profiled
 * apart), a program that fails after its pipeline ran, one with no
 * GStreamer, one that is not there.
 */
#include <string.h>

#include <gst/gst.h>

#include "capture/gp-wrap.h"
#include "gp-test-util.h"

#define GP_TW_LAUNCH "gst-launch-1.0 -q videotestsrc num-buffers=60 ! " \
  "video/x-raw,width=160,height=120 ! identity name=slow sleep-time=4000 ! " \
  "fakesink"

/* gp_wrap_run on the words of @cmd, the machine not sampled unless
 * @machine; TRUE with @r filled, else FALSE with @error. */
static gboolean
gp_tw_run (const gchar * cmd, gdouble duration_s, gboolean machine,
    GpWrapResult * r, GError ** error)
{
  GpWrapOptions opts;
  gchar **argv = NULL;
  gboolean ok;

  g_assert_true (g_shell_parse_argv (cmd, NULL, &argv, NULL));
  gp_wrap_options_init (&opts);
  opts.argv = argv;
  opts.duration_s = duration_s;
  opts.window_ms = 100;
  opts.machine = machine;
  ok = gp_wrap_run (&opts, r, error);
  g_strfreev (argv);
  return ok;
}

/* gst-launch-1.0 to its EOS: every buffer at its planted cost, the launch
 * string back from its command line, the machine sampled under it. */
static void
test_gst_launch (void)
{
  GpWrapResult r;
  GError *err = NULL;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  g_assert_true (gp_tw_run (GP_TW_LAUNCH, 0, TRUE, &r, &err));
  g_assert_no_error (err);
  s = r.session;
  g_assert_nonnull (s);
  g_assert_false (r.failed);
  g_assert_cmpuint (r.others->len, ==, 0);
  g_assert_cmpstr (s->mode, ==, "wrap");
  g_assert_cmpstr (s->launch, ==, "videotestsrc num-buffers=60 ! "
      "video/x-raw,width=160,height=120 ! identity name=slow "
      "sleep-time=4000 ! fakesink");
  g_assert_cmpstr (s->end, ==, "eos");
  g_assert_cmpfloat (s->window_s, ==, 0.1);
  gp_test_assert_planted (s, "slow", 60, TRUE, 4.0);
  g_assert_nonnull (s->machine);
  g_assert_false (gp_test_has_note (s, "exited with"));
  gp_wrap_result_clear (&r);
  g_assert_null (r.session);
}

/* A live source stopped by the duration: SIGINT, the program drains and
 * exits; the session ends by "duration", about 30 buffers a second. */
static void
test_duration (void)
{
  GpWrapResult r;
  GError *err = NULL;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  g_assert_true (gp_tw_run ("gst-launch-1.0 -q -e videotestsrc is-live=true "
          "! video/x-raw,width=160,height=120,framerate=30/1 ! "
          "identity name=slow sleep-time=3000 ! fakesink", 1.5, FALSE, &r,
          &err));
  g_assert_no_error (err);
  s = r.session;
  g_assert_false (r.failed);
  g_assert_cmpstr (s->end, ==, "duration");
  g_assert_cmpfloat (s->stop_s, >, 0.5);
  /* 1.5 s at 30 fps, less the start */
  gp_test_assert_planted (s, "slow", 25, FALSE, 3.0);
  gp_wrap_result_clear (&r);
}

/* A shell that runs no pipeline itself but two programs that do: the
 * first that sent a header is the session, said so; the other is
 * profiled apart, with its pid, and named in the first's notes. */
static void
test_two_processes (void)
{
  GpWrapResult r;
  GError *err = NULL;
  gchar *cmd;

  if (!gp_test_have_tracer ())
    return;
  cmd = g_strdup_printf ("sh -c '%s; %s; exit 0'", GP_TW_LAUNCH, GP_TW_LAUNCH);
  g_assert_true (gp_tw_run (cmd, 0, FALSE, &r, &err));
  g_assert_no_error (err);
  g_assert_false (r.failed);
  g_assert_true (gp_test_has_note (r.session, "ran no GStreamer pipeline "
          "itself"));
  gp_test_assert_planted (r.session, "slow", 60, TRUE, 4.0);
  g_assert_cmpuint (r.others->len, ==, 1);
  g_assert_cmpuint (r.pids->len, ==, 1);
  gp_test_assert_planted (g_ptr_array_index (r.others, 0), "slow", 60, TRUE,
      4.0);
  g_assert_true (gp_test_has_note (r.session, "ran GStreamer too: profiled "
          "apart"));
  gp_wrap_result_clear (&r);
  g_free (cmd);
}

/* A program that fails after its pipeline ran: the session all the same,
 * the failure its own (failed), its exit status noted. */
static void
test_failure (void)
{
  GpWrapResult r;
  GError *err = NULL;
  gchar *cmd;

  if (!gp_test_have_tracer ())
    return;
  cmd = g_strdup_printf ("sh -c '%s; exit 5'", GP_TW_LAUNCH);
  g_assert_true (gp_tw_run (cmd, 0, FALSE, &r, &err));
  g_assert_no_error (err);
  g_assert_true (r.failed);
  g_assert_true (gp_test_has_note (r.session, "sh exited with status 5"));
  gp_test_assert_planted (r.session, "slow", 60, TRUE, 4.0);
  gp_wrap_result_clear (&r);
  g_free (cmd);
}

/* No GStreamer in the program, and no program at all: no session, an
 * error that says which. */
static void
test_no_session (void)
{
  GpWrapResult r;
  GError *err = NULL;

  g_assert_false (gp_tw_run ("sh -c 'exit 4'", 0, FALSE, &r, &err));
  g_assert_error (err, GP_WRAP_ERROR, GP_WRAP_ERROR_NO_PIPELINE);
  g_assert_nonnull (strstr (err->message, "exited with status 4"));
  g_assert_nonnull (strstr (err->message, "no GStreamer pipeline ran"));
  g_assert_null (r.session);
  g_clear_error (&err);

  g_assert_false (gp_tw_run ("/nonexistent/program", 0, FALSE, &r, &err));
  g_assert_error (err, GP_WRAP_ERROR, GP_WRAP_ERROR_SPAWN);
  g_assert_nonnull (strstr (err->message, "cannot run /nonexistent/program"));
  g_clear_error (&err);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wrap/gst-launch", test_gst_launch);
  g_test_add_func ("/wrap/duration", test_duration);
  g_test_add_func ("/wrap/two-processes", test_two_processes);
  g_test_add_func ("/wrap/failure", test_failure);
  g_test_add_func ("/wrap/no-session", test_no_session);
  return g_test_run ();
}
