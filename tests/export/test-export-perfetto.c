/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-export-perfetto.c: `gstprof export SESSION --perfetto OUT.json` on sessions
 * the real binary captured, with and without `run --trace`. The file is
 * checked against the trace-event format (every event has ph, name, ts,
 * pid, tid; "X" slices nest per thread; counters carry numbers in args),
 * against the planted truth (identity sleep-time=4000: slices of 4 ms, one
 * per buffer the source made, inside the push that brought it), and
 * loaded by headless Chromium's JSON parser (a cut-off copy must fail
 * there). The trace file's reader on broken files; bad input exit 3 with
 * one line.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "core/gp-session.h"
#include "core/gp-trace.h"
#include "export/gp-export.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* The planted cost: identity sleeps 4 ms a buffer; usleep never sleeps
 * less, and on this loaded machine a little more. */
#define GP_SLEEP_MS 4.0
#define GP_SLEEP_SLACK_MS 1.0
#define GP_BUFFERS 300
#define GP_LAUNCH "videotestsrc num-buffers=" G_STRINGIFY (GP_BUFFERS) \
  " ! video/x-raw,width=64,height=48 ! identity sleep-time=4000 ! " \
  "fakesink sync=false"

/* ------------------------------------------------------------------ */
/* the trace-event file                                                */

typedef struct
{
  gint64 pid;
  guint64 tid;
  gint64 ts;                    /* ns */
  gint64 dur;
  const gchar *name;
  const gchar *cat;
  const gchar *parent;          /* the slice around it, NULL: none */
  JsonObject *args;
} GpSlice;

typedef struct
{
  JsonParser *parser;
  JsonObject *root;
  guint n_events;
  GArray *slices;               /* GpSlice, per thread in nesting order */
  guint n_counters;
  GHashTable *counters;         /* name -> GArray of gdouble (first arg) */
  GHashTable *pids;             /* pid -> 1 */
} GpPerfetto;

static gint64
gp_us_to_ns (gdouble us)
{
  return (gint64) llround (us * 1000.0);
}

static gint
gp_slice_cmp (gconstpointer a, gconstpointer b)
{
  const GpSlice *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static void
gp_perfetto_clear (GpPerfetto * p)
{
  g_array_unref (p->slices);
  g_hash_table_unref (p->counters);
  g_hash_table_unref (p->pids);
  g_object_unref (p->parser);
}

/* Loads @path and checks the format; every problem fails the test. */
static void
gp_perfetto_load (GpPerfetto * p, const gchar * path)
{
  GError *err = NULL;
  JsonArray *events;
  guint i, depth = 0;
  GpSlice *stack[256];

  memset (p, 0, sizeof *p);
  p->parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (p->parser, path, &err));
  g_assert_no_error (err);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (p->parser)));
  p->root = json_node_get_object (json_parser_get_root (p->parser));
  g_assert_true (json_object_has_member (p->root, "traceEvents"));
  events = json_object_get_array_member (p->root, "traceEvents");
  p->n_events = json_array_get_length (events);
  p->slices = g_array_new (FALSE, FALSE, sizeof (GpSlice));
  p->counters = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) g_array_unref);
  p->pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (i = 0; i < p->n_events; i++) {
    JsonObject *e = json_array_get_object_element (events, i);
    const gchar *ph;

    g_assert_nonnull (e);
    /* every event: ph, name, ts, pid, tid */
    g_assert_true (json_object_has_member (e, "ph"));
    g_assert_true (json_object_has_member (e, "name"));
    g_assert_true (json_object_has_member (e, "ts"));
    g_assert_true (json_object_has_member (e, "pid"));
    g_assert_true (json_object_has_member (e, "tid"));
    g_assert_cmpuint (json_node_get_value_type (json_object_get_member (e,
                "pid")), ==, G_TYPE_INT64);
    g_assert_cmpuint (json_node_get_value_type (json_object_get_member (e,
                "tid")), ==, G_TYPE_INT64);
    g_assert_cmpfloat (json_object_get_double_member (e, "ts"), >=, 0);
    ph = json_object_get_string_member (e, "ph");
    g_assert_nonnull (ph);
    g_assert_true (strchr ("XCiM", ph[0]) && ph[1] == '\0');
    if (ph[0] == 'X') {
      GpSlice s = { json_object_get_int_member (e, "pid"),
        json_object_get_int_member (e, "tid"),
        gp_us_to_ns (json_object_get_double_member (e, "ts")),
        gp_us_to_ns (json_object_get_double_member (e, "dur")),
        json_object_get_string_member (e, "name"),
        json_object_has_member (e, "cat") ?
            json_object_get_string_member (e, "cat") : "", NULL,
        json_object_has_member (e, "args") ?
            json_object_get_object_member (e, "args") : NULL
      };

      g_assert_true (json_object_has_member (e, "dur"));
      g_assert_cmpint (s.dur, >=, 0);
      g_array_append_val (p->slices, s);
    } else if (ph[0] == 'C') {
      JsonObject *args = json_object_get_object_member (e, "args");
      GList *m, *l;
      GArray *vals;

      /* counters carry their values in args, numbers all */
      g_assert_nonnull (args);
      m = json_object_get_members (args);
      g_assert_nonnull (m);
      for (l = m; l; l = l->next) {
        GType t = json_node_get_value_type (json_object_get_member (args,
                l->data));

        g_assert_true (t == G_TYPE_DOUBLE || t == G_TYPE_INT64);
      }
      vals = g_hash_table_lookup (p->counters,
          json_object_get_string_member (e, "name"));
      if (vals == NULL) {
        vals = g_array_new (FALSE, FALSE, sizeof (gdouble));
        g_hash_table_insert (p->counters,
            (gpointer) json_object_get_string_member (e, "name"), vals);
      }
      {
        gdouble v = json_object_get_double_member (args, m->data);

        g_array_append_val (vals, v);
      }
      g_list_free (m);
      p->n_counters++;
    }
    {
      gint64 *pid = g_new (gint64, 1);

      *pid = json_object_get_int_member (e, "pid");
      if (!g_hash_table_contains (p->pids, pid))
        g_hash_table_add (p->pids, pid);
      else
        g_free (pid);
    }
  }

  /* "X" slices nest per thread: sorted by start (the longer first), each
   * one ends before the slice around it ends, or starts after it ended */
  g_array_sort (p->slices, gp_slice_cmp);
  for (i = 0; i < p->slices->len; i++) {
    GpSlice *s = &g_array_index (p->slices, GpSlice, i);

    if (i > 0) {
      GpSlice *prev = &g_array_index (p->slices, GpSlice, i - 1);

      if (prev->pid != s->pid || prev->tid != s->tid)
        depth = 0;
    }
    while (depth > 0 && stack[depth - 1]->ts + stack[depth - 1]->dur <= s->ts)
      depth--;
    if (depth > 0 && s->ts + s->dur > stack[depth - 1]->ts +
        stack[depth - 1]->dur)
      g_error ("slice %s at %" G_GINT64_FORMAT " ns (pid %" G_GINT64_FORMAT
          ", tid %" G_GUINT64_FORMAT ") overlaps %s without nesting in it",
          s->name, s->ts, s->pid, s->tid, stack[depth - 1]->name);
    s->parent = depth > 0 ? stack[depth - 1]->name : NULL;
    g_assert_cmpuint (depth, <, G_N_ELEMENTS (stack));
    stack[depth++] = s;
  }
  g_test_message ("%s: %u events, %u slices, %u counter samples", path,
      p->n_events, p->slices->len, p->n_counters);
}

/* The slices of process @pid named @name (NULL: any) of category @cat
 * (NULL: any). */
static GPtrArray *
gp_perfetto_slices (GpPerfetto * p, gint64 pid, const gchar * name,
    const gchar * cat)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; i < p->slices->len; i++) {
    GpSlice *s = &g_array_index (p->slices, GpSlice, i);

    if (s->pid == pid && (!name || !g_strcmp0 (s->name, name))
        && (!cat || !g_strcmp0 (s->cat, cat)))
      g_ptr_array_add (out, s);
  }
  return out;
}

static gint
gp_double_cmp (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static gdouble
gp_median_ms (GPtrArray * slices, gdouble * min)
{
  GArray *d = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble med;
  guint i;

  g_assert_cmpuint (slices->len, >, 0);
  for (i = 0; i < slices->len; i++) {
    gdouble ms = ((GpSlice *) g_ptr_array_index (slices, i))->dur / 1e6;

    g_array_append_val (d, ms);
  }
  g_array_sort (d, gp_double_cmp);
  med = g_array_index (d, gdouble, d->len / 2);
  *min = g_array_index (d, gdouble, 0);
  g_array_unref (d);
  return med;
}

/* ------------------------------------------------------------------ */
/* captures, once per program                                          */

static gchar *
gp_capture_dir (const gchar * name, const gchar * const *extra)
{
  gchar *dir = g_build_filename (gp_tmp, name, NULL);
  GPtrArray *args = g_ptr_array_new ();
  GpTestRun r;
  guint i;

  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return dir;
  g_ptr_array_add (args, (gpointer) "run");
  g_ptr_array_add (args, (gpointer) "-q");
  g_ptr_array_add (args, (gpointer) "--out");
  g_ptr_array_add (args, dir);
  for (i = 0; extra[i]; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  gp_test_run_gstprof_argv (&r, gp_tmp, (const gchar * const *) args->pdata);
  g_test_message ("%s: gstprof run, exit %d", name, r.code);
  gp_test_message_text (r.err);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  g_ptr_array_unref (args);
  return dir;
}

/* DIR/NAME.json: gstprof export DIR --perfetto, which must succeed */
static gchar *
gp_export (const gchar * dir, const gchar * name)
{
  gchar *out = g_strdup_printf ("%s/%s.json", gp_tmp, name);
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--perfetto", out, NULL);
  g_test_message ("export %s:", name);
  gp_test_message_text (r.err);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);
  return out;
}

static GpSession *
gp_load_session (const gchar * dir)
{
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GError *err = NULL;
  GpSession *s = gp_session_load (path, &err);

  g_assert_no_error (err);
  g_free (path);
  return s;
}

static guint64
gp_link_buffers (GpSession * s, const gchar * id)
{
  GpLinkSummary *ls = gp_session_find_link_summary (s, id);

  g_assert_nonnull (ls);
  return ls->buffers;
}

/* ------------------------------------------------------------------ */
/* tests                                                               */

/* run --trace: every identity push a slice of about 4 ms, one per buffer
 * (the ring's 10 s hold the whole run), inside capsfilter's push, around
 * fakesink's; the session names the trace file */
static void
test_trace_planted (void)
{
  const gchar *const args[] = { "--trace", GP_LAUNCH, NULL };
  gchar *dir, *out;
  GpSession *s;
  GpPerfetto p;
  GPtrArray *id, *sink;
  gdouble med, min;
  guint64 buffers;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  dir = gp_capture_dir ("traced", args);
  s = gp_load_session (dir);
  g_assert_cmpstr (s->trace_file, ==, GP_TRACE_FILE);
  g_assert_cmpuint (s->trace_s, ==, GP_TRACE_DEFAULT_S);
  buffers = gp_link_buffers (s, "capsfilter0.src->identity0.sink");
  g_assert_cmpuint (buffers, ==, GP_BUFFERS);

  out = gp_export (dir, "traced");
  gp_perfetto_load (&p, out);
  g_assert_true (g_hash_table_size (p.pids) == 2);
  id = gp_perfetto_slices (&p, 2, "identity0", "push");
  g_assert_cmpuint (id->len, ==, buffers);
  med = gp_median_ms (id, &min);
  g_test_message ("identity0 pushes: %u, median %.3f ms, min %.3f ms",
      id->len, med, min);
  g_assert_cmpfloat (min, >=, GP_SLEEP_MS);
  g_assert_cmpfloat (med, <=, GP_SLEEP_MS + GP_SLEEP_SLACK_MS);
  for (i = 0; i < id->len; i++) {
    GpSlice *x = g_ptr_array_index (id, i);

    g_assert_cmpstr (x->parent, ==, "capsfilter0");
    /* self time: its own sleep, the sink's push taken out */
    g_assert_cmpfloat (json_object_get_double_member (x->args, "self_us"),
        >=, GP_SLEEP_MS * 1000 * 0.9);
  }
  sink = gp_perfetto_slices (&p, 2, "fakesink0", "push");
  g_assert_cmpuint (sink->len, ==, buffers);
  for (i = 0; i < sink->len; i++)
    g_assert_cmpstr (((GpSlice *) g_ptr_array_index (sink, i))->parent, ==,
        "identity0");
  g_assert_cmpuint (gp_perfetto_slices (&p, 2, NULL, NULL)->len, ==,
      s->trace_slices);
  g_ptr_array_unref (id);
  g_ptr_array_unref (sink);
  gp_perfetto_clear (&p);
  gp_session_free (s);
  g_free (out);
  g_free (dir);
}

/* --trace=1 on a run of about 3 s: only the last second of data flow,
 * up to the newest push (not the collection, which comes after the
 * teardown, however long that took on a loaded machine), at the rate the
 * 4 ms sleep allows */
static void
test_trace_span (void)
{
  const gchar *const args[] = { "--trace=1", "--duration", "3s",
    "videotestsrc num-buffers=5000 ! video/x-raw,width=64,height=48 ! "
        "identity sleep-time=4000 ! fakesink sync=false", NULL
  };
  gchar *dir, *out;
  GpPerfetto p;
  GPtrArray *id;
  gint64 first = G_MAXINT64, last = 0;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  dir = gp_capture_dir ("span", args);
  out = gp_export (dir, "span");
  gp_perfetto_load (&p, out);
  id = gp_perfetto_slices (&p, 2, "identity0", "push");
  for (i = 0; i < id->len; i++) {
    GpSlice *x = g_ptr_array_index (id, i);

    first = MIN (first, x->ts);
    last = MAX (last, x->ts + x->dur);
  }
  g_test_message ("identity0 pushes in the last second: %u over %.3f s",
      id->len, (last - first) / 1e9);
  g_assert_cmpuint (id->len, >, 0);
  g_assert_cmpint (last - first, <=, GST_SECOND);
  /* one thread, each push at least its 4 ms sleep: no more than fit */
  g_assert_cmpuint (id->len, <=, (last - first) / (GP_SLEEP_MS *
          GST_MSECOND) + 1);
  /* the span is a second back from the newest push: the pushes kept reach
   * back most of it (less the push and the gap before the first one) */
  g_assert_cmpint (last - first, >=, GST_SECOND / 2);
  /* and the run went on for longer than that */
  g_assert_cmpint (first, >=, GST_SECOND);
  g_ptr_array_unref (id);
  gp_perfetto_clear (&p);
  g_free (out);
  g_free (dir);
}

/* a thread pushing faster than the rate bound keeps its last
 * GP_TRACE_RATE_MAX x SECONDS pushes (rounded up to a power of two), and
 * counts every older one it made as lost: kept + lost are its pushes,
 * the source's 50000 buffers and its few serialized events */
#define GP_BOUND_BUFFERS 50000
#define GP_BOUND_EVENTS_MAX 8
static void
test_trace_bound (void)
{
  const gchar *const args[] = { "--trace=1",
    "fakesrc num-buffers=" G_STRINGIFY (GP_BOUND_BUFFERS) " ! fakesink",
    NULL
  };
  gchar *dir, *path;
  GError *err = NULL;
  GpTrace *t;
  guint i;
  guint64 kept = 0, lost = 0, slots = 1, span = 0;

  if (!gp_test_have_tracer ())
    return;
  while (slots < GP_TRACE_RATE_MAX)
    slots <<= 1;
  dir = gp_capture_dir ("bound", args);
  path = g_build_filename (dir, GP_TRACE_FILE, NULL);
  t = gp_trace_load (path, &err);
  g_assert_no_error (err);
  for (i = 0; i < t->threads->len; i++) {
    GpTraceThread *th = g_ptr_array_index (t->threads, i);

    if (th->slices->len + th->lost < GP_BOUND_BUFFERS)
      continue;
    kept = th->slices->len;
    lost = th->lost;
    span = g_array_index (th->slices, GpTraceSlice, kept - 1).end -
        g_array_index (th->slices, GpTraceSlice, 0).start;
  }
  g_test_message ("the source's thread kept %" G_GUINT64_FORMAT
      " over %.3f s, lost %" G_GUINT64_FORMAT " (ring of %" G_GUINT64_FORMAT
      ")", kept, span / 1e9, lost, slots);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (kept, <=, slots);
  g_assert_cmpuint (kept + lost, >=, GP_BOUND_BUFFERS);
  g_assert_cmpuint (kept + lost, <=, GP_BOUND_BUFFERS + GP_BOUND_EVENTS_MAX);
  /* fewer than the ring holds only where the second cut them: the ring
   * was full (it made more than it holds), so what is kept spans it */
  if (kept < slots - 1)
    g_assert_cmpuint (span, >=, GST_SECOND * 9 / 10);
  gp_trace_free (t);
  g_free (path);
  g_free (dir);
}

/* a plain session (windows only): per thread, one "window N" slice per
 * window holding one slice per element, its self time there, said to be
 * an aggregate; identity's add up to its 4 ms per buffer; fps counters */
static void
test_windows_only (void)
{
  const gchar *const args[] = { GP_LAUNCH, NULL };
  gchar *dir, *out;
  GpPerfetto p;
  GPtrArray *all, *id;
  GArray *fps;
  gdouble sum = 0, fmax = 0;
  GpSession *s;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  dir = gp_capture_dir ("plain", args);
  s = gp_load_session (dir);
  g_assert_null (s->trace_file);
  out = gp_export (dir, "plain");
  gp_perfetto_load (&p, out);
  g_assert_true (g_hash_table_size (p.pids) == 1);
  all = gp_perfetto_slices (&p, 1, NULL, NULL);
  id = gp_perfetto_slices (&p, 1, "identity0 (window total)", NULL);
  g_assert_cmpuint (id->len, >, 0);
  for (i = 0; i < all->len; i++) {
    GpSlice *x = g_ptr_array_index (all, i);

    if (g_str_has_prefix (x->name, "window ")) {
      g_assert_null (x->parent);
      g_assert_nonnull (strstr (json_object_get_string_member (x->args,
                  "what"), "not when the buffers ran"));
    } else {
      g_assert_true (g_str_has_prefix (x->parent, "window "));
    }
  }
  for (i = 0; i < id->len; i++)
    sum += ((GpSlice *) g_ptr_array_index (id, i))->dur / 1e6;
  g_test_message ("identity0 window slices: %u, %.1f ms in all", id->len, sum);
  g_assert_cmpfloat (sum, >=, GP_BUFFERS * GP_SLEEP_MS * 0.98);
  g_assert_cmpfloat (sum, <=, GP_BUFFERS * (GP_SLEEP_MS + GP_SLEEP_SLACK_MS));
  fps = g_hash_table_lookup (p.counters, "fps capsfilter0.src->identity0.sink");
  g_assert_nonnull (fps);
  for (i = 0; i < fps->len; i++)
    fmax = MAX (fmax, g_array_index (fps, gdouble, i));
  /* 4 ms a buffer: at most 250 a second */
  g_assert_cmpfloat (fmax, >, 0);
  g_assert_cmpfloat (fmax, <=, 1000 / GP_SLEEP_MS * 1.05);
  g_assert_nonnull (g_hash_table_lookup (p.counters, "fps sink fakesink0"));
  g_assert_nonnull (g_hash_table_lookup (p.counters, "cpu process %"));
  g_ptr_array_unref (all);
  g_ptr_array_unref (id);
  gp_perfetto_clear (&p);
  gp_session_free (s);
  g_free (out);
  g_free (dir);
}

/* What headless Chromium's JSON.parse says of @file (in gp_tmp): the
 * verdict the page wrote into its DOM. NULL when no Chromium is here. */
static gchar *
gp_chromium_verdict (const gchar * file)
{
  static const gchar page[] =
      "<!DOCTYPE html><html><body><pre id=\"v\">no verdict</pre><script>\n"
      "var v = document.getElementById('v');\n"
      "try {\n"
      "  var x = new XMLHttpRequest();\n"
      "  x.open('GET', decodeURIComponent(location.hash.substring(1)),"
      " false);\n"
      "  x.send();\n"
      "  var t = JSON.parse(x.responseText);\n"
      "  v.textContent = 'JSON-OK events=' + t.traceEvents.length + ' end';\n"
      "} catch (e) { v.textContent = 'JSON-BAD ' + e.name; }\n"
      "</script></body></html>\n";
  gchar *chromium = g_find_program_in_path ("chromium");
  gchar *html = g_build_filename (gp_tmp, "parse.html", NULL);
  gchar *url, *out = NULL, *err = NULL, *start, *end, *verdict = NULL;
  gint status = 0;

  if (chromium == NULL) {
    g_free (html);
    return NULL;
  }
  g_assert_true (g_file_set_contents (html, page, -1, NULL));
  url = g_strdup_printf ("file://%s#%s", html, file);
  out = gp_test_chromium_dump_dom (chromium, gp_tmp, url, &err, &status);
  start = strstr (out, "<pre id=\"v\">");
  if (start && (end = strstr (start, "</pre>")) != NULL)
    verdict = g_strndup (start + 12, end - start - 12);
  if (verdict == NULL && gp_test_chromium_skip_emulated (status, err)) {
    g_free (out);
    g_free (err);
    g_free (url);
    g_free (html);
    g_free (chromium);
    return NULL;
  }
  if (verdict == NULL)
    g_error ("chromium printed no verdict (status %d): %s", status, err);
  g_test_message ("chromium on %s: %s", file, verdict);
  g_free (out);
  g_free (err);
  g_free (url);
  g_free (html);
  g_free (chromium);
  return verdict;
}

static void
test_chromium (void)
{
  const gchar *const args[] = { "--trace", GP_LAUNCH, NULL };
  gchar *dir, *out, *data, *want, *verdict, *chromium, *cut;
  gsize len;
  GpPerfetto p;

  if (!gp_test_have_tracer ())
    return;
  if ((chromium = g_find_program_in_path ("chromium")) == NULL) {
    g_test_skip ("no chromium (tools/install-deps.sh installs it)");
    return;
  }
  g_free (chromium);
  dir = gp_capture_dir ("traced", args);
  out = gp_export (dir, "traced");
  gp_perfetto_load (&p, out);
  verdict = gp_chromium_verdict ("traced.json");
  if (verdict == NULL) {        /* skipped: emulated */
    gp_perfetto_clear (&p);
    g_free (out);
    g_free (dir);
    return;
  }
  want = g_strdup_printf ("JSON-OK events=%u end", p.n_events);
  g_assert_cmpstr (verdict, ==, want);
  g_free (verdict);
  g_free (want);

  /* the page must tell a broken file: the same, cut in the middle */
  g_assert_true (g_file_get_contents (out, &data, &len, NULL));
  cut = g_build_filename (gp_tmp, "cut.json", NULL);
  g_assert_true (g_file_set_contents (cut, data, len / 2, NULL));
  g_free (cut);
  verdict = gp_chromium_verdict ("cut.json");
  g_assert_true (g_str_has_prefix (verdict, "JSON-BAD SyntaxError"));
  g_free (verdict);
  g_free (data);
  gp_perfetto_clear (&p);
  g_free (out);
  g_free (dir);
}

/* A helper started with gp_test_child_dies_with_us (as Chromium is) does
 * not outlive a test that aborts: the truth is /proc, the helper gone or a
 * zombie a few seconds after the test died. */
static gboolean
gp_running (gint pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/stat", pid), *stat = NULL;
  gboolean running = FALSE;

  if (g_file_get_contents (path, &stat, NULL, NULL))
    running = strstr (stat, ") Z ") == NULL;
  g_free (stat);
  g_free (path);
  return running;
}

static void
test_helper_dies (void)
{
  /* the test's own pid names it: the subprocess has a gp_tmp of its own */
  gchar *pid_file = g_strdup_printf ("%s/gstprof-helper-%d.pid",
      g_get_tmp_dir (), (gint) (g_test_subprocess ()? getppid () : getpid ()));
  gchar *text;
  gint pid, i;

  if (g_test_subprocess ()) {
    gchar *argv[] = { (gchar *) "sleep", (gchar *) "100", NULL };
    GPid child;

    /* its output elsewhere: the trap waits for the test's to close */
    g_assert_true (g_spawn_async (NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
            G_SPAWN_STDERR_TO_DEV_NULL, gp_test_child_own_group, NULL, &child,
            NULL));
    text = g_strdup_printf ("%d", (gint) child);
    g_assert_true (g_file_set_contents (pid_file, text, -1, NULL));
    abort ();
  }
  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_failed ();
  g_assert_true (g_file_get_contents (pid_file, &text, NULL, NULL));
  g_unlink (pid_file);
  pid = atoi (text);
  g_assert_cmpint (pid, >, 0);
  for (i = 0; i < 50 && gp_running (pid); i++)
    g_usleep (100 * 1000);
  if (gp_running (pid)) {
    kill (pid, SIGKILL);
    g_error ("the helper %d outlived its test", pid);
  }
  g_free (text);
  g_free (pid_file);
}

/* the trace file's reader: a round trip, then every cut and a few
 * broken values, each a one-line error naming the file */
static void
test_trace_file (void)
{
  GpTrace *t = gp_trace_new (), *back;
  GpTraceThread *th;
  GpTraceSlice sl = { 1000, 5000, 1, 1, 0, GP_TRACE_KIND_BUFFER };
  gchar *path = g_build_filename (gp_tmp, "t.bin", NULL), *data;
  GError *err = NULL;
  gsize len, i;

  t->seconds = 10;
  t->t0 = 500;
  t->now = 9000;
  g_ptr_array_add (t->elements, g_strdup ("src"));
  g_ptr_array_add (t->elements, g_strdup ("identity0"));
  th = gp_trace_add_thread (t, 4242, "src:src", 7);
  g_array_append_val (th->slices, sl);
  sl.start = 2000;
  sl.end = 3000;
  sl.element = 0;
  sl.depth = 1;
  g_array_append_val (th->slices, sl);
  g_assert_true (gp_trace_save (t, path, &err));
  g_assert_no_error (err);
  back = gp_trace_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpuint (back->seconds, ==, 10);
  g_assert_cmpuint (back->t0, ==, 500);
  g_assert_cmpuint (back->threads->len, ==, 1);
  th = g_ptr_array_index (back->threads, 0);
  g_assert_cmpuint (th->tid, ==, 4242);
  g_assert_cmpuint (th->lost, ==, 7);
  g_assert_cmpstr (th->name, ==, "src:src");
  g_assert_cmpuint (th->slices->len, ==, 2);
  g_assert_cmpuint (g_array_index (th->slices, GpTraceSlice, 1).depth, ==, 1);
  g_assert_cmpmem (th->slices->data, 2 * sizeof (GpTraceSlice),
      ((GpTraceThread *) g_ptr_array_index (t->threads, 0))->slices->data,
      2 * sizeof (GpTraceSlice));
  gp_trace_free (back);

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  for (i = 0; i < len; i++) {
    back = gp_trace_load_data ((const guint8 *) data, i, "t.bin", &err);
    g_assert_null (back);
    g_assert_nonnull (err);
    g_assert_true (g_str_has_prefix (err->message, "t.bin: "));
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
  /* the last slice's element (at len - 24 + 16) out of range, then its end
   * before its start, then its kind unknown */
  data[len - 8] = 9;
  back = gp_trace_load_data ((const guint8 *) data, len, "t.bin", &err);
  g_assert_null (back);
  g_assert_nonnull (strstr (err->message, "names an element"));
  g_clear_error (&err);
  data[len - 8] = 0;
  data[len - 1] = 7;
  back = gp_trace_load_data ((const guint8 *) data, len, "t.bin", &err);
  g_assert_nonnull (strstr (err->message, "unknown kind"));
  g_clear_error (&err);
  data[len - 1] = 0;
  data[len - 16] = 0;
  data[len - 15] = 0;
  back = gp_trace_load_data ((const guint8 *) data, len, "t.bin", &err);
  g_assert_nonnull (strstr (err->message, "ends before it starts"));
  g_clear_error (&err);
  /* end past 2^62 ns (its top byte at len - 9) */
  data[len - 16] = 0x88;
  data[len - 9] = 0x40;
  back = gp_trace_load_data ((const guint8 *) data, len, "t.bin", &err);
  g_assert_nonnull (strstr (err->message, "past 2^62 ns"));
  g_clear_error (&err);
  back = gp_trace_load_data ((const guint8 *) "GPTRACE2", 8, "t.bin", &err);
  g_assert_nonnull (strstr (err->message, "not a gstprof trace"));
  g_clear_error (&err);
  g_free (path);
  path = g_build_filename (gp_tmp, "none.bin", NULL);
  back = gp_trace_load (path, &err);
  g_assert_nonnull (strstr (err->message, "No such file or directory"));
  g_clear_error (&err);
  g_free (data);
  g_free (path);
  gp_trace_free (t);
}

/* names the trace file cannot hold as they are: one past its 4096 bytes
 * whose cut falls inside a character (cut before it), one that is not
 * UTF-8 (its bad byte becomes U+FFFD); the file reads back */
static void
test_trace_names (void)
{
  GpTrace *t = gp_trace_new (), *back;
  GpTraceThread *th;
  GpTraceSlice sl = { 1000, 5000, 1, 1, 0, GP_TRACE_KIND_BUFFER };
  gchar *path = g_build_filename (gp_tmp, "names.bin", NULL);
  GString *lng = g_string_new ("a");
  GError *err = NULL;
  const gchar *name;
  guint i;

  /* "a" then 2-byte characters: byte 4096 is the second of one */
  for (i = 0; i < 3000; i++)
    g_string_append (lng, "\xc3\xa9");
  g_ptr_array_add (t->elements, g_strdup (lng->str));
  g_ptr_array_add (t->elements, g_strdup ("x\xffy"));
  th = gp_trace_add_thread (t, 1, "bad\xfe", 0);
  g_array_append_val (th->slices, sl);
  g_assert_true (gp_trace_save (t, path, &err));
  g_assert_no_error (err);
  back = gp_trace_load (path, &err);
  g_assert_no_error (err);
  name = g_ptr_array_index (back->elements, 0);
  g_assert_cmpuint (strlen (name), ==, 4095);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_true (strncmp (name, lng->str, 4095) == 0);
  g_assert_cmpstr (g_ptr_array_index (back->elements, 1), ==,
      "x\xef\xbf\xbdy");
  g_assert_cmpstr (((GpTraceThread *) g_ptr_array_index (back->threads,
              0))->name, ==, "bad\xef\xbf\xbd");
  gp_trace_free (back);
  gp_trace_free (t);
  g_string_free (lng, TRUE);
  g_free (path);
}

/* an element name that is not UTF-8 (as a tracer log's octal escapes can
 * give, in memory: the trace file would have mended it) comes out of the
 * Perfetto export as U+FFFD, in a file of UTF-8 a JSON parser takes */
static void
test_perfetto_not_utf8 (void)
{
  GpSession *s = gp_session_new ();
  GpTrace *t = gp_trace_new ();
  GpTraceThread *th;
  GpTraceSlice sl = { 2000, 6000, 0, 1, 0, GP_TRACE_KIND_BUFFER };
  gchar *path = g_build_filename (gp_tmp, "not-utf8.json", NULL), *data;
  GError *err = NULL;
  GPtrArray *named;
  GpPerfetto p;
  gsize len;

  t->seconds = 10;
  t->t0 = 1000;
  t->now = 9000;
  g_ptr_array_add (t->elements, g_strdup ("id\xff\xc3" "ent"));
  th = gp_trace_add_thread (t, 77, "th\x80", 0);
  g_array_append_val (th->slices, sl);
  g_assert_true (gp_export_perfetto (s, t, path, &err));
  g_assert_no_error (err);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_true (g_utf8_validate (data, len, NULL));
  gp_perfetto_load (&p, path);
  named = gp_perfetto_slices (&p, 2, "id\xef\xbf\xbd\xef\xbf\xbd" "ent",
      NULL);
  g_assert_cmpuint (named->len, ==, 1);
  g_assert_cmpint (((GpSlice *) g_ptr_array_index (named, 0))->dur, ==,
      4000);
  g_ptr_array_unref (named);
  gp_perfetto_clear (&p);
  g_free (data);
  g_free (path);
  gp_trace_free (t);
  gp_session_free (s);
}

/* session.trace round trip; a file name that leaves the folder refused */
static void
test_session_trace (void)
{
  GpSession *s = gp_session_new (), *back;
  GError *err = NULL;
  gchar *text;
  gsize len;

  s->trace_file = g_strdup (GP_TRACE_FILE);
  s->trace_s = 7;
  s->trace_slices = 1234;
  text = gp_session_to_data (s, FALSE, &len);
  g_assert_nonnull (strstr (text, "\"trace\":{\"file\":\"trace.bin\","
          "\"seconds\":7,\"slices\":1234}"));
  back = gp_session_load_data (text, len, "s.json", &err);
  g_assert_no_error (err);
  g_assert_cmpstr (back->trace_file, ==, GP_TRACE_FILE);
  g_assert_cmpuint (back->trace_s, ==, 7);
  g_assert_cmpuint (back->trace_slices, ==, 1234);
  g_assert_null (back->trace);
  gp_session_free (back);
  g_free (text);
  back = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"session\": "
      "{\"trace\": {\"file\": \"../etc/passwd\"}}}", -1, "s.json", &err);
  g_assert_null (back);
  g_assert_cmpstr (err->message, ==, "s.json: session.trace.file: expected a "
      "file name in the session's folder");
  g_clear_error (&err);
  gp_session_free (s);
}

static void
gp_assert_usage (const gchar * needle, const gchar * first, ...)
{
  const gchar *args[16];
  va_list ap;
  GpTestRun r;
  guint n = 0;

  args[n++] = first;
  va_start (ap, first);
  while ((args[n] = va_arg (ap, const gchar *)) != NULL)
      n++;
  va_end (ap);
  gp_test_run_gstprof_argv (&r, gp_tmp, args);
  g_test_message ("%s ...: exit %d:", first, r.code);
  gp_test_message_text (r.err);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, needle);
  gp_test_run_clear (&r);
}

static void
test_bad_input (void)
{
  const gchar *const args[] = { "--trace", GP_LAUNCH, NULL };
  gchar *dir, *broken, *tpath, *data, *out;
  gsize len;

  gp_assert_usage ("no session given", "export", "--perfetto", "x.json", NULL);
  gp_assert_usage ("nosuch", "export", "nosuch", "--perfetto", "x.json", NULL);
  gp_assert_usage ("--trace: 'soon'", "run", "--trace=soon", "fakesrc ! "
      "fakesink", NULL);
  gp_assert_usage ("--trace: '61' is out of range", "run", "--trace=61",
      "fakesrc ! fakesink", NULL);
  gp_assert_usage ("--trace: '0' is out of range", "run", "--trace=0",
      "fakesrc ! fakesink", NULL);
  if (!gp_test_have_tracer ())
    return;
  dir = gp_capture_dir ("traced", args);
  gp_assert_usage ("no output asked", "export", dir, NULL);
  out = g_build_filename (gp_tmp, "no", "such", "folder", "x.json", NULL);
  gp_assert_usage ("x.json", "export", dir, "--perfetto", out, NULL);

  /* the session names a trace file that is cut off */
  broken = g_build_filename (gp_tmp, "broken", NULL);
  g_assert_cmpint (g_mkdir_with_parents (broken, 0755), ==, 0);
  tpath = g_build_filename (dir, "session.json", NULL);
  g_assert_true (g_file_get_contents (tpath, &data, &len, NULL));
  g_free (tpath);
  tpath = g_build_filename (broken, "session.json", NULL);
  g_assert_true (g_file_set_contents (tpath, data, len, NULL));
  g_free (data);
  g_free (tpath);
  tpath = g_build_filename (dir, GP_TRACE_FILE, NULL);
  g_assert_true (g_file_get_contents (tpath, &data, &len, NULL));
  g_free (tpath);
  tpath = g_build_filename (broken, GP_TRACE_FILE, NULL);
  g_assert_true (g_file_set_contents (tpath, data, len - 10, NULL));
  gp_assert_usage ("trace.bin: byte", "export", broken, "--perfetto",
      "x.json", NULL);
  g_unlink (tpath);
  gp_assert_usage ("trace.bin: No such file", "export", broken,
      "--perfetto", "x.json", NULL);
  g_free (data);
  g_free (tpath);
  g_free (broken);
  g_free (out);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gstprof-export-XXXXXX", NULL);
  g_assert_nonnull (gp_tmp);

  g_test_add_func ("/export/trace-file", test_trace_file);
  g_test_add_func ("/export/trace-names", test_trace_names);
  g_test_add_func ("/export/session-trace", test_session_trace);
  g_test_add_func ("/export/perfetto/not-utf8", test_perfetto_not_utf8);
  g_test_add_func ("/export/perfetto/trace-planted", test_trace_planted);
  g_test_add_func ("/export/perfetto/trace-span", test_trace_span);
  g_test_add_func ("/export/perfetto/trace-bound", test_trace_bound);
  g_test_add_func ("/export/perfetto/windows-only", test_windows_only);
  g_test_add_func ("/export/perfetto/chromium", test_chromium);
  g_test_add_func ("/export/perfetto/helper-dies", test_helper_dies);
  g_test_add_func ("/export/bad-input", test_bad_input);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
