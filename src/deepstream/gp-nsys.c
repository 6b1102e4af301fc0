/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys.c: `nsys stats` output of any form into one table per report
 * (gp-nsys.h). The lines are read once, top to bottom: a `Processing [...]
 * with [.../NAME.py]` or `** Title (NAME):` line names the report that
 * follows, a SKIPPED line closes it empty, and a table starts at a csv
 * header, a header over a dashes line (column) or a `+---+` border (table).
 */
#include "gp-nsys.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (gp-nsys-error-quark, gp_nsys_error);

/* old report names (2022.4 and before) and their new ones */
static const gchar *const gp_nsys_old_names[][2] = {
  {"nvtxsum", "nvtx_sum"},
  {"nvtxppsum", "nvtx_pushpop_sum"},
  {"cudaapisum", "cuda_api_sum"},
  {"gpukernsum", "cuda_gpu_kern_sum"},
  {"gpumemtimesum", "cuda_gpu_mem_time_sum"},
  {"gpumemsizesum", "cuda_gpu_mem_size_sum"},
  {"osrtsum", "osrt_sum"},
};

/* the reports whose rows are typed (numbers checked); any other report is
 * kept as text */
static const gchar *const gp_nsys_known[] = {
  "nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "cuda_gpu_kern_sum",
  "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "cuda_api_sum",
  "osrt_sum", "syscall_sum", NULL
};

/* multi-word column names, for a header whose alignment was lost */
static const gchar *const gp_nsys_phrases[] = {
  "Time (%)", "Total Time", "Num Calls", "Total Proj Time",
  "Total Range Time", "Range Instances", "Proj Avg", "Proj Med", "Proj Min",
  "Proj Max", "Proj StdDev", "Total GPU Ops", "Avg GPU Ops", "Avg Range Lvl",
  "Avg Num Child", "NVTX Range", "NVTX Inst", "Kern Inst", "Kernel Name",
  "API Name", "Event Type", NULL
};

#define GP_NSYS_ELLIPSIS "\xe2\x80\xa6"

gchar *
gp_nsys_report_canonical (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_nsys_old_names); i++)
    if (g_strcmp0 (name, gp_nsys_old_names[i][0]) == 0)
      return g_strdup (gp_nsys_old_names[i][1]);
  return g_strdup (name ? name : "");
}

gchar *
gp_nsys_memop_canonical (const gchar * name)
{
  static const gchar *const dirs[][2] = {
    {"HtoD", "Host-to-Device"}, {"DtoH", "Device-to-Host"},
    {"DtoD", "Device-to-Device"}, {"HtoH", "Host-to-Host"},
    {"PtoP", "Peer-to-Peer"}, {"DtoA", "Device-to-Array"},
    {"AtoD", "Array-to-Device"}, {"AtoH", "Array-to-Host"},
    {"HtoA", "Host-to-Array"}, {"AtoA", "Array-to-Array"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (dirs); i++) {
    gchar *old = g_strdup_printf ("memcpy %s]", dirs[i][0]);

    if (g_str_has_suffix (name, old)) {
      gsize keep = strlen (name) - strlen (old);
      gchar *r = g_strdup_printf ("%.*smemcpy %s]", (gint) keep, name,
          dirs[i][1]);

      g_free (old);
      return r;
    }
    g_free (old);
  }
  return g_strdup (name);
}

static gboolean
gp_nsys_is_known (const gchar * report)
{
  return g_strv_contains (gp_nsys_known, report);
}

void
gp_nsys_table_free (GpNsysTable * t)
{
  guint i;

  if (t == NULL)
    return;
  g_free (t->report);
  g_free (t->printed);
  g_free (t->skipped);
  for (i = 0; i < t->n_columns; i++)
    g_free (t->columns[i]);
  g_free (t->columns);
  if (t->rows)
    g_ptr_array_unref (t->rows);
  g_free (t);
}

static void
gp_nsys_row_free (gpointer p)
{
  GpNsysRow *r = p;

  g_free (r->name);
  g_free (r->style);
  g_strfreev (r->cells);
  g_free (r);
}

static GpNsysTable *
gp_nsys_table_new (const gchar * printed, GpNsysForm form)
{
  GpNsysTable *t = g_new0 (GpNsysTable, 1);

  t->printed = g_strdup (printed ? printed : "");
  t->report = gp_nsys_report_canonical (t->printed);
  t->form = form;
  t->rows = g_ptr_array_new_with_free_func (gp_nsys_row_free);
  return t;
}

void
gp_nsys_stats_free (GpNsysStats * s)
{
  if (s == NULL)
    return;
  g_ptr_array_unref (s->tables);
  gp_lines_skips_clear (&s->rows_skipped);
  g_free (s);
}

void
gp_nsys_stats_merge (GpNsysStats * s, GpNsysStats * more)
{
  guint i;

  for (i = 0; i < more->tables->len; i++)
    g_ptr_array_add (s->tables, g_ptr_array_index (more->tables, i));
  g_ptr_array_set_free_func (more->tables, NULL);
  s->rows_skipped.lines += more->rows_skipped.lines;
  s->rows_skipped.skipped += more->rows_skipped.skipped;
  if (s->rows_skipped.first == NULL)
    s->rows_skipped.first = g_steal_pointer (&more->rows_skipped.first);
  gp_nsys_stats_free (more);
}

const GpNsysTable *
gp_nsys_stats_find (const GpNsysStats * s, const gchar * report)
{
  gchar *want = gp_nsys_report_canonical (report);
  const GpNsysTable *found = NULL;
  guint i;

  /* a table with rows before a report nsys skipped in another file */
  for (i = 0; i < 2 * s->tables->len && found == NULL; i++) {
    const GpNsysTable *t = g_ptr_array_index (s->tables,
        i % s->tables->len);

    if (strcmp (t->report, want) == 0 && (i >= s->tables->len
            || t->skipped == NULL))
      found = t;
  }
  if (found == NULL && strcmp (want, "nvtx_sum") == 0)
    found = gp_nsys_stats_find (s, "nvtx_pushpop_sum");
  g_free (want);
  return found;
}

gint
gp_nsys_table_column (const GpNsysTable * t, const gchar * name)
{
  guint i;

  for (i = 0; i < t->n_columns; i++)
    if (strcmp (t->columns[i], name) == 0)
      return (gint) i;
  return -1;
}

/* ---- numbers and the typed fields ------------------------------------ */

/* A cell as a finite number: thousands separators dropped. */
static gboolean
gp_nsys_number (const gchar * cell, gdouble * out)
{
  gchar *plain, *end;
  const gchar *p;
  GString *s = g_string_new (NULL);
  gdouble v;
  gboolean ok;

  for (p = cell; *p; p++)
    if (*p != ',')
      g_string_append_c (s, *p);
  plain = g_string_free (s, FALSE);
  g_strstrip (plain);
  ok = plain[0] != '\0' && (g_ascii_isdigit (plain[0]) || plain[0] == '-'
      || plain[0] == '.');
  v = ok ? g_ascii_strtod (plain, &end) : NAN;
  ok = ok && *end == '\0' && isfinite (v);
  g_free (plain);
  *out = ok ? v : NAN;
  return ok;
}

/* The factor to ns of a column "X (unit)"; 1 for (MB), (%), none. */
static gdouble
gp_nsys_unit_factor (const gchar * column)
{
  if (g_str_has_suffix (column, "(us)")
      || g_str_has_suffix (column, "(\xce\xbcs)"))
    return 1e3;
  if (g_str_has_suffix (column, "(ms)"))
    return 1e6;
  if (g_str_has_suffix (column, "(s)"))
    return 1e9;
  return 1.0;
}

/* The typed field a column fills, or NULL. */
static gdouble *
gp_nsys_field (GpNsysRow * r, const gchar * column)
{
  if (strcmp (column, "Time (%)") == 0)
    return &r->share_pct;
  if (g_str_has_prefix (column, "Total Time (")
      || g_str_has_prefix (column, "Total ("))
    return &r->total;
  if (strcmp (column, "Instances") == 0 || strcmp (column, "Count") == 0
      || strcmp (column, "Num Calls") == 0)
    return &r->count;
  if (g_str_has_prefix (column, "Avg ("))
    return &r->avg;
  if (g_str_has_prefix (column, "Med ("))
    return &r->med;
  if (g_str_has_prefix (column, "Min ("))
    return &r->min;
  if (g_str_has_prefix (column, "Max ("))
    return &r->max;
  if (g_str_has_prefix (column, "StdDev ("))
    return &r->stddev;
  return NULL;
}

static gboolean
gp_nsys_is_name_column (const gchar * column)
{
  return strcmp (column, "Range") == 0 || strcmp (column, "Name") == 0
      || strcmp (column, "Operation") == 0;
}

/* Adds a row of @cells (takes them) to @t; for a known report every typed
 * cell must be a number. */
static gboolean
gp_nsys_add_row (GpNsysTable * t, gchar ** cells, const gchar * origin,
    guint line, GError ** error)
{
  GpNsysRow *r = g_new0 (GpNsysRow, 1);
  gboolean typed = gp_nsys_is_known (t->report);
  guint c;

  r->cells = cells;
  r->share_pct = r->total = r->count = NAN;
  r->avg = r->med = r->min = r->max = r->stddev = NAN;
  for (c = 0; c < t->n_columns; c++) {
    const gchar *col = t->columns[c];
    gdouble *f = gp_nsys_field (r, col);

    if (gp_nsys_is_name_column (col) && r->name == NULL) {
      r->truncated = g_str_has_suffix (cells[c], GP_NSYS_ELLIPSIS);
      r->name = strcmp (col, "Operation") == 0 ?
          gp_nsys_memop_canonical (cells[c]) : g_strdup (cells[c]);
    } else if (strcmp (col, "Style") == 0 && r->style == NULL) {
      /* (the first Style column, as the first name column) */
      r->style = g_strdup (cells[c]);
    } else if (f != NULL) {
      if (!gp_nsys_number (cells[c], f) && typed) {
        g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
            "%s:%u: %s: '%s' in column '%s' is not a number", origin, line,
            t->report, cells[c], col);
        gp_nsys_row_free (r);
        return FALSE;
      }
      if (f != &r->share_pct && f != &r->count)
        *f *= gp_nsys_unit_factor (col);
    }
  }
  if (r->name == NULL)
    r->name = g_strdup (t->n_columns ? cells[t->n_columns - 1] : "");
  g_ptr_array_add (t->rows, r);
  return TRUE;
}

/* Whether any table of @s has a row. */
static gboolean
gp_nsys_any_row (const GpNsysStats * s)
{
  guint i;

  for (i = 0; i < s->tables->len; i++)
    if (((GpNsysTable *) g_ptr_array_index (s->tables, i))->rows->len > 0)
      return TRUE;
  return FALSE;
}

/* ---- the three forms ------------------------------------------------- */

typedef struct
{
  gchar **lines;
  guint n;
  guint i;                      /* the line being read */
  const gchar *origin;
  const gchar *hint;
  gchar *report;                /* the report the last heading named */
  GpNsysStats *stats;
} GpNsysReader;

/* A row that did not read (@err says where and why): skipped, counted. */
static void
gp_nsys_skip_row (GpNsysReader * rd, GError * err)
{
  gp_lines_skip (&rd->stats->rows_skipped, err->message);
  g_error_free (err);
}

static gboolean
gp_nsys_blank (const gchar * l)
{
  while (*l == ' ' || *l == '\t')
    l++;
  return *l == '\0';
}

/* A heading that starts something else: the end of a table. */
static gboolean
gp_nsys_is_heading (const gchar * l)
{
  while (*l == ' ')
    l++;
  return g_str_has_prefix (l, "Processing [") || g_str_has_prefix (l, "** ")
      || g_str_has_prefix (l, "SKIPPED:") || g_str_has_prefix (l, "NOTICE:")
      || g_str_has_prefix (l, "Generating SQLite");
}

static GpNsysTable *
gp_nsys_reader_table (GpNsysReader * rd, GpNsysForm form)
{
  GpNsysTable *t = gp_nsys_table_new (rd->report ? rd->report : rd->hint,
      form);

  g_ptr_array_add (rd->stats->tables, t);
  g_clear_pointer (&rd->report, g_free);
  return t;
}

/* csv: a line into cells, with quoted cells ("" an escaped quote). */
static gchar **
gp_nsys_csv_cells (const gchar * l)
{
  GPtrArray *cells = g_ptr_array_new ();
  GString *cell = g_string_new (NULL);
  gboolean quoted = FALSE;
  const gchar *p;

  for (p = l;; p++) {
    if (quoted) {
      if (*p == '\0')
        break;
      if (*p == '"' && p[1] == '"') {
        g_string_append_c (cell, '"');
        p++;
      } else if (*p == '"')
        quoted = FALSE;
      else
        g_string_append_c (cell, *p);
    } else if (*p == '"' && cell->len == 0) {
      quoted = TRUE;
    } else if (*p == ',' || *p == '\0') {
      g_ptr_array_add (cells, g_strdup (cell->str));
      g_string_truncate (cell, 0);
      if (*p == '\0')
        break;
    } else
      g_string_append_c (cell, *p);
  }
  if (quoted)
    g_ptr_array_add (cells, g_strdup (cell->str));
  g_string_free (cell, TRUE);
  g_ptr_array_add (cells, NULL);
  return (gchar **) g_ptr_array_free (cells, FALSE);
}

static gboolean
gp_nsys_is_csv_header (const gchar * l)
{
  gchar **cells;
  guint i, n;
  gboolean header = FALSE;

  if (strchr (l, ',') == NULL || gp_nsys_is_heading (l))
    return FALSE;
  cells = gp_nsys_csv_cells (l);
  n = g_strv_length (cells);
  for (i = 0; i < n; i++)
    if (strcmp (cells[i], "Time (%)") == 0
        || g_str_has_prefix (cells[i], "Total Time (")
        || g_str_has_prefix (cells[i], "Total ("))
      header = TRUE;
  g_strfreev (cells);
  return header && n >= 3;
}

static gboolean
gp_nsys_read_csv (GpNsysReader * rd, GError ** error)
{
  GpNsysTable *t = gp_nsys_reader_table (rd, GP_NSYS_FORM_CSV);
  gchar **head = gp_nsys_csv_cells (rd->lines[rd->i]);

  t->n_columns = g_strv_length (head);
  t->columns = head;
  for (rd->i++; rd->i < rd->n; rd->i++) {
    const gchar *l = rd->lines[rd->i];
    GError *err = NULL;
    gchar **cells;

    if (gp_nsys_blank (l) || gp_nsys_is_heading (l))
      break;
    cells = gp_nsys_csv_cells (l);
    if (g_strv_length (cells) != t->n_columns) {
      gp_nsys_skip_row (rd, g_error_new (GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
              "%s:%u: %s: %u cells where the header has %u", rd->origin,
              rd->i + 1, t->report[0] ? t->report : "csv",
              g_strv_length (cells), t->n_columns));
      g_strfreev (cells);
      continue;
    }
    if (!gp_nsys_add_row (t, cells, rd->origin, rd->i + 1, &err))
      gp_nsys_skip_row (rd, err);
  }
  return TRUE;
}

/* column: "----  -----" groups as [start, end) byte spans. */
static gboolean
gp_nsys_dash_groups (const gchar * l, GArray * spans)
{
  guint i = 0, n = strlen (l);

  g_array_set_size (spans, 0);
  while (i < n) {
    if (l[i] == ' ') {
      i++;
    } else if (l[i] == '-') {
      guint s = i;

      while (i < n && l[i] == '-')
        i++;
      g_array_append_val (spans, s);
      g_array_append_val (spans, i);
    } else
      return FALSE;
  }
  return spans->len >= 4;
}

/* The header cut where the dashes are, when its words sit inside them. */
static gchar **
gp_nsys_header_by_spans (const gchar * h, GArray * spans)
{
  guint n = spans->len / 2, k, hl = strlen (h), p;
  gchar **cols = g_new0 (gchar *, n + 1);

  for (p = 0; p < hl; p++) {
    gboolean inside = FALSE;

    for (k = 0; k < n && !inside; k++)
      inside = p >= g_array_index (spans, guint, 2 * k) &&
          (k == n - 1 || p < g_array_index (spans, guint, 2 * k + 1));
    if (!inside && h[p] != ' ') {
      g_strfreev (cols);
      return NULL;
    }
  }
  for (k = 0; k < n; k++) {
    guint s = g_array_index (spans, guint, 2 * k);
    guint e = k == n - 1 ? hl : g_array_index (spans, guint, 2 * k + 1);

    s = MIN (s, hl);
    e = MIN (MAX (e, s), hl);
    cols[k] = g_strstrip (g_strndup (h + s, e - s));
    if (cols[k][0] == '\0') {
      g_strfreev (cols);
      return NULL;
    }
  }
  return cols;
}

/* The header by its words: known phrases and "(unit)" words kept
 * together (a header whose alignment was lost). */
static gchar **
gp_nsys_header_by_words (const gchar * h, guint n)
{
  gchar **words = g_strsplit_set (h, " \t", -1);
  GPtrArray *cols = g_ptr_array_new ();
  GPtrArray *w = g_ptr_array_new ();
  guint i, k;

  for (i = 0; words[i]; i++)
    if (words[i][0] != '\0')
      g_ptr_array_add (w, words[i]);
  for (i = 0; i < w->len;) {
    GString *c = g_string_new (g_ptr_array_index (w, i));
    guint best = i + 1;

    for (k = 0; gp_nsys_phrases[k]; k++) {
      GString *try = g_string_new (NULL);
      guint j;

      for (j = i; j < w->len; j++) {
        g_string_append_printf (try, "%s%s", j > i ? " " : "",
            (const gchar *) g_ptr_array_index (w, j));
        if (strcmp (try->str, gp_nsys_phrases[k]) == 0 && j + 1 > best) {
          best = j + 1;
          g_string_assign (c, try->str);
        }
        if (!g_str_has_prefix (gp_nsys_phrases[k], try->str))
          break;
      }
      g_string_free (try, TRUE);
    }
    while (best < w->len
        && ((const gchar *) g_ptr_array_index (w, best))[0] == '(') {
      g_string_append_printf (c, " %s",
          (const gchar *) g_ptr_array_index (w, best));
      best++;
    }
    g_ptr_array_add (cols, g_string_free (c, FALSE));
    i = best;
  }
  g_ptr_array_free (w, TRUE);
  g_strfreev (words);
  if (cols->len != n) {
    g_ptr_array_set_free_func (cols, g_free);
    g_ptr_array_free (cols, TRUE);
    return NULL;
  }
  g_ptr_array_add (cols, NULL);
  return (gchar **) g_ptr_array_free (cols, FALSE);
}

/* A row of the column form: n-1 cells by whitespace, the last the rest
 * (names have spaces). NULL when the row has too few words. */
static gchar **
gp_nsys_column_cells (const gchar * l, guint n)
{
  gchar **cells = g_new0 (gchar *, n + 1);
  const gchar *p = l;
  guint k;

  for (k = 0; k + 1 < n; k++) {
    const gchar *s;

    while (*p == ' ' || *p == '\t')
      p++;
    s = p;
    while (*p && *p != ' ' && *p != '\t')
      p++;
    if (p == s) {
      g_strfreev (cells);
      return NULL;
    }
    cells[k] = g_strndup (s, p - s);
  }
  cells[n - 1] = g_strstrip (g_strdup (p));
  if (cells[n - 1][0] == '\0') {
    g_strfreev (cells);
    return NULL;
  }
  return cells;
}

static gboolean
gp_nsys_read_column (GpNsysReader * rd, GArray * spans, GError ** error)
{
  const gchar *h = rd->lines[rd->i - 1];
  guint n = spans->len / 2;
  gchar **head = gp_nsys_header_by_spans (h, spans);
  GpNsysTable *t;

  if (head == NULL)
    head = gp_nsys_header_by_words (h, n);
  if (head == NULL) {
    g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
        "%s:%u: a header of %u columns that does not split into them",
        rd->origin, rd->i, n);
    return FALSE;
  }
  t = gp_nsys_reader_table (rd, GP_NSYS_FORM_COLUMN);
  t->n_columns = n;
  t->columns = head;
  for (rd->i++; rd->i < rd->n; rd->i++) {
    const gchar *l = rd->lines[rd->i];
    GError *err = NULL;
    gchar **cells;

    if (gp_nsys_blank (l) || gp_nsys_is_heading (l))
      break;
    cells = gp_nsys_column_cells (l, n);
    if (cells == NULL) {
      gp_nsys_skip_row (rd, g_error_new (GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
              "%s:%u: %s: a row of fewer than %u cells", rd->origin,
              rd->i + 1, t->report[0] ? t->report : "table", n));
      continue;
    }
    if (!gp_nsys_add_row (t, cells, rd->origin, rd->i + 1, &err))
      gp_nsys_skip_row (rd, err);
  }
  return TRUE;
}

/* table: "+---+---+" */
static gboolean
gp_nsys_is_border (const gchar * l)
{
  while (*l == ' ')
    l++;
  if (*l != '+')
    return FALSE;
  for (; *l; l++)
    if (*l != '+' && *l != '-' && *l != ' ')
      return FALSE;
  return TRUE;
}

/* "| a | b |" into cells; NULL when not a row. */
static gchar **
gp_nsys_table_cells (const gchar * l)
{
  gchar *s = g_strstrip (g_strdup (l));
  gchar **parts, **cells;
  guint n, k;

  if (strlen (s) < 2 || s[0] != '|' || s[strlen (s) - 1] != '|') {
    g_free (s);
    return NULL;
  }
  s[strlen (s) - 1] = '\0';
  parts = g_strsplit (s + 1, "|", -1);
  n = g_strv_length (parts);
  cells = g_new0 (gchar *, n + 1);
  for (k = 0; k < n; k++)
    cells[k] = g_strstrip (g_strdup (parts[k]));
  g_strfreev (parts);
  g_free (s);
  return cells;
}

static gboolean
gp_nsys_read_table (GpNsysReader * rd, GError ** error)
{
  gchar **head;
  GpNsysTable *t;

  rd->i++;
  head = rd->i < rd->n ? gp_nsys_table_cells (rd->lines[rd->i]) : NULL;
  if (head == NULL || head[0] == NULL) {
    g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
        "%s:%u: a table border without its header row", rd->origin, rd->i);
    g_strfreev (head);
    return FALSE;
  }
  t = gp_nsys_reader_table (rd, GP_NSYS_FORM_TABLE);
  t->n_columns = g_strv_length (head);
  t->columns = head;
  for (rd->i++; rd->i < rd->n; rd->i++) {
    const gchar *l = rd->lines[rd->i];
    GError *err = NULL;
    gchar **cells;

    if (gp_nsys_is_border (l))
      continue;
    if (gp_nsys_blank (l) || gp_nsys_is_heading (l))
      break;
    cells = gp_nsys_table_cells (l);
    if (cells == NULL || g_strv_length (cells) < t->n_columns) {
      gp_nsys_skip_row (rd, g_error_new (GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
              "%s:%u: %s: not a row of %u cells", rd->origin, rd->i + 1,
              t->report[0] ? t->report : "table", t->n_columns));
      g_strfreev (cells);
      continue;
    }
    if (g_strv_length (cells) > t->n_columns) {
      /* a '|' inside the name: the cells past the last column are its */
      gchar *rest = g_strjoinv (" | ", cells + t->n_columns - 1);
      guint k;

      for (k = t->n_columns - 1; cells[k]; k++)
        g_clear_pointer (&cells[k], g_free);
      cells[t->n_columns - 1] = rest;
    }
    if (!gp_nsys_add_row (t, cells, rd->origin, rd->i + 1, &err))
      gp_nsys_skip_row (rd, err);
  }
  return TRUE;
}

/* ---- headings -------------------------------------------------------- */

/* "Processing [x.sqlite] with [/.../reports/NAME.py]..." and
 * "** Title (NAME):" name the report that follows. */
static gchar *
gp_nsys_heading_report (const gchar * l)
{
  const gchar *p, *e;

  while (*l == ' ')
    l++;
  if (g_str_has_prefix (l, "Processing [")) {
    e = strstr (l, ".py]");
    if (e == NULL)
      return NULL;
    for (p = e; p > l && p[-1] != '/' && p[-1] != '['; p--);
    return p < e ? g_strndup (p, e - p) : NULL;
  }
  if (g_str_has_prefix (l, "** ")) {
    e = strrchr (l, ')');
    if (e == NULL || e[1] != ':')
      return NULL;
    for (p = e; p > l && p[-1] != '('; p--);
    return p > l && p < e ? g_strndup (p, e - p) : NULL;
  }
  return NULL;
}

static void
gp_nsys_skipped (GpNsysReader * rd, const gchar * l)
{
  GpNsysTable *t;

  if (rd->report == NULL)
    return;                     /* a SKIPPED line of no report we know */
  t = gp_nsys_reader_table (rd, GP_NSYS_FORM_COLUMN);
  while (*l == ' ')
    l++;
  t->skipped = g_strstrip (g_strdup (l + strlen ("SKIPPED:")));
  t->columns = g_new0 (gchar *, 1);
}

GpNsysStats *
gp_nsys_parse (const gchar * data, gsize len, const gchar * hint,
    const gchar * origin, GError ** error)
{
  GpNsysReader rd = { 0 };
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar *text = g_strndup (data, len);
  gboolean ok = TRUE;
  guint k;

  if (!g_utf8_validate (text, -1, NULL) || strlen (text) != len) {
    g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
        "%s: not text (a NUL byte or invalid UTF-8)", origin);
    g_free (text);
    g_array_unref (spans);
    return NULL;
  }
  rd.lines = g_strsplit (text, "\n", -1);
  g_free (text);
  rd.n = g_strv_length (rd.lines);
  for (k = 0; k < rd.n; k++)
    g_strdelimit (rd.lines[k], "\r", ' ');
  rd.origin = origin;
  rd.hint = hint;
  rd.stats = g_new0 (GpNsysStats, 1);
  rd.stats->tables =
      g_ptr_array_new_with_free_func ((GDestroyNotify) gp_nsys_table_free);
  for (rd.i = 0; ok && rd.i < rd.n;) {
    const gchar *l = rd.lines[rd.i];
    const gchar *t = l;
    gchar *named;

    while (*t == ' ')
      t++;
    if ((named = gp_nsys_heading_report (l)) != NULL) {
      g_free (rd.report);
      rd.report = named;
      rd.i++;
    } else if (g_str_has_prefix (t, "SKIPPED:")) {
      gp_nsys_skipped (&rd, l);
      rd.i++;
    } else if (gp_nsys_is_border (l)) {
      ok = gp_nsys_read_table (&rd, error);
    } else if (gp_nsys_is_csv_header (l)) {
      ok = gp_nsys_read_csv (&rd, error);
    } else if (rd.i > 0 && !gp_nsys_blank (rd.lines[rd.i - 1])
        && !gp_nsys_is_heading (rd.lines[rd.i - 1])
        && gp_nsys_dash_groups (l, spans)) {
      ok = gp_nsys_read_column (&rd, spans, error);
    } else
      rd.i++;
  }
  g_free (rd.report);
  g_strfreev (rd.lines);
  g_array_unref (spans);
  rd.stats->rows_skipped.lines = rd.n;
  if (ok && rd.stats->rows_skipped.skipped > 0
      && !gp_nsys_any_row (rd.stats)) {
    g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE, "%s",
        rd.stats->rows_skipped.first);
    ok = FALSE;
  } else if (ok && rd.stats->tables->len == 0) {
    g_set_error (error, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE,
        "%s: no nsys stats report (no csv header, column header over "
        "dashes, box-drawn table or SKIPPED line)", origin);
    ok = FALSE;
  }
  if (!ok) {
    gp_nsys_stats_free (rd.stats);
    return NULL;
  }
  return rd.stats;
}

/* ---- NVTX names ------------------------------------------------------ */

/* the counters folded to N; UID= only with GP_NSYS_NORM_UID (last) */
static const gchar *const gp_nsys_counters[] = {
  "Frame=", "Batch=", "batch_num=", "SubBatchId=", "UID=",
};

static gchar *
gp_nsys_fold (const gchar * s, GpNsysNorm norm)
{
  GString *out = g_string_new (NULL);
  guint n = G_N_ELEMENTS (gp_nsys_counters) - (norm & GP_NSYS_NORM_UID ?
      0 : 1);
  const gchar *p = s;

  while (*p) {
    gboolean folded = FALSE;
    guint k;

    for (k = 0; !folded && k < n; k++) {
      const gchar *key = gp_nsys_counters[k];
      gsize kl = strlen (key);

      if (strncmp (p, key, kl) == 0 && g_ascii_isdigit (p[kl])
          && (p == s || !g_ascii_isalnum (p[-1]))) {
        g_string_append_len (out, p, kl);
        g_string_append_c (out, 'N');
        p += kl;
        while (g_ascii_isdigit (*p))
          p++;
        folded = TRUE;
      }
    }
    if (!folded)
      g_string_append_c (out, *p++);
  }
  return g_string_free (out, FALSE);
}

gchar *
gp_nsys_nvtx_normalise (const gchar * label, GpNsysNorm norm,
    gchar ** domain, gchar ** message)
{
  const gchar *p, *split = NULL;
  gchar *d, *m, *full;

  if (label[0] == ':') {
    d = g_strdup ("");
    m = gp_nsys_fold (label + 1, norm);
  } else {
    for (p = label; *p && split == NULL; p++)
      if (*p == ':' && p[1] != ' ' && p[1] != ':' && p[1] != '\0'
          && (p == label || p[-1] != ':'))
        split = p;
    if (split != NULL) {
      gchar *dd = g_strndup (label, split - label);

      d = gp_nsys_fold (dd, norm);
      m = gp_nsys_fold (split + 1, norm);
      g_free (dd);
    } else {
      d = g_strdup ("");
      m = gp_nsys_fold (label, norm);
    }
  }
  full = d[0] ? g_strdup_printf ("%s:%s", d, m) : g_strdup (m);
  if (domain)
    *domain = d;
  else
    g_free (d);
  if (message)
    *message = m;
  else
    g_free (m);
  return full;
}

static gint
gp_nsys_by_total (gconstpointer a, gconstpointer b)
{
  const GpNsysRow *x = *(const GpNsysRow * const *) a;
  const GpNsysRow *y = *(const GpNsysRow * const *) b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp (x->name, y->name);
}

GpNsysTable *
gp_nsys_nvtx_aggregate (const GpNsysTable * t, GpNsysNorm norm)
{
  GpNsysTable *out = gp_nsys_table_new (t->report, t->form);
  GHashTable *by = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  gdouble sum = 0;
  guint i, c;

  g_free (out->printed);
  out->printed = g_strdup (t->printed);
  out->skipped = g_strdup (t->skipped);
  out->n_columns = t->n_columns;
  out->columns = g_new0 (gchar *, t->n_columns + 1);
  for (c = 0; c < t->n_columns; c++)
    out->columns[c] = g_strdup (t->columns[c]);
  for (i = 0; i < t->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (t->rows, i);
    gchar *name = gp_nsys_nvtx_normalise (r->name, norm, NULL, NULL);
    gchar *key = g_strdup_printf ("%s\n%s", r->style ? r->style : "", name);
    GpNsysRow *a = g_hash_table_lookup (by, key);

    if (a == NULL) {
      a = g_new0 (GpNsysRow, 1);
      a->name = name;
      a->style = g_strdup (r->style);
      a->truncated = r->truncated;
      a->total = isnan (r->total) ? 0 : r->total;
      a->count = isnan (r->count) ? 0 : r->count;
      a->min = r->min;
      a->max = r->max;
      a->med = r->med;
      a->stddev = r->stddev;
      a->cells = g_new0 (gchar *, t->n_columns + 1);
      for (c = 0; c < t->n_columns; c++)
        a->cells[c] = g_strdup (r->cells[c]);
      g_ptr_array_add (out->rows, a);
      g_hash_table_insert (by, key, a);
    } else {
      a->total += isnan (r->total) ? 0 : r->total;
      a->count += isnan (r->count) ? 0 : r->count;
      a->min = isnan (a->min) ? r->min : isnan (r->min) ? a->min :
          MIN (a->min, r->min);
      a->max = isnan (a->max) ? r->max : isnan (r->max) ? a->max :
          MAX (a->max, r->max);
      a->med = a->stddev = NAN;
      a->truncated |= r->truncated;
      g_free (name);
      g_free (key);
    }
    sum += isnan (r->total) ? 0 : r->total;
  }
  for (i = 0; i < out->rows->len; i++) {
    GpNsysRow *a = g_ptr_array_index (out->rows, i);

    a->avg = a->count > 0 ? a->total / a->count : NAN;
    a->share_pct = sum > 0 ? 100.0 * a->total / sum : NAN;
  }
  g_ptr_array_sort (out->rows, gp_nsys_by_total);
  g_hash_table_destroy (by);
  return out;
}
