/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: gp-test-util.c, see gp-test-util.h */
#include "gp-test-util.h"
#include "capture/gp-wrap.h"
#include "core/gp-launch.h"
#include "core/gp-session-query.h"
#include "gp-config.h"
#include "ingest/gp-ingest.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <dlfcn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static GPid xvfb_pid;

gboolean
gp_test_have_tracer (void)
{
  gchar *lib = g_build_filename (GP_BUILD_PLUGIN_DIR, "libgstprof.so", NULL);
  gboolean ok = g_file_test (lib, G_FILE_TEST_IS_REGULAR);

  if (!ok)
    g_test_skip ("libgstprof.so is not built in " GP_BUILD_PLUGIN_DIR);
  g_free (lib);
  return ok;
}

gboolean
gp_test_have_element (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);

  if (f == NULL) {
    gchar *msg = g_strdup_printf ("%s is not installed", factory);

    g_test_skip (msg);
    g_free (msg);
    return FALSE;
  }
  gst_object_unref (f);
  return TRUE;
}

GpSession *
gp_test_capture (const GpCaptureOptions * base, const gchar * launch,
    gdouble duration_s, GpCaptureEnd * end)
{
  GpCaptureOptions opts = *base;
  GpCaptureEnd ignored;
  GError *error = NULL;
  GpSession *s;

  opts.launch = launch;
  opts.duration_s = duration_s;
  s = gp_capture_run (&opts, end ? end : &ignored, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

GpSession *
gp_test_wrap (gchar ** argv, gdouble duration_s)
{
  GPtrArray *args = g_ptr_array_new ();
  GpWrapOptions opts;
  GpWrapResult r;
  GError *err = NULL;
  GpSession *s;

  g_ptr_array_add (args, (gpointer) "env");
  g_ptr_array_add (args, (gpointer) "-u");
  g_ptr_array_add (args, (gpointer) "GST_DEBUG");
  for (; *argv; argv++)
    g_ptr_array_add (args, *argv);
  g_ptr_array_add (args, NULL);
  gp_wrap_options_init (&opts);
  opts.argv = (gchar **) args->pdata;
  opts.duration_s = duration_s;
  opts.machine = FALSE;
  g_assert_true (gp_wrap_run (&opts, &r, &err));
  g_assert_no_error (err);
  g_assert_false (r.failed);
  g_ptr_array_unref (args);
  s = g_steal_pointer (&r.session);
  gp_wrap_result_clear (&r);
  return s;
}

GpSession *
gp_test_load_fixture (const gchar * name)
{
  const gchar *dir = g_getenv ("GP_FIXTURES");
  GError *error = NULL;
  GpSession *s;
  gchar *path;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "gst-profile-sessions", name, NULL);
  s = gp_ingest_load_any (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_free (path);
  return s;
}

void
gp_test_message_text (const gchar * text)
{
  gchar **lines = g_strsplit (text ? text : "", "\n", -1);
  gchar **l;

  for (l = lines; *l; l++)
    if (**l || l[1])
      g_test_message ("%s", *l);
  g_strfreev (lines);
}

void
gp_test_message_lines (const gchar * format, ...)
{
  va_list args;
  gchar *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  gp_test_message_text (text);
  g_free (text);
}

GpSession *
gp_test_load_session_dir (const gchar * dir)
{
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GError *err = NULL;
  GpSession *s = gp_session_load (path, &err);

  g_assert_no_error (err);
  g_assert_nonnull (s);
  g_free (path);
  return s;
}

void
gp_test_assert_has (const gchar * text, const gchar * needle)
{
  if (strstr (text, needle) == NULL)
    g_error ("'%s' not in:\n%s", needle, text);
}

void
gp_test_assert_one_line (const gchar * text, const gchar * needle)
{
  const gchar *nl = text ? strchr (text, '\n') : NULL;

  if (nl == NULL || nl[1] != '\0')
    g_error ("expected exactly one line on stderr, got: '%s'", text);
  if (needle && strstr (text, needle) == NULL)
    g_error ("expected '%s' in: '%s'", needle, text);
}

/* A failed assertion aborts: take our Xvfb down with us. */
static void
kill_xvfb (int sig)
{
  if (xvfb_pid > 0)
    kill (xvfb_pid, SIGTERM);
  signal (sig, SIG_DFL);
  raise (sig);
}

guint
gp_test_free_port (GSocketType type)
{
  GSocket *sock = g_socket_new (G_SOCKET_FAMILY_IPV4, type,
      G_SOCKET_PROTOCOL_DEFAULT, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *any = g_inet_socket_address_new (lo, 0), *bound;
  guint port;

  g_assert_true (g_socket_bind (sock, any, TRUE, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (bound);
  g_object_unref (any);
  g_object_unref (lo);
  g_object_unref (sock);
  return port;
}

void
gp_test_child_dies_with_us (gpointer unused)
{
  pid_t parent = getppid ();

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  /* the test died between fork and prctl: nobody will signal us */
  if (getppid () != parent)
    _exit (127);
}

void
gp_test_child_own_group (gpointer unused)
{
  setpgid (0, 0);
  gp_test_child_dies_with_us (unused);
}

void
gp_test_end_group (GPid pid)
{
  if (pid <= 0)
    return;
  kill (-pid, SIGKILL);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}


/* An X server of our own for GL: DISPLAY of the caller when there is one,
 * else Xvfb on a free display number. */
gboolean
gp_test_have_display (void)
{
  static gint state = -1;
  gchar *argv[] = { (gchar *) "Xvfb", NULL, (gchar *) "-screen",
    (gchar *) "0", (gchar *) "640x480x24", (gchar *) "-nolisten",
    (gchar *) "tcp", NULL
  };
  gchar *path, *disp, *sock;
  guint n, i;

  if (state >= 0)
    return state;
  state = 0;
  if ((path = g_find_program_in_path ("Xvfb")) == NULL) {
    if (g_getenv ("DISPLAY"))
      return (state = 1);
    g_test_skip ("no Xvfb and no DISPLAY");
    return FALSE;
  }
  g_free (path);
  for (n = 90 + getpid () % 400; n < 1000; n++) {
    sock = g_strdup_printf ("/tmp/.X11-unix/X%u", n);
    disp = g_strdup_printf (":%u", n);
    if (!g_file_test (sock, G_FILE_TEST_EXISTS)) {
      argv[1] = disp;
      if (g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
              G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL |
              G_SPAWN_DO_NOT_REAP_CHILD, gp_test_child_dies_with_us, NULL, &xvfb_pid, NULL)) {
        for (i = 0; i < 50 && !g_file_test (sock, G_FILE_TEST_EXISTS); i++)
          g_usleep (100000);
        signal (SIGABRT, kill_xvfb);
        signal (SIGSEGV, kill_xvfb);
        if (g_file_test (sock, G_FILE_TEST_EXISTS)) {
          g_setenv ("DISPLAY", disp, TRUE);
          state = 1;
        }
      }
      g_free (sock);
      g_free (disp);
      break;
    }
    g_free (sock);
    g_free (disp);
  }
  if (!state)
    g_test_skip ("Xvfb would not start");
  return state;
}


void
gp_test_stop_display (void)
{
  if (xvfb_pid > 0) {
    kill (xvfb_pid, SIGTERM);
    waitpid (xvfb_pid, NULL, 0);
    g_spawn_close_pid (xvfb_pid);
    xvfb_pid = 0;
  }
}

void
gp_test_make_media (const gchar * launch)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (launch, &err);
  GstBus *bus;
  GstMessage *msg;

  g_assert_no_error (err);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

gchar *
gp_test_av_mp4 (const gchar * dir, const gchar * name, guint seconds)
{
  gchar *path = g_build_filename (dir, name, NULL);
  gchar *launch;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  /* AAC frames are 1024 samples: 44100 / 1024 of them a second */
  launch = g_strdup_printf ("videotestsrc num-buffers=%u ! "
      "video/x-raw,width=320,height=240,framerate=30/1,format=I420 ! "
      "x264enc speed-preset=ultrafast ! h264parse ! mp4mux name=mux ! "
      "filesink location=%s audiotestsrc num-buffers=%u ! audioconvert ! "
      "avenc_aac ! aacparse ! mux.", seconds * 30, path,
      (guint) (seconds * 44100.0 / 1024.0));
  gp_test_make_media (launch);
  g_free (launch);
  return path;
}

gchar *
gp_test_path_prepend (const gchar * dir)
{
  gchar *old = g_strdup (g_getenv ("PATH"));
  gchar *path = old ? g_strconcat (dir, ":", old, NULL) : g_strdup (dir);

  g_setenv ("PATH", path, TRUE);
  g_free (path);
  return old;
}

void
gp_test_path_restore (gchar * old)
{
  if (old)
    g_setenv ("PATH", old, TRUE);
  else
    g_unsetenv ("PATH");
  g_free (old);
}

void
gp_test_remove_tree (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (dir, name, NULL);

    if (g_file_test (p, G_FILE_TEST_IS_DIR))
      gp_test_remove_tree (p);
    else
      g_remove (p);
    g_free (p);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
}

gint
gp_test_exit_code (gint status)
{
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return -1;
}

void
gp_test_expect_usage (const gchar * cwd, const gchar * cmd,
    const gchar * const *args, const gchar * said)
{
  GPtrArray *argv = g_ptr_array_new ();
  const gchar *nl;
  GpTestRun r;

  g_ptr_array_add (argv, (gpointer) cmd);
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) * args);
  g_ptr_array_add (argv, NULL);
  gp_test_run_gstprof_argv (&r, cwd, (const gchar * const *) argv->pdata);
  gp_test_message_lines ("%s ...: exit %d: %s", cmd, r.code, r.err);
  g_assert_cmpint (r.code, ==, 3);
  g_assert_nonnull (strstr (r.err, said));
  nl = strchr (r.err, '\n');
  g_assert_true (nl == NULL || nl[1] == '\0');
  gp_test_run_clear (&r);
  g_ptr_array_unref (argv);
}

void
gp_test_run_gstprof_argv (GpTestRun * r, const gchar * cwd,
    const gchar * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  const gchar *bin = g_getenv ("GSTPROF_BIN");
  GError *err = NULL;
  gint64 t0;
  gint status = 0;
  struct rusage ru;
  gchar *out_path = NULL, *err_path = NULL;
  gint out_fd, err_fd;
  GPid pid;

  g_assert_nonnull (bin);
  memset (r, 0, sizeof (*r));
  g_ptr_array_add (argv, (gpointer) bin);
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) * args);
  g_ptr_array_add (argv, NULL);

  /* its output into files and the child reaped by wait4 (), which gives
   * this child's own CPU and peak memory */
  out_fd = g_file_open_tmp ("gp-test-out-XXXXXX", &out_path, &err);
  g_assert_no_error (err);
  err_fd = g_file_open_tmp ("gp-test-err-XXXXXX", &err_path, &err);
  g_assert_no_error (err);
  t0 = g_get_monotonic_time ();
  g_spawn_async_with_fds (cwd, (gchar **) argv->pdata, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1, out_fd, err_fd, &err);
  g_assert_no_error (err);
  while (wait4 (pid, &status, 0, &ru) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  r->wall_s = (g_get_monotonic_time () - t0) / 1e6;
  r->cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  r->maxrss_kib = ru.ru_maxrss;
  g_assert_true (g_file_get_contents (out_path, &r->out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, &r->err, NULL, NULL));
  close (out_fd);
  close (err_fd);
  g_unlink (out_path);
  g_unlink (err_path);
  g_free (out_path);
  g_free (err_path);
  r->code = gp_test_exit_code (status);
  if (g_test_verbose ())
    g_printerr ("exit %d after %.2f s\n--- stdout\n%s--- stderr\n%s---\n",
        r->code, r->wall_s, r->out, r->err);
  g_ptr_array_unref (argv);
}

void
gp_test_run_gstprof (GpTestRun * r, const gchar * cwd, const gchar * first,
    ...)
{
  GPtrArray *args = g_ptr_array_new ();
  const gchar *a;
  va_list ap;

  va_start (ap, first);
  for (a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  gp_test_run_gstprof_argv (r, cwd, (const gchar * const *) args->pdata);
  g_ptr_array_unref (args);
}

void
gp_test_run_clear (GpTestRun * r)
{
  g_free (r->out);
  g_free (r->err);
  memset (r, 0, sizeof (*r));
}

gchar *
gp_test_patched (GpSession * s, GpFinding * f)
{
  GError *error = NULL;
  GpLaunch *l;
  gchar *out;

  g_assert_nonnull (f->fix_patch);
  l = gp_launch_parse (s->launch, &error);
  g_assert_no_error (error);
  g_assert_true (gp_launch_apply_patch (l, f->fix_patch, &error));
  g_assert_no_error (error);
  out = gp_launch_to_string (l);
  gp_launch_free (l);
  g_test_message ("patched: %s", out);
  return out;
}

gdouble
gp_test_evidence_double (GpFinding * f, const gchar * key)
{
  g_assert_true (json_object_has_member (f->evidence, key));
  return json_object_get_double_member (f->evidence, key);
}

gint64
gp_test_evidence_int (GpFinding * f, const gchar * key)
{
  g_assert_true (json_object_has_member (f->evidence, key));
  return json_object_get_int_member (f->evidence, key);
}

const gchar *
gp_test_evidence_string (GpFinding * f, const gchar * key)
{
  g_assert_true (json_object_has_member (f->evidence, key));
  return json_object_get_string_member (f->evidence, key);
}

void
gp_test_print_findings (GpSession * s)
{
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    JsonNode *node = json_node_init_object (json_node_alloc (), f->evidence);
    gchar *ev = json_to_string (node, FALSE);

    g_test_message ("%s [%s] %s (rank %.1f) %s", f->rule, f->severity,
        f->title, f->rank_value, ev);
    g_free (ev);
    json_node_unref (node);
  }
}

gchar *
gp_test_read_file (const gchar * dir, const gchar * name)
{
  gchar *path = g_build_filename (dir, name, NULL);
  gchar *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  g_free (path);
  return text;
}

gboolean
gp_test_has_note (GpSession * s, const gchar * part)
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


void
gp_test_assert_planted (GpSession * s, const gchar * name, guint64 buffers,
    gboolean exact, gdouble sleep_ms)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gdouble slept;

  g_assert_nonnull (es);
  g_test_message ("%s: %" G_GUINT64_FORMAT " buffers, p50 %.3f ms "
      "(planted %.1f ms)", name, es->buffers, es->self_ms.p50, sleep_ms);
  if (exact)
    g_assert_cmpuint (es->buffers, ==, buffers);
  else
    g_assert_cmpuint (es->buffers, >=, buffers);
  /* the truth is the sleep as this machine gives it now */
  slept = sleep_ms + gp_test_oversleep_ms (sleep_ms);
  g_test_message ("%s: %.1f ms asked, %.3f ms slept here", name, sleep_ms,
      slept);
  g_assert_cmpfloat (fabs (es->self_ms.p50 - slept), <, 0.5);
}

void
gp_test_assert_shares (GpSession * s, const gchar * what)
{
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    g_test_message ("%s: %s busy %.1f %%, share %.1f %%", what, es->name,
        es->busy_pct, es->share_pct);
    g_assert_cmpfloat (es->busy_pct, <=, 100.0);
    g_assert_cmpfloat (es->share_pct, <=, 100.0);
  }
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gdouble busy = gp_session_thread_busy_pct (s, t);

    g_test_message ("%s: thread %s busy %.1f %%", what, t->name, busy);
    g_assert_cmpfloat (busy, <=, 100.0);
  }
}

/* Not inlined: GCC 12 then takes the text it returns for a pointer to
 * its local variable (-Wdangling-pointer). */
G_GNUC_NO_INLINE gchar *
gp_test_chromium_dump_dom (const gchar * chromium, const gchar * dir,
    const gchar * url, gchar ** err, gint * status)
{
  const gchar *argv[] = { chromium, "--headless", "--no-sandbox",
    "--disable-gpu", "--allow-file-access-from-files",
    /* the network off: no name resolves, every connection goes to a
     * proxy that is not there */
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
    "--dump-dom", url, NULL
  };
  gchar *out_path = g_build_filename (dir, "chromium.out", NULL);
  gchar *err_path = g_build_filename (dir, "chromium.err", NULL);
  gchar **env = g_environ_unsetenv (g_get_environ (), "LD_PRELOAD");
  gint out_fd = g_open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  gint err_fd = g_open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  gint64 deadline;
  GError *error = NULL;
  gchar *out = NULL;
  GPid pid;

  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  g_spawn_async_with_fds (dir, (gchar **) argv, env,
      G_SPAWN_DO_NOT_REAP_CHILD, gp_test_child_own_group, NULL, &pid, -1,
      out_fd, err_fd, &error);
  g_assert_no_error (error);
  close (out_fd);
  close (err_fd);
  deadline = g_get_monotonic_time () + GP_CHROMIUM_TIMEOUT_S * G_USEC_PER_SEC;
  while (waitpid (pid, status, WNOHANG) == 0) {
    if (g_get_monotonic_time () > deadline) {
      gp_test_end_group (pid);
      g_error ("chromium on %s still running after %d s: killed", url,
          GP_CHROMIUM_TIMEOUT_S);
    }
    g_usleep (50 * 1000);
  }
  /* its main process is gone: whatever it left in its group goes too */
  kill (-pid, SIGKILL);
  g_spawn_close_pid (pid);
  g_assert_true (g_file_get_contents (out_path, &out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  g_strfreev (env);
  g_free (out_path);
  g_free (err_path);
  return out;
}

gboolean
gp_test_chromium_skip_emulated (gint status, const gchar * err)
{
  gchar *msg;

  if (!gp_test_emulated () || status == 0)
    return FALSE;
  msg = g_strdup_printf ("chromium does not run under qemu-user (wait "
      "status %d%s%s)", status, err && strstr (err, "GPU process") ?
      ": " : "", err && strstr (err, "GPU process") ? "its GPU process "
      "failed to launch" : "");
  g_test_skip (msg);
  g_free (msg);
  return TRUE;
}

/* swrast_dri.so in @dir, loaded for good: TRUE when it was. */
static gboolean
gp_test_keep_dri_in (const gchar * dir)
{
  gchar *path = g_build_filename (dir, "dri", "swrast_dri.so", NULL);
  gboolean kept = g_file_test (path, G_FILE_TEST_EXISTS) &&
      dlopen (path, RTLD_NOW | RTLD_NODELETE) != NULL;

  g_free (path);
  return kept;
}

void
gp_test_keep_gl_driver (void)
{
  GDir *d;
  const gchar *name;
  gboolean kept = FALSE;

  if (!gp_test_sanitized () || gp_test_keep_dri_in ("/usr/lib"))
    return;
  /* Debian's multiarch folder: /usr/lib/x86_64-linux-gnu/dri */
  d = g_dir_open ("/usr/lib", 0, NULL);
  while (d && !kept && (name = g_dir_read_name (d))) {
    gchar *dir = g_build_filename ("/usr/lib", name, NULL);

    kept = g_str_has_suffix (name, "-gnu") && gp_test_keep_dri_in (dir);
    g_free (dir);
  }
  if (d)
    g_dir_close (d);
}

const gchar *
gp_test_run_once (const gchar * tmp, const gchar * launch)
{
  static gchar *dir;
  GpTestRun r;

  if (dir)
    return dir;
  dir = g_build_filename (tmp, "run", NULL);
  gp_test_run_gstprof (&r, tmp, "run", "--quiet", "--out", dir, launch, NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  return dir;
}

static guint part_k, part_n;

void
gp_test_parse_part (gint argc, gchar ** argv)
{
  gint i;

  for (i = 1; i < argc; i++) {
    guint k, n;
    gchar tail;

    if (!g_str_has_prefix (argv[i], "--part="))
      continue;
    if (sscanf (argv[i] + strlen ("--part="), "%u/%u%c", &k, &n, &tail) != 2
        || n == 0 || k == 0 || k > n)
      g_error ("%s: want --part=K/N with 1 <= K <= N", argv[i]);
    part_k = k;
    part_n = n;
  }
}

gboolean
gp_test_in_part (guint i, guint len)
{
  if (part_n == 0)
    return TRUE;
  return (guint64) i * part_n / len == part_k - 1;
}
