/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the series contract (src/core/gp-series.h) against its
 * documentation, docs/session-schema.md's series[] table.
 *
 * - every field the table lists is declared, in the same section, with
 *   the same type and unit; every declared field is in the table;
 * - the table is read as Markdown: a row's first cell names the fields,
 *   "`section.<key>.name`, `name2`" (a later name without a dot shares the
 *   first's section), "`process.name`" for the unkeyed process, "`t0`"
 *   for the window's own fields.
 */
#include <string.h>

#include "core/gp-series.h"

typedef struct
{
  gchar *section;
  gchar *name;
  gchar *type;
  gchar *unit;
  gboolean keyed;               /* a <key> between section and name */
} DocField;

static void
doc_field_free (gpointer p)
{
  DocField *f = p;

  g_free (f->section);
  g_free (f->name);
  g_free (f->type);
  g_free (f->unit);
  g_free (f);
}

static const gchar *const type_names[] = {
  [GP_SERIES_INTEGER] = "integer",
  [GP_SERIES_NUMBER] = "number",
  [GP_SERIES_NUMBER_OR_NULL] = "number or null",
};

/* The text between backticks in @cell, in order. */
static gchar **
code_spans (const gchar * cell)
{
  gchar **parts = g_strsplit (cell, "`", -1);
  GPtrArray *spans = g_ptr_array_new ();
  guint i;

  for (i = 1; parts[i] != NULL && parts[i + 1] != NULL; i += 2)
    g_ptr_array_add (spans, g_strdup (parts[i]));
  g_ptr_array_add (spans, NULL);
  g_strfreev (parts);
  return (gchar **) g_ptr_array_free (spans, FALSE);
}

/* One row of the table: its fields appended to @fields. */
static void
parse_row (const gchar * line, GPtrArray * fields)
{
  gchar **cells = g_strsplit (line, "|", -1);
  gchar **spans, **path = NULL;
  guint i;

  /* "| key | type | unit | meaning |": cells[1..4] */
  g_assert_cmpuint (g_strv_length (cells), >=, 6);
  spans = code_spans (cells[1]);
  g_assert_nonnull (spans[0]);
  for (i = 0; spans[i] != NULL; i++) {
    DocField *f = g_new0 (DocField, 1);
    gchar **p = g_strsplit (spans[i], ".", -1);
    guint n = g_strv_length (p);

    if (n > 1 || path == NULL) {
      g_strfreev (path);
      path = p;
    } else {
      g_free (path[g_strv_length (path) - 1]);
      path[g_strv_length (path) - 1] = g_strdup (p[0]);
      g_strfreev (p);
    }
    n = g_strv_length (path);
    g_assert_cmpuint (n, <=, 3);
    f->section = g_strdup (n > 1 ? path[0] : GP_SERIES_WINDOW);
    f->name = g_strdup (path[n - 1]);
    f->keyed = n == 3;
    f->type = g_strstrip (g_strdup (cells[2]));
    f->unit = g_strstrip (g_strdup (cells[3]));
    g_ptr_array_add (fields, f);
  }
  g_strfreev (path);
  g_strfreev (spans);
  g_strfreev (cells);
}

/* The fields of the first table after the "## `series[]`" heading. */
static GPtrArray *
read_doc_fields (void)
{
  const gchar *root = g_getenv ("GP_SOURCE_ROOT");
  gchar *path, *text, **lines;
  GPtrArray *fields = g_ptr_array_new_with_free_func (doc_field_free);
  gboolean in_section = FALSE, in_table = FALSE;
  guint i, row = 0;

  g_assert_nonnull (root);
  path = g_build_filename (root, "docs", "session-schema.md", NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i] != NULL; i++) {
    const gchar *l = lines[i];

    if (g_str_has_prefix (l, "## "))
      in_section = strcmp (l, "## `series[]`") == 0;
    else if (in_section && g_str_has_prefix (l, "|")) {
      in_table = TRUE;
      /* the header and its rule */
      if (row++ >= 2)
        parse_row (l, fields);
    } else if (in_table)
      break;
  }
  g_strfreev (lines);
  g_free (text);
  g_free (path);
  g_assert_cmpuint (fields->len, >, 0);
  return fields;
}

static const GpSeriesFieldSpec *
find_spec (const gchar * section, const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_series_spec); i++)
    if (strcmp (gp_series_spec[i].section, section) == 0 &&
        strcmp (gp_series_spec[i].name, name) == 0)
      return &gp_series_spec[i];
  return NULL;
}

static gboolean
doc_has (GPtrArray * fields, const GpSeriesFieldSpec * spec)
{
  guint i;

  for (i = 0; i < fields->len; i++) {
    DocField *f = g_ptr_array_index (fields, i);

    if (strcmp (f->section, spec->section) == 0 &&
        strcmp (f->name, spec->name) == 0)
      return TRUE;
  }
  return FALSE;
}

/* What is wrong with the documented field @f, appended to @out. */
static void
check_doc_field (const DocField * f, GString * out)
{
  const GpSeriesFieldSpec *spec = find_spec (f->section, f->name);
  gboolean keyed = strcmp (f->section, GP_SERIES_PROCESS) != 0 &&
      strcmp (f->section, GP_SERIES_WINDOW) != 0;

  if (spec == NULL)
    g_string_append_printf (out, "the doc's %s.%s is not declared\n",
        f->section, f->name);
  else if (strcmp (type_names[spec->type], f->type) != 0)
    g_string_append_printf (out, "%s.%s: the doc's type is \"%s\", "
        "declared \"%s\"\n", f->section, f->name, f->type,
        type_names[spec->type]);
  else if (strcmp (spec->unit, f->unit) != 0)
    g_string_append_printf (out, "%s.%s: the doc's unit is \"%s\", "
        "declared \"%s\"\n", f->section, f->name, f->unit, spec->unit);
  if (f->keyed != keyed)
    g_string_append_printf (out, "%s.%s: the doc %s a key\n", f->section,
        f->name, f->keyed ? "gives it" : "does not give it");
}

static void
test_series_documented (void)
{
  GPtrArray *fields = read_doc_fields ();
  GString *problems = g_string_new (NULL);
  guint i;

  for (i = 0; i < fields->len; i++)
    check_doc_field (g_ptr_array_index (fields, i), problems);
  for (i = 0; i < G_N_ELEMENTS (gp_series_spec); i++)
    if (!doc_has (fields, &gp_series_spec[i]))
      g_string_append_printf (problems, "%s.%s is declared but not in the "
          "doc's table\n", gp_series_spec[i].section, gp_series_spec[i].name);
  if (problems->len > 0)
    g_error ("docs/session-schema.md's series[] against gp-series.h:\n%s",
        problems->str);
  g_test_message ("%u documented fields, %u declared", fields->len,
      (guint) G_N_ELEMENTS (gp_series_spec));
  g_string_free (problems, TRUE);
  g_ptr_array_unref (fields);
}

/* Each field is declared once, with a meaning. */
static void
test_series_declared_once (void)
{
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (gp_series_spec); i++) {
    const GpSeriesFieldSpec *a = &gp_series_spec[i];

    g_assert_cmpuint (strlen (a->meaning), >, 0);
    for (j = i + 1; j < G_N_ELEMENTS (gp_series_spec); j++)
      g_assert_false (strcmp (a->section, gp_series_spec[j].section) == 0
          && strcmp (a->name, gp_series_spec[j].name) == 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/series/documented", test_series_documented);
  g_test_add_func ("/series/declared-once", test_series_declared_once);
  return g_test_run ();
}
