/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-nvsmi: nvidia-smi's --query-gpu CSV and dmon tables read by column
 * name into one GpNvsmiTable (see gp-nvsmi.h). */
#include "gp-nvsmi.h"

#include <math.h>
#include <string.h>

#include "core/gp-json.h"

G_DEFINE_QUARK (gp-nvsmi-error-quark, gp_nvsmi_error);

/* longer lines are not nvidia-smi's: a query line of every field is under
 * 8 KiB, a dmon line of every group and GPM metric under 1 KiB */
#define GP_NVSMI_LINE_MAX 65536
/* more columns than nvidia-smi has fields to query (about 300) */
#define GP_NVSMI_COLUMNS_MAX 1024

/* the renamed throttle fields: one name for both spellings (drivers from
 * about R535 print clocks_event_reasons, older ones clocks_throttle_reasons) */
#define GP_NVSMI_OLD_REASONS "clocks_throttle_reasons"
#define GP_NVSMI_NEW_REASONS "clocks_event_reasons"

gchar *
gp_nvsmi_canonical_field (const gchar * name)
{
  gchar *s = g_strstrip (g_ascii_strdown (name, -1));

  if (g_str_has_prefix (s, GP_NVSMI_OLD_REASONS)) {
    gchar *n = g_strconcat (GP_NVSMI_NEW_REASONS,
        s + strlen (GP_NVSMI_OLD_REASONS), NULL);

    g_free (s);
    return n;
  }
  return s;
}

/* the unit a field's numbers are in when no header says so (noheader, or a
 * header without brackets such as temperature.gpu) */
static const gchar *
gp_nvsmi_unit_by_name (const gchar * name)
{
  static const struct
  {
    const gchar *prefix;
    const gchar *unit;
  } table[] = {
    {"memory.", "MiB"}, {"clocks.", "MHz"}, {"power.", "W"},
    {"enforced.power.", "W"}, {"utilization.", "%"}, {"fan.speed", "%"},
    {"temperature.", "C"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_has_prefix (name, table[i].prefix))
      return table[i].unit;
  return "";
}

/* a printed unit in its normal form and the factor to it; NULL when it is
 * not a unit of nvidia-smi's. dmon's MB are NVML's MiB (fb, bar1, ccpm). */
static const gchar *
gp_nvsmi_normal_unit (const gchar * unit, gdouble * factor)
{
  static const struct
  {
    const gchar *printed;
    const gchar *normal;
    gdouble factor;
  } table[] = {
    {"MiB", "MiB", 1}, {"GiB", "MiB", 1024}, {"KiB", "MiB", 1.0 / 1024},
    {"MB", "MiB", 1}, {"MHz", "MHz", 1}, {"W", "W", 1}, {"%", "%", 1},
    {"C", "C", 1}, {"MB/s", "MiB/s", 1}, {"MiB/s", "MiB/s", 1},
    {"GPM:%", "%", 1}, {"GPM:MiB/s", "MiB/s", 1}, {"bool", "bool", 1},
    {"errs", "count", 1}, {"Idx", "", 1}, {"HH:MM:SS", "", 1},
    {"YYYYMMDD", "", 1},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (table); i++)
    if (strcmp (unit, table[i].printed) == 0) {
      *factor = table[i].factor;
      return table[i].normal;
    }
  return NULL;
}

static gboolean
gp_nvsmi_is_missing (const gchar * cell)
{
  gsize n = strlen (cell);

  if (n == 0 || strcmp (cell, "-") == 0 || strcmp (cell, "N/A") == 0)
    return TRUE;
  /* [N/A], [Not Supported], [Unknown Error], [Insufficient Permissions] */
  return cell[0] == '[' && cell[n - 1] == ']';
}

/* the whole of S as a number: decimal, or a 0x mask (maybe infinite) */
static gboolean
gp_nvsmi_number (const gchar * s, gdouble * out)
{
  gchar *end = NULL;

  if (*s == '\0' || g_ascii_isspace (*s))
    return FALSE;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    guint64 v;

    if (!g_ascii_isxdigit (s[2]))
      return FALSE;
    v = g_ascii_strtoull (s + 2, &end, 16);
    *out = (gdouble) v;
  } else {
    if (!g_ascii_isdigit (*s) && *s != '-' && *s != '+' && *s != '.')
      return FALSE;
    *out = g_ascii_strtod (s, &end);
  }
  /* an overflow (1e400) is a number too, for gp_nvsmi_check_value () */
  return end != NULL && *end == '\0';
}

/* the texts of missing cells are NULL: each freed, not as a strv */
static void
gp_nvsmi_row_free (GpNvsmiRow * r, guint n_columns)
{
  guint c;

  for (c = 0; c < n_columns; c++)
    g_free (r->text[c]);
  g_free (r->text);
  g_free (r->value);
  g_free (r);
}

void
gp_nvsmi_table_free (GpNvsmiTable * table)
{
  guint i;

  if (table == NULL)
    return;
  for (i = 0; i < table->n_columns; i++) {
    g_free (table->columns[i].name);
    g_free (table->columns[i].unit);
  }
  g_free (table->columns);
  for (i = 0; i < table->rows->len; i++)
    gp_nvsmi_row_free (g_ptr_array_index (table->rows, i), table->n_columns);
  g_ptr_array_unref (table->rows);
  g_free (table);
}

static GpNvsmiTable *
gp_nvsmi_table_new (GpNvsmiKind kind, guint n_columns)
{
  GpNvsmiTable *t = g_new0 (GpNvsmiTable, 1);

  t->kind = kind;
  t->n_columns = n_columns;
  t->columns = g_new0 (GpNvsmiColumn, n_columns);
  t->rows = g_ptr_array_new ();
  return t;
}

/* the text split into lines ('\r' dropped), or NULL with the error */
static gchar **
gp_nvsmi_lines (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  gchar *copy, **lines, **l;
  guint n;

  if (memchr (data, '\0', len) != NULL) {
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "%s: binary data, not nvidia-smi output", origin);
    return NULL;
  }
  copy = g_strndup (data, len);
  g_strdelimit (copy, "\r", ' ');
  lines = g_strsplit (copy, "\n", -1);
  g_free (copy);
  for (l = lines, n = 1; *l; l++, n++)
    if (strlen (*l) > GP_NVSMI_LINE_MAX) {
      g_set_error (error, GP_NVSMI_ERROR, 0,
          "%s:%u: line longer than %d bytes", origin, n, GP_NVSMI_LINE_MAX);
      g_strfreev (lines);
      return NULL;
    }
  return lines;
}

static gboolean
gp_nvsmi_blank (const gchar * line)
{
  for (; *line; line++)
    if (!g_ascii_isspace (*line))
      return FALSE;
  return TRUE;
}

/* Whether @s spells a number no tool measures: NaN or an infinity
 * (strtod's spellings, any case, a sign before). */
static gboolean
gp_nvsmi_not_finite_word (const gchar * s)
{
  if (*s == '-' || *s == '+')
    s++;
  return g_ascii_strcasecmp (s, "nan") == 0 ||
      g_ascii_strcasecmp (s, "inf") == 0 ||
      g_ascii_strcasecmp (s, "infinity") == 0;
}

/* The session reader's rule for a value (gp-json.h): finite and within
 * GP_JSON_MAX_MAGNITUDE (a 0x mask only finite); anything else is
 * refused with the line. */
static gboolean
gp_nvsmi_check_value (GpNvsmiTable * t, guint c, const gchar * number,
    gdouble v, const gchar * origin, guint line, GError ** error)
{
  gboolean mask = number[0] == '0' && (number[1] == 'x' || number[1] == 'X');

  /* a 0x mask (the throttle reasons) is bits, not a magnitude */
  if (!gp_nvsmi_not_finite_word (number) && isfinite (v) &&
      (mask || fabs (v) <= GP_JSON_MAX_MAGNITUDE))
    return TRUE;
  g_set_error (error, GP_NVSMI_ERROR, 0, "%s:%u: %s is '%.40s', not a "
      "measurement (not finite, or beyond %g)", origin, line,
      t->columns[c].name, number, GP_JSON_MAX_MAGNITUDE);
  return FALSE;
}

/* one cell into ROW's column C: missing, a number with or without its
 * unit (converted to the column's), or text; a number that is not
 * finite or is absurd refuses the file */
static gboolean
gp_nvsmi_cell (GpNvsmiTable * t, GpNvsmiRow * row, guint c,
    const gchar * raw, const gchar * origin, guint line, GError ** error)
{
  GpNvsmiColumn *col = &t->columns[c];
  gchar *cell = g_strstrip (g_strdup (raw));
  gchar *space;
  gdouble v = 0, factor = 1;

  row->value[c] = NAN;
  if (gp_nvsmi_is_missing (cell)) {
    g_free (cell);
    return TRUE;
  }
  space = strrchr (cell, ' ');
  if (space != NULL) {
    const gchar *unit = gp_nvsmi_normal_unit (space + 1, &factor);
    gchar *number = g_strchomp (g_strndup (cell, space - cell));

    if (unit != NULL && gp_nvsmi_not_finite_word (number))
      v = NAN;
    if (unit != NULL && (isnan (v) || gp_nvsmi_number (number, &v))) {
      if (!gp_nvsmi_check_value (t, c, number, v * factor, origin, line,
              error)) {
        g_free (number);
        g_free (cell);
        return FALSE;
      }
      if (*col->unit == '\0') {
        g_free (col->unit);
        col->unit = g_strdup (unit);
      } else if (strcmp (col->unit, unit) != 0) {
        g_set_error (error, GP_NVSMI_ERROR, 0,
            "%s:%u: %s is in %s, its cell says %s", origin, line,
            col->name, col->unit, space + 1);
        g_free (number);
        g_free (cell);
        return FALSE;
      }
      row->value[c] = v * factor;
      row->text[c] = number;
      g_free (cell);
      return TRUE;
    }
    g_free (number);
  }
  if (gp_nvsmi_not_finite_word (cell) || gp_nvsmi_number (cell, &v)) {
    if (gp_nvsmi_not_finite_word (cell))
      v = NAN;
    if (!gp_nvsmi_check_value (t, c, cell, v, origin, line, error)) {
      g_free (cell);
      return FALSE;
    }
    row->value[c] = v;
  }
  row->text[c] = cell;
  return TRUE;
}

static gboolean
gp_nvsmi_add_row (GpNvsmiTable * t, gchar ** cells, guint n_cells,
    const gchar * index_column, gint ordinal, const gchar * origin,
    guint line, GError ** error)
{
  GpNvsmiRow *row;
  guint c;

  if (n_cells != t->n_columns) {
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "%s:%u: %u values for %u columns", origin, line, n_cells,
        t->n_columns);
    return FALSE;
  }
  row = g_new0 (GpNvsmiRow, 1);
  row->text = g_new0 (gchar *, t->n_columns + 1);
  row->value = g_new0 (gdouble, t->n_columns);
  row->gpu = ordinal;
  for (c = 0; c < t->n_columns; c++) {
    if (!gp_nvsmi_cell (t, row, c, cells[c], origin, line, error)) {
      gp_nvsmi_row_free (row, t->n_columns);
      return FALSE;
    }
    if (strcmp (t->columns[c].name, index_column) == 0) {
      gdouble v = row->value[c];

      if (!(v >= 0 && v <= G_MAXINT && v == floor (v))) {
        g_set_error (error, GP_NVSMI_ERROR, 0,
            "%s:%u: %s is '%s', not a GPU index", origin, line,
            index_column, g_strstrip (cells[c]));
        gp_nvsmi_row_free (row, t->n_columns);
        return FALSE;
      }
      row->gpu = (gint) v;
    }
  }
  g_ptr_array_add (t->rows, row);
  return TRUE;
}

/* a header cell `name [unit]` into column C */
static void
gp_nvsmi_query_column (GpNvsmiTable * t, guint c, const gchar * header)
{
  gchar *h = g_strstrip (g_strdup (header));
  gchar *open = strchr (h, '[');
  const gchar *unit = NULL;
  gdouble factor;

  if (open != NULL && h[strlen (h) - 1] == ']') {
    h[strlen (h) - 1] = '\0';
    unit = gp_nvsmi_normal_unit (g_strstrip (open + 1), &factor);
    *open = '\0';
  }
  t->columns[c].name = gp_nvsmi_canonical_field (h);
  t->columns[c].unit = g_strdup (unit ? unit :
      gp_nvsmi_unit_by_name (t->columns[c].name));
  g_free (h);
}

static gboolean
gp_nvsmi_check_columns (GpNvsmiTable * t, const gchar * origin,
    guint line, GError ** error)
{
  guint c, d;

  for (c = 0; c < t->n_columns; c++) {
    if (*t->columns[c].name == '\0') {
      g_set_error (error, GP_NVSMI_ERROR, 0,
          "%s:%u: column %u has no name", origin, line, c + 1);
      return FALSE;
    }
    for (d = 0; d < c; d++)
      if (strcmp (t->columns[c].name, t->columns[d].name) == 0) {
        g_set_error (error, GP_NVSMI_ERROR, 0,
            "%s:%u: column %s twice", origin, line, t->columns[c].name);
        return FALSE;
      }
  }
  return TRUE;
}

/* a `#` line's words, the '#' dropped (`#Time` and `# gpu` alike) */
static gchar **
gp_nvsmi_words (const gchar * line, guint * n)
{
  GPtrArray *words = g_ptr_array_new ();
  gchar **split = g_strsplit_set (line, " \t", -1);
  gchar **w;

  for (w = split; *w; w++) {
    const gchar *s = *w;

    if (words->len == 0 && *s == '#')
      s++;
    if (*s)
      g_ptr_array_add (words, g_strdup (s));
  }
  g_strfreev (split);
  *n = words->len;
  g_ptr_array_add (words, NULL);
  return (gchar **) g_ptr_array_free (words, FALSE);
}

struct _GpNvsmiReader
{
  GpNvsmiKind kind;
  gchar **fields;               /* the caller's field list, or NULL */
  gchar *origin;
  GpNvsmiTable *table;          /* NULL until the header (or fields) */
  gboolean have_units;          /* dmon: its units row read */
  guint first;                  /* the first non-blank line */
  gint ordinal;                 /* rows read */
};

GpNvsmiReader *
gp_nvsmi_reader_new (GpNvsmiKind kind, const gchar * const *fields,
    const gchar * origin)
{
  GpNvsmiReader *r = g_new0 (GpNvsmiReader, 1);

  r->kind = kind;
  r->fields = g_strdupv ((gchar **) fields);
  r->origin = g_strdup (origin);
  return r;
}

void
gp_nvsmi_reader_free (GpNvsmiReader * r)
{
  if (r == NULL)
    return;
  gp_nvsmi_table_free (r->table);
  g_strfreev (r->fields);
  g_free (r->origin);
  g_free (r);
}

/* A --query-gpu line: the header (or, with the caller's fields, the
 * table made before it) or a row. */
static gboolean
gp_nvsmi_reader_query (GpNvsmiReader * r, const gchar * line, guint lineno,
    GError ** error)
{
  gchar **cells = g_strsplit (line, ",", GP_NVSMI_COLUMNS_MAX + 1);
  guint c, n = g_strv_length (cells);
  gboolean ok = TRUE;

  if (r->table == NULL) {
    guint nf = r->fields ? g_strv_length (r->fields) : n;
    GpNvsmiTable *t;

    if (nf == 0 || nf > GP_NVSMI_COLUMNS_MAX) {
      g_set_error (error, GP_NVSMI_ERROR, 0, "%s:%u: %u fields (1 to %d)",
          r->origin, lineno, nf, GP_NVSMI_COLUMNS_MAX);
      g_strfreev (cells);
      return FALSE;
    }
    t = gp_nvsmi_table_new (GP_NVSMI_QUERY, nf);
    for (c = 0; c < nf; c++)
      gp_nvsmi_query_column (t, c, r->fields ? r->fields[c] : cells[c]);
    if (!gp_nvsmi_check_columns (t, r->origin, r->fields ? 0 : lineno,
            error)) {
      gp_nvsmi_table_free (t);
      g_strfreev (cells);
      return FALSE;
    }
    r->table = t;
    if (r->fields == NULL) {
      g_strfreev (cells);
      return TRUE;
    }
  }
  ok = gp_nvsmi_add_row (r->table, cells, n, "index", r->ordinal, r->origin,
      lineno, error);
  r->ordinal += ok;
  g_strfreev (cells);
  return ok;
}

/* A dmon `#` line: the header, its units row, or a header block printed
 * again (or a comment): nothing new. */
static gboolean
gp_nvsmi_reader_dmon_header (GpNvsmiReader * r, gchar ** words, guint n,
    guint lineno, GError ** error)
{
  GpNvsmiTable *t;
  guint c;

  if (r->table == NULL) {
    /* the header: `# gpu pwr ...`, `#Time gpu ...` with -o T */
    if (n == 0 || n > GP_NVSMI_COLUMNS_MAX) {
      g_set_error (error, GP_NVSMI_ERROR, 0,
          "%s:%u: a header of %u columns", r->origin, lineno, n);
      return FALSE;
    }
    t = gp_nvsmi_table_new (GP_NVSMI_DMON, n);
    for (c = 0; c < n; c++) {
      t->columns[c].name = gp_nvsmi_canonical_field (words[c]);
      t->columns[c].unit = g_strdup ("");
    }
    if (!gp_nvsmi_check_columns (t, r->origin, lineno, error)) {
      gp_nvsmi_table_free (t);
      return FALSE;
    }
    if (gp_nvsmi_table_column (t, "gpu") < 0) {
      g_set_error (error, GP_NVSMI_ERROR, 0,
          "%s:%u: dmon header without its gpu column", r->origin, lineno);
      gp_nvsmi_table_free (t);
      return FALSE;
    }
    r->table = t;
    return TRUE;
  }
  if (r->have_units)
    return TRUE;
  /* the units row: `# Idx W C ...`, `#HH:MM:SS Idx ...` */
  r->have_units = TRUE;
  if (n != r->table->n_columns) {
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "%s:%u: %u units for %u columns", r->origin, lineno, n,
        r->table->n_columns);
    return FALSE;
  }
  for (c = 0; c < n; c++) {
    gdouble factor;
    const gchar *u = gp_nvsmi_normal_unit (words[c], &factor);

    g_free (r->table->columns[c].unit);
    r->table->columns[c].unit = g_strdup (u ? u : words[c]);
  }
  return TRUE;
}

static gboolean
gp_nvsmi_reader_dmon (GpNvsmiReader * r, const gchar * line, guint lineno,
    GError ** error)
{
  guint n;
  gchar **words = gp_nvsmi_words (line, &n);
  gboolean ok;

  if (line[strspn (line, " \t")] == '#')
    ok = gp_nvsmi_reader_dmon_header (r, words, n, lineno, error);
  else if (r->table == NULL) {
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "%s:%u: a value row before dmon's '# gpu ...' header", r->origin,
        lineno);
    ok = FALSE;
  } else {
    ok = gp_nvsmi_add_row (r->table, words, n, "gpu", r->ordinal, r->origin,
        lineno, error);
    r->ordinal += ok;
  }
  g_strfreev (words);
  return ok;
}

gboolean
gp_nvsmi_reader_line (GpNvsmiReader * r, const gchar * line, guint lineno,
    GError ** error)
{
  if (gp_nvsmi_blank (line))
    return TRUE;
  if (r->first == 0)
    r->first = lineno;
  if (r->kind == GP_NVSMI_DMON)
    return gp_nvsmi_reader_dmon (r, line, lineno, error);
  return gp_nvsmi_reader_query (r, line, lineno, error);
}

GpNvsmiTable *
gp_nvsmi_reader_table (const GpNvsmiReader * r)
{
  return r->table;
}

GpNvsmiTable *
gp_nvsmi_reader_finish (GpNvsmiReader * r, GError ** error)
{
  GpNvsmiTable *t = NULL;

  if (r->kind == GP_NVSMI_DMON && r->table == NULL)
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "%s:%u: no dmon header ('# gpu ...')", r->origin,
        r->first ? r->first : 1);
  else if (r->kind == GP_NVSMI_QUERY && r->ordinal == 0)
    g_set_error (error, GP_NVSMI_ERROR, 0, "%s:%u: no GPU rows", r->origin,
        r->first ? r->first : 1);
  else
    t = g_steal_pointer (&r->table);
  gp_nvsmi_reader_free (r);
  return t;
}

void
gp_nvsmi_table_drop_rows (GpNvsmiTable * table)
{
  guint i;

  for (i = 0; i < table->rows->len; i++)
    gp_nvsmi_row_free (g_ptr_array_index (table->rows, i), table->n_columns);
  g_ptr_array_set_size (table->rows, 0);
}

/* The whole text through a reader: the first line it refuses refuses
 * it. */
static GpNvsmiTable *
gp_nvsmi_parse (GpNvsmiKind kind, const gchar * data, gsize len,
    const gchar * const *fields, const gchar * origin, GError ** error)
{
  gchar **lines = gp_nvsmi_lines (data, len, origin, error);
  GpNvsmiReader *r;
  guint i;

  if (lines == NULL)
    return NULL;
  r = gp_nvsmi_reader_new (kind, fields, origin);
  for (i = 0; lines[i]; i++)
    if (!gp_nvsmi_reader_line (r, lines[i], i + 1, error)) {
      gp_nvsmi_reader_free (r);
      g_strfreev (lines);
      return NULL;
    }
  g_strfreev (lines);
  return gp_nvsmi_reader_finish (r, error);
}

GpNvsmiTable *
gp_nvsmi_parse_query (const gchar * data, gsize len,
    const gchar * const *fields, const gchar * origin, GError ** error)
{
  return gp_nvsmi_parse (GP_NVSMI_QUERY, data, len, fields, origin, error);
}

GpNvsmiTable *
gp_nvsmi_parse_dmon (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  return gp_nvsmi_parse (GP_NVSMI_DMON, data, len, NULL, origin, error);
}

gint
gp_nvsmi_table_column (const GpNvsmiTable * table, const gchar * name)
{
  gchar *canon = gp_nvsmi_canonical_field (name);
  guint c;

  for (c = 0; c < table->n_columns; c++)
    if (strcmp (table->columns[c].name, canon) == 0) {
      g_free (canon);
      return (gint) c;
    }
  g_free (canon);
  return -1;
}

gboolean
gp_nvsmi_table_value (const GpNvsmiTable * table, guint row,
    const gchar * name, gdouble * value)
{
  gint c = gp_nvsmi_table_column (table, name);
  GpNvsmiRow *r;

  if (c < 0 || row >= table->rows->len)
    return FALSE;
  r = g_ptr_array_index (table->rows, row);
  if (isnan (r->value[c]))
    return FALSE;
  *value = r->value[c];
  return TRUE;
}

const gchar *
gp_nvsmi_table_text (const GpNvsmiTable * table, guint row,
    const gchar * name)
{
  gint c = gp_nvsmi_table_column (table, name);

  if (c < 0 || row >= table->rows->len)
    return NULL;
  return ((GpNvsmiRow *) g_ptr_array_index (table->rows, row))->text[c];
}

/* the driver's refusal of a --query-gpu field:
 *   Field "clocks.applications.sm" is not a valid field to query.
 * The field leaves FIELDS (its own spelling or its canonical one) so the
 * query can be asked again without it. */
gboolean
gp_nvsmi_drop_unknown_field (GPtrArray * fields, const gchar * message,
    gchar ** dropped, GError ** error)
{
  static const gchar lead[] = "Field \"";
  static const gchar tail[] = "\" is not a valid field to query";
  const gchar *start = message ? strstr (message, lead) : NULL;
  const gchar *end;
  gchar *name, *canon;
  guint i;

  if (dropped)
    *dropped = NULL;
  end = start ? strstr (start + strlen (lead), tail) : NULL;
  /* the driver's line names one field: no line break inside its quotes */
  if (end != NULL && (end == start + strlen (lead) ||
          memchr (start, '\n', end - start) != NULL))
    end = NULL;
  if (end == NULL) {
    gchar *first = g_strdup (message ? message : "");

    g_strdelimit (first, "\n", '\0');
    g_set_error (error, GP_NVSMI_ERROR, 0,
        "nvidia-smi: not an unknown-field refusal: '%s'", first);
    g_free (first);
    return FALSE;
  }
  start += strlen (lead);
  name = g_strndup (start, end - start);
  canon = gp_nvsmi_canonical_field (name);
  for (i = 0; i < fields->len; i++) {
    gchar *f = gp_nvsmi_canonical_field (g_ptr_array_index (fields, i));
    gboolean same = strcmp (f, canon) == 0;

    g_free (f);
    if (same) {
      g_ptr_array_remove_index (fields, i);
      g_free (canon);
      if (dropped)
        *dropped = name;
      else
        g_free (name);
      return TRUE;
    }
  }
  g_set_error (error, GP_NVSMI_ERROR, 0,
      "nvidia-smi: refused field \"%s\", which the query did not ask for",
      name);
  g_free (name);
  g_free (canon);
  return FALSE;
}
