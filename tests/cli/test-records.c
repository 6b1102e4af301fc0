/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-records.c: the tracer on its own. GST_TRACERS="gstprof(out=DIR)"
 * with no gstprof command around the program: gst-launch-1.0 itself, a
 * program that exits without gst_deinit (), one killed by SIGKILL; then
 * `gstprof analyze DIR` and gp_records_load () on what the tracer wrote,
 * checked against the planted cost (identity sleep-time) and the buffer
 * count. Bad files: not records, lines that are not records, a folder of
 * two processes. `gstprof wrap` around gst-launch-1.0, with --duration,
 * around a program that fails, one that dies by SIGKILL, one with no
 * GStreamer.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "capture/gp-records.h"
#include "core/gp-session.h"
#include "gp-config.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* gstprof wrap's wait between the signals it sends (GP_WRAP_GRACE_S) */
#define GP_TEST_WRAP_GRACE_S 5

/* The pipeline of the exit () child: 60 buffers through a 4 ms identity. */
#define GP_EXIT_CHILD_LAUNCH "videotestsrc num-buffers=60 ! " \
  "video/x-raw,width=160,height=120 ! identity name=slow sleep-time=4000 ! " \
  "fakesink"

static gchar **
gp_records_env (const gchar * dir)
{
  gchar **env = g_get_environ ();
  gchar *tracers = g_strdup_printf ("gstprof(out=%s,window=100)", dir);

  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, TRUE);
  g_free (tracers);
  return env;
}

/* Runs @argv with the tracer writing into @dir; its wait status. */
static gint
gp_records_spawn (gchar ** argv, const gchar * dir, gdouble kill_after_s)
{
  gchar **env = gp_records_env (dir);
  GError *err = NULL;
  GPid pid;
  gint status = 0;

  g_assert_true (g_spawn_async (NULL, argv, env, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
          &pid, &err));
  g_assert_no_error (err);
  if (kill_after_s > 0) {
    g_usleep ((gulong) (kill_after_s * G_USEC_PER_SEC));
    kill (pid, SIGKILL);
  }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_strfreev (env);
  return status;
}

static GpSession *
gp_records_load_ok (const gchar * dir)
{
  GError *err = NULL;
  GpSession *s;

  g_assert_true (gp_records_present (dir));
  s = gp_records_load (dir, &err);
  g_assert_no_error (err);
  g_assert_nonnull (s);
  return s;
}

static gboolean
gp_records_has_note (GpSession * s, const gchar * part)
{
  guint i;

  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, "warning") == 0 &&
        g_strcmp0 (ev->source, "gstprof") == 0 && strstr (ev->text, part))
      return TRUE;
  }
  return FALSE;
}

/* The identity named "slow": at least @min_buffers buffers (exactly that
 * many when @exact), each within 0.5 ms of its planted @sleep_ms. */
static void
gp_records_assert_slow (GpSession * s, guint64 min_buffers, gboolean exact,
    gdouble sleep_ms)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, "slow");

  g_assert_nonnull (es);
  g_test_message ("slow: %" G_GUINT64_FORMAT " buffers, p50 %.3f ms "
      "(planted %.1f ms)", es->buffers, es->self_ms.p50, sleep_ms);
  if (exact)
    g_assert_cmpuint (es->buffers, ==, min_buffers);
  else
    g_assert_cmpuint (es->buffers, >=, min_buffers);
  g_assert_cmpfloat (fabs (es->self_ms.p50 - sleep_ms), <, 0.5);
}

/* gst-launch-1.0 under GST_TRACERS alone: the same measurement as run, the
 * launch string back from its command line, a clean end. */
static void
test_gst_launch (void)
{
  gchar *dir = g_build_filename (gp_tmp, "launch", NULL);
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "videotestsrc", (gchar *) "num-buffers=100", (gchar *) "!",
    (gchar *) "video/x-raw,width=160,height=120", (gchar *) "!",
    (gchar *) "identity", (gchar *) "name=slow", (gchar *) "sleep-time=5000",
    (gchar *) "!", (gchar *) "fakesink", NULL
  };
  GpSession *s;
  GpTestRun r;
  gint status;

  if (!gp_test_have_tracer ())
    return;
  status = gp_records_spawn (argv, dir, 0);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  s = gp_records_load_ok (dir);
  g_assert_cmpstr (s->mode, ==, "wrap");
  g_assert_cmpstr (s->launch, ==, "videotestsrc num-buffers=100 ! "
      "video/x-raw,width=160,height=120 ! identity name=slow "
      "sleep-time=5000 ! fakesink");
  g_assert_cmpstr (s->reached, ==, "PLAYING");
  g_assert_cmpstr (s->end, ==, "eos");
  g_assert_cmpfloat (s->window_s, ==, 0.1);
  /* every buffer, at the planted cost */
  gp_records_assert_slow (s, 100, TRUE, 5.0);
  g_assert_false (gp_records_has_note (s, "ended without"));
  gp_session_free (s);

  /* the binary reads the folder into the same verdict */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", dir, NULL);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, "gstprof verdict\nwrap of "));
  g_assert_nonnull (strstr (r.out, "HOT: slow takes"));
  g_assert_cmpstr (r.err, ==, "");
  gp_test_run_clear (&r);
  g_free (dir);
}

/* A program that exits without gst_deinit (): the exit handler writes the
 * last window and ends the file. */
static void
test_exit_without_deinit (void)
{
  gchar *dir = g_build_filename (gp_tmp, "exit", NULL);
  gchar *argv[] = { (gchar *) g_getenv ("GP_RECORDS_SELF"),
    (gchar *) "--exit-child", NULL
  };
  GpSession *s;
  gint status;

  if (!gp_test_have_tracer ())
    return;
  status = gp_records_spawn (argv, dir, 0);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  s = gp_records_load_ok (dir);
  g_assert_null (s->launch);
  gp_records_assert_slow (s, 60, TRUE, 4.0);
  g_assert_false (gp_records_has_note (s, "ended without"));
  gp_session_free (s);
  g_free (dir);
}

/* SIGKILL in the middle of a live run: every window up to then, said so. */
static void
test_killed (void)
{
  gchar *dir = g_build_filename (gp_tmp, "killed", NULL);
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "videotestsrc", (gchar *) "is-live=true", (gchar *) "!",
    (gchar *) "video/x-raw,width=160,height=120,framerate=30/1",
    (gchar *) "!", (gchar *) "identity", (gchar *) "name=slow",
    (gchar *) "sleep-time=3000", (gchar *) "!", (gchar *) "fakesink",
    (gchar *) "sync=true", NULL
  };
  GpSession *s;
  gint status;

  if (!gp_test_have_tracer ())
    return;
  status = gp_records_spawn (argv, dir, 2.0);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  s = gp_records_load_ok (dir);
  g_assert_true (gp_records_has_note (s, "ended without"));
  g_assert_cmpuint (s->series->len, >=, 5);
  g_assert_null (s->end);
  /* about 30 a second for the second or so it played */
  gp_records_assert_slow (s, 20, FALSE, 3.0);
  gp_session_free (s);
  g_free (dir);
}

/* What is not a records file, lines that are not records, two processes'
 * files in one folder. */
static void
test_bad_files (void)
{
  gchar *dir = g_build_filename (gp_tmp, "launch", NULL);
  gchar *bad = g_build_filename (gp_tmp, "bad", NULL);
  gchar *path, *text, *first_nl, *mixed, *other;
  GPtrArray *found;
  GError *err = NULL;
  GpSession *s;
  GDir *d;
  const gchar *name;

  if (!gp_test_have_tracer ())
    return;
  /* test_gst_launch's folder: its one records file */
  d = g_dir_open (dir, 0, &err);
  g_assert_no_error (err);
  found = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (found, g_build_filename (dir, name, NULL));
  g_dir_close (d);
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_true (g_file_get_contents (g_ptr_array_index (found, 0), &text,
          NULL, NULL));

  /* not records at all */
  g_assert_cmpint (g_mkdir_with_parents (bad, 0755), ==, 0);
  path = g_build_filename (bad, "gstprof-1.records", NULL);
  g_assert_true (g_file_set_contents (path, "{\"schema\": 1}\n", -1, NULL));
  g_assert_false (gp_records_present (path));
  g_assert_null (gp_records_load (path, &err));
  g_assert_nonnull (strstr (err->message, "not a gstprof records file"));
  g_assert_nonnull (strstr (err->message, path));
  g_clear_error (&err);

  /* a line that is not a record after the header: counted, named, the
   * rest read */
  first_nl = strchr (text, '\n');
  mixed = g_strdup_printf ("%.*s\nthis is not a record\n%s",
      (int) (first_nl - text), text, first_nl + 1);
  g_assert_true (g_file_set_contents (path, mixed, -1, NULL));
  s = gp_records_load (path, &err);
  g_assert_no_error (err);
  g_assert_true (gp_records_has_note (s, "1 line of"));
  g_assert_true (gp_records_has_note (s, "(line 2)"));
  gp_records_assert_slow (s, 100, TRUE, 5.0);
  gp_session_free (s);

  /* two processes in one folder: name the one */
  other = g_build_filename (bad, "gstprof-2.records", NULL);
  g_assert_true (g_file_set_contents (other, text, -1, NULL));
  g_assert_null (gp_records_load (bad, &err));
  g_assert_nonnull (strstr (err->message, "2 records files"));
  g_assert_nonnull (strstr (err->message, "gstprof-1.records"));
  g_clear_error (&err);
  s = gp_records_load (other, &err);
  g_assert_no_error (err);
  gp_session_free (s);

  g_ptr_array_unref (found);
  g_free (other);
  g_free (mixed);
  g_free (text);
  g_free (path);
  g_free (bad);
  g_free (dir);
}

/* ------------------------------------------------------------------ */
/* gstprof wrap                                                         */

/* gst-launch-1.0 wrapped: the verdict of its pipeline, the session in
 * --out, the planted cost measured. */
static void
test_wrap_gst_launch (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrapped", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--out", out, "--",
      "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=100", "!",
      "identity", "name=slow", "sleep-time=5000", "!", "fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, "gstprof verdict\nwrap of "));
  g_assert_nonnull (strstr (r.out, "ended: the stream's own end (EOS)"));
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->mode, ==, "wrap");
  gp_records_assert_slow (s, 100, TRUE, 5.0);
  gp_session_free (s);
  g_free (path);
  g_free (out);
}

/* --duration stops a live program with SIGINT; the session says so. */
static void
test_wrap_duration (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-duration", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--duration", "1500ms", "--out",
      out, "--", "gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "!",
      "video/x-raw,width=160,height=120,framerate=30/1", "!", "fakesink",
      "sync=true", NULL);
  g_assert_cmpint (r.code, <=, 1);
  /* SIGINT ends gst-launch-1.0 at once: no SIGTERM needed */
  g_assert_cmpfloat (r.wall_s, <, 1.5 + GP_TEST_WRAP_GRACE_S);
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->end, ==, "duration");
  g_assert_cmpfloat (fabs (s->stop_s - 1.5), <, 0.5);
  g_assert_cmpfloat (gp_session_find_sink (s, "fakesink0")->fps, >, 25);
  gp_session_free (s);
  g_free (path);
  g_free (out);
}

/* A program that fails, one that crashes, one with no GStreamer at all. */
static void
test_wrap_failures (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-killed", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  /* no pipeline: exit 2, one line that says so and how it ended */
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--", "sh", "-c", "exit 3", NULL);
  g_assert_cmpint (r.code, ==, 2);
  g_assert_nonnull (strstr (r.err, "sh exited with status 3; no GStreamer "
          "pipeline ran in it"));
  /* exactly one line */
  g_assert_true (g_str_has_suffix (r.err, "\n"));
  g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
  gp_test_run_clear (&r);

  /* a program that dies by SIGKILL of its own mid-run: exit 2, every
   * window up to then, and how it ended */
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--out", out, "--",
      g_getenv ("GP_RECORDS_SELF"), "--kill-child", NULL);
  g_assert_cmpint (r.code, ==, 2);
  g_assert_nonnull (strstr (r.out, "was killed by signal 9"));
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_records_assert_slow (s, 20, FALSE, 2.0);
  gp_session_free (s);

  /* usage: no program, and an argument before "--" */
  gp_test_run_gstprof (&r, gp_tmp, "wrap", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "gst-launch-1.0", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_run_clear (&r);
  g_free (path);
  g_free (out);
}

/* Programs as people write them, wrapped: C with a GMainLoop and a bus
 * watch, C with no main loop that polls its bus (and exits without
 * gst_deinit), Python with PyGObject. Each runs 60 buffers through a 4 ms
 * identity. */
static void
gp_records_wrap_program (const gchar * name, const gchar * const *argv)
{
  gchar *out = g_build_filename (gp_tmp, name, NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  GPtrArray *args = g_ptr_array_new ();
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  g_ptr_array_add (args, (gpointer) "wrap");
  g_ptr_array_add (args, (gpointer) "--out");
  g_ptr_array_add (args, out);
  g_ptr_array_add (args, (gpointer) "--");
  for (; *argv; argv++)
    g_ptr_array_add (args, (gpointer) * argv);
  g_ptr_array_add (args, NULL);
  gp_test_run_gstprof_argv (&r, gp_tmp, (const gchar * const *) args->pdata);
  g_test_message ("%s: exit %d", name, r.code);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, "gstprof verdict\nwrap of "));
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_records_assert_slow (s, 60, TRUE, 4.0);
  g_assert_cmpstr (s->reached, ==, "PLAYING");
  g_assert_cmpstr (s->end, ==, "eos");
  gp_session_free (s);
  g_ptr_array_unref (args);
  g_free (path);
  g_free (out);
}

static void
test_wrap_c_programs (void)
{
  const gchar *loop[] = { g_getenv ("GP_RECORDS_SELF"), "--main-loop-child",
    NULL
  };
  const gchar *poll[] = { g_getenv ("GP_RECORDS_SELF"), "--exit-child",
    NULL
  };

  if (!gp_test_have_tracer ())
    return;
  gp_records_wrap_program ("wrap-main-loop", loop);
  gp_records_wrap_program ("wrap-poll", poll);
}

static void
test_wrap_python (void)
{
  gchar *script = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests",
      "cli", "wrap-app.py", NULL);
  const gchar *argv[] = { "/usr/bin/python3", script, NULL };
  gchar *err_text = NULL;
  gint status = -1;

  if (!gp_test_have_tracer ())
    return;
  /* Debian's python3 with python3-gi (tools/install-deps.sh installs it) */
  if (!g_spawn_command_line_sync ("/usr/bin/python3 -c \"import gi; "
          "gi.require_version('Gst', '1.0')\"", NULL, &err_text, &status,
          NULL) || status != 0) {
    g_test_skip ("/usr/bin/python3 has no gi with Gst 1.0 (python3-gi, "
        "gir1.2-gstreamer-1.0)");
    g_free (err_text);
    g_free (script);
    return;
  }
  g_free (err_text);
  gp_records_wrap_program ("wrap-python", argv);
  g_free (script);
}

static gboolean
gp_records_on_bus (GstBus * bus, GstMessage * m, gpointer loop)
{
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS ||
      GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
    g_main_loop_quit (loop);
  return G_SOURCE_CONTINUE;
}

/* --main-loop-child: a GMainLoop with a bus watch, to EOS, gst_deinit. */
static gint
gp_records_main_loop_child (void)
{
  GMainLoop *loop;
  GstElement *p;
  GstBus *bus;

  gst_init (NULL, NULL);
  p = gst_parse_launch (GP_EXIT_CHILD_LAUNCH, NULL);
  if (p == NULL)
    return 2;
  loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (p);
  gst_bus_add_watch (bus, gp_records_on_bus, loop);
  gst_element_set_state (p, GST_STATE_PLAYING);
  g_main_loop_run (loop);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (p);
  g_main_loop_unref (loop);
  gst_deinit ();
  return 0;
}

/* --kill-child: a live pipeline for a second, then SIGKILL to itself. */
static gint
gp_records_kill_child (void)
{
  GstElement *p;

  gst_init (NULL, NULL);
  p = gst_parse_launch ("videotestsrc is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! "
      "identity name=slow sleep-time=2000 ! fakesink sync=true", NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  g_usleep (1500 * 1000);
  kill (getpid (), SIGKILL);
  return 0;
}

/* --exit-child: the program of test_exit_without_deinit. */
static gint
gp_records_exit_child (void)
{
  GstElement *p;
  GstBus *bus;
  GstMessage *m;

  gst_init (NULL, NULL);
  p = gst_parse_launch (GP_EXIT_CHILD_LAUNCH, NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (m != NULL)
    gst_message_unref (m);
  gst_object_unref (bus);
  /* no gst_deinit (), no state change: straight out */
  exit (0);
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  gint ret;

  if (argc > 1 && strcmp (argv[1], "--exit-child") == 0)
    return gp_records_exit_child ();
  if (argc > 1 && strcmp (argv[1], "--kill-child") == 0)
    return gp_records_kill_child ();
  if (argc > 1 && strcmp (argv[1], "--main-loop-child") == 0)
    return gp_records_main_loop_child ();
  g_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);
  {
    gchar *self = g_canonicalize_filename (argv[0], NULL);

    g_setenv ("GP_RECORDS_SELF", self, TRUE);
    g_free (self);
  }
  gp_tmp = g_dir_make_tmp ("gstprof-test-records-XXXXXX", &err);
  g_assert_no_error (err);

  g_test_add_func ("/records/gst-launch", test_gst_launch);
  g_test_add_func ("/records/exit-without-deinit", test_exit_without_deinit);
  g_test_add_func ("/records/killed", test_killed);
  g_test_add_func ("/records/bad-files", test_bad_files);
  g_test_add_func ("/wrap/gst-launch", test_wrap_gst_launch);
  g_test_add_func ("/wrap/duration", test_wrap_duration);
  g_test_add_func ("/wrap/failures", test_wrap_failures);
  g_test_add_func ("/wrap/c-programs", test_wrap_c_programs);
  g_test_add_func ("/wrap/python", test_wrap_python);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
