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
 * GStreamer; the records streamed over wrap's socket as they close (the
 * live progress line on a terminal), a program with two pipelines whose
 * elements share names (unique by path), a program that forks and execs a
 * second GStreamer process (profiled apart), connections to the socket
 * that are not the tracer's (counted, never trusted). A reader that falls
 * behind (windows left out and said, the end line kept), a long line in
 * small reads, Ctrl-C on wrap's terminal (a pseudo-terminal: one SIGINT,
 * EOS drained), kill -INT to wrap with no terminal (forwarded), two
 * pipelines of one name (player, player#2).
 */
/* posix_openpt (), grantpt (), unlockpt (), ptsname () */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "capture/gp-records.h"
#include "core/gp-session.h"
#include "core/gp-session-query.h"
#include "gp-config.h"
#include "ingest/gp-ingest.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* gstprof wrap's wait between the signals it sends (GP_WRAP_GRACE_S) */
#define GP_TEST_WRAP_GRACE_S 5

/* The pipeline of the exit () child: 60 buffers through a 4 ms identity. */
#define GP_EXIT_CHILD_LAUNCH "videotestsrc num-buffers=60 ! " \
  "video/x-raw,width=160,height=120 ! identity name=slow sleep-time=4000 ! " \
  "fakesink"

/* The pipeline of the shares test: its one streaming thread never waits
 * (no live source, no sink that syncs), and a planted 3 ms is most of each
 * buffer's time; the sink is named for the child's probe. */
#define GP_SHARES_BUFFERS 90
#define GP_SHARES_SLEEP_MS 3.0
#define GP_SHARES_LAUNCH "videotestsrc num-buffers=90 ! " \
  "video/x-raw,width=160,height=120 ! identity name=slow sleep-time=3000 ! " \
  "fakesink name=out"

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
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
          gp_test_child_dies_with_us, NULL, &pid, &err));
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
  gp_test_assert_planted (s, "slow", 100, TRUE, 5.0);
  g_assert_false (gp_test_has_note (s, "ended without"));
  gp_session_free (s);

  /* the binary reads the folder into the same verdict */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", dir, NULL);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, "gstprof verdict\ntracer records of "));
  g_assert_nonnull (strstr (r.out, "HOT: slow takes"));
  g_assert_cmpstr (r.err, ==, "");
  gp_test_run_clear (&r);
  g_free (dir);
}

/* GST_TRACERS="gstprof(out=DIR)" where GStreamer cannot find the tracer
 * (issue 29: "writes nothing, and gstprof analyze DIR then says only 'No
 * such file or directory'"): gst-launch-1.0 plays, says nothing of it, and
 * DIR is never made; analyze DIR says, on one line with exit 3, that the
 * tracer did not load and how to load it. The child has a registry of its
 * own and GStreamer's own plugin folders only. */
static void
test_not_loaded (void)
{
  gchar *dir = g_build_filename (gp_tmp, "not-loaded", NULL);
  gchar *registry = g_build_filename (gp_tmp, "not-loaded.bin", NULL);
  gchar *tracers = g_strdup_printf ("gstprof(out=%s)", dir);
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "fakesrc", (gchar *) "num-buffers=10", (gchar *) "!",
    (gchar *) "fakesink", NULL
  };
  gchar **env = g_get_environ ();
  gchar *out = NULL, *err_text = NULL;
  GError *err = NULL;
  GpTestRun r;
  gint status;

  env = g_environ_unsetenv (env, "GST_PLUGIN_PATH");
  env = g_environ_unsetenv (env, "GST_PLUGIN_PATH_1_0");
  env = g_environ_setenv (env, "GST_REGISTRY", registry, TRUE);
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL,
          NULL, &out, &err_text, &status, &err));
  g_assert_no_error (err);
  g_test_message ("gst-launch-1.0: exit %d, stderr \"%s\"", status,
      err_text);
  if (g_file_test (dir, G_FILE_TEST_EXISTS)) {
    g_test_skip ("GStreamer finds the tracer by itself here (installed)");
    goto out;
  }
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_null (strstr (err_text, "gstprof"));

  gp_test_run_gstprof (&r, gp_tmp, "analyze", dir, NULL);
  g_test_message ("analyze: exit %d: %s", r.code, r.err);
  g_assert_cmpint (r.code, ==, 3);
  g_assert_null (strchr (g_strchomp (r.err), '\n'));
  g_assert_nonnull (strstr (r.err, "No such file or directory"));
  g_assert_nonnull (strstr (r.err, "the tracer did not load"));
  g_assert_nonnull (strstr (r.err, "GST_PLUGIN_PATH"));
  gp_test_run_clear (&r);
out:
  g_strfreev (env);
  g_free (out);
  g_free (err_text);
  g_free (tracers);
  g_free (registry);
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
  gp_test_assert_planted (s, "slow", 60, TRUE, 4.0);
  g_assert_false (gp_test_has_note (s, "ended without"));
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
  /* gst-launch-1.0 with libasan preloaded takes seconds to load its
   * plugins under a sanitizer: it is killed once it has played as long */
  status = gp_records_spawn (argv, dir, gp_test_sanitized ()? 8.0 : 2.0);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  s = gp_records_load_ok (dir);
  g_assert_true (gp_test_has_note (s, "ended without"));
  g_assert_cmpuint (s->series->len, >=, 5);
  g_assert_null (s->end);
  /* about 30 a second for the second or so it played */
  gp_test_assert_planted (s, "slow", 20, FALSE, 3.0);
  gp_session_free (s);
  g_free (dir);
}

/* Identity-and-queue pairs in the stalled reader's pipeline: about 40 KB
 * a window of 10 ms, so that the run (3 s) makes far more than the
 * tracer holds for a reader (GP_OUT_PENDING_MAX, 4 MiB) in under 1 s. */
#define GP_STALLED_PAIRS 20

static void
gp_records_add_words (GPtrArray * argv, const gchar * text)
{
  gchar **words = g_strsplit (text, " ", -1);
  guint i;

  for (i = 0; words[i] != NULL; i++)
    g_ptr_array_add (argv, words[i]);
  g_free (words);
}

/* socket= with a reader that reads nothing while the program runs: the
 * program keeps its own pace (a live source of 90 frames at 30/1: 3 s,
 * then at most GP_OUT_CLOSE_WAIT_MS for its last lines); once it has
 * drained (gst-launch-1.0 says "Got EOS") the reader takes everything.
 * What it gets is whole lines from the header on, windows left out past
 * the bound (said, with their number), and the end line all the same: a
 * clean exit, not a crash. */
static void
test_stalled_reader (void)
{
  gchar *path = g_build_filename (gp_tmp, "stalled.sock", NULL);
  gchar *tracers = g_strdup_printf ("gstprof(window=10,socket=\"%s\")",
      path);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  struct sockaddr_un addr = { 0 };
  gchar **env = g_get_environ ();
  GString *got = g_string_new (NULL), *said = g_string_new (NULL);
  gchar chunk[65536], **lines;
  GpRecordsReader *rr;
  GpSession *s;
  GError *err = NULL;
  gint lfd, cfd, out_fd, status = 0, small = 8192, i;
  gint64 t0;
  gdouble wall;
  gssize n;
  GPid pid;

  if (!gp_test_have_tracer ())
    return;
  /* one word an argument: gst-launch-1.0 quotes the spaces in each */
  g_ptr_array_add (argv, g_strdup ("gst-launch-1.0"));
  gp_records_add_words (argv, "videotestsrc is-live=true num-buffers=90 ! "
      "video/x-raw,width=160,height=120,framerate=30/1");
  for (i = 0; i < GP_STALLED_PAIRS; i++)
    gp_records_add_words (argv, "! identity ! queue");
  gp_records_add_words (argv, "! identity name=slow ! fakesink sync=true");
  g_ptr_array_add (argv, NULL);
  addr.sun_family = AF_UNIX;
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  lfd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (bind (lfd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (lfd, 4), ==, 0);
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, TRUE);
  t0 = g_get_monotonic_time ();
  g_assert_true (g_spawn_async_with_pipes (NULL, (gchar **) argv->pdata, env,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
          gp_test_child_dies_with_us, NULL, &pid, NULL, &out_fd, NULL, &err));
  g_assert_no_error (err);
  /* accepted (so that connect () succeeds) but not read, with a small
   * receive buffer, until the pipeline has drained */
  cfd = accept (lfd, NULL, NULL);
  g_assert_cmpint (cfd, >=, 0);
  setsockopt (cfd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  while (strstr (said->str, "Got EOS") == NULL &&
      (n = read (out_fd, chunk, sizeof chunk)) > 0)
    g_string_append_len (said, chunk, n);
  g_test_message ("the pipeline drained after %.2f s",
      (g_get_monotonic_time () - t0) / 1e6);
  g_assert_nonnull (strstr (said->str, "Got EOS"));
  while ((n = read (cfd, chunk, sizeof chunk)) > 0)
    g_string_append_len (got, chunk, n);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  wall = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("the program ran %.2f s against a stalled reader", wall);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  /* Under AddressSanitizer the pipeline keeps no live pace even without
   * the tracer: every allocation of its 42 elements records a stack with
   * the slow unwinder (tools/run-asan.sh). Measured on 2 loaded cores:
   * 5.2 s without the tracer, 6.5 to 9.5 s against the stalled reader, for
   * 3 s of frames: the bound tells nothing there. */
  if (gp_test_sanitized ())
    g_test_message ("under a sanitizer: the pace (%.2f s < 5.5 s) not held",
        wall);
  else
    g_assert_cmpfloat (wall, <, 3.0 + 1.0 + 1.5);
  close (out_fd);
  close (cfd);
  close (lfd);

  /* whole lines, the header first, each a record: a session of the
   * windows that came */
  lines = g_strsplit (got->str, "\n", -1);
  rr = gp_records_reader_new ("the stalled stream");
  for (n = 0; lines[n] != NULL && lines[n + 1] != NULL; n++)
    g_assert_true (gp_records_reader_add_line (rr, lines[n],
            n == 0 ? &err : NULL));
  g_assert_no_error (err);
  g_assert_cmpstr (lines[n], ==, "");
  g_test_message ("%" G_GSSIZE_FORMAT " lines (%" G_GSIZE_FORMAT " bytes), "
      "%" G_GUINT64_FORMAT " windows read", n, got->len,
      gp_records_reader_windows (rr));
  /* more than the bound was made: the reader got more than it holds */
  g_assert_cmpuint (got->len, >, 4 * 1024 * 1024);
  g_assert_cmpuint (gp_records_reader_bad_lines (rr), ==, 0);
  s = gp_records_reader_finish (rr, FALSE);
  g_assert_nonnull (s);
  /* windows left out, said (those of the end too: the EOS may be among
   * them); the end line came last: it exited, no crash */
  g_assert_true (g_str_has_prefix (lines[n - 1], "gstprof-records-end,"));
  g_assert_true (gp_test_has_note (s, "never arrived"));
  g_assert_false (gp_test_has_note (s, "ended without"));
  gp_session_free (s);
  gp_records_reader_free (rr);
  g_strfreev (lines);
  g_string_free (got, TRUE);
  g_string_free (said, TRUE);
  g_ptr_array_unref (argv);
  g_strfreev (env);
  g_free (tracers);
  g_free (path);
}

/* socket= whose reader is behind from the first line on (the tracer's
 * bound lowered to 1 byte, GSTPROF_TEST_PENDING_MAX): every window is left
 * out, but the header and the end line still come, so the stream says how
 * many windows it lost and that the program exited on its own. */
static void
test_stalled_reader_end (void)
{
  gchar *path = g_build_filename (gp_tmp, "stalled-end.sock", NULL);
  gchar *tracers = g_strdup_printf ("gstprof(window=10,socket=\"%s\")",
      path);
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "videotestsrc", (gchar *) "num-buffers=60", (gchar *) "!",
    (gchar *) "identity", (gchar *) "sleep-time=5000", (gchar *) "!",
    (gchar *) "fakesink", NULL
  };
  struct sockaddr_un addr = { 0 };
  gchar **env = g_get_environ ();
  GString *got = g_string_new (NULL);
  gchar chunk[65536], **lines;
  GpRecordsReader *rr;
  GpSession *s;
  GError *err = NULL;
  gint lfd, cfd, status = 0;
  gssize n;
  GPid pid;

  if (!gp_test_have_tracer ())
    return;
  addr.sun_family = AF_UNIX;
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  lfd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (bind (lfd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (lfd, 4), ==, 0);
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, TRUE);
  env = g_environ_setenv (env, "GSTPROF_TEST_PENDING_MAX", "1", TRUE);
  g_assert_true (g_spawn_async (NULL, argv, env, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD, gp_test_child_dies_with_us, NULL, &pid,
          &err));
  g_assert_no_error (err);
  cfd = accept (lfd, NULL, NULL);
  g_assert_cmpint (cfd, >=, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  while ((n = read (cfd, chunk, sizeof chunk)) > 0)
    g_string_append_len (got, chunk, n);
  close (cfd);
  close (lfd);

  lines = g_strsplit (got->str, "\n", -1);
  rr = gp_records_reader_new ("the stalled stream");
  for (n = 0; lines[n] != NULL && lines[n + 1] != NULL; n++)
    g_assert_true (gp_records_reader_add_line (rr, lines[n],
            n == 0 ? &err : NULL));
  g_assert_no_error (err);
  g_test_message ("%" G_GSSIZE_FORMAT " lines:", n);
  gp_test_message_text (got->str);
  /* the header and the end, nothing between */
  g_assert_cmpint (n, ==, 2);
  g_assert_true (g_str_has_prefix (lines[1], "gstprof-records-end,"));
  g_assert_cmpuint (gp_records_reader_windows (rr), ==, 0);
  s = gp_records_reader_finish (rr, FALSE);
  g_assert_nonnull (s);
  /* 60 buffers of 5 ms: at least 30 windows of 10 ms left out, said */
  g_assert_true (gp_test_has_note (s, "windows of the stalled stream "
          "never arrived"));
  g_assert_cmpuint (g_ascii_strtoull (strstr (lines[1], "dropped=(guint64)") +
          strlen ("dropped=(guint64)"), NULL, 10), >=, 30);
  g_assert_false (gp_test_has_note (s, "ended without"));
  gp_session_free (s);
  gp_records_reader_free (rr);
  g_strfreev (lines);
  g_string_free (got, TRUE);
  g_strfreev (env);
  g_free (tracers);
  g_free (path);
}

/* A line of 8 MiB (a graph of a very large pipeline is megabytes) fed in
 * 256-byte reads, as a slow socket gives it: read as one window, and each
 * byte scanned once. Scanning the line from its start on every read makes
 * 32768 scans of 4 MiB on average, 128 GiB (seconds); once is 8 MiB. */
static void
test_reader_long_line (void)
{
  const gchar *header = "gstprof-records, version=(uint)1, pid=(uint)1, "
      "t0=(guint64)1, window_ms=(uint)100;\n";
  GString *line = g_string_new ("gstprof-window, index=(guint64)0, "
      "start=(guint64)1, end=(guint64)100000001, pad=(string)");
  GpRecordsReader *rr = gp_records_reader_new ("the long stream");
  GpSession *s;
  gsize at, step = 256;
  gint64 t0;
  gdouble took;

  while (line->len < 8 * 1024 * 1024)
    g_string_append (line, "abcdefghijklmnopqrstuvwxyz012345");
  g_string_append (line, ";\n");
  g_assert_true (gp_records_reader_feed (rr, header, strlen (header)));
  t0 = g_get_monotonic_time ();
  for (at = 0; at < line->len; at += step)
    g_assert_true (gp_records_reader_feed (rr, line->str + at,
            MIN (step, line->len - at)));
  took = (g_get_monotonic_time () - t0) / 1e6;
  g_test_message ("8 MiB in 256-byte reads: %.3f s", took);
  g_assert_cmpuint (gp_records_reader_windows (rr), ==, 1);
  g_assert_cmpuint (gp_records_reader_bad_lines (rr), ==, 0);
  g_assert_false (gp_records_reader_cut (rr));
  /* a linear scan takes milliseconds; the quadratic one seconds */
  g_assert_cmpfloat (took, <, 1.0);
  s = gp_records_reader_finish (rr, FALSE);
  g_assert_nonnull (s);
  gp_session_free (s);
  gp_records_reader_free (rr);
  g_string_free (line, TRUE);
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
  g_assert_true (gp_test_has_note (s, "1 line of"));
  g_assert_true (gp_test_has_note (s, "(line 2)"));
  gp_test_assert_planted (s, "slow", 100, TRUE, 5.0);
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
  gp_test_assert_planted (s, "slow", 100, TRUE, 5.0);
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

/* The latest time a progress line on the terminal gave the program's
 * fakesink0 a rate ("gstprof: 2.0 s  fakesink0 30.0 fps"); 0 before. */
static gdouble
gp_records_progress_s (const gchar * text)
{
  const gchar *p, *sink = " s  fakesink0 ";
  gdouble t = 0;

  for (p = text; (p = strstr (p, "gstprof: ")) != NULL; p++) {
    gchar *end;
    gdouble v = g_ascii_strtod (p + strlen ("gstprof: "), &end);

    if (end != p + strlen ("gstprof: ") && g_str_has_prefix (end, sink) &&
        g_ascii_isdigit (end[strlen (sink)]))
      t = MAX (t, v);
  }
  return t;
}

/* gstprof wrap @args on a terminal of its own, as a person runs it: a
 * pseudo-terminal whose session it leads (its process group, the program
 * in it too, is the terminal's foreground group). Once the progress line
 * has shown the program's sink for GP_RECORDS_CTRL_C_S, Ctrl-C is typed
 * ("\x03"), and the line discipline sends SIGINT to that whole group, as
 * on any terminal. What the terminal showed, and wrap's exit code. */
#define GP_RECORDS_CTRL_C_S 1.5
/* a wrapped run's windows of 100 ms and its duration agree to 2 windows
 * (its start before the first, its end after the last); under
 * AddressSanitizer both take longer (measured 2.05 and 2.15 apart): 4 */
#define GP_RECORDS_WINDOWS_APART (gp_test_sanitized ()? 4 : 2)
/* the most one run on the terminal may take, on a loaded machine */
#define GP_RECORDS_PTY_LIMIT_S 40

static gchar *
gp_records_wrap_ctrl_c (const gchar * const *args, gint * code)
{
  GPtrArray *argv = g_ptr_array_new ();
  GString *text = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () +
      GP_RECORDS_PTY_LIMIT_S * G_USEC_PER_SEC;
  gboolean typed = FALSE;
  gchar *slave;
  gint master, status = 0;
  pid_t pid;

  g_ptr_array_add (argv, (gpointer) g_getenv ("GSTPROF_BIN"));
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) * args);
  g_ptr_array_add (argv, NULL);
  master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = g_strdup (ptsname (master));
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0) {
    /* only async-signal-safe calls between fork and exec */
    gint fd;

    setsid ();
    fd = open (slave, O_RDWR);
    if (fd < 0 || ioctl (fd, TIOCSCTTY, 0) < 0 || dup2 (fd, 0) < 0 ||
        dup2 (fd, 1) < 0 || dup2 (fd, 2) < 0 || chdir (gp_tmp) < 0)
      _exit (127);
    if (fd > 2)
      close (fd);
    execv (argv->pdata[0], (gchar **) argv->pdata);
    _exit (127);
  }
  for (;;) {
    struct pollfd pfd = { master, POLLIN, 0 };
    gchar buf[4096];
    gssize n;

    g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    if (poll (&pfd, 1, 100) <= 0)
      continue;
    /* EIO once every descriptor of the terminal's other side closed */
    n = read (master, buf, sizeof buf);
    if (n <= 0)
      break;
    g_string_append_len (text, buf, n);
    if (!typed && gp_records_progress_s (text->str) >= GP_RECORDS_CTRL_C_S) {
      g_assert_cmpint (write (master, "\x03", 1), ==, 1);
      typed = TRUE;
    }
  }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close (master);
  *code = gp_test_exit_code (status);
  g_test_message ("wrap on a terminal: exit %d", *code);
  gp_test_message_text (text->str);
  g_assert_true (typed);
  g_ptr_array_unref (argv);
  g_free (slave);
  return g_string_free (text, FALSE);
}

/* Ctrl-C on the terminal: SIGINT to the whole foreground process group,
 * wrap and the program in it alike. gst-launch-1.0 -e drains to EOS on
 * the first SIGINT and dies of a second (its handler is gone by then), so
 * wrap must not send one more: the program gets exactly one (counted by
 * --sigint-child), and gst-launch-1.0 exits on its own after EOS, with
 * every window up to its end. */
static void
test_wrap_ctrl_c (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-ctrl-c", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  const gchar *counted[] = { "wrap", "--window", "100ms", "--out", out,
    "--", g_getenv ("GP_RECORDS_SELF"), "--sigint-child", NULL
  };
  const gchar *launch[] = { "wrap", "--window", "100ms", "--out", out, "--",
    "gst-launch-1.0", "-q", "-e", "videotestsrc", "is-live=true", "!",
    "video/x-raw,width=160,height=120,framerate=30/1", "!", "identity",
    "name=slow", "sleep-time=2000", "!", "fakesink", "sync=true", NULL
  };
  gchar *text;
  GError *err = NULL;
  GpSession *s;
  gint code;

  if (!gp_test_have_tracer ())
    return;
  text = gp_records_wrap_ctrl_c (counted, &code);
  /* the terminal shows "\n" as "\r\n" */
  g_assert_nonnull (strstr (text, "SIGINT received 1 time\r\n"));
  g_assert_cmpint (code, <=, 1);
  g_free (text);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->end, ==, "interrupt");
  g_assert_nonnull (gp_session_find_event (s, "eos"));
  g_assert_false (gp_test_has_note (s, "ended without"));
  g_test_message ("%u windows over %.2f s", s->series->len, s->duration_s);
  g_assert_cmpfloat (fabs (s->series->len - s->duration_s / 0.1), <=,
      GP_RECORDS_WINDOWS_APART);
  gp_session_free (s);

  text = gp_records_wrap_ctrl_c (launch, &code);
  g_assert_cmpint (code, <=, 1);
  /* it exited on its own: no signal killed it */
  g_assert_null (strstr (text, "killed by signal"));
  g_free (text);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->end, ==, "interrupt");
  /* EOS drained, the end line came, no window left out */
  g_assert_nonnull (gp_session_find_event (s, "eos"));
  g_assert_false (gp_test_has_note (s, "ended without"));
  g_assert_false (gp_test_has_note (s, "never arrived"));
  g_test_message ("%u windows over %.2f s", s->series->len, s->duration_s);
  g_assert_cmpfloat (fabs (s->series->len - s->duration_s / 0.1), <=,
      GP_RECORDS_WINDOWS_APART);
  gp_test_assert_planted (s, "slow", 40, FALSE, 2.0);
  gp_session_free (s);
  g_free (path);
  g_free (out);
}

static void
gp_records_own_session (gpointer data)
{
  setsid ();
  gp_test_child_dies_with_us (data);
}

/* kill -INT to wrap alone, as a script or systemd sends it: wrap in a
 * session of its own with no terminal (stdin /dev/null), the program in
 * its process group. Nothing else sent the program a SIGINT, so wrap
 * forwards it: exactly one, and the program stops well before the grace
 * ends (SIGTERM after GP_TEST_WRAP_GRACE_S would kill it uncounted). */
static void
test_wrap_kill_sigint (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-kill-sigint", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  const gchar *argv[] = { g_getenv ("GSTPROF_BIN"), "wrap", "--window",
    "100ms", "--out", out, "--", g_getenv ("GP_RECORDS_SELF"),
    "--sigint-child", NULL
  };
  gchar *line = NULL, *rest = NULL;
  GIOChannel *ch;
  GError *err = NULL;
  GpSession *s;
  gint out_fd, status = 0;
  gint64 sent_us;
  gdouble stop_s;
  GPid pid;

  if (!gp_test_have_tracer ())
    return;
  g_assert_true (g_spawn_async_with_pipes (gp_tmp, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
          gp_records_own_session, NULL, &pid, NULL, &out_fd, NULL, &err));
  g_assert_no_error (err);
  ch = g_io_channel_unix_new (out_fd);
  /* the program's pipeline is playing, and a second more of windows */
  while (g_io_channel_read_line (ch, &line, NULL, NULL, &err) ==
      G_IO_STATUS_NORMAL && !g_str_has_prefix (line, "SIGINT child playing"))
    g_clear_pointer (&line, g_free);
  g_assert_no_error (err);
  g_assert_nonnull (line);
  g_free (line);
  g_usleep (G_USEC_PER_SEC);
  sent_us = g_get_monotonic_time ();
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  g_io_channel_read_to_end (ch, &rest, NULL, &err);
  g_assert_no_error (err);
  g_io_channel_unref (ch);
  close (out_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  stop_s = (g_get_monotonic_time () - sent_us) / 1e6;
  g_test_message ("wrap: exit %d, %.2f s after SIGINT",
      gp_test_exit_code (status), stop_s);
  gp_test_message_text (rest);
  g_assert_nonnull (strstr (rest, "SIGINT received 1 time\n"));
  g_assert_cmpint (gp_test_exit_code (status), <=, 1);
  g_assert_cmpfloat (stop_s, <, GP_TEST_WRAP_GRACE_S - 1);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->end, ==, "interrupt");
  g_assert_nonnull (gp_session_find_event (s, "eos"));
  g_assert_false (gp_test_has_note (s, "ended without"));
  g_test_message ("%u windows over %.2f s", s->series->len, s->duration_s);
  g_assert_cmpfloat (fabs (s->series->len - s->duration_s / 0.1), <=,
      GP_RECORDS_WINDOWS_APART);
  gp_session_free (s);
  g_free (rest);
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
  gp_test_assert_one_line (r.err, "sh exited with status 3; no GStreamer "
      "pipeline ran in it");
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
  gp_test_assert_planted (s, "slow", 20, FALSE, 2.0);
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
  gp_test_assert_planted (s, "slow", 60, TRUE, 4.0);
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
  /* under make test-asan, the same with libasan preloaded: it loads the
   * ASan-built tracer (tools/run-asan.sh) */
  const gchar *python = g_getenv ("GP_TEST_SYSTEM_PYTHON") ?
      g_getenv ("GP_TEST_SYSTEM_PYTHON") : "/usr/bin/python3";
  const gchar *argv[] = { python, script, NULL };
  gchar *err_text = NULL, *probe;
  gint status = -1;

  if (!gp_test_have_tracer ())
    return;
  /* Debian's python3 with python3-gi (tools/install-deps.sh installs it) */
  probe = g_strdup_printf ("%s -c \"import gi; "
      "gi.require_version('Gst', '1.0')\"", python);
  if (!g_spawn_command_line_sync (probe, NULL, &err_text, &status,
          NULL) || status != 0) {
    g_test_skip ("/usr/bin/python3 has no gi with Gst 1.0 (python3-gi, "
        "gir1.2-gstreamer-1.0)");
    g_free (probe);
    g_free (err_text);
    g_free (script);
    return;
  }
  g_free (probe);
  g_free (err_text);
  gp_records_wrap_program ("wrap-python", argv);
  g_free (script);
}

/* wrap streams: the progress line on a terminal (script(1) gives it one)
 * shows the live sink's rate while the program runs, before the end. */
static void
test_wrap_progress (void)
{
  gchar *cmd, *out = NULL, *err_text = NULL, *p;
  gint status = -1;
  guint lines = 0;
  gdouble fps = 0;

  if (!gp_test_have_tracer ())
    return;
  if (!g_file_test ("/usr/bin/script", G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip ("no script(1) for a terminal (util-linux)");
    return;
  }
  cmd = g_strdup_printf ("/usr/bin/script -qec '%s wrap -- gst-launch-1.0 "
      "-q videotestsrc is-live=true num-buffers=75 ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! fakesink sync=true' "
      "/dev/null", g_getenv ("GSTPROF_BIN"));
  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err_text, &status,
          NULL));
  g_test_message ("script: status %d", status);
  /* "\r\033[Kgstprof: 1.0 s  fakesink0 30.0 fps", once a second */
  for (p = out; (p = strstr (p, "gstprof: ")) != NULL; p++) {
    gchar *f = strstr (p, " s  fakesink0 ");

    if (f != NULL && f - p < 20) {
      lines++;
      fps = g_ascii_strtod (f + strlen (" s  fakesink0 "), NULL);
    }
  }
  g_test_message ("%u progress lines, the last at %.1f fps", lines, fps);
  /* 2.5 s of a live 30/1 source: a line a second, at about 30 fps */
  g_assert_cmpuint (lines, >=, 1);
  /* under AddressSanitizer the live source's frames come late, then in a
   * burst, across the line's second (measured: 33.4 fps): 6 there */
  g_assert_cmpfloat (fabs (fps - 30), <, gp_test_sanitized ()? 6 : 3);
  g_assert_nonnull (strstr (out, "gstprof verdict"));
  g_free (out);
  g_free (err_text);
  g_free (cmd);
}

/* The two-pipelines child wrapped (@variant: NULL, or "same" for two
 * pipelines both named "player"), whose verdict names the identities of
 * pipelines @a and @b by their paths; its session. */
static GpSession *
gp_records_wrap_two (const gchar * dir, const gchar * variant,
    const gchar * a, const gchar * b)
{
  gchar *slow_a = g_strdup_printf ("%s/slow", a);
  gchar *slow_b = g_strdup_printf ("%s/slow", b);
  gchar *out = g_build_filename (gp_tmp, dir, NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--window", "100ms", "--out", out,
      "--", g_getenv ("GP_RECORDS_SELF"), "--two-pipelines-child", variant,
      NULL);
  g_test_message ("two pipelines (%s): exit %d", variant ? variant : "apart",
      r.code);
  if (strstr (r.out, slow_a) == NULL || strstr (r.out, slow_b) == NULL)
    gp_test_message_text (r.out);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, slow_a));
  g_assert_nonnull (strstr (r.out, slow_b));
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_free (slow_a);
  g_free (slow_b);
  g_free (path);
  g_free (out);
  return s;
}

/* Pipelines @a and @b, each with a queue0 and an identity "slow" (3 ms in
 * @a, 6 ms in @b): each element named by its path and measured apart, each
 * pipeline a top-level section of the graph with its children and links. */
static void
gp_records_assert_two_sections (GpSession * s, const gchar * a,
    const gchar * b)
{
  const gchar *pipes[] = { a, b };
  const gdouble planted_ms[] = { 3.0, 6.0 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pipes); i++) {
    gchar *slow = g_strdup_printf ("%s/slow", pipes[i]);
    gchar *queue = g_strdup_printf ("%s/queue0", pipes[i]);
    gchar *link = g_strdup_printf ("%s.src->%s.sink", queue, slow);
    GpElement *e = gp_session_find_element (s, pipes[i]);

    gp_test_assert_planted (s, slow, 40, TRUE, planted_ms[i]);
    g_assert_nonnull (gp_session_find_queue_summary (s, queue));
    g_assert_nonnull (e);
    g_assert_cmpstr (e->parent, ==, "");
    g_assert_cmpstr (gp_session_find_element (s, slow)->parent, ==,
        pipes[i]);
    g_assert_cmpstr (gp_session_find_element (s, queue)->parent, ==,
        pipes[i]);
    g_assert_nonnull (gp_session_find_link (s, link));
    g_free (link);
    g_free (queue);
    g_free (slow);
  }
  g_assert_cmpstr (s->reached, ==, "PLAYING");
}

/* Two pipelines in one program, each with a queue0 and an identity "slow",
 * one of 3 ms, one of 6 ms: every element named by its path, each measured
 * apart, each pipeline a section of the graph even after the first went. */
static void
test_wrap_two_pipelines (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = gp_records_wrap_two ("wrap-two", NULL, "first", "second");
  gp_records_assert_two_sections (s, "first", "second");
  /* no plain name for either, no third element made of both */
  g_assert_null (gp_session_find_elem_summary (s, "slow"));
  g_assert_null (gp_session_find_elem_summary (s, "queue0"));
  /* names unique in the process stay as they are */
  g_assert_nonnull (gp_session_find_elem_summary (s, "fakesink0"));
  g_assert_nonnull (gp_session_find_elem_summary (s, "fakesink1"));
  g_assert_nonnull (gp_session_find_link (s,
          "second/slow.src->fakesink1.sink"));
  gp_session_free (s);
}

/* The same two pipelines both named "player" (gst_pipeline_new ("player")
 * twice): the second is "player#2" everywhere, its section of the graph,
 * its elements' paths, its links, so the two stay apart. */
static void
test_wrap_same_named_pipelines (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = gp_records_wrap_two ("wrap-same", "same", "player", "player#2");
  gp_records_assert_two_sections (s, "player", "player#2");
  gp_session_free (s);
}

/* A program that runs a pipeline and starts gst-launch-1.0 (fork and
 * exec): both profiled, the second apart, with its pid, its own planted
 * identity and its own session. */
static void
test_wrap_fork_exec (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-fork", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  gchar *child_path = NULL, *note;
  GError *err = NULL;
  GpSession *s, *c;
  GpTestRun r;
  GDir *d;
  const gchar *name;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--window", "100ms", "--out",
      out, "--", g_getenv ("GP_RECORDS_SELF"), "--fork-exec-child", NULL);
  g_test_message ("fork and exec: exit %d", r.code);
  g_assert_cmpint (r.code, <=, 1);
  /* the second verdict, after the program's */
  g_assert_nonnull (strstr (r.out, ", started by "));
  g_assert_nonnull (strstr (strstr (r.out, ", started by "), "HOT: slow"));
  gp_test_run_clear (&r);

  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_test_assert_planted (s, "slow", 100, TRUE, 2.0);
  /* the program's verdict names the other process and what it measured */
  note = NULL;
  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (ev->text && strstr (ev->text, "ran GStreamer too"))
      note = ev->text;
  }
  g_assert_nonnull (note);
  g_test_message ("note: %s", note);
  g_assert_nonnull (strstr (note, "(gst-launch-1.0 -q videotestsrc"));
  g_assert_nonnull (strstr (note, "its busiest element: slow, 5."));
  gp_session_free (s);

  d = g_dir_open (out, 0, &err);
  g_assert_no_error (err);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "session-"))
      child_path = g_build_filename (out, name, NULL);
  g_dir_close (d);
  g_assert_nonnull (child_path);
  c = gp_session_load (child_path, &err);
  g_assert_no_error (err);
  gp_test_assert_planted (c, "slow", 100, TRUE, 5.0);
  g_assert_cmpstr (c->launch, ==, "videotestsrc num-buffers=100 ! "
      "identity name=slow sleep-time=5000 ! fakesink");
  g_assert_cmpstr (c->end, ==, "eos");
  gp_session_free (c);
  g_free (child_path);
  g_free (path);
  g_free (out);
}

/* Connections to the socket that are not the tracer's: one with no
 * header, one with a header and then a line that is not a record. Both
 * counted and said; the program's own records measured as ever. */
static void
test_wrap_garbage (void)
{
  gchar *out = g_build_filename (gp_tmp, "wrap-garbage", NULL);
  gchar *path = g_build_filename (out, "session.json", NULL);
  gchar *forged = g_build_filename (out, "session-4000000000.json", NULL);
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--out", out, "--",
      g_getenv ("GP_RECORDS_SELF"), "--garbage-child", NULL);
  g_test_message ("garbage: exit %d", r.code);
  g_assert_nonnull (strstr (r.out, "1 connection to gstprof's socket sent "
          "no records header"));
  gp_test_run_clear (&r);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_test_assert_planted (s, "slow", 60, TRUE, 4.0);
  g_assert_true (gp_test_has_note (s, "1 connection to gstprof's "
          "socket sent no records header"));
  gp_session_free (s);
  /* the forged process: its line that is not a record counted, by number */
  s = gp_session_load (forged, &err);
  g_assert_no_error (err);
  g_assert_true (gp_test_has_note (s, "1 line of its stream on the "
          "socket are not records and were left out (line 2)"));
  g_assert_null (gp_session_find_elem_summary (s, "slow"));
  gp_session_free (s);
  g_free (forged);
  g_free (path);
  g_free (out);
}

/* The truth of a --shares-child run in @file: the share of the flow that
 * identity's planted sleep took, the flow timed by the child's own probe
 * at the sink (first to last buffer, and one buffer's interval for the
 * first one's way there) and the sleep as this machine gives it now. */
static gdouble
gp_records_shares_truth (const gchar * file)
{
  gchar *text = NULL;
  gdouble first_us, last_us, n, flow_s, slept_ms;

  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_cmpint (sscanf (text, "%lf %lf %lf", &first_us, &last_us, &n), ==,
      3);
  g_free (text);
  g_assert_cmpfloat (n, ==, GP_SHARES_BUFFERS);
  flow_s = (last_us - first_us) / 1e6 * n / (n - 1);
  slept_ms = GP_SHARES_SLEEP_MS + gp_test_oversleep_ms (GP_SHARES_SLEEP_MS);
  g_test_message ("%s: %.0f buffers over %.3f s (probe), %.3f ms slept a "
      "buffer", file, n, flow_s, slept_ms);
  return 100.0 * n * slept_ms / 1e3 / flow_s;
}

/* The planted element's busy share within 10 points of @truth, the thread
 * it runs on busier than it, and every share of @s at most 100 %. */
static void
gp_records_assert_shares (GpSession * s, const gchar * what, gdouble truth)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, "slow");
  guint i, seen = 0;

  gp_test_assert_shares (s, what);
  g_assert_nonnull (es);
  g_test_message ("%s: slow busy %.1f %%, truth %.1f %%", what, es->busy_pct,
      truth);
  g_assert_cmpfloat (fabs (es->busy_pct - truth), <, 10.0);
  for (i = 0; i < s->threads->len; i++) {
    const GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (g_strcmp0 (t->name, g_ptr_array_index (es->threads, 0)) == 0) {
      g_assert_cmpfloat (gp_session_thread_busy_pct (s, t), >=,
          es->busy_pct);
      seen++;
    }
  }
  g_assert_cmpuint (seen, ==, 1);
}

/* Busy shares over the time the data flowed, whatever the input: the
 * tracer on its own (out=DIR: its first window opens at gst_init, its
 * last links are those of a pipeline already torn down), wrap, run, and a
 * log of GStreamer's own tracers; none passes 100 %. A 0.3 s run read
 * "busy 36 %" from its records (the span from gst_init) where run read
 * 98 %, and "127 %" where the last window lost its links. */
static void
test_shares (void)
{
  gchar *dir = g_build_filename (gp_tmp, "shares", NULL);
  gchar *rec = g_build_filename (dir, "records", NULL);
  gchar *wrapped = g_build_filename (dir, "wrapped", NULL);
  gchar *ran = g_build_filename (dir, "ran", NULL);
  gchar *truth_rec = g_build_filename (dir, "truth-records", NULL);
  gchar *truth_wrap = g_build_filename (dir, "truth-wrap", NULL);
  gchar *log = g_build_filename (dir, "tracers.log", NULL);
  gchar *argv[] = { (gchar *) g_getenv ("GP_RECORDS_SELF"),
    (gchar *) "--shares-child", truth_rec, NULL
  };
  gchar *path;
  gdouble truth_records, truth_wrapped;
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;
  gint status;

  if (!gp_test_have_tracer ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  status = gp_records_spawn (argv, rec, 0);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  truth_records = gp_records_shares_truth (truth_rec);
  s = gp_records_load_ok (rec);
  /* every buffer counted, those of the last window too */
  g_assert_cmpuint (gp_session_find_link_summary (s,
          "slow.src->out.sink")->buffers, ==, GP_SHARES_BUFFERS);
  gp_records_assert_shares (s, "records", truth_records);
  gp_session_free (s);

  gp_test_run_gstprof (&r, gp_tmp, "wrap", "--out", wrapped, "--",
      argv[0], "--shares-child", truth_wrap, NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  truth_wrapped = gp_records_shares_truth (truth_wrap);
  path = g_build_filename (wrapped, "session.json", NULL);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_records_assert_shares (s, "wrap", truth_wrapped);
  gp_session_free (s);
  g_free (path);

  /* run has no probe of its own: the same pipeline's truth, from the two
   * runs above */
  gp_test_run_gstprof (&r, gp_tmp, "run", "--out", ran, GP_SHARES_LAUNCH,
      NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  path = g_build_filename (ran, "session.json", NULL);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  gp_records_assert_shares (s, "run", (truth_records + truth_wrapped) / 2);
  gp_session_free (s);
  g_free (path);

  /* GStreamer's own tracers: their log says no span, only shares that can
   * be */
  {
    gchar **env = g_get_environ ();
    gchar *cmd[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
      (gchar *) "videotestsrc", (gchar *) "num-buffers=90", (gchar *) "!",
      (gchar *) "video/x-raw,width=160,height=120", (gchar *) "!",
      (gchar *) "identity", (gchar *) "name=slow",
      (gchar *) "sleep-time=3000", (gchar *) "!", (gchar *) "fakesink",
      NULL
    };

    env = g_environ_setenv (env, "GST_DEBUG", "GST_TRACER:7", TRUE);
    env = g_environ_setenv (env, "GST_DEBUG_NO_COLOR", "1", TRUE);
    env = g_environ_setenv (env, "GST_DEBUG_FILE", log, TRUE);
    env = g_environ_setenv (env, "GST_TRACERS",
        "latency(flags=pipeline+element);stats;rusage", TRUE);
    g_assert_true (g_spawn_sync (NULL, cmd, env, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
            NULL, NULL, NULL, NULL, &status, &err));
    g_assert_no_error (err);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    g_strfreev (env);
  }
  s = gp_ingest_load_any (log, &err);
  g_assert_no_error (err);
  gp_test_assert_shares (s, "tracer log");
  gp_session_free (s);

  g_free (log);
  g_free (truth_wrap);
  g_free (truth_rec);
  g_free (ran);
  g_free (wrapped);
  g_free (rec);
  g_free (dir);
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

/* A pipeline of 40 buffers through queue0 and a @sleep_us identity
 * "slow", as gst_parse_launch names it ("pipelineN"). */
static GstElement *
gp_records_slow_pipeline (guint sleep_us)
{
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=40 ! "
      "video/x-raw,width=160,height=120 ! queue name=queue0 ! "
      "identity name=slow sleep-time=%u ! fakesink", sleep_us);
  GstElement *p = gst_parse_launch (launch, NULL);

  g_free (launch);
  return p;
}

static void
gp_records_wait_eos (GstElement * p)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  if (m != NULL)
    gst_message_unref (m);
  gst_object_unref (bus);
}

/* --two-pipelines-child [same]: two pipelines at once, the same names
 * inside, "first" and "second" (with "same": both "player"), each given
 * its name a few windows (of 100 ms) after it was made, as a program
 * names what gst_parse_launch returned; the first let go a window before
 * the second. */
static gint
gp_records_two_pipelines_child (gboolean same)
{
  GstElement *a, *b;

  gst_init (NULL, NULL);
  a = gp_records_slow_pipeline (3000);
  b = gp_records_slow_pipeline (6000);
  if (a == NULL || b == NULL)
    return 2;
  g_usleep (300 * 1000);
  gst_object_set_name (GST_OBJECT (a), same ? "player" : "first");
  gst_object_set_name (GST_OBJECT (b), same ? "player" : "second");
  gst_element_set_state (a, GST_STATE_PLAYING);
  gst_element_set_state (b, GST_STATE_PLAYING);
  gp_records_wait_eos (a);
  gp_records_wait_eos (b);
  gst_element_set_state (a, GST_STATE_NULL);
  gst_object_unref (a);
  g_usleep (300 * 1000);
  gst_element_set_state (b, GST_STATE_NULL);
  gst_object_unref (b);
  gst_deinit ();
  return 0;
}

static volatile sig_atomic_t gp_records_sigints;

static void
gp_records_count_sigint (int sig)
{
  gp_records_sigints++;
}

/* --sigint-child: a live pipeline that says when it is playing, counts
 * the SIGINTs it gets, sends EOS on the first (as gst-launch-1.0 -e does)
 * and, after EOS and half a second more for any later one, prints how
 * many came. */
static gint
gp_records_sigint_child (void)
{
  struct sigaction sa = { 0 };
  GstElement *p;
  GstBus *bus;
  GstMessage *m = NULL;
  gboolean eos_sent = FALSE;
  guint i;

  gst_init (NULL, NULL);
  sa.sa_handler = gp_records_count_sigint;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  p = gst_parse_launch ("videotestsrc is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! fakesink sync=true",
      NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  if (gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS)
    printf ("SIGINT child playing\n");
  fflush (stdout);
  bus = gst_element_get_bus (p);
  for (i = 0; m == NULL && i < 400; i++) {
    m = gst_bus_timed_pop_filtered (bus, 50 * GST_MSECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (gp_records_sigints > 0 && !eos_sent)
      eos_sent = gst_element_send_event (p, gst_event_new_eos ());
  }
  if (m != NULL)
    gst_message_unref (m);
  g_usleep (500 * 1000);
  printf ("SIGINT received %d time%s\n", (gint) gp_records_sigints,
      gp_records_sigints == 1 ? "" : "s");
  fflush (stdout);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  gst_deinit ();
  return 0;
}

/* --fork-exec-child: its own pipeline (100 buffers, a 2 ms identity), and
 * gst-launch-1.0 started beside it (a 5 ms one), both to their end. */
static gint
gp_records_fork_exec_child (void)
{
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "videotestsrc", (gchar *) "num-buffers=100", (gchar *) "!",
    (gchar *) "identity", (gchar *) "name=slow", (gchar *) "sleep-time=5000",
    (gchar *) "!", (gchar *) "fakesink", NULL
  };
  GstElement *p;
  GPid pid;
  gint status = 0;

  gst_init (NULL, NULL);
  if (!g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
          gp_test_child_dies_with_us, NULL, &pid, NULL))
    return 2;
  p = gst_parse_launch ("videotestsrc num-buffers=100 ! "
      "identity name=slow sleep-time=2000 ! fakesink", NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  gp_records_wait_eos (p);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  waitpid (pid, &status, 0);
  gst_deinit ();
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 2;
}

/* A connection to wrap's socket, from GST_TRACERS' socket="PATH". */
static gint
gp_records_connect_wrap (void)
{
  /* wrap passes its socket beside GST_TRACERS (core/gp-record.h) */
  const gchar *path = g_getenv (GP_TRACER_SOCKET_ENV);
  struct sockaddr_un addr = { 0 };
  gint fd;

  if (path == NULL || strlen (path) >= sizeof addr.sun_path)
    return -1;
  addr.sun_family = AF_UNIX;
  strcpy (addr.sun_path, path);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  if (fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
    close (fd);
    fd = -1;
  }
  return fd;
}

static void
gp_records_send (const gchar * text)
{
  gint fd = gp_records_connect_wrap ();

  if (fd >= 0) {
    if (write (fd, text, strlen (text)) < 0)
      g_printerr ("cannot write to the socket\n");
    close (fd);
  }
}

/* --garbage-child: the pipeline of test_exit_without_deinit, and two
 * connections of its own to wrap's socket: one with no header, one with a
 * header of a made-up process, then a line that is not a record. */
static gint
gp_records_garbage_child (void)
{
  GstElement *p;

  gst_init (NULL, NULL);
  gp_records_send ("this is not a record\n");
  gp_records_send ("gstprof-records, version=(uint)1, pid=(uint)4000000000, "
      "program=(string){ forged }, host=(string)x, "
      "started=(string)2024-01-01T00:00:00Z, t0=(guint64)1, "
      "gstreamer=(string)1.22.0, window_ms=(uint)100, cpu=(boolean)false;\n"
      "gstprof-window, this is not a record\n");
  p = gst_parse_launch (GP_EXIT_CHILD_LAUNCH, NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  gp_records_wait_eos (p);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  gst_deinit ();
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

/* --shares-child FILE: the pipeline of test_shares, torn down as
 * gst-launch-1.0 does (NULL, unref, gst_deinit); writes its probe's first
 * and last buffer times at the sink (µs) and their count into FILE. */
static GstPadProbeReturn
gp_records_shares_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  gint64 *t = data;

  if (t[2]++ == 0)
    t[0] = g_get_monotonic_time ();
  t[1] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static gint
gp_records_shares_child (const gchar * file)
{
  gint64 t[3] = { 0, 0, 0 };
  GstElement *p, *out;
  GstPad *pad;
  GstBus *bus;
  GstMessage *m;
  gchar *text;
  gboolean ok;

  gst_init (NULL, NULL);
  p = gst_parse_launch (GP_SHARES_LAUNCH, NULL);
  if (p == NULL)
    return 2;
  out = gst_bin_get_by_name (GST_BIN (p), "out");
  pad = gst_element_get_static_pad (out, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, gp_records_shares_probe,
      t, NULL);
  gst_object_unref (pad);
  gst_object_unref (out);
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
  if (m != NULL)
    gst_message_unref (m);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  text = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %"
      G_GINT64_FORMAT "\n", t[0], t[1], t[2]);
  ok = ok && g_file_set_contents (file, text, -1, NULL);
  g_free (text);
  gst_deinit ();
  return ok ? 0 : 1;
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  gint ret;

  if (argc > 1 && strcmp (argv[1], "--exit-child") == 0)
    return gp_records_exit_child ();
  if (argc > 2 && strcmp (argv[1], "--shares-child") == 0)
    return gp_records_shares_child (argv[2]);
  if (argc > 1 && strcmp (argv[1], "--kill-child") == 0)
    return gp_records_kill_child ();
  if (argc > 1 && strcmp (argv[1], "--main-loop-child") == 0)
    return gp_records_main_loop_child ();
  if (argc > 1 && strcmp (argv[1], "--two-pipelines-child") == 0)
    return gp_records_two_pipelines_child (argc > 2 &&
        strcmp (argv[2], "same") == 0);
  if (argc > 1 && strcmp (argv[1], "--sigint-child") == 0)
    return gp_records_sigint_child ();
  if (argc > 1 && strcmp (argv[1], "--fork-exec-child") == 0)
    return gp_records_fork_exec_child ();
  if (argc > 1 && strcmp (argv[1], "--garbage-child") == 0)
    return gp_records_garbage_child ();
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
  g_test_add_func ("/records/not-loaded", test_not_loaded);
  g_test_add_func ("/records/exit-without-deinit", test_exit_without_deinit);
  g_test_add_func ("/records/killed", test_killed);
  g_test_add_func ("/records/bad-files", test_bad_files);
  g_test_add_func ("/records/stalled-reader", test_stalled_reader);
  g_test_add_func ("/records/stalled-reader-end", test_stalled_reader_end);
  g_test_add_func ("/records/reader-long-line", test_reader_long_line);
  g_test_add_func ("/records/shares", test_shares);
  g_test_add_func ("/wrap/gst-launch", test_wrap_gst_launch);
  g_test_add_func ("/wrap/duration", test_wrap_duration);
  g_test_add_func ("/wrap/ctrl-c", test_wrap_ctrl_c);
  g_test_add_func ("/wrap/kill-sigint", test_wrap_kill_sigint);
  g_test_add_func ("/wrap/failures", test_wrap_failures);
  g_test_add_func ("/wrap/c-programs", test_wrap_c_programs);
  g_test_add_func ("/wrap/python", test_wrap_python);
  g_test_add_func ("/wrap/progress", test_wrap_progress);
  g_test_add_func ("/wrap/two-pipelines", test_wrap_two_pipelines);
  g_test_add_func ("/wrap/same-named-pipelines",
      test_wrap_same_named_pipelines);
  g_test_add_func ("/wrap/fork-exec", test_wrap_fork_exec);
  g_test_add_func ("/wrap/garbage", test_wrap_garbage);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
