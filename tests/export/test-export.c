/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-export.c: `gstprof export` on real captures. A pipeline with a bin
 * and a planted 4 ms identity runs under `gstprof run`, and its session is
 * exported: the dot text is read back by graphviz (every element a node in
 * its bin's cluster, every link an edge, the identity the deepest fill,
 * the link labels showing the caps' size and rate and the 30/1 the sink's
 * clock paced), the SVG parses as XML and names every element, the CSV
 * files parse as RFC 4180 with a row per window and entity and the
 * identity's self time at its planted 4 ms. The records the tracer writes
 * by itself export the same way; a Jetson capture (gst-profile/1) shows
 * its NVMM links. Bad input and unwritable outputs are exit 3 with one
 * line, and leave no file behind.
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <graphviz/cgraph.h>

#include "core/gp-session.h"
#include "export/gp-export.h"
#include "gp-config.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* the planted cost and the rate the sink's clock holds */
#define GP_EXPORT_SLEEP_MS 4.0
#define GP_EXPORT_FPS 30.0
/* a self-time p50 this close to the planted sleep is the sleep (the
 * records and wrap tests hold the same bound) */
#define GP_EXPORT_SLEEP_TOLERANCE_MS 0.5

#define GP_EXPORT_LAUNCH "videotestsrc num-buffers=60 ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! " \
  "bin.( identity name=slow sleep-time=4000 ! queue name=q ) ! " \
  "fakesink sync=true"

/* ------------------------------------------------------------------ */
/* helpers                                                              */
/* ------------------------------------------------------------------ */

/* The session of GP_EXPORT_LAUNCH under `gstprof run --out`, run once. */
static const gchar *
gp_export_run_dir (void)
{
  return gp_test_run_once (gp_tmp, GP_EXPORT_LAUNCH);
}

static gchar *
gp_export_path (const gchar * name)
{
  return g_build_filename (gp_tmp, name, NULL);
}

static gint
gp_export_compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The files of @dir, sorted, as one comma-separated string. */
static gchar *
gp_export_listing (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const gchar *name;
  gchar *joined;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, gp_export_compare_names);
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv (",", (gchar **) names->pdata);
  g_ptr_array_unref (names);
  return joined;
}

/* ------------------------------------------------------------------ */
/* CSV, read back by RFC 4180                                           */
/* ------------------------------------------------------------------ */

/* The rows of @path, each a NULL-terminated array of cells; asserts that
 * every record ends in CRLF and every quote is paired. */
static GPtrArray *
gp_csv_read (const gchar * path)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_strfreev);
  GPtrArray *cells = g_ptr_array_new ();
  GString *cell = g_string_new (NULL);
  gchar *data = NULL;
  gsize len, i;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 0);
  for (i = 0; i < len; i++) {
    gchar c = data[i];

    if (c == '"' && cell->len == 0) {
      /* a quoted cell: up to the quote not doubled */
      for (i++; i < len; i++) {
        if (data[i] == '"' && i + 1 < len && data[i + 1] == '"')
          g_string_append_c (cell, data[i++]);
        else if (data[i] == '"')
          break;
        else
          g_string_append_c (cell, data[i]);
      }
      g_assert_cmpuint (i, <, len);
      g_assert_true (i + 1 < len && (data[i + 1] == ',' ||
              data[i + 1] == '\r'));
    } else if (c == ',') {
      g_ptr_array_add (cells, g_string_free (cell, FALSE));
      cell = g_string_new (NULL);
    } else if (c == '\r') {
      g_assert_true (i + 1 < len && data[i + 1] == '\n');
      i++;
      g_ptr_array_add (cells, g_string_free (cell, FALSE));
      cell = g_string_new (NULL);
      g_ptr_array_add (cells, NULL);
      g_ptr_array_add (rows, g_ptr_array_free (cells, FALSE));
      cells = g_ptr_array_new ();
    } else {
      g_assert_cmpint (c, !=, '\n');
      g_assert_cmpint (c, !=, '"');
      g_string_append_c (cell, c);
    }
  }
  /* the last record ended in CRLF too */
  g_assert_cmpuint (cell->len, ==, 0);
  g_assert_cmpuint (cells->len, ==, 0);
  g_string_free (cell, TRUE);
  g_ptr_array_unref (cells);
  g_free (data);
  return rows;
}

static gint
gp_csv_column (GPtrArray * rows, const gchar * name)
{
  gchar **header = g_ptr_array_index (rows, 0);
  guint i;

  for (i = 0; header[i]; i++)
    if (strcmp (header[i], name) == 0)
      return (gint) i;
  g_error ("no column %s", name);
  return -1;
}

static gdouble
gp_csv_number (gchar ** row, gint col)
{
  gchar *end = NULL;
  gdouble v;

  g_assert_cmpstr (row[col], !=, "");
  v = g_ascii_strtod (row[col], &end);
  g_assert_true (end && *end == '\0');
  return v;
}

/* The fields of @section's entries over every window, first seen first. */
static GPtrArray *
gp_csv_expected_fields (GpSession * s, const gchar * section, gboolean keyed,
    guint * n_rows)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  guint i;

  *n_rows = 0;
  for (i = 0; i < gp_session_n_windows (s); i++) {
    JsonObject *sec = gp_session_window_section (s, i, section);
    GList *keys, *k;

    if (sec == NULL)
      continue;
    keys = keyed ? json_object_get_members (sec) : g_list_append (NULL, NULL);
    for (k = keys; k; k = k->next) {
      JsonObject *entry = k->data ? json_object_get_object_member (sec,
          k->data) : sec;
      GList *f, *members = json_object_get_members (entry);

      for (f = members; f; f = f->next) {
        guint j;
        gboolean seen = FALSE;

        for (j = 0; j < fields->len; j++)
          seen |= strcmp (g_ptr_array_index (fields, j), f->data) == 0;
        if (!seen)
          g_ptr_array_add (fields, g_strdup (f->data));
      }
      g_list_free (members);
      (*n_rows)++;
    }
    g_list_free (keys);
  }
  return fields;
}

/* Every series file of @csv_dir: the header is t0_s, t1_s, the entity,
 * then the session's fields; one row per window and entity, in window
 * order, each row's span the window's. */
static void
gp_csv_assert_series (GpSession * s, const gchar * csv_dir)
{
  static const struct
  {
    const gchar *file, *section, *key;
  } files[] = {
    {"elements.csv", GP_SERIES_ELEMENTS, "element"},
    {"links.csv", GP_SERIES_LINKS, "link"},
    {"queues.csv", GP_SERIES_QUEUES, "queue"},
    {"threads.csv", GP_SERIES_THREADS, "thread"},
    {"paths.csv", GP_SERIES_PATHS, "path"},
    {"process.csv", GP_SERIES_PROCESS, NULL},
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (files); f++) {
    gchar *path = g_build_filename (csv_dir, files[f].file, NULL);
    GPtrArray *rows = gp_csv_read (path);
    guint n_rows, j, r, w = 0, first = files[f].key ? 3 : 2;
    GPtrArray *fields = gp_csv_expected_fields (s, files[f].section,
        files[f].key != NULL, &n_rows);
    gchar **header = g_ptr_array_index (rows, 0);

    g_test_message ("%s: %u rows over %u windows, %u fields", files[f].file,
        rows->len - 1, gp_session_n_windows (s), fields->len);
    g_assert_cmpstr (header[0], ==, "t0_s");
    g_assert_cmpstr (header[1], ==, "t1_s");
    if (files[f].key)
      g_assert_cmpstr (header[2], ==, files[f].key);
    g_assert_cmpuint (g_strv_length (header), ==, first + fields->len);
    for (j = 0; j < fields->len; j++)
      g_assert_cmpstr (header[first + j], ==, g_ptr_array_index (fields, j));
    g_assert_cmpuint (rows->len - 1, ==, n_rows);

    /* each row lies in a window, in order */
    for (r = 1; r < rows->len; r++) {
      gchar **row = g_ptr_array_index (rows, r);
      gdouble t0 = gp_csv_number (row, 0), t1 = gp_csv_number (row, 1);
      gdouble w0, w1;

      g_assert_cmpuint (g_strv_length (row), ==, g_strv_length (header));
      for (;; w++) {
        g_assert_cmpuint (w, <, gp_session_n_windows (s));
        gp_session_window_span (s, w, &w0, &w1);
        if (fabs (w0 - t0) < 1e-6 && fabs (w1 - t1) < 1e-6)
          break;
      }
    }
    g_ptr_array_unref (fields);
    g_ptr_array_unref (rows);
    g_free (path);
  }
}

/* The element @name's rows in elements.csv with samples: their self-time
 * p50 is the planted sleep; how many there are. */
static guint
gp_csv_assert_planted (const gchar * csv_dir, const gchar * name)
{
  gchar *path = g_build_filename (csv_dir, "elements.csv", NULL);
  GPtrArray *rows = gp_csv_read (path);
  gint c_el = gp_csv_column (rows, "element");
  gint c_buf = gp_csv_column (rows, "buffers");
  gint c_p50 = gp_csv_column (rows, "self_ms_p50");
  guint r, n = 0;

  for (r = 1; r < rows->len; r++) {
    gchar **row = g_ptr_array_index (rows, r);
    gdouble p50;

    if (strcmp (row[c_el], name) != 0 || gp_csv_number (row, c_buf) == 0)
      continue;
    p50 = gp_csv_number (row, c_p50);
    g_test_message ("%s %s..%s s: self_ms_p50 %.3f (planted %.1f)", name,
        row[0], row[1], p50, GP_EXPORT_SLEEP_MS);
    g_assert_cmpfloat (fabs (p50 - GP_EXPORT_SLEEP_MS), <,
        GP_EXPORT_SLEEP_TOLERANCE_MS);
    n++;
  }
  g_ptr_array_unref (rows);
  g_free (path);
  return n;
}

/* summary-elements.csv: a row per element summary, in order; @planted's
 * self_ms_p50 at the planted sleep, its share the session's. */
static void
gp_csv_assert_summary (GpSession * s, const gchar * csv_dir,
    const gchar * planted)
{
  gchar *path = g_build_filename (csv_dir, "summary-elements.csv", NULL);
  GPtrArray *rows = gp_csv_read (path);
  gint c_p50 = gp_csv_column (rows, "self_ms_p50");
  gint c_share = gp_csv_column (rows, "share_pct");
  gint c_buf = gp_csv_column (rows, "buffers");
  guint r;
  gboolean found = FALSE;

  g_assert_cmpuint (rows->len - 1, ==, s->elem_summaries->len);
  for (r = 1; r < rows->len; r++) {
    gchar **row = g_ptr_array_index (rows, r);
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, r - 1);

    g_assert_cmpstr (row[0], ==, es->name);
    g_assert_cmpfloat (gp_csv_number (row, c_buf), ==, es->buffers);
    if (planted && strcmp (row[0], planted) == 0) {
      gdouble p50 = gp_csv_number (row, c_p50);

      g_test_message ("summary %s: self_ms_p50 %.3f, share %s%%", planted,
          p50, row[c_share]);
      g_assert_cmpfloat (fabs (p50 - GP_EXPORT_SLEEP_MS), <,
          GP_EXPORT_SLEEP_TOLERANCE_MS);
      g_assert_cmpfloat (fabs (gp_csv_number (row, c_share) -
              es->share_pct), <, 1e-6 * MAX (1.0, es->share_pct));
      found = TRUE;
    }
  }
  g_assert_true (planted == NULL || found);
  g_ptr_array_unref (rows);
  g_free (path);
}

/* ------------------------------------------------------------------ */
/* the graph, read back by graphviz                                     */
/* ------------------------------------------------------------------ */

static Agraph_t *
gp_dot_read (const gchar * path)
{
  FILE *fp = fopen (path, "r");
  Agraph_t *g;

  g_assert_nonnull (fp);
  g = agread (fp, NULL);
  fclose (fp);
  g_assert_nonnull (g);
  return g;
}

static gchar *
gp_dot_get (void *obj, const gchar * attr)
{
  return agget (obj, (char *) attr);
}

static Agraph_t *
gp_dot_find_subg (Agraph_t * g, const gchar * name)
{
  Agraph_t *sub, *found;

  for (sub = agfstsubg (g); sub; sub = agnxtsubg (sub)) {
    if (strcmp (agnameof (sub), name) == 0)
      return sub;
    if ((found = gp_dot_find_subg (sub, name)) != NULL)
      return found;
  }
  return NULL;
}

/* The saturation of a "#rrggbb" fill ("" is the white default). */
static gdouble
gp_dot_saturation (const gchar * color)
{
  guint r, g, b, hi, lo;

  if (color == NULL || *color == '\0')
    return 0.0;
  g_assert_cmpint (sscanf (color, "#%02x%02x%02x", &r, &g, &b), ==, 3);
  hi = MAX (r, MAX (g, b));
  lo = MIN (r, MIN (g, b));
  return hi ? (gdouble) (hi - lo) / hi : 0.0;
}

static gboolean
gp_dot_is_queue (GpElement * e)
{
  return e && g_strcmp0 (e->kind, "queue") == 0;
}

/* Every element a node in its bin's cluster (every bin one, nested in its
 * parent's), laid out; every link an edge between its elements, its label
 * the link's memory; fills in the order of the shares, the largest share
 * the deepest. Returns the graph (agclose it). */
static Agraph_t *
gp_dot_assert_graph (GpSession * s, const gchar * path)
{
  Agraph_t *g = gp_dot_read (path);
  GpElementSummary *hottest = NULL;
  Agnode_t *n;
  Agedge_t *e;
  guint i, j, n_edges = 0;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *el = g_ptr_array_index (s->elements, i);
    gchar *cname = g_strconcat ("cluster_", el->name, NULL);

    if (el->is_bin) {
      Agraph_t *sub = gp_dot_find_subg (g, cname);
      GpElement *parent = gp_session_find_element (s, el->parent);

      g_assert_nonnull (sub);
      if (parent && parent->is_bin) {
        gchar *pname = g_strconcat ("cluster_", parent->name, NULL);

        g_assert_true (agparent (sub) == gp_dot_find_subg (g, pname));
        g_free (pname);
      }
    } else {
      GpElement *parent = gp_session_find_element (s, el->parent);

      n = agnode (g, el->name, 0);
      g_assert_nonnull (n);
      g_assert_cmpstr (gp_dot_get (n, "pos"), !=, "");
      if (parent && parent->is_bin) {
        gchar *pname = g_strconcat ("cluster_", parent->name, NULL);
        Agraph_t *sub = gp_dot_find_subg (g, pname);

        g_assert_nonnull (sub);
        g_assert_nonnull (agnode (sub, el->name, 0));
        g_free (pname);
      }
    }
    g_free (cname);
  }

  for (n = agfstnode (g); n; n = agnxtnode (g, n))
    for (e = agfstout (g, n); e; e = agnxtout (g, e))
      n_edges++;
  g_assert_cmpuint (n_edges, ==, s->links->len);
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src), *sink = gp_pad_element (l->sink);
    Agnode_t *t = agnode (g, src, 0), *h = agnode (g, sink, 0);
    gboolean found = FALSE;

    g_assert_nonnull (t);
    g_assert_nonnull (h);
    for (e = agfstout (g, t); e; e = agnxtout (g, e)) {
      const gchar *memory = l->memory ? l->memory : "unknown";
      gchar *want;

      if (aghead (e) != h || strcmp (gp_dot_get (e, "id"), l->id) != 0)
        continue;
      if (g_str_has_prefix (memory, "memory:"))
        memory += strlen ("memory:");
      want = g_strconcat ("\\nmemory: ", memory, NULL);
      g_assert_true (g_str_has_suffix (gp_dot_get (e, "tooltip"), want));
      g_free (want);
      /* the label says memory other than system's, in a few words */
      if (strcmp (memory, "system") != 0 && strcmp (memory, "unknown") != 0)
        g_assert_nonnull (strstr (gp_dot_get (e, "label"), memory));
      found = TRUE;
    }
    g_assert_true (found);
    g_free (src);
    g_free (sink);
  }

  /* fills: a larger share never paler, the largest the deepest */
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *a = g_ptr_array_index (s->elem_summaries, i);

    if (gp_dot_is_queue (gp_session_find_element (s, a->name)) ||
        a->buffers == 0)
      continue;
    if (hottest == NULL || a->share_pct > hottest->share_pct)
      hottest = a;
    for (j = 0; j < s->elem_summaries->len; j++) {
      GpElementSummary *b = g_ptr_array_index (s->elem_summaries, j);
      gdouble sa, sb;

      if (gp_dot_is_queue (gp_session_find_element (s, b->name)) ||
          b->buffers == 0 || !(a->share_pct > b->share_pct))
        continue;
      sa = gp_dot_saturation (gp_dot_get (agnode (g, a->name, 0), "fillcolor"));
      sb = gp_dot_saturation (gp_dot_get (agnode (g, b->name, 0), "fillcolor"));
      g_assert_cmpfloat (sa, >=, sb);
    }
  }
  if (hottest) {
    gdouble top = gp_dot_saturation (gp_dot_get (agnode (g, hottest->name,
                0), "fillcolor"));

    g_test_message ("deepest fill: %s (%.1f%%), saturation %.2f",
        hottest->name, hottest->share_pct, top);
    g_assert_cmpfloat (top, >, 0.5);
  }
  return g;
}

/* ------------------------------------------------------------------ */
/* the SVG, read back as XML                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  gboolean in_title;
  gboolean saw_svg;
  GString *titles;              /* "\n"-separated */
} GpSvgRead;

static void
gp_svg_start (GMarkupParseContext * ctx, const gchar * name,
    const gchar ** attr_names, const gchar ** attr_values, gpointer data,
    GError ** error)
{
  GpSvgRead *r = data;

  if (strcmp (name, "svg") == 0)
    r->saw_svg = TRUE;
  r->in_title = strcmp (name, "title") == 0;
}

static void
gp_svg_end (GMarkupParseContext * ctx, const gchar * name, gpointer data,
    GError ** error)
{
  GpSvgRead *r = data;

  if (r->in_title)
    g_string_append_c (r->titles, '\n');
  r->in_title = FALSE;
}

static void
gp_svg_text (GMarkupParseContext * ctx, const gchar * text, gsize len,
    gpointer data, GError ** error)
{
  GpSvgRead *r = data;

  if (r->in_title)
    g_string_append_len (r->titles, text, len);
}

/* @path parses as XML with an <svg> root; every element has a node titled
 * by its name, every bin a cluster. */
static void
gp_svg_assert (GpSession * s, const gchar * path)
{
  GMarkupParser parser = { gp_svg_start, gp_svg_end, gp_svg_text, NULL,
    NULL
  };
  GpSvgRead r = { FALSE, FALSE, g_string_new ("\n") };
  GMarkupParseContext *ctx;
  GError *err = NULL;
  gchar *data = NULL;
  gsize len;
  guint i;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  ctx = g_markup_parse_context_new (&parser, 0, &r, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, data, len, &err));
  g_assert_no_error (err);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &err));
  g_assert_no_error (err);
  g_assert_true (r.saw_svg);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *el = g_ptr_array_index (s->elements, i);
    gchar *line = g_strdup_printf ("\n%s%s\n", el->is_bin ? "cluster_" : "",
        el->name);

    if (strstr (r.titles->str, line) == NULL)
      g_error ("no <title>%s</title> in %s", line + 1, path);
    g_free (line);
  }
  g_markup_parse_context_free (ctx);
  g_string_free (r.titles, TRUE);
  g_free (data);
}

/* ------------------------------------------------------------------ */
/* tests                                                                */
/* ------------------------------------------------------------------ */

/* The bin pipeline exported three ways at once, each checked. */
static void
test_export_run (void)
{
  const gchar *dir;
  gchar *out = gp_export_path ("out"), *dot, *svg, *csv, *listing;
  GpSession *s;
  GpTestRun r;
  Agraph_t *g;
  Agedge_t *e;
  gchar **lines;
  gdouble fps;

  if (!gp_test_have_tracer ())
    return;
  dir = gp_export_run_dir ();
  s = gp_test_load_session_dir (dir);
  g_assert_cmpuint (gp_session_n_windows (s), >=, 4);
  dot = g_build_filename (out, "graph.dot", NULL);
  svg = g_build_filename (out, "graph.svg", NULL);
  csv = g_build_filename (out, "csv", NULL);
  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);

  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--dot", dot, "--svg", svg,
      "--csv", csv, NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  gp_test_run_clear (&r);
  /* written whole: nothing left beside them */
  listing = gp_export_listing (out);
  g_assert_cmpstr (listing, ==, "csv,graph.dot,graph.svg");
  g_free (listing);
  listing = gp_export_listing (csv);
  g_assert_cmpstr (listing, ==, "elements.csv,links.csv,paths.csv,"
      "process.csv,queues.csv,summary-elements.csv,threads.csv");
  g_free (listing);

  /* the graph: the bin a cluster inside the pipeline's, the planted
   * identity the deepest fill */
  g = gp_dot_assert_graph (s, dot);
  g_assert_nonnull (gp_dot_find_subg (g, "cluster_bin0"));
  g_assert_nonnull (agnode (gp_dot_find_subg (g, "cluster_bin0"), "slow", 0));
  g_assert_nonnull (agnode (gp_dot_find_subg (g, "cluster_bin0"), "q", 0));
  g_assert_null (agnode (gp_dot_find_subg (g, "cluster_bin0"), "fakesink0", 0));
  g_assert_cmpfloat (gp_dot_saturation (gp_dot_get (agnode (g, "slow", 0),
              "fillcolor")), >, gp_dot_saturation (gp_dot_get (agnode (g,
                  "videotestsrc0", 0), "fillcolor")));
  g_assert_cmpfloat (gp_session_find_elem_summary (s, "slow")->share_pct, >,
      80.0);

  /* the link out of the identity: the 30 fps the sink's clock held, the
   * stream in a few words (system memory goes unsaid); the whole caps and
   * the memory in its tooltip */
  e = agedge (g, agnode (g, "slow", 0), agnode (g, "q", 0), NULL, 0);
  g_assert_nonnull (e);
  g_test_message ("label: %s", gp_dot_get (e, "label"));
  lines = g_strsplit (gp_dot_get (e, "label"), "\\n", -1);
  fps = g_ascii_strtod (lines[0], NULL);
  g_assert_true (strstr (lines[0], " fps") != NULL);
  g_assert_cmpfloat (fabs (fps - GP_EXPORT_FPS), <, 1.5);
  g_assert_true (g_str_has_prefix (lines[1], "raw video "));
  g_assert_true (g_str_has_suffix (lines[1], " 160x120 30 fps"));
  g_assert_null (lines[2]);
  g_assert_nonnull (strstr (gp_dot_get (e, "tooltip"), "video/x-raw"));
  g_assert_nonnull (strstr (gp_dot_get (e, "tooltip"), "width=160"));
  g_assert_nonnull (strstr (gp_dot_get (e, "tooltip"), "framerate=30/1"));
  g_assert_true (g_str_has_suffix (gp_dot_get (e, "tooltip"),
          "\\nmemory: system"));
  g_strfreev (lines);
  agclose (g);

  gp_svg_assert (s, svg);

  gp_csv_assert_series (s, csv);
  /* most windows of the 2 s run hold the identity's buffers */
  g_assert_cmpuint (gp_csv_assert_planted (csv, "slow"), >=, 4);
  gp_csv_assert_summary (s, csv, "slow");

  gp_session_free (s);
  g_free (dot);
  g_free (svg);
  g_free (csv);
  g_free (out);
}

/* The width and height of an SVG's root, in points. */
static void
gp_svg_size (GBytes * svg, gdouble * w, gdouble * h)
{
  gchar *text = g_strndup (g_bytes_get_data (svg, NULL),
      g_bytes_get_size (svg));
  const gchar *root = strstr (text, "<svg"), *at;

  g_assert_nonnull (root);
  at = strstr (root, " width=\"");
  g_assert_nonnull (at);
  *w = g_ascii_strtod (at + strlen (" width=\""), NULL);
  at = strstr (root, " height=\"");
  g_assert_nonnull (at);
  *h = g_ascii_strtod (at + strlen (" height=\""), NULL);
  g_free (text);
}

/* A graph fits a page's width: a chain of 40 elements (8,000 pt in a
 * row) is laid out top to bottom, 3 elements stay in a row. */
static void
test_export_fits (void)
{
  GpSession *s = gp_session_new ();
  GBytes *svg;
  gchar *prev = NULL;
  gdouble w, h;
  guint i;

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  for (i = 0; i < 40; i++) {
    gchar *name = g_strdup_printf ("e%u", i);

    gp_session_add_element (s, name, i == 0 ? "videotestsrc" : i == 39 ?
        "fakesink" : "identity", "pipeline0", i == 0 ? "source" : i == 39 ?
        "sink" : "filter");
    if (prev) {
      gchar *src = g_strconcat (prev, ".src", NULL);
      gchar *sink = g_strconcat (name, ".sink", NULL);

      gp_session_add_link (s, src, sink, "video/x-raw, format=(string)I420, "
          "width=(int)320, height=(int)240, framerate=(fraction)30/1, "
          "multiview-mode=(string)mono, pixel-aspect-ratio=(fraction)1/1",
          "system");
      g_free (src);
      g_free (sink);
    }
    g_free (prev);
    prev = name;
  }
  g_free (prev);
  svg = gp_export_graph_data (s, GP_EXPORT_GRAPH_SVG, "chain", NULL);
  g_assert_nonnull (svg);
  gp_svg_size (svg, &w, &h);
  g_test_message ("40 elements: %.0f x %.0f pt", w, h);
  g_assert_cmpfloat (w, <=, 1000);
  g_assert_cmpfloat (h, >, w);
  g_bytes_unref (svg);
  gp_session_free (s);

  s = gp_session_new ();
  gp_session_add_element (s, "a", "videotestsrc", "", "source");
  gp_session_add_element (s, "b", "identity", "", "filter");
  gp_session_add_element (s, "c", "fakesink", "", "sink");
  gp_session_add_link (s, "a.src", "b.sink", NULL, NULL);
  gp_session_add_link (s, "b.src", "c.sink", NULL, NULL);
  svg = gp_export_graph_data (s, GP_EXPORT_GRAPH_SVG, "three", NULL);
  g_assert_nonnull (svg);
  gp_svg_size (svg, &w, &h);
  g_test_message ("3 elements: %.0f x %.0f pt", w, h);
  g_assert_cmpfloat (w, >, h);
  g_bytes_unref (svg);
  gp_session_free (s);
}

/* Branches alike are drawn once: a tee into 8 branches of queue !
 * videoconvert ! fakesink and one of queue ! fakesink draws 2 branches,
 * the first of the 8 with "×8 branches alike, 7 folded" and the names of
 * the others in its tooltip; a tee into two alike keeps both. */
static void
test_export_folds (void)
{
  GpSession *s = gp_session_new ();
  GBytes *dot;
  gchar *text;
  guint i;

  gp_session_add_element (s, "src", "videotestsrc", "", "source");
  gp_session_add_element (s, "t", "tee", "", "filter");
  gp_session_add_link (s, "src.src", "t.sink", NULL, NULL);
  for (i = 0; i < 9; i++) {
    gchar *q = g_strdup_printf ("q%u", i), *c = g_strdup_printf ("c%u", i);
    gchar *k = g_strdup_printf ("k%u", i);
    gchar *a = g_strdup_printf ("t.src_%u", i), *b, *bs, *cs, *ks;

    gp_session_add_element (s, q, "queue", "", "queue");
    if (i < 8)
      gp_session_add_element (s, c, "videoconvert", "", "filter");
    gp_session_add_element (s, k, "fakesink", "", "sink");
    b = g_strconcat (q, ".sink", NULL);
    bs = g_strconcat (q, ".src", NULL);
    cs = g_strconcat (i < 8 ? c : k, ".sink", NULL);
    gp_session_add_link (s, a, b, NULL, NULL);
    gp_session_add_link (s, bs, cs, NULL, NULL);
    if (i < 8) {
      gchar *co = g_strconcat (c, ".src", NULL);

      ks = g_strconcat (k, ".sink", NULL);
      gp_session_add_link (s, co, ks, NULL, NULL);
      g_free (co);
      g_free (ks);
    }
    g_free (q);
    g_free (c);
    g_free (k);
    g_free (a);
    g_free (b);
    g_free (bs);
    g_free (cs);
  }
  dot = gp_export_graph_data (s, GP_EXPORT_GRAPH_DOT, "tee", NULL);
  g_assert_nonnull (dot);
  text = g_strndup (g_bytes_get_data (dot, NULL), g_bytes_get_size (dot));
  g_assert_nonnull (strstr (text, "\u00d78 branches alike, 7 folded\\n"));
  g_assert_nonnull (strstr (text, "\u00d78 branches alike, 7 folded: q"));
  /* the first branch drawn, the others not; the different one drawn */
  g_assert_nonnull (strstr (text, "\tc0\t["));
  for (i = 1; i < 8; i++) {
    gchar *node = g_strdup_printf ("\tc%u\t[", i);

    g_assert_null (strstr (text, node));
    g_free (node);
  }
  g_assert_nonnull (strstr (text, "\tq8\t["));
  g_assert_nonnull (strstr (text, "\tk8\t["));
  g_free (text);
  g_bytes_unref (dot);
  gp_session_free (s);
}

/* Names with commas, quotes and blanks: quoted in the CSV and the dot
 * text, and read back as they were. */
static void
test_export_odd_names (void)
{
  const gchar *name = "we,ird \"one\" ";
  gchar *dir = gp_export_path ("odd"), *dot, *csv, *path;
  GPtrArray *rows;
  GpSession *s;
  GpTestRun r;
  Agraph_t *g;
  guint i, n = 0;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "run", "--quiet", "--out", dir,
      "videotestsrc num-buffers=30 ! identity name=\"we,ird \\\"one\\\" \" "
      "sleep-time=4000 ! fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  s = gp_test_load_session_dir (dir);
  g_assert_nonnull (gp_session_find_element (s, name));

  dot = g_build_filename (dir, "g.dot", NULL);
  csv = g_build_filename (dir, "csv", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--dot", dot, "--csv", csv,
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);

  g = gp_dot_assert_graph (s, dot);
  g_assert_true (g_str_has_prefix (gp_dot_get (agnode (g, (char *) name, 0),
              "label"), name));
  agclose (g);
  gp_csv_assert_series (s, csv);
  g_assert_cmpuint (gp_csv_assert_planted (csv, name), >=, 1);

  path = g_build_filename (csv, "summary-elements.csv", NULL);
  rows = gp_csv_read (path);
  for (i = 1; i < rows->len; i++)
    n += strcmp (((gchar **) g_ptr_array_index (rows, i))[0], name) == 0;
  g_assert_cmpuint (n, ==, 1);
  g_ptr_array_unref (rows);
  g_free (path);

  gp_session_free (s);
  g_free (dot);
  g_free (csv);
  g_free (dir);
}

/* Every cell of the CSV file @path that a spreadsheet would read as a
 * formula (it begins with =, +, - or @) is a whole number; the cells of
 * @column are counted by what they hold, a formula-like name only
 * after the single quote that makes it text. */
static guint
gp_csv_assert_no_formula (const gchar * path, const gchar * column,
    const gchar * const *names)
{
  GPtrArray *rows = gp_csv_read (path);
  gint col = gp_csv_column (rows, column);
  guint i, j, seen = 0;

  for (i = 1; i < rows->len; i++) {
    gchar **row = g_ptr_array_index (rows, i);

    for (j = 0; row[j]; j++) {
      gchar *end = NULL;

      if (strchr ("=+-@", row[j][0]) == NULL || row[j][0] == '\0')
        continue;
      g_ascii_strtod (row[j], &end);
      if (end == row[j] || *end != '\0')
        g_error ("%s row %u: a formula cell '%s'", path, i, row[j]);
    }
    for (j = 0; names[j]; j++) {
      gchar *quoted = g_strconcat ("'", names[j], NULL);

      seen += strcmp (row[col], quoted) == 0;
      g_free (quoted);
    }
  }
  g_ptr_array_unref (rows);
  return seen;
}

/* Element names that begin as formulas (=, +, -, @) are written as text,
 * a single quote before them inside the quoted cell (OWASP's advice); the
 * numbers beside them stay numbers. */
static void
test_export_formula_names (void)
{
  const gchar *const names[] = { "=HYPERLINK(\"x\")", "+1", "-2",
    "@SUM(A1)", NULL
  };
  gchar *dir = gp_export_path ("formula"), *csv, *path;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  gp_test_run_gstprof (&r, gp_tmp, "run", "--quiet", "--out", dir,
      "videotestsrc num-buffers=20 ! identity name=\"=HYPERLINK(\\\"x\\\")\" "
      "! identity name=+1 ! identity name=-2 ! identity name=@SUM(A1) "
      "sleep-time=2000 ! fakesink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  csv = g_build_filename (dir, "csv", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--csv", csv, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);

  path = g_build_filename (csv, "summary-elements.csv", NULL);
  g_assert_cmpuint (gp_csv_assert_no_formula (path, "element", names), ==,
      4);
  g_free (path);
  path = g_build_filename (csv, "elements.csv", NULL);
  g_assert_cmpuint (gp_csv_assert_no_formula (path, "element", names), >=,
      4);
  g_free (path);
  g_free (csv);
  g_free (dir);
}

/* The records the tracer writes by itself (GST_TRACERS="gstprof(out=)"
 * around gst-launch-1.0) are a SESSION too, loaded as analyze loads them. */
static void
test_export_records (void)
{
  gchar *dir = gp_export_path ("records"), *csv, *svg;
  gchar *tracers = g_strdup_printf ("gstprof(out=%s,window=100)", dir);
  gchar *argv[] = { (gchar *) "gst-launch-1.0", (gchar *) "-q",
    (gchar *) "videotestsrc", (gchar *) "num-buffers=30", (gchar *) "!",
    (gchar *) "identity", (gchar *) "name=slow", (gchar *) "sleep-time=4000",
    (gchar *) "!", (gchar *) "fakesink", NULL
  };
  gchar **env = g_get_environ ();
  GError *err = NULL;
  GpTestRun r;
  gint status = 0;

  if (!gp_test_have_tracer ())
    return;
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &err));
  g_assert_no_error (err);
  g_assert_cmpint (gp_test_exit_code (status), ==, 0);

  csv = g_build_filename (gp_tmp, "records-csv", NULL);
  svg = g_build_filename (gp_tmp, "records.svg", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--csv", csv, "--svg", svg,
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);
  g_assert_cmpuint (gp_csv_assert_planted (csv, "slow"), >=, 1);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));

  g_strfreev (env);
  g_free (tracers);
  g_free (csv);
  g_free (svg);
  g_free (dir);
}

/* A Jetson capture read from gst-profile/1: its NVMM links say so. */
static void
test_export_jetson (void)
{
  gchar *fixture = gp_test_fixture_path ("gst-profile-sessions",
      "orin-nx-jp6-zc-break.json");
  gchar *dot = gp_export_path ("jetson.dot"), *csv = gp_export_path ("jcsv");
  GError *err = NULL;
  GpSession *s;
  Agraph_t *g;
  guint i, nvmm = 0;

  if (fixture == NULL) {
    g_free (dot);
    g_free (csv);
    return;
  }
  g_free (fixture);
  s = gp_test_load_fixture ("orin-nx-jp6-zc-break.json");

  for (i = 0; i < s->links->len; i++)
    nvmm += g_strcmp0 (((GpLink *) g_ptr_array_index (s->links,
                i))->memory, "memory:NVMM") == 0;
  g_assert_cmpuint (nvmm, >, 0);
  g_assert_true (gp_export_graph (s, GP_EXPORT_GRAPH_DOT, dot, &err));
  g_assert_no_error (err);
  /* checks every link's memory line against the capture's */
  g = gp_dot_assert_graph (s, dot);
  agclose (g);
  g_assert_true (gp_export_csv (s, csv, &err));
  g_assert_no_error (err);
  gp_csv_assert_series (s, csv);
  gp_csv_assert_summary (s, csv, NULL);
  gp_session_free (s);
  g_free (dot);
  g_free (csv);
}

/* Bad input: exit 3, one line naming what is wrong, nothing written. */
static void
test_export_bad_input (void)
{
  gchar *missing = gp_export_path ("no-such-session.json");
  gchar *junk = gp_export_path ("junk.json");
  gchar *out = gp_export_path ("bad-out"), *dot, *nodir, *listing, *old;
  gchar *file_as_dir;
  const gchar *dir;
  GpTestRun r;

  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
  dot = g_build_filename (out, "g.dot", NULL);
  g_assert_true (g_file_set_contents (dot, "old", -1, NULL));
  g_assert_true (g_file_set_contents (junk, "this is not json\n", -1, NULL));

  gp_test_run_gstprof (&r, gp_tmp, "export", missing, "--dot", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no-such-session.json");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "export", junk, "--dot", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "junk.json");
  gp_test_run_clear (&r);

  /* the old file is still there, whole; nothing else was left */
  g_assert_true (g_file_get_contents (dot, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, "old");
  g_free (old);
  listing = gp_export_listing (out);
  g_assert_cmpstr (listing, ==, "g.dot");
  g_free (listing);

  gp_test_run_gstprof (&r, gp_tmp, "export", junk, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no output asked");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "export", "--svg", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no session given");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "export", junk, junk, "--dot", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "extra");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "export", junk, "--dot", "", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--dot");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "export", junk, "--png", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--png");
  gp_test_run_clear (&r);

  /* outputs that cannot be written name their path */
  if (!gp_test_have_tracer ())
    goto out;
  dir = gp_export_run_dir ();
  nodir = g_build_filename (out, "no", "such", "dir", "g.svg", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--svg", nodir, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, nodir);
  gp_test_run_clear (&r);

  /* --csv onto a file, and --dot onto a folder */
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--csv", dot, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, dot);
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--dot", out, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, out);
  gp_test_run_clear (&r);
  listing = gp_export_listing (out);
  g_assert_cmpstr (listing, ==, "g.dot");
  g_free (listing);

  /* a CSV folder whose file cannot be replaced: elements.csv a folder */
  file_as_dir = g_build_filename (out, "csv", "elements.csv", NULL);
  g_assert_cmpint (g_mkdir_with_parents (file_as_dir, 0755), ==, 0);
  g_free (file_as_dir);
  file_as_dir = g_build_filename (out, "csv", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--csv", file_as_dir, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "elements.csv");
  gp_test_run_clear (&r);
  listing = gp_export_listing (file_as_dir);
  g_assert_cmpstr (listing, ==, "elements.csv");
  g_free (listing);
  g_free (file_as_dir);
  g_free (nodir);

out:
  g_free (missing);
  g_free (junk);
  g_free (dot);
  g_free (out);
}

/* --help names every output and the exit codes. */
static void
test_export_help (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "export", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "--dot=FILE"));
  g_assert_nonnull (strstr (r.out, "--svg=FILE"));
  g_assert_nonnull (strstr (r.out, "--csv=DIR"));
  g_assert_nonnull (strstr (r.out, "Exit codes"));
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "export SESSION"));
  gp_test_run_clear (&r);
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gstprof-test-export-XXXXXX", &err);
  g_assert_no_error (err);

  g_test_add_func ("/export/run", test_export_run);
  g_test_add_func ("/export/odd-names", test_export_odd_names);
  g_test_add_func ("/export/fits", test_export_fits);
  g_test_add_func ("/export/folds", test_export_folds);
  g_test_add_func ("/export/formula-names", test_export_formula_names);
  g_test_add_func ("/export/records", test_export_records);
  g_test_add_func ("/export/jetson", test_export_jetson);
  g_test_add_func ("/export/bad-input", test_export_bad_input);
  g_test_add_func ("/export/help", test_export_help);

  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
