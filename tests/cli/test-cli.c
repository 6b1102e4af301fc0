/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-cli.c: the real gstprof binary (GSTPROF_BIN, set by meson) on real
 * pipelines: exit codes, one-line errors, the session file after an error
 * or Ctrl-C, durations, analyze against run, check. Plus the duration
 * parser on its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "cli/gp-cli.h"
#include "gp-test-big-session.h"
#include "gp-test-clock.h"
#include "gp-test-util.h"
#include "../common/gp-test-fixtures.h"
#include "core/gp-session.h"
#include "ingest/gp-ingest.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"

static const gchar *gp_bin;
static gchar *gp_tmp;           /* a fresh folder for this test program */

#define LIVE_30FPS "videotestsrc is-live=true ! " \
  "video/x-raw,width=320,height=240,framerate=30/1 ! fakesink"

static gchar *
out_dir (const gchar * name)
{
  return g_build_filename (gp_tmp, name, NULL);
}


/* the duration parser */

static void
test_parse_duration (void)
{
  const struct
  {
    const gchar *text;
    gdouble seconds;
  } good[] = {
    {"10s", 10}, {"500ms", 0.5}, {"2m", 120}, {"1.5", 1.5}, {"0", 0},
    {"1h", 3600}, {".25s", 0.25}, {"3min", 180},
  };
  const gchar *bad[] = { "xyz", "", "10x", "-1s", "1e3", "inf", "nan",
    "0x10", "1.2.3", " 1s", "s", "10 s", "10S", NULL
  };
  GError *err = NULL;
  gdouble v;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (good); i++) {
    g_assert_true (gp_cli_parse_duration (good[i].text, &v, &err));
    g_assert_no_error (err);
    g_assert_cmpfloat_with_epsilon (v, good[i].seconds, 1e-9);
  }
  for (i = 0; bad[i]; i++) {
    g_assert_false (gp_cli_parse_duration (bad[i], &v, &err));
    g_assert_nonnull (err);
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
}

/* usage */

static void
test_help (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "Exit codes"));
  /* analyze's usage names what it reads: the second file, the logs */
  g_assert_nonnull (strstr (r.out, "analyze FILE [CSV]"));
  g_assert_nonnull (strstr (r.out, "queue-levels CSV"));
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "run", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "--duration"));
  g_assert_nonnull (strstr (r.out, "Ctrl-C"));
  g_assert_nonnull (strstr (r.out, "default 10s"));
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, NULL, NULL); /* no argument at all */
  g_assert_cmpint (r.code, ==, 3);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "frobnicate", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "frobnicate");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "--version", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "gstprof "));
  gp_test_run_clear (&r);
}

static void
test_bad_options (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--duration", "xyz", "fakesrc ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--duration");
  g_assert_nonnull (strstr (r.err, "xyz"));
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--window", "250", "fakesrc ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--window");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--no-such-option", "fakesrc ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--no-such-option");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "run", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no pipeline");
  gp_test_run_clear (&r);
}

/* bad input in the launch string */

static void
test_bad_launch (void)
{
  gchar *dir = out_dir ("bad-launch");
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "run", "--duration", "2s", "--out", dir,
      "videotestsrc ! ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, NULL);
  g_assert_cmpstr (r.out, ==, "");
  /* nothing ran, so nothing is left behind */
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  gp_test_run_clear (&r);
  g_free (dir);
}

static void
test_unknown_element (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "run", "--duration", "2s", "--out",
      "unknown-element", "videotestsrc ! nosuchelement0 ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "nosuchelement0");
  gp_test_run_clear (&r);
}

/* the pipeline fails on its own: exit 2, and the session records it */

static void
test_runtime_error (void)
{
  gchar *dir = out_dir ("runtime-error");
  GpSession *s;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "run", "--duration", "5s", "--out", dir,
      "filesrc location=/nonexistent/gstprof-test ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 2);
  g_assert_true (g_str_has_suffix (r.err, "/session.json\n"));
  /* the verdict says what failed */
  g_assert_nonnull (strstr (r.out, "error"));
  g_assert_nonnull (strstr (r.out, "filesrc0: "));
  s = gp_test_load_session_dir (dir);
  g_assert_nonnull (gp_session_find_event (s, "error"));
  g_assert_cmpint (s->exit_code, ==, 2);
  gp_session_free (s);
  gp_test_run_clear (&r);
  g_free (dir);
}

/* --duration on a live source ends the run on time */

static void
test_duration_live (void)
{
  gchar *dir = out_dir ("duration-live");
  gchar *expect;
  GpSession *s;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--duration", "1s", "--quiet", "--out", dir,
      LIVE_30FPS, NULL);
  g_assert_cmpint (r.code, >=, 0);
  g_assert_cmpint (r.code, <=, 1);
  /* 1 s of capture, start-up and the EOS at the end (bounded at 3 s) */
  g_assert_cmpfloat (r.wall_s, <, 5.0);
  expect = g_strdup_printf ("session: %s/session.json\n", dir);
  g_assert_true (g_str_has_suffix (r.err, expect));
  s = gp_test_load_session_dir (dir);
  g_assert_cmpfloat (s->duration_s, >=, 0.9);
  g_assert_cmpfloat (s->duration_s, <, 2.5);
  g_assert_cmpint (s->exit_code, ==, r.code);
  gp_session_free (s);
  g_free (expect);
  gp_test_run_clear (&r);
  g_free (dir);
}

/* Ctrl-C mid-run: the session is written and the exit code is that of the
 * findings (0 or 1), as --help says */

static void
test_interrupt (void)
{
  gchar *dir = out_dir ("interrupt");
  gchar *out_path = g_build_filename (gp_tmp, "interrupt.out", NULL);
  gchar *err_path = g_build_filename (gp_tmp, "interrupt.err", NULL);
  const gchar *argv[] = { gp_bin, "run", "--duration", "30s", "--out", dir,
    LIVE_30FPS, NULL
  };
  GError *err = NULL;
  GPid pid;
  gint out_fd, err_fd, status = 0;
  gint64 t0, t_sig;
  gboolean exited = FALSE;
  gchar *text;
  GpSession *s;

  out_fd = g_open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  err_fd = g_open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  t0 = g_get_monotonic_time ();
  g_spawn_async_with_fds (gp_tmp, (gchar **) argv, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, gp_test_child_dies_with_us, NULL, &pid, -1,
      out_fd, err_fd, &err);
  g_assert_no_error (err);
  close (out_fd);
  close (err_fd);

  g_usleep (1500 * 1000);
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  t_sig = g_get_monotonic_time ();
  /* EOS wait is bounded (3 s); 10 s means it hangs. */
  while (g_get_monotonic_time () - t_sig < 10 * G_USEC_PER_SEC) {
    pid_t got = waitpid (pid, &status, WNOHANG);

    if (got == pid) {
      exited = TRUE;
      break;
    }
    g_usleep (50 * 1000);
  }
  if (!exited) {
    kill (pid, SIGKILL);
    waitpid (pid, &status, 0);
    g_error ("gstprof did not stop within 10 s of SIGINT");
  }
  g_spawn_close_pid (pid);
  if (g_test_verbose ()) {
    g_file_get_contents (err_path, &text, NULL, NULL);
    g_printerr ("exit %d after %.2f s; stderr:\n%s", gp_test_exit_code (status),
        (g_get_monotonic_time () - t0) / 1e6, text);
    g_free (text);
  }
  g_assert_cmpint (gp_test_exit_code (status), >=, 0);
  g_assert_cmpint (gp_test_exit_code (status), <=, 1);

  s = gp_test_load_session_dir (dir);
  g_assert_nonnull (gp_session_find_event (s, "interrupt"));
  g_assert_cmpfloat (s->duration_s, >, 0.5);
  g_assert_cmpfloat (s->duration_s, <, 6.0);
  g_assert_cmpuint (s->sinks->len, >=, 1);
  gp_session_free (s);

  g_assert_true (g_file_get_contents (out_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "gstprof verdict"));
  g_free (text);
  g_free (out_path);
  g_free (err_path);
  g_free (dir);
}

/* A run killed outright (SIGKILL: no handler runs) still leaves a valid
 * session: the last checkpoint, marked unfinished */

static void
test_killed (void)
{
  gchar *dir = out_dir ("killed");
  gchar *path = g_build_filename (dir, "session.json", NULL);
  const gchar *argv[] = { gp_bin, "run", "--quiet", "--duration", "30s",
    "--out", dir, LIVE_30FPS, NULL
  };
  GError *err = NULL;
  GPid pid;
  gint status = 0;
  GpSession *s;
  GpTestRun a;

  g_spawn_async (gp_tmp, (gchar **) argv, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
      G_SPAWN_STDERR_TO_DEV_NULL, gp_test_child_dies_with_us, NULL, &pid,
      &err);
  g_assert_no_error (err);
  /* checkpoints come every 2 s: at 4.5 s at least one was written */
  g_usleep (4500 * 1000);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  g_assert_true (WIFSIGNALED (status));

  s = gp_test_load_session_dir (dir);
  g_assert_cmpint (s->exit_code, ==, -1);
  g_assert_cmpfloat (s->duration_s, >, 1.5);
  g_assert_cmpuint (s->sinks->len, >=, 1);
  gp_session_free (s);

  /* a kill between temp file and rename may leave a temp file; the
   * session itself is whole: analyze reads it */
  gp_test_run_gstprof (&a, gp_tmp, "analyze", path, NULL);
  g_assert_cmpint (a.code, ==, 0);
  g_assert_nonnull (strstr (a.out, "unfinished"));
  gp_test_run_clear (&a);
  g_free (path);
  g_free (dir);
}

/* analyze gives the verdict run gave */

static void
test_analyze_same_verdict (void)
{
  gchar *dir = out_dir ("analyze");
  gchar *path = g_build_filename (dir, "session.json", NULL);
  const gchar *fa, *fb;
  GpTestRun a, b;

  /* identity sleeps 5 ms a buffer: HOT fires on it, so the findings part
   * is not empty. */
  gp_test_run_gstprof (&a, gp_tmp,
      "run", "--out", dir, "videotestsrc num-buffers=60 ! "
      "video/x-raw,width=64,height=48 ! identity sleep-time=5000 ! "
      "fakesink sync=false", NULL);
  g_assert_cmpint (a.code, ==, 0);
  gp_test_run_gstprof (&b, gp_tmp, "analyze", path, NULL);
  g_assert_cmpint (b.code, ==, 0);
  g_assert_cmpstr (b.err, ==, "");

  fa = strstr (a.out, "\nFindings");
  fb = strstr (b.out, "\nFindings");
  g_assert_nonnull (fa);
  g_assert_nonnull (fb);
  g_assert_cmpstr (fa, ==, fb);
  g_assert_nonnull (strstr (fa, "HOT: identity0 takes"));
  /* and the rest of the verdict too: it reads only the session */
  g_assert_cmpstr (a.out, ==, b.out);
  /* gstprof's own session is no import */
  g_assert_null (strstr (b.out, "imported from"));
  gp_test_run_clear (&b);

  /* the folder run --out wrote stands for its session */
  gp_test_run_gstprof (&b, gp_tmp, "analyze", dir, NULL);
  g_assert_cmpint (b.code, ==, 0);
  g_assert_cmpstr (a.out, ==, b.out);
  gp_test_run_clear (&b);

  /* the same folder again, with a pasted gst-launch-1.0 line: the command
   * and its options dropped (said), the earlier session kept (said) */
  {
    gchar *kept = g_build_filename (dir, "session.1.json", NULL);
    gchar *first = NULL, *again = NULL;
    GpSession *s;

    g_assert_true (g_file_get_contents (path, &first, NULL, NULL));
    gp_test_run_gstprof (&b, gp_tmp,
        "run", "--quiet", "--duration", "1", "--out", dir,
        "gst-launch-1.0 -v -e videotestsrc num-buffers=10 ! fakesink", NULL);
    g_assert_cmpint (b.code, ==, 0);
    g_assert_nonnull (strstr (b.err, "dropped 'gst-launch-1.0 -v -e'"));
    g_assert_nonnull (strstr (b.err, "kept as"));
    g_assert_true (g_file_get_contents (kept, &again, NULL, NULL));
    g_assert_cmpstr (first, ==, again);
    s = gp_test_load_session_dir (dir);
    g_assert_cmpstr (s->launch, ==, "videotestsrc num-buffers=10 ! fakesink");
    gp_session_free (s);
    g_free (first);
    g_free (again);
    g_free (kept);
  }

  gp_test_run_clear (&a);
  gp_test_run_clear (&b);
  g_free (path);
  g_free (dir);
}

/* run --trace twice into one folder: the earlier session is kept with its
 * own trace (trace.1.bin, named in session.1.json), so that its export
 * shows its own pipeline's elements and the new one's the new run's */
static gchar *
run_trace_export (const gchar * session, const gchar * name)
{
  gchar *out = g_build_filename (gp_tmp, name, NULL), *text = NULL;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "export", session, "--perfetto", out,
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  gp_test_run_clear (&r);
  g_free (out);
  return text;
}

static void
test_run_trace_kept (void)
{
  gchar *dir = g_build_filename (gp_tmp, "trace-kept", NULL);
  gchar *kept = g_build_filename (dir, "session.1.json", NULL);
  gchar *text;
  GError *err = NULL;
  GpSession *s;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "--trace", "--out", dir,
      "fakesrc num-buffers=20 ! identity name=first_id ! fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "--trace", "--out", dir,
      "fakesrc num-buffers=20 ! identity name=second_id ! fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.err, "kept as"));
  gp_test_run_clear (&r);

  s = gp_session_load (kept, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->trace_file, ==, "trace.1.bin");
  gp_session_free (s);
  text = run_trace_export (kept, "kept.json");
  g_assert_nonnull (strstr (text, "\"first_id\""));
  g_assert_null (strstr (text, "second_id"));
  g_free (text);
  text = run_trace_export (dir, "new.json");
  g_assert_nonnull (strstr (text, "\"second_id\""));
  g_assert_null (strstr (text, "first_id"));
  g_free (text);
  g_free (kept);
  g_free (dir);
}

/* analyze reads gst-profile/1 sessions (the real captures in
 * GP_FIXTURES/gst-profile-sessions) through src/ingest. The truth for each:
 * the same file read, judged and laid out in this process by the library
 * (gp_ingest_load_any, the rules, the verdict), with the import note at the
 * end of the header; the binary must print exactly that, exit with the
 * rules' code, and say in three lines what the other tool did not
 * measure. */
static void
test_analyze_gstprofile (void)
{
  gchar *dir_path = g_build_filename (g_getenv ("GP_FIXTURES"),
      "gst-profile-sessions", NULL);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const gchar *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    gchar *path, *verdict, *note, *expected;
    const gchar *header_end, *p;
    GError *err = NULL;
    GpSession *s;
    GpTestRun r;
    guint lines = 0;

    if (!g_str_has_suffix (name, ".json"))
      continue;
    path = g_build_filename (dir_path, name, NULL);
    s = gp_ingest_load_any (path, &err);
    g_assert_no_error (err);
    gp_rules_run (s);
    verdict = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
    note = gp_ingest_import_note (s, GP_VERDICT_WIDTH);
    g_assert_nonnull (note);
    header_end = strstr (verdict, "\n\n");
    g_assert_nonnull (header_end);
    expected = g_strdup_printf ("%.*s%s%s", (int) (header_end - verdict + 1),
        verdict, note, header_end + 1);

    gp_test_run_gstprof (&r, gp_tmp, "analyze", path, NULL);
    g_test_message ("%s: exit %d", name, r.code);
    g_assert_cmpint (r.code, ==, gp_rules_exit_code (s));
    g_assert_cmpint (r.code, <=, 1);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_cmpstr (r.out, ==, expected);
    /* the note: the schema, the flags every gst-profile import has, and
     * three lines at most */
    p = strstr (r.out, "\nimported from gst-profile/1 (its mode: ");
    g_assert_nonnull (p);
    g_assert_nonnull (strstr (p, "not in it: self time (element times"));
    g_assert_nonnull (strstr (p, "thread map"));
    g_assert_nonnull (strstr (p, "QoS."));
    for (p = note; *p != '\0'; p++)
      lines += *p == '\n';
    g_assert_cmpuint (lines, <=, 3);

    /* a known number of one capture: 60 buffers at the sink over its
     * 2.02 s of PLAYING, a 30/1 source */
    if (strcmp (name, "software-healthy.json") == 0)
      g_assert_nonnull (strstr (r.out, "fakesink0                29.7 fps "
              "of 30.0 fps (caps)"));

    gp_test_run_clear (&r);
    g_free (expected);
    g_free (note);
    g_free (verdict);
    gp_session_free (s);
    g_free (path);
    n++;
  }
  g_dir_close (dir);
  g_free (dir_path);
  /* the fixtures are there: eight captures from three machines */
  g_assert_cmpuint (n, >=, 7);
}

/* analyze reads a tegrastats log or nvidia-smi output alone (the real
 * captures of GP_FIXTURES/telemetry, and a log made here of a Jetson whose
 * GR3D is at 98 % all along, gzip-compressed too): the binary prints what
 * the library reads, judges and lays out in this process, with its note,
 * a Machine section and the machine rules' findings; a damaged line is
 * exit 3 and one line naming the file and the line. */
static void
test_analyze_telemetry (void)
{
  static const gchar *const logs[] = {
    "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
    "tegrastats_nano_jp4.txt",
    "tegrastats_agx_thor_r38.4.0.txt",
    "nvidia_smi_query_legacy_2017_throttle_reasons_timestamped.txt",
    "nvidia_smi_dmon_2gpu_geforce_default.txt",
  };
  GpTestRun r;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (logs); i++) {
    gchar *path = gp_test_fixture_path ("telemetry", logs[i]);
    gchar *verdict, *note, *expected;
    const gchar *header_end;
    GError *err = NULL;
    GpSession *s;

    if (path == NULL)
      break;
    s = gp_ingest_load_any (path, &err);
    g_assert_no_error (err);
    g_assert_nonnull (s->machine);
    gp_rules_run (s);
    verdict = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
    note = gp_ingest_import_note (s, GP_VERDICT_WIDTH);
    header_end = strstr (verdict, "\n\n");
    g_assert_nonnull (header_end);
    expected = g_strdup_printf ("%.*s%s%s", (int) (header_end - verdict + 1),
        verdict, note, header_end + 1);
    gp_test_run_gstprof (&r, gp_tmp, "analyze", path, NULL);
    g_assert_cmpint (r.code, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    g_assert_cmpstr (r.out, ==, expected);
    g_assert_nonnull (strstr (r.out, "\nMachine (over the whole log)\n"));
    g_assert_nonnull (strstr (r.out, g_str_has_prefix (logs[i],
                "tegrastats") ? "imported from tegrastats." :
            "imported from nvidia-smi."));
    /* no pipeline: no pipeline section */
    g_assert_null (strstr (r.out, "\nRate"));
    gp_test_run_clear (&r);
    g_free (expected);
    g_free (note);
    g_free (verdict);
    gp_session_free (s);
    g_free (path);
  }
}

static void
test_analyze_telemetry_made (void)
{
  gchar *busy = g_build_filename (gp_tmp, "busy-tegrastats.log", NULL);
  gchar *damaged = g_build_filename (gp_tmp, "damaged-tegrastats.log", NULL);
  gchar *gz, *cmd;
  GString *text;
  GpTestRun r;
  guint i;

  /* 20 s of an AGX Orin at GR3D 98 % at its top clock */
  text = g_string_new (NULL);
  for (i = 0; i < 20; i++)
    g_string_append_printf (text, "RAM 6000/62841MB (lfb 466x4MB) SWAP "
        "0/31420MB (cached 0MB) CPU [30%%@2201,20%%@2201,20%%@2201,"
        "20%%@2201] EMC_FREQ 40%%@3199 GR3D_FREQ %u%%@[1300,1300] "
        "NVENC off NVDEC off VIC off APE 174 cpu@55.0C gpu@58.0C tj@59.0C "
        "VDD_GPU_SOC 9000mW/9000mW VDD_CPU_CV 3000mW/3000mW\n", 97 + i % 3);
  g_assert_true (g_file_set_contents (busy, text->str, text->len, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "analyze", busy, NULL);
  /* HW is not verified on a bench pair: info, exit 0 */
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "  GPU 0:      load mean 98%, max 99%; "
          "clock mean 1300 MHz, top 1300 MHz\n"));
  g_assert_nonnull (strstr (r.out, "  bound:      HW: GPU 0 busy >= 95% for "
          "100% of the run at its top clock"));
  g_assert_nonnull (strstr (r.out, "[info] HW: GPU 0 busy"));
  gp_test_run_clear (&r);
  /* gzip-compressed, the same verdict */
  gz = g_strconcat (busy, ".gz", NULL);
  cmd = g_strdup_printf ("gzip -kf %s", busy);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  g_free (cmd);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", gz, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "[info] HW: GPU 0 busy"));
  gp_test_run_clear (&r);

  g_string_append (text, "RAM 6000/62841MB CPU [30%@2201] GR3D_FREQ "
      "x%@[1300]\n");
  g_string_append (text, text->str);
  g_assert_true (g_file_set_contents (damaged, text->str, text->len, NULL));
  /* two damaged lines among 42: read as far as it is valid, the same
   * verdict, and the Machine section says what was skipped and where */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", damaged, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "[info] HW: GPU 0 busy"));
  g_assert_nonnull (strstr (r.out, "tegrastats (40 samples"));
  /* (the section wraps its rows: spaces and newlines squeezed into one) */
  {
    GRegex *space = g_regex_new ("\\s+", 0, 0, NULL);
    gchar *flat = g_regex_replace_literal (space, r.out, -1, 0, " ", 0,
        NULL);

    cmd = g_strdup_printf ("2 of 42 lines skipped, first at %s:21: "
        "tegrastats line", damaged);
    gp_test_assert_has (flat, cmd);
    g_free (cmd);
    g_free (flat);
    g_regex_unref (space);
  }
  gp_test_run_clear (&r);
  /* plot says it on its output line */
  gp_test_run_gstprof (&r, gp_tmp, "plot", damaged, "-o", "damaged.png",
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  cmd = g_strdup_printf ("wrote damaged.png (%s: 2 of 42 lines skipped, "
      "first at %s:21: ", damaged, damaged);
  gp_test_assert_has (r.out, cmd);
  gp_test_run_clear (&r);
  /* nothing valid: refused, naming the first line */
  g_assert_true (g_file_set_contents (damaged, "RAM 6000/62841MB CPU "
          "[30%@2201] GR3D_FREQ x%@[1300]\n", -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "analyze", damaged, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, ":1: ");
  g_assert_nonnull (strstr (r.err, damaged));
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);

  g_string_free (text, TRUE);
  g_free (cmd);
  g_free (gz);
  g_free (busy);
  g_free (damaged);
}

/* analyze of a large session holds it in memory a few times its size,
 * not ten: 300 threads' CPU sampled 8,192 times each (a long DeepStream
 * run's machine series) read one series at a time. Read whole, json-glib's
 * tree of its 4.9 million values took 484 MB for this 36 MB file; a session
 * of values elsewhere than its machine series, past what gstprof reads
 * (GP_JSON_MAX_VALUES), is refused at once. The truth is the kernel's
 * count of the child's peak resident set (wait4 ()). */
#define BIG_SERIES 300
#define BIG_SAMPLES 8192
#define BIG_RSS_PER_FILE 3      /* the text, the samples as doubles, slack */
#define BIG_RSS_BASE_KIB (64 * 1024)    /* GStreamer, GLib, the program */

/* @r's peak within the bound for a file of @file_kib; a sanitizer's
 * shadow and quarantine are most of a sanitized peak (590 MB for the
 * 36 MB file), so the bound holds the plain build only. */
static void
assert_big_peak (const GpTestRun * r, glong file_kib)
{
  if (!gp_test_sanitized ())
    g_assert_cmpint (r->maxrss_kib, <=,
        BIG_RSS_PER_FILE * file_kib + BIG_RSS_BASE_KIB);
}

static void
test_analyze_big (void)
{
  gchar *path = g_build_filename (gp_tmp, "big.json", NULL);
  GString *text = gp_test_big_session (BIG_SERIES, BIG_SAMPLES, 240);
  glong file_kib = (glong) (text->len / 1024);
  GpTestRun r;

  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "analyze", path, NULL);
  gp_test_message_lines ("a %ld KiB session: exit %d, %.2f s of CPU, peak "
      "%ld KiB", file_kib, r.code, r.cpu_s, r.maxrss_kib);
  g_assert_cmpint (r.code, ==, 0);
  assert_big_peak (&r, file_kib);
  gp_test_run_clear (&r);
  g_string_free (text, TRUE);

  /* as many values, in windows: refused before json-glib builds them */
  text = gp_test_big_session (0, 0, 2 * BIG_SERIES * BIG_SAMPLES / 100);
  file_kib = (glong) (text->len / 1024);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "analyze", path, NULL);
  gp_test_message_lines ("a %ld KiB session of windows: exit %d, peak "
      "%ld KiB", file_kib, r.code, r.maxrss_kib);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "big.json: ");
  gp_test_assert_has (r.err, "values, more than the 2000000 gstprof reads");
  assert_big_peak (&r, file_kib);
  gp_test_run_clear (&r);
  g_string_free (text, TRUE);
  g_unlink (path);
  g_free (path);
}

/* A gst-profile file that is wrong is refused like a bad session: exit 3,
 * one line naming the file and what is wrong. */
static void
test_analyze_gstprofile_bad (void)
{
  gchar *bad_type = g_build_filename (gp_tmp, "gp-type.json", NULL);
  gchar *two = g_build_filename (gp_tmp, "gp-two.json", NULL);
  gchar *schema = g_build_filename (gp_tmp, "gp-schema.json", NULL);
  GpTestRun r;

  g_assert_true (g_file_set_contents (bad_type,
          "{\"schema\": \"gst-profile/1\", \"session\": 7}", -1, NULL));
  g_assert_true (g_file_set_contents (two,
          "{\"schema\": \"gst-profile/1\"}\n{\"a\": 1}", -1, NULL));
  g_assert_true (g_file_set_contents (schema,
          "{\"schema\": \"gst-profile/2\"}", -1, NULL));

  gp_test_run_gstprof (&r, gp_tmp, "analyze", bad_type, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "gp-type.json: session: expected an object");
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", two, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err,
      "gp-two.json:2:1: more data after the end of the JSON value");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", schema, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "unknown schema \"gst-profile/2\"");
  gp_test_run_clear (&r);

  g_free (bad_type);
  g_free (two);
  g_free (schema);
}

static void
test_analyze_bad_input (void)
{
  gchar *garbage = g_build_filename (gp_tmp, "garbage.json", NULL);
  gchar *missing = g_build_filename (gp_tmp, "missing.json", NULL);
  gchar *other = g_build_filename (gp_tmp, "other.json", NULL);
  GpTestRun r;

  g_assert_true (g_file_set_contents (garbage, "{ \"schema\": \"gstprof/1\", "
          "\n  oops", -1, NULL));
  g_assert_true (g_file_set_contents (other, "{\"hello\": [1, 2]}\n", -1,
          NULL));

  gp_test_run_gstprof (&r, gp_tmp, "analyze", garbage, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, garbage);
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", missing, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, missing);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", other, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, other);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, NULL);
  gp_test_run_clear (&r);

  /* a folder without a session */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", gp_tmp, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "without a session.json");
  gp_test_run_clear (&r);

  /* a number no measurement gives */
  g_assert_true (g_file_set_contents (other, "{\"schema\": \"gstprof/1\", "
          "\"summary\": {\"elements\": {\"x\": {\"busy_pct\": 1e308}}}}",
          -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "analyze", other, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err,
      "summary.elements.x.busy_pct: 1e+308 cannot be");
  gp_test_run_clear (&r);

  g_free (garbage);
  g_free (missing);
  g_free (other);
}

/* check */

static void
test_check (void)
{
  guint major, minor, micro, nano;
  gchar *version;
  GpTestRun r;

  gst_version (&major, &minor, &micro, &nano);
  version = g_strdup_printf ("GStreamer %u.%u.%u", major, minor, micro);
  gp_test_run_gstprof (&r, gp_tmp, "check", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, version));
  /* the test environment points GST_PLUGIN_PATH at the built tracer */
  g_assert_nonnull (strstr (r.out, "tracer:      found: "));
  /* ... where a program given only GST_TRACERS=gstprof finds it too */
  g_assert_nonnull (strstr (r.out, "standalone:  GST_TRACERS=gstprof alone "
          "loads"));
  g_assert_nonnull (strstr (r.out, "platform:"));
  g_assert_nonnull (strstr (r.out, "cpu=true:"));
  /* GStreamer 1.18 and later give a multiqueue's single queues their own
   * levels: nothing this version cannot show */
  g_assert_nonnull (strstr (r.out, "limits:      none known"));
  /* DeckLink's plugin registers its elements with no card: without the
   * driver's device folder, they are not said to have a device */
  if (!g_file_test ("/dev/blackmagic", G_FILE_TEST_EXISTS) &&
      gst_registry_check_feature_version (gst_registry_get (),
          "decklinkvideosrc", 1, 0, 0)) {
    const gchar *closed = strstr (r.out, "no device opens");

    g_assert_nonnull (closed);
    g_assert_nonnull (strstr (closed, "decklinkvideosrc"));
    g_assert_null (strstr (r.out, "with a device: decklink"));
  }
  gp_test_run_clear (&r);
  g_free (version);
}

/* check LAUNCH: whether a launch string builds and links here, without
 * running it, in the one line `fix` reads back: raw video into jpeg caps
 * does not link (GStreamer's parser says so), an element this machine
 * lacks is not known here, and a string the shell split is joined. */
static void
test_check_launch (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "check", "videotestsrc ! videoconvert ! "
      "fakesink", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "links: yes"));
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "check", "videotestsrc", "!",
      "image/jpeg,framerate=1/1", "!", "videoconvert", "!", "fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  g_assert_true (g_str_has_prefix (r.out, "links: no: could not link"));
  gp_test_assert_one_line (r.out, NULL);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "check", "videotestsrc ! gpnosuch0 ! "
      "fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  g_assert_cmpstr (r.out, ==, "links: not known here: no element "
      "\"gpnosuch0\"\n");
  gp_test_run_clear (&r);
}

/* run and check ask the platform one way: with an nvidia-smi that lists
 * no GPU (the tool installed, the driver not loaded: "No devices were
 * found", exit 6) both say generic; with one that lists a GPU both say
 * dgpu. The stand-in prints what the real tool prints for each. */
static void
test_platform_agrees (void)
{
  const gchar *outputs[][3] = {
    {"echo 'No devices were found'; exit 6", "generic", NULL},
    {"echo 'GPU 0: NVIDIA H200 (UUID: GPU-0000)'; exit 0", "dgpu", NULL},
  };
  gchar *bin = g_build_filename (gp_tmp, "fake-smi", NULL);
  gchar *smi = g_build_filename (bin, "nvidia-smi", NULL);
  gchar *old_path = g_strdup (g_getenv ("PATH"));
  gchar *path = g_strdup_printf ("%s:%s", bin, old_path);
  guint i;

  if (g_file_test ("/etc/nv_tegra_release", G_FILE_TEST_EXISTS)) {
    g_test_skip ("a Jetson: the platform is jetson whatever nvidia-smi says");
    goto out;
  }
  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  g_setenv ("PATH", path, TRUE);
  for (i = 0; i < G_N_ELEMENTS (outputs); i++) {
    gchar *script = g_strdup_printf ("#!/bin/sh\n%s\n", outputs[i][0]);
    gchar *dir = out_dir ("platform");
    gchar *line = g_strdup_printf ("platform:    %s", outputs[i][1]);
    GpSession *s;
    GpTestRun r;

    g_assert_true (g_file_set_contents (smi, script, -1, NULL));
    g_assert_cmpint (g_chmod (smi, 0755), ==, 0);
    gp_test_run_gstprof (&r, gp_tmp, "check", NULL);
    g_assert_nonnull (strstr (r.out, line));
    gp_test_run_clear (&r);
    gp_test_run_gstprof (&r, gp_tmp,
        "run", "--quiet", "--duration", "1", "--out", dir,
        "videotestsrc num-buffers=5 ! fakesink", NULL);
    g_assert_cmpint (r.code, ==, 0);
    s = gp_test_load_session_dir (dir);
    g_assert_cmpstr (s->platform, ==, outputs[i][1]);
    gp_session_free (s);
    gp_test_run_clear (&r);
    g_free (line);
    g_free (dir);
    g_free (script);
  }
  g_setenv ("PATH", old_path, TRUE);
out:
  g_free (bin);
  g_free (smi);
  g_free (old_path);
  g_free (path);
}

/* the demo's bottleneck: x264enc at a slow preset. Without its lookahead
 * (tune=zerolatency, as the Makefile's demo): x264's default holds about
 * 40 frames before its first output, which on a slow 2-core machine can
 * come after the 3 s run, and then the sink never prerolls. */

static void
test_demo_hot (void)
{
  GstElementFactory *f = gst_element_factory_find ("x264enc");
  gchar *dir = out_dir ("demo");
  GpSession *s;
  GpFinding *hot = NULL;
  guint i;
  GpTestRun r;

  if (f == NULL) {
    g_test_skip ("x264enc is not installed");
    g_free (dir);
    return;
  }
  gst_object_unref (f);
  gp_test_run_gstprof (&r, gp_tmp, "run", "--duration", "3s", "--out", dir,
      "videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,width=1280,height=720,framerate=30/1 ! videoconvert ! "
      "x264enc speed-preset=medium tune=zerolatency ! h264parse ! "
      "fakesink sync=false", NULL);
  g_assert_cmpint (r.code, <=, 1);
  s = gp_test_load_session_dir (dir);
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *fi = g_ptr_array_index (s->findings, i);

    if (g_strcmp0 (fi->rule, "HOT") == 0)
      hot = fi;
  }
  g_assert_nonnull (hot);
  g_assert_cmpstr (g_ptr_array_index (hot->targets, 0), ==, "x264enc0");
  g_assert_nonnull (strstr (r.out, "HOT: x264enc0 takes"));
  gp_session_free (s);
  gp_test_run_clear (&r);
  g_free (dir);
}

/* HOT and BUDGET on a real pipeline with a known truth: a live 30/1
 * source into an element that costs 50 ms a frame can deliver at most 20
 * fps, and its latency exceeds the 33.3 ms period; at 5 ms a frame the
 * same pipeline keeps up and BUDGET stays silent. */


static void
test_budget_real (void)
{
  gchar *slow = out_dir ("budget-slow"), *fast = out_dir ("budget-fast");
  GpSession *s;
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--quiet", "--duration", "2s", "--out", slow,
      "videotestsrc is-live=true ! video/x-raw,width=64,height=48,"
      "framerate=30/1 ! identity name=slow sleep-time=50000 ! "
      "fakesink name=out", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_test_load_session_dir (slow);
  g_assert_cmpfloat (gp_session_find_sink (s, "out")->fps, <, 21.0);
  g_assert_nonnull (gp_session_find_finding (s, "HOT", "slow"));
  /* both halves of BUDGET: 20 fps of 30, and latency over 33.3 ms */
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 2);
  gp_session_free (s);

  gp_test_run_gstprof (&r, gp_tmp,
      "run", "--quiet", "--duration", "2s", "--out", fast,
      "videotestsrc is-live=true ! video/x-raw,width=64,height=48,"
      "framerate=30/1 ! identity name=slow sleep-time=5000 ! "
      "fakesink name=out", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_test_load_session_dir (fast);
  g_assert_cmpfloat (gp_session_find_sink (s, "out")->fps, >, 29.0);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);
  g_free (slow);
  g_free (fast);
}

/* A session whose parent chain loops (an element its own parent, two and
 * three bins each other's): compare crashed on one (a recursion without
 * end); every command that reads it refuses it in one line naming the
 * file and the loop, exit code 3. */
static void
test_parent_loops (void)
{
  static const gchar *const loops[][3] = {
    {"pipeline0", NULL, NULL},
    {"pipeline0", "bin1", NULL},
    {"pipeline0", "bin1", "bin2"},
  };
  gchar *tmp = g_dir_make_tmp ("gp-loop-XXXXXX", NULL);
  gchar *good = g_build_filename (tmp, "good.json", NULL);
  GpSession *s = gp_session_new ();
  GError *err = NULL;
  guint i, k;

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "src", "fakesrc", "pipeline0", "source");
  gp_session_add_element (s, "sink", "fakesink", "pipeline0", "sink");
  gp_session_add_link (s, "src.src", "sink.sink", NULL, NULL);
  g_assert_true (gp_session_save (s, good, &err));
  gp_session_free (s);
  for (i = 0; i < G_N_ELEMENTS (loops); i++) {
    gchar *name = g_strdup_printf ("loop%u.json", i + 1);
    gchar *path = g_build_filename (tmp, name, NULL);
    const gchar *const commands[][5] = {
      {"compare", good, path, NULL},
      {"analyze", path, NULL},
      {"export", "--csv", tmp, path, NULL},
      {"plot", path, "-o", "x.png", NULL},
    };
    GpElement *e;

    s = gp_session_new ();
    for (k = 0; k < 3 && loops[i][k]; k++)
      gp_session_add_element (s, loops[i][k], "bin", "", "bin");
    /* each one's parent is the next, the last's the first */
    for (k = 0; k < s->elements->len; k++) {
      e = g_ptr_array_index (s->elements, k);
      g_free (e->parent);
      e->parent = g_strdup (((GpElement *) g_ptr_array_index (s->elements,
                  (k + 1) % s->elements->len))->name);
    }
    gp_session_add_element (s, "src", "fakesrc", "pipeline0", "source");
    g_assert_true (gp_session_save (s, path, &err));
    gp_session_free (s);
    for (k = 0; k < G_N_ELEMENTS (commands); k++) {
      GpTestRun r;

      gp_test_run_gstprof_argv (&r, tmp, commands[k]);
      g_test_message ("%s %s: %d %s", commands[k][0], name, r.code, r.err);
      g_assert_cmpint (r.code, ==, 3);
      gp_test_assert_one_line (r.err, "the parent chain loops (pipeline0 -> ");
      gp_test_assert_one_line (r.err, name);
      gp_test_run_clear (&r);
    }
    g_free (path);
    g_free (name);
  }
  g_free (good);
  gp_test_remove_tree (tmp);
  g_free (tmp);
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);

  gp_bin = g_getenv ("GSTPROF_BIN");
  if (gp_bin == NULL || !g_file_test (gp_bin, G_FILE_TEST_IS_EXECUTABLE)) {
    g_printerr ("GSTPROF_BIN must name the built gstprof binary\n");
    return 1;
  }
  gp_tmp = g_dir_make_tmp ("gstprof-test-cli-XXXXXX", &err);
  g_assert_no_error (err);

  g_test_add_func ("/cli/parse-duration", test_parse_duration);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/bad-options", test_bad_options);
  g_test_add_func ("/cli/bad-launch", test_bad_launch);
  g_test_add_func ("/cli/run-trace-kept", test_run_trace_kept);
  g_test_add_func ("/cli/unknown-element", test_unknown_element);
  g_test_add_func ("/cli/runtime-error", test_runtime_error);
  g_test_add_func ("/cli/duration-live", test_duration_live);
  g_test_add_func ("/cli/interrupt", test_interrupt);
  g_test_add_func ("/cli/killed", test_killed);
  g_test_add_func ("/cli/budget-real", test_budget_real);
  g_test_add_func ("/cli/analyze-same-verdict", test_analyze_same_verdict);
  g_test_add_func ("/cli/analyze-bad-input", test_analyze_bad_input);
  g_test_add_func ("/cli/analyze-gstprofile", test_analyze_gstprofile);
  g_test_add_func ("/cli/analyze-telemetry", test_analyze_telemetry);
  g_test_add_func ("/cli/analyze-telemetry-made",
      test_analyze_telemetry_made);
  g_test_add_func ("/cli/analyze-big", test_analyze_big);
  g_test_add_func ("/cli/analyze-gstprofile-bad",
      test_analyze_gstprofile_bad);
  g_test_add_func ("/cli/check", test_check);
  g_test_add_func ("/cli/check-launch", test_check_launch);
  g_test_add_func ("/cli/platform-agrees", test_platform_agrees);
  g_test_add_func ("/cli/demo-hot", test_demo_hot);
  g_test_add_func ("/cli/parent-loops", test_parent_loops);

  ret = g_test_run ();

  /* Leave the sessions for a look when something failed. */
  if (ret == 0) {
    gchar *argv_rm[] = { (gchar *) "rm", (gchar *) "-rf", gp_tmp, NULL };

    g_spawn_sync (NULL, argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
        NULL, NULL, NULL);
  } else {
    g_printerr ("sessions kept in %s\n", gp_tmp);
  }
  g_free (gp_tmp);
  return ret;
}
