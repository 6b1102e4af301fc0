/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer tests
 *
 * test-tracer-out.c: GST_TRACERS="gstprof(out=DIR)" where DIR is not the
 * user's alone, and the tracer's own memory over a long run.
 * - A link planted at the name gstprof-PID.records (the pid is known to
 *   whoever starts the program: the test plants it between fork and exec)
 *   is not followed: the file it points at keeps its bytes, the records go
 *   to another name in DIR, and `gstprof analyze DIR` reads them.
 * - A file already at the name keeps its bytes.
 * - DIR that cannot be made, and DIR that is not writable (as a user
 *   other than root, through setpriv when the test runs as root): the
 *   program's output and exit status are those of the same program
 *   without the tracer, and stderr holds one gstprof warning that says
 *   why nothing is written; `gstprof analyze DIR` on a folder with no
 *   records says so in one line.
 * - Elements that die while the pipeline runs: under valgrind, nothing
 *   the tracer allocated while naming the live ones is lost (a dead
 *   element's name is a hole in the names' array, and g_strfreev stopped
 *   at it).
 */
/* execvpe () */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "core/gp-record.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* The traced program: raw frames of a fixed pattern on stdout, the same
 * bytes every run, through an element that costs a planted 2 ms a buffer. */
static const gchar *const gp_out_argv[] = { "gst-launch-1.0", "-q",
  "videotestsrc", "num-buffers=20", "!", "video/x-raw,format=I420,width=64,height=48",
  "!", "identity", "name=slow", "sleep-time=2000", "!", "fdsink", "fd=1",
  NULL
};

/* Bytes of a small file, or NULL. */
static gchar *
gp_out_read (const gchar * path)
{
  gchar *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

/* A pipe's bytes until its end, into @out. */
static void
gp_out_drain (gint fd, GString * out)
{
  gchar buf[65536];
  gssize n;

  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (out, buf, n);
  close (fd);
}

typedef struct
{
  gint status;
  GString *out;
  GString *err;
} GpOutRun;

static void
gp_out_run_clear (GpOutRun * r)
{
  g_string_free (r->out, TRUE);
  g_string_free (r->err, TRUE);
}

/* Runs @argv (@prefix, e.g. setpriv, before it when not NULL) with
 * GST_TRACERS=@tracers (unset when NULL). When @plant is not NULL, it is
 * called with the child's pid after fork and before exec: the name the
 * tracer will use is known to it then, as it is to anyone who starts the
 * program. stdout and stderr come back whole (the child's output is
 * small: one pipe read after the other is enough). */
static void
gp_out_spawn (GpOutRun * r, const gchar * const *prefix,
    const gchar * tracers, void (*plant) (GPid pid, gpointer data),
    gpointer data)
{
  gint out[2], err[2], go[2];
  gchar **env = g_get_environ ();
  GPtrArray *argv = g_ptr_array_new ();
  const gchar *const *a;
  GPid pid;

  env = tracers ? g_environ_setenv (env, "GST_TRACERS", tracers, TRUE) :
      g_environ_unsetenv (env, "GST_TRACERS");
  for (a = prefix; a && *a; a++)
    g_ptr_array_add (argv, (gpointer) * a);
  for (a = gp_out_argv; *a; a++)
    g_ptr_array_add (argv, (gpointer) * a);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (pipe (out), ==, 0);
  g_assert_cmpint (pipe (err), ==, 0);
  g_assert_cmpint (pipe (go), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0) {
    gchar c;

    dup2 (out[1], 1);
    dup2 (err[1], 2);
    close (out[0]);
    close (err[0]);
    close (go[1]);
    /* wait until the parent has planted what it plants */
    while (read (go[0], &c, 1) < 0 && errno == EINTR);
    execvpe (g_ptr_array_index (argv, 0), (gchar **) argv->pdata, env);
    _exit (127);
  }
  close (out[1]);
  close (err[1]);
  close (go[0]);
  if (plant)
    plant (pid, data);
  close (go[1]);
  r->out = g_string_new (NULL);
  r->err = g_string_new (NULL);
  gp_out_drain (out[0], r->out);
  gp_out_drain (err[0], r->err);
  g_assert_cmpint (waitpid (pid, &r->status, 0), ==, pid);
  g_ptr_array_unref (argv);
  g_strfreev (env);
}

static gchar *
gp_out_tracers (const gchar * dir)
{
  return g_strdup_printf ("gstprof(out=%s,window=100)", dir);
}

/* The name the tracer takes first in @dir for process @pid. */
static gchar *
gp_out_first_name (const gchar * dir, GPid pid)
{
  gchar *name = g_strdup_printf ("gstprof-%d.records", (gint) pid);
  gchar *path = g_build_filename (dir, name, NULL);

  g_free (name);
  return path;
}

typedef struct
{
  const gchar *dir;
  const gchar *target;          /* a link to it; NULL: a regular file */
  gchar *planted;               /* out: its path */
} GpPlant;

static void
gp_out_plant (GPid pid, gpointer data)
{
  GpPlant *p = data;

  p->planted = gp_out_first_name (p->dir, pid);
  if (p->target)
    g_assert_cmpint (symlink (p->target, p->planted), ==, 0);
  else
    g_assert_true (g_file_set_contents (p->planted, "someone's file\n", -1,
            NULL));
}

/* The records files of @dir other than @except, as regular files; asserts
 * there is exactly one and returns its path. */
static gchar *
gp_out_the_records (const gchar * dir, const gchar * except)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  gchar *found = NULL;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL) {
    gchar *path = g_build_filename (dir, name, NULL);

    if (g_strcmp0 (path, except) != 0 && g_str_has_prefix (name, "gstprof-")
        && g_str_has_suffix (name, ".records")
        && !g_file_test (path, G_FILE_TEST_IS_SYMLINK)) {
      g_assert_null (found);
      found = path;
    } else {
      g_free (path);
    }
  }
  g_dir_close (d);
  g_assert_nonnull (found);
  return found;
}

/* A link at the name, to a file the tracer must not touch: it keeps its
 * bytes, the records go to a name of their own, regular, with the umask's
 * mode, and analyze reads them, the planted element's buffers and cost
 * included. */
static void
test_planted_link (void)
{
  gchar *dir = g_build_filename (gp_tmp, "shared", NULL);
  gchar *victim = g_build_filename (gp_tmp, "victim", NULL);
  gchar *tracers = gp_out_tracers (dir);
  GpPlant p = { dir, victim, NULL };
  gchar *text, *records;
  GpOutRun r;
  GpTestRun a;
  GStatBuf st;
  mode_t mask;

  if (!gp_test_have_tracer ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0777), ==, 0);
  g_assert_true (g_file_set_contents (victim, "the victim's bytes\n", -1,
          NULL));
  mask = umask (002);
  gp_out_spawn (&r, NULL, tracers, gp_out_plant, &p);
  umask (mask);
  g_assert_true (WIFEXITED (r.status) && WEXITSTATUS (r.status) == 0);

  text = gp_out_read (victim);
  g_assert_cmpstr (text, ==, "the victim's bytes\n");
  g_free (text);
  g_assert_true (g_file_test (p.planted, G_FILE_TEST_IS_SYMLINK));

  records = gp_out_the_records (dir, p.planted);
  g_assert_cmpint (g_lstat (records, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, 0664);
  text = gp_out_read (records);
  g_assert_true (g_str_has_prefix (text, "gstprof-records,"));
  g_assert_nonnull (strstr (text, "gstprof-records-end"));
  g_free (text);

  /* the folder reads as the records, the link not among them */
  gp_test_run_gstprof (&a, gp_tmp, "analyze", dir, NULL);
  g_assert_cmpint (a.code, <=, 1);
  gp_test_assert_has (a.out, "slow");
  gp_test_run_clear (&a);

  gp_out_run_clear (&r);
  g_free (records);
  g_free (p.planted);
  g_free (tracers);
  g_free (victim);
  g_free (dir);
}

/* A regular file at the name keeps its bytes; the records go elsewhere. */
static void
test_existing_file (void)
{
  gchar *dir = g_build_filename (gp_tmp, "existing", NULL);
  gchar *tracers = gp_out_tracers (dir);
  GpPlant p = { dir, NULL, NULL };
  gchar *text, *records;
  GpOutRun r;

  if (!gp_test_have_tracer ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0777), ==, 0);
  gp_out_spawn (&r, NULL, tracers, gp_out_plant, &p);
  g_assert_true (WIFEXITED (r.status) && WEXITSTATUS (r.status) == 0);
  text = gp_out_read (p.planted);
  g_assert_cmpstr (text, ==, "someone's file\n");
  g_free (text);
  records = gp_out_the_records (dir, p.planted);
  text = gp_out_read (records);
  g_assert_true (g_str_has_prefix (text, "gstprof-records,"));
  g_free (text);
  gp_out_run_clear (&r);
  g_free (records);
  g_free (p.planted);
  g_free (tracers);
  g_free (dir);
}

/* stderr holds exactly one gstprof warning, which holds @why. */
static void
gp_out_assert_one_warning (const gchar * err, const gchar * why)
{
  const gchar *at = strstr (err, "gstprof:");

  if (at == NULL || strstr (at + 1, "gstprof:") != NULL)
    g_error ("expected one gstprof warning on stderr, got: '%s'", err);
  gp_test_assert_has (at, why);
  gp_test_assert_has (at, "no records are written");
}

/* The program as it runs without the tracer: its output and status. */
static void
gp_out_baseline (GpOutRun * r, const gchar * const *prefix)
{
  gp_out_spawn (r, prefix, NULL, NULL, NULL);
  g_assert_true (WIFEXITED (r->status) && WEXITSTATUS (r->status) == 0);
  /* 20 frames of 64x48 I420 */
  g_assert_cmpuint (r->out->len, ==, 20 * 64 * 48 * 3 / 2);
}

/* The program under the tracer runs as without it, and one warning says
 * why nothing is written. */
static void
gp_out_assert_unharmed (const gchar * const *prefix, const gchar * dir,
    const gchar * why)
{
  gchar *tracers = gp_out_tracers (dir);
  GpOutRun base, r;

  gp_out_baseline (&base, prefix);
  gp_out_spawn (&r, prefix, tracers, NULL, NULL);
  g_assert_true (WIFEXITED (r.status));
  g_assert_cmpint (WEXITSTATUS (r.status), ==, 0);
  g_assert_cmpuint (r.out->len, ==, base.out->len);
  g_assert_true (memcmp (r.out->str, base.out->str, r.out->len) == 0);
  gp_out_assert_one_warning (r.err->str, why);
  gp_out_run_clear (&base);
  gp_out_run_clear (&r);
  g_free (tracers);
}

/* DIR under a regular file: it cannot be made. */
static void
test_dir_cannot_be_made (void)
{
  gchar *file = g_build_filename (gp_tmp, "a-file", NULL);
  gchar *dir = g_build_filename (file, "records", NULL);

  if (!gp_test_have_tracer ())
    return;
  g_assert_true (g_file_set_contents (file, "", -1, NULL));
  gp_out_assert_unharmed (NULL, dir, "cannot make folder");
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  g_free (dir);
  g_free (file);
}

/* DIR that this user cannot write to: as root, the program runs as
 * nobody (setpriv), with a registry and a home it can write. */
static void
test_dir_not_writable (void)
{
  gchar *dir = g_build_filename (gp_tmp, "read-only", NULL);
  gchar *home = g_build_filename (gp_tmp, "home", NULL);
  gchar *registry = g_build_filename (home, "registry.bin", NULL);
  gchar *setpriv = g_find_program_in_path ("setpriv");
  const gchar *as_nobody[] = { setpriv, "--reuid=65534", "--regid=65534",
    "--clear-groups", "--", NULL
  };
  gboolean root = geteuid () == 0;
  gchar *old_registry = g_strdup (g_getenv ("GST_REGISTRY"));
  gchar *old_home = g_strdup (g_getenv ("HOME"));
  GpTestRun a;

  if (!gp_test_have_tracer ())
    goto out;
  if (root && setpriv == NULL) {
    g_test_skip ("running as root without setpriv: no user to whom a "
        "folder is not writable");
    goto out;
  }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0555), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  if (root) {
    /* the temporary folder is 0700: nobody must pass through it */
    g_assert_cmpint (g_chmod (gp_tmp, 0711), ==, 0);
    g_assert_cmpint (g_mkdir_with_parents (home, 0777), ==, 0);
    g_assert_cmpint (g_chmod (home, 0777), ==, 0);
    g_setenv ("GST_REGISTRY", registry, TRUE);
    g_setenv ("HOME", home, TRUE);
  }
  gp_out_assert_unharmed (root ? as_nobody : NULL, dir, "cannot write");
  if (root) {
    if (old_registry)
      g_setenv ("GST_REGISTRY", old_registry, TRUE);
    else
      g_unsetenv ("GST_REGISTRY");
    if (old_home)
      g_setenv ("HOME", old_home, TRUE);
    g_chmod (gp_tmp, 0700);
  }

  /* the empty folder, given to analyze: no records were written */
  gp_test_run_gstprof (&a, gp_tmp, "analyze", dir, NULL);
  g_assert_cmpint (a.code, ==, 3);
  gp_test_assert_one_line (a.err, "no records were written");
  gp_test_assert_has (a.err, "gstprof check");
  gp_test_run_clear (&a);
  g_chmod (dir, 0755);
out:
  g_free (old_registry);
  g_free (old_home);
  g_free (setpriv);
  g_free (registry);
  g_free (home);
  g_free (dir);
}

/* ---- the names of elements around dead ones ------------------------- */

/* Window length of the child, and windows it waits for once the dead
 * elements are gone: the names are refreshed with their holes. */
#define GP_LEAK_WINDOW_MS 50
#define GP_LEAK_WINDOWS_AFTER 3

static GstElement *gp_leak_dead[2];
/* 1: removed from the pipeline, their last refs dropped at the next
 * window's end; 2: dropped; then windows counted */
static gint gp_leak_stage;
static gint gp_leak_windows;

/* At a window's end (after the tracer let go of what died during it):
 * the elements die now, so that the next window's names meet them dead. */
static void
gp_leak_on_window (GstTracer * t, const GstStructure * w, gpointer data)
{
  if (g_atomic_int_compare_and_exchange (&gp_leak_stage, 1, 2)) {
    gst_object_unref (gp_leak_dead[0]);
    gst_object_unref (gp_leak_dead[1]);
  } else if (g_atomic_int_get (&gp_leak_stage) == 2) {
    g_atomic_int_inc (&gp_leak_windows);
  }
}

/* The child (GP_TEST_LEAK_CHILD set): two elements ready first (so that
 * the tracer's list holds every other one after them) are removed and
 * destroyed while a live pipeline runs windows. */
static gint
gp_leak_child (void)
{
  GType type;
  GstTracer *tracer;
  GstElement *pipeline, *live;
  GError *err = NULL;
  guint i;

  gst_init (NULL, NULL);
  type = g_type_from_name (GP_TRACER_TYPE_NAME);
  tracer = type ? g_type_get_qdata (type,
      g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA)) : NULL;
  g_assert_nonnull (tracer);
  g_signal_connect (tracer, "window", G_CALLBACK (gp_leak_on_window), NULL);
  pipeline = gst_pipeline_new ("p");
  for (i = 0; i < 2; i++) {
    gchar *name = g_strdup_printf ("dead%u", i);

    gp_leak_dead[i] = gst_object_ref_sink (gst_element_factory_make
        ("identity", name));
    gst_bin_add (GST_BIN (pipeline), gp_leak_dead[i]);
    g_free (name);
  }
  /* the tracer lists an element at its first state change: these first */
  gst_element_set_state (pipeline, GST_STATE_READY);
  live = gst_parse_bin_from_description ("videotestsrc is-live=true ! "
      "video/x-raw,width=32,height=24,framerate=100/1 ! identity name=live0 "
      "! identity name=live1 ! fakesink", FALSE, &err);
  g_assert_no_error (err);
  gst_bin_add (GST_BIN (pipeline), live);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_usleep (4 * GP_LEAK_WINDOW_MS * 1000);
  for (i = 0; i < 2; i++) {
    gst_element_set_state (gp_leak_dead[i], GST_STATE_NULL);
    gst_bin_remove (GST_BIN (pipeline), gp_leak_dead[i]);
  }
  g_atomic_int_set (&gp_leak_stage, 1);
  while (g_atomic_int_get (&gp_leak_windows) < GP_LEAK_WINDOWS_AFTER)
    g_usleep (10 * 1000);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  gst_deinit ();
  return 0;
}

/* Under valgrind, no block the tracer's naming allocated is definitely
 * lost (valgrind's own account, not the tracer's). */
static void
test_dead_names_leak (void)
{
  gchar *valgrind = g_find_program_in_path ("valgrind");
  gchar *log = g_build_filename (gp_tmp, "valgrind.log", NULL);
  gchar *log_arg = g_strdup_printf ("--log-file=%s", log);
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *argv[] = { valgrind, (gchar *) "--leak-check=full",
    (gchar *) "--show-leak-kinds=definite", (gchar *) "--num-callers=30",
    log_arg, self, NULL
  };
  gchar **env = g_get_environ ();
  gchar *text = NULL, *tracers;
  gint status = 0;
  GError *err = NULL;

  if (!gp_test_have_tracer ())
    goto out;
  if (gp_test_sanitized ()) {
    /* a sanitized build does not run under valgrind; LeakSanitizer holds
     * the same leaks there (tools/run-asan.sh) */
    g_test_skip ("valgrind cannot run a sanitized build; LeakSanitizer "
        "checks these leaks");
    goto out;
  }
  if (valgrind == NULL) {
    g_test_skip ("valgrind is not installed");
    goto out;
  }
  tracers = g_strdup_printf ("gstprof(window=%d)", GP_LEAK_WINDOW_MS);
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GP_TEST_LEAK_CHILD", "1", TRUE);
  g_free (tracers);
  g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_STDOUT_TO_DEV_NULL,
          NULL, NULL, NULL, NULL, &status, &err));
  g_assert_no_error (err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  /* valgrind ran the child through to its leak summary */
  gp_test_assert_has (text, "LEAK SUMMARY");
  if (strstr (text, "gp_names_refresh") != NULL)
    g_error ("the tracer's names leak (valgrind log %s):\n%s", log, text);
out:
  g_free (text);
  g_strfreev (env);
  g_free (self);
  g_free (log_arg);
  g_free (log);
  g_free (valgrind);
}

int
main (int argc, char **argv)
{
  gint ret;

  if (g_getenv ("GP_TEST_LEAK_CHILD"))
    return gp_leak_child ();
  g_test_init (&argc, &argv, NULL);
  gst_init (&argc, &argv);
  gp_tmp = g_dir_make_tmp ("gp-tracer-out-XXXXXX", NULL);
  g_assert_nonnull (gp_tmp);
  g_test_add_func ("/out/planted-link", test_planted_link);
  g_test_add_func ("/out/existing-file", test_existing_file);
  g_test_add_func ("/out/dir-cannot-be-made", test_dir_cannot_be_made);
  g_test_add_func ("/out/dir-not-writable", test_dir_not_writable);
  g_test_add_func ("/tracer/dead-names-leak", test_dead_names_leak);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
