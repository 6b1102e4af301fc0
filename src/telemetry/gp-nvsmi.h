/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-nvsmi: what `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]`
 * and `nvidia-smi dmon` print, as one table per capture: columns by name
 * (the header's, or the caller's field list when there is none), one row per
 * GPU per sample, values in one unit per column (MiB, MHz, W, %, C).
 * Missing values (`[N/A]`, `[Not Supported]`, any bracketed sentinel, `N/A`,
 * dmon's `-`) stay missing: never zero. */
#ifndef GP_NVSMI_H
#define GP_NVSMI_H

#include <glib.h>

G_BEGIN_DECLS

#define GP_NVSMI_ERROR (gp_nvsmi_error_quark ())
GQuark gp_nvsmi_error_quark (void);

typedef enum
{
  GP_NVSMI_QUERY,
  GP_NVSMI_DMON,
} GpNvsmiKind;

typedef struct
{
  gchar *name;                  /* canonical (gp_nvsmi_canonical_field) */
  gchar *unit;                  /* "MiB", "MHz", "W", "%", "C", "MiB/s", ...
                                 * or "" when the column has none */
} GpNvsmiColumn;

typedef struct
{
  gint gpu;                     /* the `index` / dmon `gpu` cell, else the
                                 * row's place among its sample's rows */
  gchar **text;                 /* per column: the cell without its unit;
                                 * NULL when the value is missing */
  gdouble *value;               /* per column: the number in the column's
                                 * unit; NAN when missing or not a number */
} GpNvsmiRow;

typedef struct
{
  GpNvsmiKind kind;
  guint n_columns;
  GpNvsmiColumn *columns;
  GPtrArray *rows;              /* of GpNvsmiRow, in the order printed */
} GpNvsmiTable;

gchar *gp_nvsmi_canonical_field (const gchar * name);

GpNvsmiTable *gp_nvsmi_parse_query (const gchar * data, gsize len,
    const gchar * const *fields, const gchar * origin, GError ** error);
GpNvsmiTable *gp_nvsmi_parse_dmon (const gchar * data, gsize len,
    const gchar * origin, GError ** error);
void gp_nvsmi_table_free (GpNvsmiTable * table);

/* The same tables a line at a time, for a reader that streams a file and
 * skips what it cannot read: each line (without its newline, '\r' made a
 * space) is the header, dmon's units row, a blank or a row (appended to
 * the table's rows), or refused (FALSE with one line of @error naming
 * @origin and @lineno; the table as it was). The parse functions above
 * are a reader fed every line, the first refusal refusing the text. */
typedef struct _GpNvsmiReader GpNvsmiReader;

GpNvsmiReader *gp_nvsmi_reader_new (GpNvsmiKind kind,
    const gchar * const *fields, const gchar * origin);
gboolean gp_nvsmi_reader_line (GpNvsmiReader * r, const gchar * line,
    guint lineno, GError ** error);
/* The table so far (borrowed), NULL before its header. */
GpNvsmiTable *gp_nvsmi_reader_table (const GpNvsmiReader * r);
/* The table (the caller's), or NULL and the error when it has no header,
 * or (--query-gpu) no row was ever read; frees @r. */
GpNvsmiTable *gp_nvsmi_reader_finish (GpNvsmiReader * r, GError ** error);
void gp_nvsmi_reader_free (GpNvsmiReader * r);
/* Frees the rows read so far (a streaming reader's, once used). */
void gp_nvsmi_table_drop_rows (GpNvsmiTable * table);

gint gp_nvsmi_table_column (const GpNvsmiTable * table, const gchar * name);
gboolean gp_nvsmi_table_value (const GpNvsmiTable * table, guint row,
    const gchar * name, gdouble * value);
const gchar *gp_nvsmi_table_text (const GpNvsmiTable * table, guint row,
    const gchar * name);

gboolean gp_nvsmi_drop_unknown_field (GPtrArray * fields,
    const gchar * message, gchar ** dropped, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpNvsmiTable, gp_nvsmi_table_free)

G_END_DECLS
#endif /* GP_NVSMI_H */
