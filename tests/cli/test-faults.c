/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-faults.c: the real gstprof binary (GSTPROF_BIN) next to pipelines
 * and programs that misbehave: a sink blocked in a system call (a FIFO
 * nobody opens, one nobody reads), an element stuck for 20 s, Ctrl-C and
 * SIGTERM while the pipeline will not stop, a disk that fills (RLIMIT_FSIZE
 * with SIGXFSZ ignored in the child: writes fail with EFBIG; and a small
 * tmpfs where the test may mount one: ENOSPC), an output
 * folder it may not write (as root the child runs as nobody), a wrapped
 * program killed with SIGKILL or aborting, wrap itself killed with
 * SIGKILL, a TMPDIR with ';' and ')'. Each: gstprof ends within a bound
 * measured here, says what happened in one line, and the session file is
 * valid (the earlier one intact when the new one could not be written).
 *
 * The program is also its own wrapped child (--abort-child,
 * --live-child).
 */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "gp-test-util.h"
#include "core/gp-session.h"
#include "capture/gp-capture.h"

/* The exit code of a run whose pipeline did not stop (gp-cli.h) */
#define GP_FAULTS_EXIT_STUCK 4
/* run's promised stop: EOS waited 3 s at most, then 3 s for the state
 * change to NULL (gp-capture.c) */
#define GP_FAULTS_EOS_S 3.0
#define GP_FAULTS_TEARDOWN_S 3.0
/* gstprof's own start (GStreamer's registry, the tracer, the sampler) and
 * its end (rules, the session written), on a loaded 2-core machine */
#define GP_FAULTS_SLACK_S 4.0
/* a test's last resort: past this the child is killed and the test fails */
#define GP_FAULTS_KILL_S 30.0

static const gchar *gp_bin;
static gchar *gp_self;
static gchar *gp_tmp;

typedef struct
{
  gint code;
  gdouble seconds;              /* from the spawn */
  gchar *out, *err;
} GpFaultRun;

static void
gp_fault_run_clear (GpFaultRun * f)
{
  g_free (f->out);
  g_free (f->err);
  memset (f, 0, sizeof *f);
}

typedef struct
{
  GPid pid;
  gint64 t0;
  gchar *out_path, *err_path;
} GpFaultChild;

typedef struct
{
  GSpawnChildSetupFunc setup;
  gpointer data;
} GpFaultSetup;

/* In the child: @setup's, then death with this test (after it: a change
 * of user clears the request), so that a failed assertion leaves no
 * gstprof behind; wrap's program goes with wrap. */
static void
gp_fault_child_setup (gpointer data)
{
  GpFaultSetup *fs = data;

  if (fs->setup)
    fs->setup (fs->data);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* @argv started in gp_tmp, its output into files, @setup run in the
 * child before exec. */
static void
gp_fault_spawn (GpFaultChild * c, const gchar * const *argv,
    GSpawnChildSetupFunc setup, gpointer data, gchar ** envp)
{
  GError *err = NULL;
  gint out_fd, err_fd;
  static guint n;
  GpFaultSetup fs = { setup, data };

  c->out_path = g_strdup_printf ("%s/child-%u.out", gp_tmp, n);
  c->err_path = g_strdup_printf ("%s/child-%u.err", gp_tmp, n++);
  out_fd = g_open (c->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  err_fd = g_open (c->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  c->t0 = g_get_monotonic_time ();
  g_spawn_async_with_fds (gp_tmp, (gchar **) argv, envp,
      G_SPAWN_DO_NOT_REAP_CHILD, gp_fault_child_setup, &fs, &c->pid, -1,
      out_fd, err_fd, &err);
  g_assert_no_error (err);
  close (out_fd);
  close (err_fd);
}

/* Waits for the child, at most GP_FAULTS_KILL_S (then kills it and fails
 * the test with @what); its code, time and output in @f. */
static void
gp_fault_wait (GpFaultChild * c, const gchar * what, GpFaultRun * f)
{
  gint status = 0;

  while (waitpid (c->pid, &status, WNOHANG) != c->pid) {
    if (g_get_monotonic_time () - c->t0 > GP_FAULTS_KILL_S * G_USEC_PER_SEC) {
      kill (c->pid, SIGKILL);
      waitpid (c->pid, &status, 0);
      g_error ("%s: still running after %.0f s", what, GP_FAULTS_KILL_S);
    }
    g_usleep (20 * 1000);
  }
  f->seconds = (g_get_monotonic_time () - c->t0) / 1e6;
  f->code = gp_test_exit_code (status);
  g_file_get_contents (c->out_path, &f->out, NULL, NULL);
  g_file_get_contents (c->err_path, &f->err, NULL, NULL);
  /* one message a line: GLib before 2.68 does not mark the lines of a
   * message after its first as TAP comments */
  g_test_message ("%s: exit %d after %.2f s; stderr:", what, f->code,
      f->seconds);
  gp_test_message_text (f->err);
  g_free (c->out_path);
  g_free (c->err_path);
}

/* The lines of @text that hold @part: exactly one. */
static void
gp_fault_assert_one_line_with (const gchar * text, const gchar * part)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i, n = 0;

  for (i = 0; lines[i]; i++)
    n += strstr (lines[i], part) != NULL;
  if (n != 1)
    g_error ("expected one line with '%s' in:\n%s", part, text);
  g_strfreev (lines);
}

/* @text is one line with @must and at most one with @may (a checkpoint
 * that failed while the program ran, said when it first failed: a slow
 * run, as under a sanitizer, lives long enough for one), nothing else. */
static void
gp_fault_assert_only_lines (const gchar * text, const gchar * must,
    const gchar * may)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i, n_must = 0, n_may = 0;

  for (i = 0; lines[i]; i++) {
    if (strstr (lines[i], must) != NULL)
      n_must++;
    else if (strstr (lines[i], may) != NULL)
      n_may++;
    else if (lines[i][0] != '\0')
      g_error ("a line neither '%s' nor '%s' in:\n%s", must, may, text);
  }
  if (n_must != 1 || n_may > 1)
    g_error ("expected one line with '%s' and at most one with '%s' in:\n%s",
        must, may, text);
  g_strfreev (lines);
}

static gchar *
gp_fault_fifo (const gchar * name)
{
  gchar *path = g_build_filename (gp_tmp, name, NULL);

  g_unlink (path);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  return path;
}

/* `gstprof run --duration @duration` of @launch into @dir, started;
 * @setup (may be NULL) run in the child before exec. */
static void
gp_fault_run_start (GpFaultChild * c, const gchar * dir,
    const gchar * duration, const gchar * launch, GSpawnChildSetupFunc setup,
    gpointer data)
{
  const gchar *argv[] = { gp_bin, "run", "--no-machine", "--duration",
    duration, "--out", dir, launch, NULL
  };

  gp_fault_spawn (c, argv, setup, data, NULL);
}

/* `gstprof run --duration D` of @launch into @dir, waited for. */
static void
gp_fault_run (const gchar * dir, const gchar * duration,
    const gchar * launch, GpFaultRun * f)
{
  GpFaultChild c;

  gp_fault_run_start (&c, dir, duration, launch, NULL, NULL);
  gp_fault_wait (&c, launch, f);
}

/* Waits until @path exists (a checkpoint), at most 20 s. */
static void
gp_fault_wait_file (const gchar * path)
{
  gint64 t0 = g_get_monotonic_time ();

  while (!g_file_test (path, G_FILE_TEST_EXISTS) &&
      g_get_monotonic_time () - t0 < 20 * G_USEC_PER_SEC)
    g_usleep (50 * 1000);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* @sig (0: none) sent to @pid, then @c waited for as @what; the seconds
 * from the signal to @c's end. */
static gdouble
gp_fault_signal_wait (GpFaultChild * c, GPid pid, gint sig,
    const gchar * what, GpFaultRun * f)
{
  gint64 t_sig = g_get_monotonic_time ();

  if (sig != 0)
    g_assert_cmpint (kill (pid, sig), ==, 0);
  gp_fault_wait (c, what, f);
  return (g_get_monotonic_time () - t_sig) / 1e6;
}

/* The session a stuck run wrote: valid, the stuck event in it, the
 * duration about @duration_s. */
static void
gp_fault_assert_stuck_session (const gchar * dir, gdouble duration_s)
{
  GpSession *s = gp_test_load_session_dir (dir);

  g_assert_nonnull (gp_session_find_event (s, GP_CAPTURE_STUCK_EVENT));
  g_assert_cmpint (s->exit_code, ==, GP_FAULTS_EXIT_STUCK);
  g_assert_cmpfloat (s->duration_s, >=, duration_s - 0.1);
  g_assert_cmpfloat (s->duration_s, <=, duration_s + GP_FAULTS_EOS_S + 1);
  gp_session_free (s);
}

/* `gstprof run --duration 1s` of @launch into @dir, a pipeline that
 * will not stop: exit 4 in less than @bound_s, its session the stuck
 * one. */
static void
gp_fault_run_stuck (const gchar * dir, const gchar * launch,
    gdouble bound_s, GpFaultRun * f)
{
  gp_fault_run (dir, "1s", launch, f);
  g_assert_cmpint (f->code, ==, GP_FAULTS_EXIT_STUCK);
  g_assert_cmpfloat (f->seconds, <, bound_s);
  gp_fault_assert_stuck_session (dir, 1.0);
}

/* filesink opening a FIFO nobody opens for reading: open () blocks in the
 * state change to READY, before anything plays. Bounded by --duration,
 * then the stop's own bound. */
static void
test_fifo_never_opened (void)
{
  gchar *fifo = gp_fault_fifo ("never-opened.fifo");
  gchar *dir = g_build_filename (gp_tmp, "never-opened", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc ! filesink location=%s",
      fifo);
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_run_stuck (dir, launch, 1 + GP_FAULTS_TEARDOWN_S +
      GP_FAULTS_SLACK_S, &f);
  gp_fault_assert_one_line_with (f.err, "did not stop");
  gp_test_assert_has (f.out, "gstprof verdict");
  gp_fault_run_clear (&f);
  g_free (launch);
  g_free (dir);
  g_free (fifo);
}

/* The FIFO held open by this test and never read: the sink's write ()
 * blocks once the pipe is full, so EOS never reaches it, and the flush
 * that would release the stream needs the thread blocked in write (). */
static void
test_fifo_never_read (void)
{
  gchar *fifo = gp_fault_fifo ("never-read.fifo");
  gchar *dir = g_build_filename (gp_tmp, "never-read", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc ! filesink location=%s",
      fifo);
  gint fd;
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  fd = g_open (fifo, O_RDONLY | O_NONBLOCK, 0);
  g_assert_cmpint (fd, >=, 0);
  gp_fault_run_stuck (dir, launch, 1 + GP_FAULTS_EOS_S +
      GP_FAULTS_TEARDOWN_S + GP_FAULTS_SLACK_S, &f);
  gp_fault_assert_one_line_with (f.err, "did not stop");
  close (fd);
  gp_fault_run_clear (&f);
  g_free (launch);
  g_free (dir);
  g_free (fifo);
}

/* An element asleep for 20 s in its chain function: the stop is the
 * stop's bound, not the element's 20 s. */
static void
test_element_stuck (void)
{
  gchar *dir = g_build_filename (gp_tmp, "stuck-element", NULL);
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_run_stuck (dir, "videotestsrc ! identity sleep-time=20000000 ! "
      "fakesink", 1 + GP_FAULTS_EOS_S + GP_FAULTS_TEARDOWN_S +
      GP_FAULTS_SLACK_S, &f);
  g_assert_cmpfloat (f.seconds, <, 20);
  gp_fault_run_clear (&f);
  g_free (dir);
}

/* Ctrl-C (SIGINT, sent here) on a pipeline that never reaches EOS; then
 * @second, which ends gstprof at once with the session (0: none, the EOS
 * wait and the stop are bounded by themselves). */
static void
gp_fault_signals (const gchar * name, gint second)
{
  gchar *fifo_name = g_strconcat (name, ".fifo", NULL);
  gchar *fifo = gp_fault_fifo (fifo_name);
  gchar *dir = g_build_filename (gp_tmp, name, NULL);
  gchar *launch = g_strdup_printf ("videotestsrc is-live=true ! "
      "filesink location=%s", fifo);
  gchar *json = g_build_filename (dir, "session.json", NULL);
  GpFaultChild c;
  GpFaultRun f;
  gint fd;
  gdouble ended_s;
  GpSession *s;

  fd = g_open (fifo, O_RDONLY | O_NONBLOCK, 0);
  g_assert_cmpint (fd, >=, 0);
  gp_fault_run_start (&c, dir, "60s", launch, NULL, NULL);
  /* the first checkpoint says it is running */
  gp_fault_wait_file (json);
  if (second != SIGTERM) {
    g_assert_cmpint (kill (c.pid, SIGINT), ==, 0);
    g_usleep (500 * 1000);
  }
  ended_s = gp_fault_signal_wait (&c, c.pid, second, name, &f);
  g_test_message ("%s: ended %.2f s after the last signal", name, ended_s);
  /* at once: the hurried stop's 250 ms, the rules and the write; after
   * one Ctrl-C: the EOS wait, then the stop's bound */
  g_assert_cmpfloat (ended_s, <, second != 0 ? GP_FAULTS_SLACK_S / 2 :
      GP_FAULTS_EOS_S + GP_FAULTS_TEARDOWN_S + GP_FAULTS_SLACK_S);
  g_assert_cmpint (f.code, ==, GP_FAULTS_EXIT_STUCK);
  gp_fault_assert_one_line_with (f.err, "did not stop");
  s = gp_test_load_session_dir (dir);
  g_assert_cmpstr (s->end, ==, "interrupt");
  g_assert_nonnull (gp_session_find_event (s, GP_CAPTURE_STUCK_EVENT));
  gp_session_free (s);
  close (fd);
  gp_fault_run_clear (&f);
  g_free (json);
  g_free (launch);
  g_free (dir);
  g_free (fifo);
  g_free (fifo_name);
}

static void
test_sigint_once (void)
{
  if (gp_test_have_tracer ())
    gp_fault_signals ("sigint-once", 0);
}

static void
test_sigint_twice (void)
{
  if (gp_test_have_tracer ())
    gp_fault_signals ("sigint-twice", SIGINT);
}

static void
test_sigterm (void)
{
  if (gp_test_have_tracer ())
    gp_fault_signals ("sigterm", SIGTERM);
}

/* SIGTERM on a healthy pipeline: at once, and it is not called stuck. */
static void
test_sigterm_healthy (void)
{
  gchar *dir = g_build_filename (gp_tmp, "sigterm-healthy", NULL);
  gchar *json = g_build_filename (dir, "session.json", NULL);
  GpFaultChild c;
  GpFaultRun f;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_run_start (&c, dir, "60s", "videotestsrc is-live=true ! fakesink",
      NULL, NULL);
  gp_fault_wait_file (json);
  g_assert_cmpfloat (gp_fault_signal_wait (&c, c.pid, SIGTERM,
          "SIGTERM, healthy", &f), <, GP_FAULTS_SLACK_S / 2);
  g_assert_cmpint (f.code, >=, 0);
  g_assert_cmpint (f.code, <=, 1);
  s = gp_test_load_session_dir (dir);
  g_assert_null (gp_session_find_event (s, GP_CAPTURE_STUCK_EVENT));
  g_assert_cmpstr (s->end, ==, "interrupt");
  gp_session_free (s);
  gp_fault_run_clear (&f);
  g_free (json);
  g_free (dir);
}

/* The earlier session planted in @dir: its bytes, to compare. */
static gchar *
gp_fault_plant_session (const gchar * dir)
{
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GpSession *s = gp_capture_error_session ("planted ! earlier",
      "the earlier session");
  gchar *bytes = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (gp_session_save (s, path, NULL));
  g_assert_true (g_file_get_contents (path, &bytes, NULL, NULL));
  gp_session_free (s);
  g_free (path);
  return bytes;
}

/* No file in @dir but those of @keep (a half-written temporary file
 * would be one). */
static void
gp_fault_assert_only (const gchar * dir, const gchar * const *keep)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (!g_strv_contains (keep, name))
      g_error ("%s: unexpected %s", dir, name);
  g_dir_close (d);
}

/* A disk that fills while writing: the verdict is printed, one line says
 * the session was not written and why (@why), the earlier one is intact
 * (kept beside it as session.1.json) and no half file is left. @setup
 * makes the child's disk small. */
static void
gp_fault_disk_full (const gchar * dir, gchar * planted,
    GSpawnChildSetupFunc setup, const gchar * why)
{
  gchar *kept = NULL, *path = g_build_filename (dir, "session.1.json", NULL);
  const gchar *only[] = { "session.1.json", NULL };
  GpFaultChild c;
  GpFaultRun f;

  gp_fault_run_start (&c, dir, "1s", "videotestsrc ! "
      "video/x-raw,width=64,height=48 ! fakesink", setup, NULL);
  gp_fault_wait (&c, "disk full", &f);
  g_assert_cmpint (f.code, ==, 3);
  gp_test_assert_has (f.out, "gstprof verdict");
  gp_fault_assert_one_line_with (f.err, "the session was not written");
  gp_fault_assert_one_line_with (f.err, why);
  g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, planted);
  gp_fault_assert_only (dir, only);
  gp_fault_run_clear (&f);
  g_free (kept);
  g_free (path);
}

/* In the child: files past 4 KiB fail with EFBIG instead of killing it. */
static void
gp_fault_small_file_limit (gpointer data)
{
  struct rlimit rl = { 4096, 4096 };

  signal (SIGXFSZ, SIG_IGN);
  setrlimit (RLIMIT_FSIZE, &rl);
}

/* The disk fills: RLIMIT_FSIZE (4 KiB, SIGXFSZ ignored), which any user
 * may set: writes fail with EFBIG. */
static void
test_disk_full_rlimit (void)
{
  gchar *dir = g_build_filename (gp_tmp, "disk-full-rlimit", NULL);
  gchar *planted = gp_fault_plant_session (dir);

  if (!gp_test_have_tracer ())
    return;
  g_test_message ("disk full: RLIMIT_FSIZE 4 KiB, SIGXFSZ ignored");
  gp_fault_disk_full (dir, planted, gp_fault_small_file_limit,
      g_strerror (EFBIG));
  g_free (planted);
  g_free (dir);
}

/* Checkpoints that cannot be written (files past 4 KiB fail): said once,
 * however many fail (two in 5 s), then the end's own line; the run goes
 * on to its end. They were once dropped in silence. */
static void
test_checkpoint_fails (void)
{
  gchar *dir = g_build_filename (gp_tmp, "checkpoint-fails", NULL);
  GpFaultChild c;
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_run_start (&c, dir, "5s", "videotestsrc is-live=true ! "
      "video/x-raw,width=64,height=48 ! fakesink", gp_fault_small_file_limit,
      NULL);
  gp_fault_wait (&c, "checkpoints fail", &f);
  g_assert_cmpint (f.code, ==, 3);
  gp_test_assert_has (f.out, "gstprof verdict");
  gp_test_assert_has (f.out, "--duration reached at 5.0 s");
  gp_fault_assert_one_line_with (f.err, "checkpoint not written");
  gp_test_assert_has (f.err, g_strerror (EFBIG));
  gp_fault_assert_one_line_with (f.err, "the session was not written");
  gp_fault_run_clear (&f);
  g_free (dir);
}

/* The disk fills: a tmpfs of two pages mounted on the output folder,
 * where this test may mount (root); the earlier session takes one, the
 * run's needs more: ENOSPC. */
static void
test_disk_full_tmpfs (void)
{
  gchar *dir = g_build_filename (gp_tmp, "disk-full-tmpfs", NULL);
  gchar *planted;

  if (!gp_test_have_tracer ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  if (mount ("gstprof-test", dir, "tmpfs", 0, "size=8k,mode=0755") != 0) {
    gchar *why = g_strdup_printf ("no tmpfs: %s", g_strerror (errno));

    g_test_skip (why);
    g_free (why);
    g_free (dir);
    return;
  }
  g_test_message ("disk full: a tmpfs of 8 KiB");
  planted = gp_fault_plant_session (dir);
  gp_fault_disk_full (dir, planted, NULL, g_strerror (ENOSPC));
  g_assert_cmpint (umount (dir), ==, 0);
  g_free (planted);
  g_free (dir);
}

/* In the child: the user nobody. */
static void
gp_fault_as_nobody (gpointer data)
{
  struct passwd *pw = data;

  if (setgid (pw->pw_gid) != 0 || setuid (pw->pw_uid) != 0)
    _exit (99);
}

/* An output folder gstprof may not write: refused before the run, in one
 * line naming it; the earlier session in it intact. As root the child
 * runs as nobody (root writes anywhere); otherwise the folder is 0500. */
static void
test_unwritable (void)
{
  gchar *dir = g_build_filename (gp_tmp, "unwritable", NULL);
  gchar *planted = gp_fault_plant_session (dir);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *now = NULL;
  struct passwd *pw = getuid () == 0 ? getpwnam ("nobody") : NULL;
  GpFaultChild c;
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  if (getuid () == 0 && pw == NULL) {
    g_test_skip ("root, and no user nobody to run as");
    return;
  }
  g_assert_cmpint (g_chmod (gp_tmp, 0755), ==, 0);
  g_assert_cmpint (g_chmod (dir, pw ? 0755 : 0500), ==, 0);
  g_test_message ("not writable: %s", pw ? "as nobody" : "folder 0500");
  gp_fault_run_start (&c, dir, "1s", "videotestsrc ! fakesink",
      pw ? gp_fault_as_nobody : NULL, pw);
  gp_fault_wait (&c, "unwritable", &f);
  g_assert_cmpint (f.code, ==, 3);
  gp_test_assert_one_line (f.err, dir);
  g_assert_true (g_file_get_contents (path, &now, NULL, NULL));
  g_assert_cmpstr (now, ==, planted);
  g_chmod (dir, 0755);
  gp_fault_run_clear (&f);
  g_free (now);
  g_free (path);
  g_free (planted);
  g_free (dir);
}

/* ------------------------------------------------------------------ */
/* wrap                                                                */

#define GP_FAULTS_LIVE "videotestsrc is-live=true ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! fakesink"
/* wrap's wait for the streams after the program ended (gp-wrap.c) */
#define GP_FAULTS_WRAP_DRAIN_S 2.0

/* The pid the wrapped child wrote to @path, once it is there. */
static GPid
gp_fault_read_pid (const gchar * path)
{
  gint64 t0 = g_get_monotonic_time ();
  gchar *text = NULL;
  GPid pid = 0;

  while (g_get_monotonic_time () - t0 < 20 * G_USEC_PER_SEC) {
    if (g_file_get_contents (path, &text, NULL, NULL) && strchr (text, '\n'))
      break;
    g_clear_pointer (&text, g_free);
    g_usleep (50 * 1000);
  }
  g_assert_nonnull (text);
  pid = atoi (text);
  g_free (text);
  g_assert_cmpint (pid, >, 1);
  return pid;
}

/* Whether process @pid is gone (reaped, or a zombie: it ran its last). */
static gboolean
gp_fault_gone (GPid pid)
{
  gchar *stat_path = g_strdup_printf ("/proc/%d/stat", pid);
  gchar *text = NULL;
  gboolean gone = !g_file_get_contents (stat_path, &text, NULL, NULL) ||
      (strrchr (text, ')') && strrchr (text, ')')[2] == 'Z');

  g_free (text);
  g_free (stat_path);
  return gone;
}

/* `gstprof wrap --out @dir -- <this program> @mode`, started; the
 * program's pid file in @pid_path; @setup (may be NULL) run in the child
 * before exec. */
static void
gp_fault_wrap_start (GpFaultChild * c, const gchar * dir, const gchar * mode,
    const gchar * pid_path, gchar ** envp, GSpawnChildSetupFunc setup,
    gpointer data)
{
  const gchar *argv[] = { gp_bin, "wrap", "--no-machine", "--quiet",
    "--out", dir, "--", gp_self, mode, pid_path, NULL
  };

  gp_fault_spawn (c, argv, setup, data, envp);
}

/* The wrapped program killed with SIGKILL (not by gstprof): wrap ends
 * after its drain, says how the program ended in one line of the verdict,
 * exit 2, and the session holds its windows. */
static void
test_wrap_program_killed (void)
{
  gchar *dir = g_build_filename (gp_tmp, "wrap-killed", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-killed.pid", NULL);
  gchar *json = g_build_filename (dir, "session.json", NULL);
  GpFaultChild c;
  GpFaultRun f;
  GpSession *s;
  GPid program;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_wrap_start (&c, dir, "--live-child", pid_path, NULL, NULL, NULL);
  program = gp_fault_read_pid (pid_path);
  gp_fault_wait_file (json);
  g_assert_cmpfloat (gp_fault_signal_wait (&c, program, SIGKILL,
          "wrapped program killed", &f), <, GP_FAULTS_WRAP_DRAIN_S +
      GP_FAULTS_SLACK_S);
  g_assert_cmpint (f.code, ==, 2);
  gp_fault_assert_one_line_with (f.out, "was killed by signal 9");
  s = gp_test_load_session_dir (dir);
  g_assert_cmpuint (gp_session_n_windows (s), >, 0);
  g_assert_cmpint (s->exit_code, ==, 2);
  gp_session_free (s);
  gp_fault_run_clear (&f);
  g_free (json);
  g_free (pid_path);
  g_free (dir);
}

/* A program that aborts after some buffers (a crashing element): exit 2,
 * the abort said, its windows up to the last one in the session. */
static void
test_wrap_program_aborts (void)
{
  gchar *dir = g_build_filename (gp_tmp, "wrap-abort", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-abort.pid", NULL);
  GpFaultChild c;
  GpFaultRun f;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_wrap_start (&c, dir, "--abort-child", pid_path, NULL, NULL, NULL);
  gp_fault_wait (&c, "wrapped program aborts", &f);
  g_assert_cmpint (f.code, ==, 2);
  gp_fault_assert_one_line_with (f.out, "was killed by signal 6");
  s = gp_test_load_session_dir (dir);
  g_assert_cmpuint (gp_session_n_windows (s), >, 0);
  gp_session_free (s);
  gp_fault_run_clear (&f);
  g_free (pid_path);
  g_free (dir);
}

/* wrap itself killed with SIGKILL: the program goes with it (the kernel's
 * parent-death signal), and the last checkpoint is a valid session. */
static void
test_wrap_killed (void)
{
  gchar *dir = g_build_filename (gp_tmp, "wrap-itself-killed", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-itself.pid", NULL);
  gchar *json = g_build_filename (dir, "session.json", NULL);
  GpFaultChild c;
  GpSession *s;
  GPid program;
  gint64 t_kill;
  gint status;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_wrap_start (&c, dir, "--live-child", pid_path, NULL, NULL, NULL);
  program = gp_fault_read_pid (pid_path);
  gp_fault_wait_file (json);
  t_kill = g_get_monotonic_time ();
  g_assert_cmpint (kill (c.pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (c.pid, &status, 0), ==, c.pid);
  while (!gp_fault_gone (program) &&
      g_get_monotonic_time () - t_kill < 5 * G_USEC_PER_SEC)
    g_usleep (20 * 1000);
  if (!gp_fault_gone (program)) {
    kill (program, SIGKILL);
    g_error ("the wrapped program outlived wrap killed with SIGKILL");
  }
  g_test_message ("program gone %.3f s after wrap was killed",
      (g_get_monotonic_time () - t_kill) / 1e6);
  s = gp_test_load_session_dir (dir);
  g_assert_cmpuint (gp_session_n_windows (s), >, 0);
  g_assert_cmpint (s->exit_code, ==, -1);
  gp_session_free (s);
  g_free (c.out_path);
  g_free (c.err_path);
  g_free (json);
  g_free (pid_path);
  g_free (dir);
}

/* A TMPDIR holding ';' and ')', which GStreamer's GST_TRACERS parsing
 * splits on: wrap still profiles the program. */
static void
test_wrap_odd_tmpdir (void)
{
  gchar *tmpdir = g_build_filename (gp_tmp, "odd;tmp)dir", NULL);
  gchar *dir = g_build_filename (gp_tmp, "wrap-odd-tmpdir", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-odd.pid", NULL);
  gchar **envp = g_environ_setenv (g_get_environ (), "TMPDIR", tmpdir, TRUE);
  GpFaultChild c;
  GpFaultRun f;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (tmpdir, 0700), ==, 0);
  gp_fault_wrap_start (&c, dir, "--short-child", pid_path, envp, NULL, NULL);
  gp_fault_wait (&c, "TMPDIR with ; and )", &f);
  g_assert_cmpint (f.code, >=, 0);
  g_assert_cmpint (f.code, <=, 1);
  s = gp_test_load_session_dir (dir);
  g_assert_cmpuint (gp_session_n_windows (s), >, 0);
  g_assert_nonnull (gp_session_find_element (s, "fakesink0"));
  gp_session_free (s);
  gp_fault_run_clear (&f);
  g_strfreev (envp);
  g_free (pid_path);
  g_free (dir);
  g_free (tmpdir);
}

/* wrap's --out not writable once the program ended (as nobody, or 0500):
 * the verdict is printed, one line says the session was not written, the
 * earlier one is intact. */
static void
test_wrap_unwritable (void)
{
  gchar *dir = g_build_filename (gp_tmp, "wrap-unwritable", NULL);
  gchar *planted = gp_fault_plant_session (dir);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-unwritable.pid", NULL);
  gchar *now = NULL;
  struct passwd *pw = getuid () == 0 ? getpwnam ("nobody") : NULL;
  GpFaultChild c;
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  if (getuid () == 0 && pw == NULL) {
    g_test_skip ("root, and no user nobody to run as");
    return;
  }
  g_assert_cmpint (g_chmod (gp_tmp, 0777), ==, 0);
  g_assert_cmpint (g_chmod (dir, pw ? 0755 : 0500), ==, 0);
  gp_fault_wrap_start (&c, dir, "--short-child", pid_path, NULL,
      pw ? gp_fault_as_nobody : NULL, pw);
  gp_fault_wait (&c, "wrap, unwritable --out", &f);
  g_chmod (gp_tmp, 0700);
  g_assert_cmpint (f.code, ==, 3);
  gp_test_assert_has (f.out, "gstprof verdict");
  gp_fault_assert_only_lines (f.err, "the session was not written",
      "checkpoint not written");
  g_assert_true (g_file_get_contents (path, &now, NULL, NULL));
  g_assert_cmpstr (now, ==, planted);
  g_chmod (dir, 0755);
  gp_fault_run_clear (&f);
  g_free (now);
  g_free (pid_path);
  g_free (path);
  g_free (planted);
  g_free (dir);
}

/* A process the program started that outlives it (a GStreamer one,
 * still streaming when the program exits 0): not called a crash, the
 * program's exit stands, and a note says it was still running. */
static void
test_wrap_grandchild_outlives (void)
{
  gchar *dir = g_build_filename (gp_tmp, "wrap-grandchild", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-parent.pid", NULL);
  gchar *gc_path = g_strconcat (pid_path, ".grandchild", NULL);
  GpFaultChild c;
  GpFaultRun f;
  GPid grandchild;

  if (!gp_test_have_tracer ())
    return;
  gp_fault_wrap_start (&c, dir, "--parent-child", pid_path, NULL, NULL, NULL);
  grandchild = gp_fault_read_pid (gc_path);
  gp_fault_wait (&c, "grandchild outlives the program", &f);
  kill (grandchild, SIGKILL);
  g_assert_cmpint (f.code, >=, 0);
  g_assert_cmpint (f.code, <=, 1);
  gp_fault_assert_one_line_with (f.out, "was still running when");
  g_assert_null (strstr (f.out, "crashed"));
  gp_fault_run_clear (&f);
  g_free (gc_path);
  g_free (pid_path);
  g_free (dir);
}

/* A pid no process has: a child's, reaped. */
static GPid
gp_fault_dead_pid (void)
{
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  return pid;
}

/* A folder @name in @tmp with a file in it, owned by @uid. */
static gchar *
gp_fault_plant_dir (const gchar * tmp, const gchar * name, uid_t uid)
{
  gchar *dir = g_build_filename (tmp, name, NULL);
  gchar *file = g_build_filename (dir, "gstprof.sock", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_cmpint (chown (file, uid, -1), ==, 0);
  g_assert_cmpint (chown (dir, uid, -1), ==, 0);
  g_free (file);
  return dir;
}

/* The private folders of wraps that died (SIGKILL leaves them) are
 * removed by the next wrap; a live wrap's, another user's, a link and a
 * folder that only looks like one are kept. */
static void
test_wrap_stale_dirs (void)
{
  gchar *tmp = g_build_filename (gp_tmp, "stale-tmp", NULL);
  gchar *dir = g_build_filename (gp_tmp, "wrap-stale", NULL);
  gchar *pid_path = g_build_filename (gp_tmp, "wrap-stale.pid", NULL);
  gchar **envp = g_environ_setenv (g_get_environ (), "TMPDIR", tmp, TRUE);
  struct passwd *pw = getuid () == 0 ? getpwnam ("nobody") : NULL;
  gchar *name = g_strdup_printf ("gstprof-wrap-%d-abcdef",
      (gint) gp_fault_dead_pid ());
  gchar *dead = gp_fault_plant_dir (tmp, name, getuid ());
  gchar *live_name = g_strdup_printf ("gstprof-wrap-%d-abcdef",
      (gint) getpid ());
  gchar *live = gp_fault_plant_dir (tmp, live_name, getuid ());
  gchar *other = NULL, *other_name = NULL;
  gchar *odd = gp_fault_plant_dir (tmp, "gstprof-wrap-XYZ123", getuid ());
  gchar *link_name = g_strdup_printf ("gstprof-wrap-%d-linkme",
      (gint) gp_fault_dead_pid ());
  gchar *link = g_build_filename (tmp, link_name, NULL);
  gchar *target = gp_fault_plant_dir (gp_tmp, "link-target", getuid ());
  GpFaultChild c;
  GpFaultRun f;

  if (!gp_test_have_tracer ())
    return;
  if (pw != NULL) {
    other_name = g_strdup_printf ("gstprof-wrap-%d-abcdef",
        (gint) gp_fault_dead_pid ());
    other = gp_fault_plant_dir (tmp, other_name, pw->pw_uid);
  }
  g_assert_cmpint (symlink (target, link), ==, 0);
  gp_fault_wrap_start (&c, dir, "--short-child", pid_path, envp, NULL, NULL);
  gp_fault_wait (&c, "stale folders", &f);
  g_assert_cmpint (f.code, >=, 0);
  g_assert_cmpint (f.code, <=, 1);
  g_assert_false (g_file_test (dead, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (live, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (odd, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (target, G_FILE_TEST_IS_DIR));
  if (other != NULL)
    g_assert_true (g_file_test (other, G_FILE_TEST_IS_DIR));
  /* and wrap's own folder is gone with it */
  {
    GDir *d = g_dir_open (tmp, 0, NULL);
    const gchar *n;
    guint left = 0;

    while ((n = g_dir_read_name (d)) != NULL)
      left++;
    g_dir_close (d);
    g_assert_cmpuint (left, ==, other ? 4 : 3);
  }
  gp_fault_run_clear (&f);
  g_strfreev (envp);
  g_free (target);
  g_free (link);
  g_free (link_name);
  g_free (odd);
  g_free (other);
  g_free (other_name);
  g_free (live);
  g_free (live_name);
  g_free (dead);
  g_free (name);
  g_free (pid_path);
  g_free (dir);
  g_free (tmp);
}

/* ------------------------------------------------------------------ */
/* the wrapped children                                                */

/* Its pid into @pid_path, then @launch played: until killed (@seconds
 * < 0), to its end, or @seconds and then abort (). */
static gint
gp_fault_child (const gchar * pid_path, const gchar * launch,
    gdouble seconds)
{
  gchar *text = g_strdup_printf ("%d\n", (gint) getpid ());
  GstElement *p;
  GstBus *bus;
  GstMessage *m;

  g_file_set_contents (pid_path, text, -1, NULL);
  g_free (text);
  gst_init (NULL, NULL);
  p = gst_parse_launch (launch, NULL);
  if (p == NULL)
    return 2;
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  m = gst_bus_timed_pop_filtered (bus, seconds > 0 ? seconds * GST_SECOND :
      60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (seconds > 0)
    abort ();
  if (m)
    gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  gst_deinit ();
  return 0;
}

/* --parent-child: starts a live GStreamer child of its own (which
 * writes its pid to PID_PATH.grandchild), plays a short pipeline, and
 * exits 0 once the child has streamed a while, leaving it running. */
static gint
gp_fault_parent_child (const gchar * pid_path)
{
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *gc_path = g_strconcat (pid_path, ".grandchild", NULL);
  const gchar *argv[] = { self, "--live-child", gc_path, NULL };
  gint64 t0 = g_get_monotonic_time ();

  if (!g_spawn_async (NULL, (gchar **) argv, NULL, 0, NULL, NULL, NULL,
          NULL))
    return 2;
  while (!g_file_test (gc_path, G_FILE_TEST_EXISTS) &&
      g_get_monotonic_time () - t0 < 20 * G_USEC_PER_SEC)
    g_usleep (50 * 1000);
  gp_fault_child (pid_path, "videotestsrc num-buffers=30 ! fakesink", -1);
  /* a few of the grandchild's windows on their way */
  g_usleep (1500 * 1000);
  g_free (gc_path);
  g_free (self);
  return 0;
}

int
main (int argc, char **argv)
{
  gint ret;

  if (argc > 2 && strcmp (argv[1], "--live-child") == 0)
    return gp_fault_child (argv[2], GP_FAULTS_LIVE, -1);
  if (argc > 2 && strcmp (argv[1], "--parent-child") == 0)
    return gp_fault_parent_child (argv[2]);
  if (argc > 2 && strcmp (argv[1], "--abort-child") == 0)
    return gp_fault_child (argv[2], GP_FAULTS_LIVE, 1.5);
  if (argc > 2 && strcmp (argv[1], "--short-child") == 0)
    return gp_fault_child (argv[2], "videotestsrc num-buffers=30 ! "
        "video/x-raw,width=160,height=120,framerate=30/1 ! "
        "identity sleep-time=10000 ! fakesink", -1);

  g_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);
  gp_bin = g_getenv ("GSTPROF_BIN");
  gp_self = g_canonicalize_filename (argv[0], NULL);
  gp_tmp = g_dir_make_tmp ("gp-test-faults-XXXXXX", NULL);
  g_assert_nonnull (gp_bin);
  g_assert_nonnull (gp_tmp);

  g_test_add_func ("/faults/run/fifo-never-opened", test_fifo_never_opened);
  g_test_add_func ("/faults/run/fifo-never-read", test_fifo_never_read);
  g_test_add_func ("/faults/run/element-stuck-20s", test_element_stuck);
  g_test_add_func ("/faults/run/sigint-once", test_sigint_once);
  g_test_add_func ("/faults/run/sigint-twice", test_sigint_twice);
  g_test_add_func ("/faults/run/sigterm", test_sigterm);
  g_test_add_func ("/faults/run/sigterm-healthy", test_sigterm_healthy);
  g_test_add_func ("/faults/run/disk-full-rlimit", test_disk_full_rlimit);
  g_test_add_func ("/faults/run/disk-full-tmpfs", test_disk_full_tmpfs);
  g_test_add_func ("/faults/run/checkpoint-fails", test_checkpoint_fails);
  g_test_add_func ("/faults/run/unwritable", test_unwritable);
  g_test_add_func ("/faults/wrap/program-killed", test_wrap_program_killed);
  g_test_add_func ("/faults/wrap/program-aborts", test_wrap_program_aborts);
  g_test_add_func ("/faults/wrap/wrap-killed", test_wrap_killed);
  g_test_add_func ("/faults/wrap/odd-tmpdir", test_wrap_odd_tmpdir);
  g_test_add_func ("/faults/wrap/stale-dirs", test_wrap_stale_dirs);
  g_test_add_func ("/faults/wrap/grandchild-outlives",
      test_wrap_grandchild_outlives);
  g_test_add_func ("/faults/wrap/unwritable", test_wrap_unwritable);
  ret = g_test_run ();
  if (ret == 0)
    gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  g_free (gp_self);
  return ret;
}
