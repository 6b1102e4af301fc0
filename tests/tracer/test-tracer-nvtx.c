/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer, nvtx=true: a real pipeline under the tracer with a
 * stand-in libnvToolsExt (nvtx-standin.c, named by GSTPROF_NVTX_LIB) that
 * writes every call it gets to a file.  The truth is the pipeline itself:
 * NVTX_BUFFERS buffers cross each element, the element names are those
 * given in the launch line, a queue starts a second streaming thread, and
 * an element's push into the next one happens inside its own chain.
 *
 * GST_TRACERS is fixed for a process at gst_init, so each case runs this
 * program again as a child (GP_TEST_TRACERS set), as test-tracer does.
 */
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/gp-record.h"

#define NVTX_BUFFERS 50

static const gchar *test_program;

/* the child: runs the pipeline, says whether NVTX is in use and how many
 * windows the tracer gave (it measures with or without NVTX) */
static guint child_windows;

static void
on_window (GstTracer * t, const GstStructure * w, gpointer user_data)
{
  g_atomic_int_inc (&child_windows);
}

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Runs @desc to EOS; with @pull, counts the buffers pulled from "file"
 * and those reaching "out". */
static void
child_run (const gchar * desc, gboolean pull)
{
  GError *error = NULL;
  GstElement *p, *e;
  GstBus *bus;
  GstMessage *msg;
  GstPad *pad;
  gint pulled = 0, reached = 0;

  p = gst_parse_launch (desc, &error);
  g_assert_no_error (error);
  if (pull) {
    e = gst_bin_get_by_name (GST_BIN (p), "file");
    pad = gst_element_get_static_pad (e, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_PULL |
        GST_PAD_PROBE_TYPE_BUFFER, count_probe, &pulled, NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
    e = gst_bin_get_by_name (GST_BIN (p), "out");
    pad = gst_element_get_static_pad (e, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe,
        &reached, NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  if (pull)
    g_print ("gstprof: pulled=%d reached=%d\n", g_atomic_int_get (&pulled),
        g_atomic_int_get (&reached));
}

static void
test_child (void)
{
  GType type = g_type_from_name (GP_TRACER_TYPE_NAME);
  GstTracer *tracer = type ? g_type_get_qdata (type,
      g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA)) : NULL;
  const gchar *wav = g_getenv ("GP_NVTX_PULL_FILE");
  gboolean nvtx = FALSE;

  g_assert_nonnull (tracer);
  g_signal_connect (tracer, "window", G_CALLBACK (on_window), NULL);
  if (wav) {
    /* wavparse pulls from filesrc on its own task, and pushes */
    gchar *desc = g_strdup_printf ("filesrc name=file location=\"%s\" "
        "blocksize=8192 ! wavparse name=wav ! fakesink name=out", wav);

    child_run (desc, TRUE);
    g_free (desc);
  } else {
    child_run ("fakesrc name=src num-buffers=" G_STRINGIFY (NVTX_BUFFERS)
        " sizetype=fixed sizemax=64 ! identity name=first ! queue name=q "
        "! identity name=second ! fakesink name=sink", FALSE);
  }
  g_signal_emit_by_name (tracer, "flush");
  g_object_get (tracer, "nvtx", &nvtx, NULL);
  g_print ("gstprof: nvtx=%d windows=%s\n", nvtx,
      g_atomic_int_get (&child_windows) > 0 ? "yes" : "no");
}

/* Runs the child under @params with the stand-in @lib; returns its stdout
 * and, in @warnings, the tracer's distinct warning lines. */
static gchar *
run_child (const gchar * params, const gchar * lib, const gchar * log,
    GPtrArray * warnings, const gchar * wav)
{
  gchar *argv[] = { (gchar *) test_program, (gchar *) "-p",
    (gchar *) "/tracer/nvtx/child", NULL
  };
  gchar **envp = g_get_environ ();
  gchar *tracers = g_strdup_printf ("gstprof(window=100,%s)", params);
  gchar *out = NULL, *err = NULL, *all, **lines;
  GError *error = NULL;
  gint status = 0;
  guint i;

  envp = g_environ_setenv (envp, "GP_TEST_TRACERS", tracers, TRUE);
  envp = g_environ_setenv (envp, "GSTPROF_NVTX_LIB", lib, TRUE);
  envp = g_environ_setenv (envp, "GP_NVTX_STANDIN_LOG", log, TRUE);
  if (wav)
    envp = g_environ_setenv (envp, "GP_NVTX_PULL_FILE", wav, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error));
  g_assert_no_error (error);
  all = g_strconcat (out, err, NULL);
  lines = g_strsplit (all, "\n", -1);
  for (i = 0; lines[i]; i++) {
    const gchar *w = strstr (lines[i], "gstprof: GST_TRACERS: ");

    if (lines[i][0])
      g_test_message ("%s: %s", tracers, lines[i]);
    /* GLib may log one warning to stdout and stderr both: count it once */
    if (w && !g_ptr_array_find_with_equal_func (warnings, w, g_str_equal,
            NULL))
      g_ptr_array_add (warnings, g_strdup (w));
  }
  g_strfreev (lines);
  g_assert_true (g_spawn_check_exit_status (status, NULL));
  g_free (all);
  g_free (err);
  g_free (tracers);
  g_strfreev (envp);
  return out;
}

typedef struct
{
  gchar *tid;
  GPtrArray *stack;             /* names of the open ranges */
  gchar *name;                  /* nvtxNameOsThreadA's, or NULL */
  guint names;                  /* how many times it was named */
} Thread;

static Thread *
thread_get (GHashTable * threads, const gchar * tid)
{
  Thread *t = g_hash_table_lookup (threads, tid);

  if (!t) {
    t = g_new0 (Thread, 1);
    t->tid = g_strdup (tid);
    t->stack = g_ptr_array_new_with_free_func (g_free);
    g_hash_table_insert (threads, t->tid, t);
  }
  return t;
}

static void
thread_free (Thread * t)
{
  g_ptr_array_unref (t->stack);
  g_free (t->name);
  g_free (t->tid);
  g_free (t);
}

static gchar *
stack_top (Thread * t)
{
  return t->stack->len ? g_ptr_array_index (t->stack, t->stack->len - 1) :
      NULL;
}

typedef struct
{
  Thread *thread;
  gchar *name;
  gchar *parent;                /* the range it opened inside, or NULL */
} Push;

static void
push_free (Push * p)
{
  g_free (p->name);
  g_free (p->parent);
  g_free (p);
}

/* The stand-in's call lines, replayed per thread: every push with the
 * range it nests in; every pop has its push, one "gstprof" domain is
 * made, and at the end no range is left open and no thread was named
 * twice. */
static GPtrArray *
calls_read (const gchar * log, GHashTable * threads)
{
  GPtrArray *pushes = g_ptr_array_new_with_free_func ((GDestroyNotify)
      push_free);
  gchar *text = NULL, **lines;
  guint i, domains = 0;
  GHashTableIter it;
  Thread *t;

  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar **f = g_strsplit (lines[i], " ", 4);
    guint nf = g_strv_length (f);

    if (nf == 0) {
      g_strfreev (f);
      continue;
    }
    if (!strcmp (f[0], "domain")) {
      g_assert_cmpuint (nf, ==, 3);
      g_assert_cmpstr (f[2], ==, "gstprof");
      domains++;
    } else if (!strcmp (f[0], "push")) {
      Push *p = g_new0 (Push, 1);

      g_assert_cmpuint (nf, ==, 4);
      g_assert_cmpstr (f[2], ==, "gstprof");
      t = thread_get (threads, f[1]);
      p->thread = t;
      p->name = g_strdup (f[3]);
      p->parent = g_strdup (stack_top (t));
      g_ptr_array_add (pushes, p);
      g_ptr_array_add (t->stack, g_strdup (f[3]));
    } else if (!strcmp (f[0], "pop")) {
      g_assert_cmpuint (nf, ==, 3);
      g_assert_cmpstr (f[2], ==, "gstprof");
      t = thread_get (threads, f[1]);
      /* never a pop without its push */
      g_assert_cmpuint (t->stack->len, >, 0);
      g_ptr_array_remove_index (t->stack, t->stack->len - 1);
    } else if (!strcmp (f[0], "name")) {
      g_assert_cmpuint (nf, ==, 4);
      /* a thread names itself */
      g_assert_cmpstr (f[1], ==, f[2]);
      t = thread_get (threads, f[2]);
      g_free (t->name);
      t->name = g_strdup (f[3]);
      t->names++;
    } else {
      g_error ("unexpected call line '%s'", lines[i]);
    }
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (text);
  g_assert_cmpuint (domains, ==, 1);
  g_hash_table_iter_init (&it, threads);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) & t)) {
    g_assert_cmpuint (t->stack->len, ==, 0);
    g_assert_cmpuint (t->names, <=, 1);
  }
  return pushes;
}

/* Ranges named @name: how many, how many inside @parent ("" for none, at
 * the bottom of their thread; NULL: any), and the thread of the last. */
static guint
ranges (GPtrArray * pushes, const gchar * name, const gchar * parent,
    Thread ** thread)
{
  guint i, n = 0;

  for (i = 0; i < pushes->len; i++) {
    Push *p = g_ptr_array_index (pushes, i);

    if (strcmp (p->name, name) != 0 || (parent
            && g_strcmp0 (p->parent, *parent ? parent : NULL) != 0))
      continue;
    n++;
    if (thread)
      *thread = p->thread;
  }
  return n;
}

static GHashTable *
threads_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) thread_free);
}

/* every element's ranges: one per buffer, balanced on their thread, named
 * by the element, the downstream one inside the upstream's, on threads
 * named after the pads that drive them */
static void
test_ranges (void)
{
  gchar *dir = g_dir_make_tmp ("gstprof-nvtx-XXXXXX", NULL);
  gchar *log = g_build_filename (dir, "calls.txt", NULL);
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  GHashTable *threads = threads_new ();
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  Thread *t_first = NULL, *t_second = NULL;
  GPtrArray *pushes;
  gchar *out;
  guint i;

  out = run_child ("nvtx=true", GP_NVTX_STANDIN, log, warnings, NULL);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_nonnull (strstr (out, "gstprof: nvtx=1 windows=yes\n"));
  pushes = calls_read (log, threads);
  /* one range per buffer through each element, and only those four: the
   * source gets none (no push reaches it) */
  for (i = 0; i < pushes->len; i++)
    g_hash_table_add (names, ((Push *) g_ptr_array_index (pushes, i))->name);
  g_assert_cmpuint (g_hash_table_size (names), ==, 4);
  g_assert_cmpuint (ranges (pushes, "first", NULL, NULL), ==, NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "q", NULL, NULL), ==, NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "second", NULL, NULL), ==,
      NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "sink", NULL, NULL), ==, NVTX_BUFFERS);
  /* nesting: the queue's chain runs inside first's, sink's inside
   * second's, and first and second are at the bottom of their threads */
  g_assert_cmpuint (ranges (pushes, "q", "first", NULL), ==, NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "sink", "second", NULL), ==,
      NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "first", "", &t_first), ==,
      NVTX_BUFFERS);
  g_assert_cmpuint (ranges (pushes, "second", "", &t_second), ==,
      NVTX_BUFFERS);
  /* two streaming threads, each named once, by the pad driving it */
  g_assert_true (t_first != t_second);
  g_assert_cmpstr (t_first->name, ==, "src:src");
  g_assert_cmpstr (t_second->name, ==, "q:src");

  g_free (out);
  g_unlink (log);
  g_rmdir (dir);
  g_free (log);
  g_free (dir);
  g_ptr_array_unref (pushes);
  g_hash_table_unref (names);
  g_hash_table_unref (threads);
  g_ptr_array_unref (warnings);
}

/* pull mode: wavparse's task pulls from filesrc (a range for filesrc per
 * pull, at the bottom of the task's thread) and pushes into fakesink;
 * the truth is pad probes counting the pulls and the buffers */
static void
test_pull (void)
{
  gchar *dir = g_dir_make_tmp ("gstprof-nvtx-XXXXXX", NULL);
  gchar *log = g_build_filename (dir, "calls.txt", NULL);
  gchar *wav = g_build_filename (dir, "tone.wav", NULL);
  gchar *desc = g_strdup_printf ("audiotestsrc num-buffers=40 "
      "samplesperbuffer=1024 ! wavenc ! filesink location=\"%s\"", wav);
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  GHashTable *threads = threads_new ();
  Thread *t_file = NULL, *t_out = NULL;
  GError *error = NULL;
  GstElement *p;
  GstMessage *msg;
  GPtrArray *pushes;
  gchar *out, *line;
  gint pulled = -1, reached = -1;

  /* the file, made here (this process runs no tracer) */
  p = gst_parse_launch (desc, &error);
  g_assert_no_error (error);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);

  out = run_child ("nvtx=true", GP_NVTX_STANDIN, log, warnings, wav);
  g_assert_cmpuint (warnings->len, ==, 0);
  line = strstr (out, "gstprof: pulled=");
  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "gstprof: pulled=%d reached=%d", &pulled,
          &reached), ==, 2);
  g_assert_cmpint (pulled, >, 0);
  g_assert_cmpint (reached, >, 0);
  pushes = calls_read (log, threads);
  /* every pull that returned a buffer is a range of filesrc at the bottom
   * of wavparse's task (a pull that fails has one too: at least) */
  g_assert_cmpuint (ranges (pushes, "file", "", &t_file), >=,
      (guint) pulled);
  g_assert_cmpuint (ranges (pushes, "file", NULL, NULL), ==,
      ranges (pushes, "file", "", NULL));
  /* every buffer fakesink got is a range of its own, pushed by wavparse's
   * task at its bottom too */
  g_assert_cmpuint (ranges (pushes, "out", "", &t_out), ==, (guint) reached);
  g_assert_true (t_file == t_out);
  g_assert_cmpstr (t_file->name, ==, "wav:sink");

  g_free (out);
  g_unlink (log);
  g_unlink (wav);
  g_rmdir (dir);
  g_free (log);
  g_free (wav);
  g_free (desc);
  g_free (dir);
  g_ptr_array_unref (pushes);
  g_hash_table_unref (threads);
  g_ptr_array_unref (warnings);
}

/* no library: one warning naming what was looked for, the tracer measuring
 * on; nvtx off: the library is never called */
static void
test_refused (void)
{
  gchar *dir = g_dir_make_tmp ("gstprof-nvtx-XXXXXX", NULL);
  gchar *log = g_build_filename (dir, "calls.txt", NULL);
  gchar *absent = g_build_filename (dir, "libnvToolsExt.so.1", NULL);
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  gchar *out;

  out = run_child ("nvtx=true", absent, log, warnings, NULL);
  g_assert_nonnull (strstr (out, "gstprof: nvtx=0 windows=yes\n"));
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (warnings, 0),
          "gstprof: GST_TRACERS: nvtx=true refused: cannot load "
          "libnvToolsExt ("));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), absent));
  g_assert_false (g_file_test (log, G_FILE_TEST_EXISTS));
  g_free (out);
  g_ptr_array_set_size (warnings, 0);

  out = run_child ("nvtx=false", GP_NVTX_STANDIN, log, warnings, NULL);
  g_assert_nonnull (strstr (out, "gstprof: nvtx=0 windows=yes\n"));
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_false (g_file_test (log, G_FILE_TEST_EXISTS));
  g_free (out);

  out = run_child ("nvtx=perhaps", GP_NVTX_STANDIN, log, warnings, NULL);
  g_assert_nonnull (strstr (out, "gstprof: nvtx=0 windows=yes\n"));
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==,
      "gstprof: GST_TRACERS: nvtx: expected true or false in "
      "'window=100,nvtx=perhaps'");
  g_free (out);

  g_rmdir (dir);
  g_free (absent);
  g_free (log);
  g_free (dir);
  g_ptr_array_unref (warnings);
}

int
main (int argc, char **argv)
{
  const gchar *child = g_getenv ("GP_TEST_TRACERS");

  test_program = argv[0];
  if (child)
    g_setenv ("GST_TRACERS", child, TRUE);
  else
    g_unsetenv ("GST_TRACERS");
  g_test_init (&argc, &argv, NULL);
  if (child)
    g_log_set_always_fatal (G_LOG_FATAL_MASK);
  gst_init (&argc, &argv);
  if (child) {
    g_test_add_func ("/tracer/nvtx/child", test_child);
  } else {
    g_test_add_func ("/tracer/nvtx/ranges", test_ranges);
    g_test_add_func ("/tracer/nvtx/pull", test_pull);
    g_test_add_func ("/tracer/nvtx/refused", test_refused);
  }
  return g_test_run ();
}
