/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export-csv.c: the session's series and its element summary as CSV
 * files (gp_export_csv), for spreadsheets and pandas.
 *
 * One file per series section (docs/session-schema.md, series[]): a row
 * per window and entity in it, "t0_s,t1_s" (the window's span, seconds
 * since the session started), the entity's name (element, link id, queue,
 * thread or path "source->sink"; the process's file has none), then every
 * field any window holds for that section, in the order they first appear,
 * named as in the session, where the name carries the unit (self_ms_p50,
 * bytes_per_s, level_pct_max, cpu_pct, rss_mb; counts are bare:
 * buffers, dropped, matched). A window without a sample (-1 or null in the
 * session) leaves the cell empty, which pandas reads as NaN; an entity a
 * window does not hold has no row there (unknown, not zero).
 *
 * summary-elements.csv: a row per element of summary.elements, in its
 * order (most self time first), with its graph entry's factory, parent and
 * kind, its quantiles, totals and shares.
 *
 * RFC 4180: comma-separated, CRLF line ends, a cell quoted (its quotes
 * doubled) when it holds a comma, a quote, a line break or blanks at
 * either end. A name (element, file, thread) that begins with =, +, -, @,
 * a tab or a CR is written "'=..." so that a spreadsheet shows it as text
 * and never runs it as a formula; numbers, negative ones too, stay
 * numbers.
 */
#include "gp-export.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#define GP_EXPORT_CSV_EOL "\r\n"

/* one row being built */
typedef struct
{
  GString *text;
  guint cells;
} GpExportCsvRow;

typedef struct
{
  const gchar *file;
  const gchar *section;         /* GP_SERIES_* */
  const gchar *key;             /* the entity column, NULL: no entities */
} GpExportCsvSeries;

static const GpExportCsvSeries gp_export_csv_series[] = {
  {"elements.csv", GP_SERIES_ELEMENTS, "element"},
  {"links.csv", GP_SERIES_LINKS, "link"},
  {"queues.csv", GP_SERIES_QUEUES, "queue"},
  {"threads.csv", GP_SERIES_THREADS, "thread"},
  {"paths.csv", GP_SERIES_PATHS, "path"},
  {"process.csv", GP_SERIES_PROCESS, NULL},
};

#define GP_EXPORT_CSV_SUMMARY_ELEMENTS "summary-elements.csv"

static const gchar *const gp_export_csv_names[] = {
  "elements.csv", "links.csv", "queues.csv", "threads.csv", "paths.csv",
  "process.csv", GP_EXPORT_CSV_SUMMARY_ELEMENTS, NULL
};

static gboolean gp_export_csv_write_series (GpSession * s, const gchar * dir,
    const GpExportCsvSeries * series, GError ** error);
static gboolean gp_export_csv_write_summary (GpSession * s,
    const gchar * dir, GError ** error);

const gchar *const *
gp_export_csv_files (void)
{
  return gp_export_csv_names;
}

gboolean
gp_export_csv (GpSession * s, const gchar * dir, GError ** error)
{
  guint i;

  g_return_val_if_fail (s != NULL && dir != NULL, FALSE);
  G_STATIC_ASSERT (G_N_ELEMENTS (gp_export_csv_names) ==
      G_N_ELEMENTS (gp_export_csv_series) + 2);

  if (g_mkdir_with_parents (dir, 0777) != 0) {
    int err = errno;

    g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_IO,
        "%s: cannot write: %s", dir, g_strerror (err));
    return FALSE;
  }
  for (i = 0; i < G_N_ELEMENTS (gp_export_csv_series); i++)
    if (!gp_export_csv_write_series (s, dir, &gp_export_csv_series[i], error))
      return FALSE;
  return gp_export_csv_write_summary (s, dir, error);
}

/* ------------------------------------------------------------------ */
/* cells                                                                */
/* ------------------------------------------------------------------ */

/* A cell @text begins with one of these, a spreadsheet reads it as a
 * formula (and may run it): an element or file name is never one. The
 * first four are OWASP's list; tab and CR too, as it advises. */
#define GP_EXPORT_CSV_FORMULA_CHARS "=+-@\t\r"

/* One cell; @is_text: a name, which is kept from being read as a formula
 * (quoted, after a single quote) when it begins like one. Numbers are
 * written as they are (a negative one stays a number). */
static void
gp_export_csv_cell (GpExportCsvRow * row, const gchar * text,
    gboolean is_text)
{
  gboolean formula;
  gsize len;
  const gchar *p;

  if (row->cells++ > 0)
    g_string_append_c (row->text, ',');
  if (text == NULL)
    return;
  len = strlen (text);
  formula = is_text && len > 0 &&
      strchr (GP_EXPORT_CSV_FORMULA_CHARS, text[0]) != NULL;
  if (!formula && strpbrk (text, ",\"\r\n") == NULL && (len == 0 ||
          (!g_ascii_isspace (text[0]) && !g_ascii_isspace (text[len - 1])))) {
    g_string_append (row->text, text);
    return;
  }
  g_string_append_c (row->text, '"');
  if (formula)
    g_string_append_c (row->text, '\'');
  for (p = text; *p; p++) {
    if (*p == '"')
      g_string_append_c (row->text, '"');
    g_string_append_c (row->text, *p);
  }
  g_string_append_c (row->text, '"');
}

/* A name or a header: never read as a formula. */
static void
gp_export_csv_text (GpExportCsvRow * row, const gchar * text)
{
  gp_export_csv_cell (row, text, TRUE);
}

/* A measured number; empty when negative or NAN (no sample, unknown).
 * Whole numbers (counts) without a fraction. */
static void
gp_export_csv_number (GpExportCsvRow * row, gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!(v >= 0) || isinf (v)) {
    gp_export_csv_text (row, NULL);
    return;
  }
  if (v == floor (v) && v < 1e15)
    g_ascii_formatd (buf, sizeof buf, "%.0f", v);
  else
    g_ascii_formatd (buf, sizeof buf, "%.9g", v);
  gp_export_csv_cell (row, buf, FALSE);
}

static void
gp_export_csv_seconds (GpExportCsvRow * row, gdouble t)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.6f", t);
  gp_export_csv_cell (row, buf, FALSE);
}

/* Ends @row and writes it. */
static void
gp_export_csv_put (GpAtomicFile * f, GpExportCsvRow * row)
{
  g_string_append (row->text, GP_EXPORT_CSV_EOL);
  fputs (row->text->str, f->fp);
  g_string_truncate (row->text, 0);
  row->cells = 0;
}

/* ------------------------------------------------------------------ */
/* series                                                               */
/* ------------------------------------------------------------------ */

static void
gp_export_csv_add_fields (GPtrArray * fields, GHashTable * seen,
    JsonObject * entry)
{
  GList *members = json_object_get_members (entry), *l;

  for (l = members; l; l = l->next) {
    if (g_hash_table_contains (seen, l->data))
      continue;
    g_hash_table_add (seen, l->data);
    g_ptr_array_add (fields, l->data);
  }
  g_list_free (members);
}

/* The fields any window holds for @series, in the order they first
 * appear (borrowed from the session). */
static GPtrArray *
gp_export_csv_fields (GpSession * s, const GpExportCsvSeries * series)
{
  GPtrArray *fields = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i, n = gp_session_n_windows (s);

  for (i = 0; i < n; i++) {
    JsonObject *section = gp_session_window_section (s, i, series->section);
    GList *keys, *l;

    if (section == NULL)
      continue;
    if (series->key == NULL) {
      gp_export_csv_add_fields (fields, seen, section);
      continue;
    }
    keys = json_object_get_members (section);
    for (l = keys; l; l = l->next) {
      JsonNode *node = json_object_get_member (section, l->data);

      if (JSON_NODE_HOLDS_OBJECT (node))
        gp_export_csv_add_fields (fields, seen, json_node_get_object (node));
    }
    g_list_free (keys);
  }
  g_hash_table_unref (seen);
  return fields;
}

static void
gp_export_csv_series_row (GpAtomicFile * f, GpExportCsvRow * row, GpSession * s,
    guint i, const GpExportCsvSeries * series, const gchar * key,
    GPtrArray * fields)
{
  gdouble t0, t1;
  guint j;

  gp_session_window_span (s, i, &t0, &t1);
  gp_export_csv_seconds (row, t0);
  gp_export_csv_seconds (row, t1);
  if (series->key)
    gp_export_csv_text (row, key);
  for (j = 0; j < fields->len; j++)
    gp_export_csv_number (row, gp_session_window_value (s, i,
            series->section, key, g_ptr_array_index (fields, j)));
  gp_export_csv_put (f, row);
}

static gboolean
gp_export_csv_write_series (GpSession * s, const gchar * dir,
    const GpExportCsvSeries * series, GError ** error)
{
  gchar *path = g_build_filename (dir, series->file, NULL);
  GpAtomicFile *f = gp_atomic_file_open (path, error);
  GPtrArray *fields;
  GpExportCsvRow row = { g_string_new (NULL), 0 };
  guint i, j, n = gp_session_n_windows (s);

  g_free (path);
  if (f == NULL)
    return FALSE;
  fields = gp_export_csv_fields (s, series);

  gp_export_csv_text (&row, "t0_s");
  gp_export_csv_text (&row, "t1_s");
  if (series->key)
    gp_export_csv_text (&row, series->key);
  for (j = 0; j < fields->len; j++)
    gp_export_csv_text (&row, g_ptr_array_index (fields, j));
  gp_export_csv_put (f, &row);

  for (i = 0; i < n; i++) {
    JsonObject *section = gp_session_window_section (s, i, series->section);
    GList *keys, *l;

    if (section == NULL)
      continue;
    if (series->key == NULL) {
      gp_export_csv_series_row (f, &row, s, i, series, NULL, fields);
      continue;
    }
    keys = json_object_get_members (section);
    for (l = keys; l; l = l->next)
      if (JSON_NODE_HOLDS_OBJECT (json_object_get_member (section, l->data)))
        gp_export_csv_series_row (f, &row, s, i, series, l->data, fields);
    g_list_free (keys);
  }

  g_string_free (row.text, TRUE);
  g_ptr_array_unref (fields);
  return gp_atomic_file_commit (f, error);
}

/* ------------------------------------------------------------------ */
/* the element summary                                                  */
/* ------------------------------------------------------------------ */

static const gchar *const gp_export_csv_summary_header[] = {
  "element", "factory", "parent", "kind", "buffers",
  "self_ms_p50", "self_ms_p95", "self_ms_p99", "self_ms_max", "self_total_ms",
  "cpu_buffers", "wait_ms_p50", "wait_ms_p95", "wait_ms_p99", "wait_ms_max",
  "wait_total_ms", "cpu_ms", "busy_pct", "share_pct", "threads",
};

static void
gp_export_csv_quantiles (GpExportCsvRow * row, const GpQuantiles * q)
{
  gp_export_csv_number (row, q->p50);
  gp_export_csv_number (row, q->p95);
  gp_export_csv_number (row, q->p99);
  gp_export_csv_number (row, q->max);
}

static void
gp_export_csv_summary_row (GpAtomicFile * f, GpExportCsvRow * row,
    GpSession * s, GpElementSummary * es)
{
  GpElement *e = gp_session_find_element (s, es->name);
  GString *threads = g_string_new (NULL);
  guint i;

  gp_export_csv_text (row, es->name);
  gp_export_csv_text (row, e ? e->factory : NULL);
  gp_export_csv_text (row, e ? e->parent : NULL);
  gp_export_csv_text (row, e ? e->kind : NULL);
  gp_export_csv_number (row, (gdouble) es->buffers);
  gp_export_csv_quantiles (row, &es->self_ms);
  gp_export_csv_number (row, es->self_total_ms);
  gp_export_csv_number (row, (gdouble) es->cpu_buffers);
  gp_export_csv_quantiles (row, &es->wait_ms);
  gp_export_csv_number (row, es->wait_total_ms);
  gp_export_csv_number (row, es->cpu_ms);
  gp_export_csv_number (row, es->busy_pct);
  gp_export_csv_number (row, es->share_pct);
  /* thread names hold blanks ("pool-gstprof ru"): ';' apart */
  for (i = 0; es->threads && i < es->threads->len; i++)
    g_string_append_printf (threads, "%s%s", i ? ";" : "",
        (const gchar *) g_ptr_array_index (es->threads, i));
  gp_export_csv_text (row, threads->str);
  g_string_free (threads, TRUE);
  gp_export_csv_put (f, row);
}

static gboolean
gp_export_csv_write_summary (GpSession * s, const gchar * dir, GError ** error)
{
  gchar *path = g_build_filename (dir, GP_EXPORT_CSV_SUMMARY_ELEMENTS, NULL);
  GpAtomicFile *f = gp_atomic_file_open (path, error);
  GpExportCsvRow row = { NULL, 0 };
  guint i;

  g_free (path);
  if (f == NULL)
    return FALSE;
  row.text = g_string_new (NULL);
  for (i = 0; i < G_N_ELEMENTS (gp_export_csv_summary_header); i++)
    gp_export_csv_text (&row, gp_export_csv_summary_header[i]);
  gp_export_csv_put (f, &row);
  for (i = 0; i < s->elem_summaries->len; i++)
    gp_export_csv_summary_row (f, &row, s,
        g_ptr_array_index (s->elem_summaries, i));
  g_string_free (row.text, TRUE);
  return gp_atomic_file_commit (f, error);
}
