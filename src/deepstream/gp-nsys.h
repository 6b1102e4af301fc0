/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys.h: what `nsys stats` prints, as one table per report by column
 * name: the csv form (with its preamble lines), the column form (the
 * aligned console output, `** Title (name):` headers, SKIPPED lines) and
 * the table form (box-drawn); old report names (`nvtxsum`, ...) read as the
 * new ones; numbers with or without thousands separators; names cut with
 * `…` kept and flagged; memory operation names of every release as one
 * (`[CUDA memcpy HtoD]` is `[CUDA memcpy Host-to-Device]`). NVTX range
 * names normalised (the counters of `(Frame=N)`, `batch_num=N`, ... folded;
 * the domain split where it ends, not at the first colon) and their rows
 * added up again.
 */
#ifndef __GP_NSYS_H__
#define __GP_NSYS_H__

#include <glib.h>

#include "core/gp-lines.h"

G_BEGIN_DECLS

#define GP_NSYS_ERROR (gp_nsys_error_quark ())
GQuark gp_nsys_error_quark (void);

typedef enum
{
  GP_NSYS_ERROR_PARSE,          /* not nsys stats output, or a bad row */
  GP_NSYS_ERROR_NO_METRICS,     /* an export without GPU metrics */
} GpNsysError;

typedef enum
{
  GP_NSYS_FORM_CSV,
  GP_NSYS_FORM_COLUMN,
  GP_NSYS_FORM_TABLE,
} GpNsysForm;

typedef struct
{
  gchar *name;                  /* Range, Name or Operation; a memory
                                 * operation by its 2023.4+ name */
  gchar *style;                 /* "PushPop", "StartEnd"; NULL when none */
  gboolean truncated;           /* the name ends with '…' (cut by nsys) */
  /* in ns for time reports, MB for cuda_gpu_mem_size_sum; NAN missing */
  gdouble share_pct;            /* Time (%): of the listed rows */
  gdouble total;
  gdouble count;                /* Instances, Count or Num Calls */
  gdouble avg, med, min, max, stddev;
  gchar **cells;                /* every cell as printed, n_columns */
} GpNsysRow;

typedef struct
{
  gchar *report;                /* the new name ("nvtx_sum"); "" unknown */
  gchar *printed;               /* the name as nsys printed it ("nvtxsum") */
  gchar *skipped;               /* nsys's SKIPPED line: no table; or NULL */
  GpNsysForm form;
  guint n_columns;
  gchar **columns;              /* header texts, as printed */
  GPtrArray *rows;              /* GpNsysRow*, in the order printed */
} GpNsysTable;

typedef struct
{
  GPtrArray *tables;            /* GpNsysTable*, in the order printed */
  GpLinesSkips rows_skipped;    /* rows that do not read, skipped */
} GpNsysStats;

/* The new name of a report name of any release ("nvtxsum" ->
 * "nvtx_sum"), or @name itself; a new string. */
gchar *gp_nsys_report_canonical (const gchar * name);

/* A memory operation of any release as the 2023.4+ name
 * ("[CUDA memcpy HtoD]" -> "[CUDA memcpy Host-to-Device]"); new string. */
gchar *gp_nsys_memop_canonical (const gchar * name);

/* Every report in @data (one or several, any form). @report_hint names the
 * report of a table printed without its name (a bare `--output` csv), or
 * NULL. Read as far as it is valid: a row that does not read is skipped
 * and counted in rows_skipped (its sentence: gp_lines_skips_text ()); a
 * header that does not read refuses the text (its rows cannot be
 * trusted). NULL and a one-line @error starting with @origin (":LINE")
 * when there is no report, a header does not read, or no row read and
 * one was skipped. */
GpNsysStats *gp_nsys_parse (const gchar * data, gsize len,
    const gchar * report_hint, const gchar * origin, GError ** error);

/* The largest `nsys stats` file read (ds profile --from-stats, ds
 * coverage --nsys): its tables are a row per range or kernel name, a few
 * MB for the largest programs; past it a file is refused at once
 * (gp_file_read_capped), never read whole (a 2 GiB CSV took 4.2 GB). */
#define GP_NSYS_STATS_MAX_BYTES (64 * 1024 * 1024)
void gp_nsys_stats_free (GpNsysStats * stats);
/* Adds the tables of @more to @stats (takes them). */
void gp_nsys_stats_merge (GpNsysStats * stats, GpNsysStats * more);

/* The first table of @report (a new or old name), NULL when absent. With
 * "nvtx_sum", an nvtx_pushpop_sum table when there is no nvtx_sum. */
const GpNsysTable *gp_nsys_stats_find (const GpNsysStats * stats,
    const gchar * report);
gint gp_nsys_table_column (const GpNsysTable * table, const gchar * name);

typedef enum
{
  GP_NSYS_NORM_COUNTERS = 0,    /* fold Frame=, Batch=, batch_num=,
                                 * SubBatchId= values to N */
  GP_NSYS_NORM_UID = 1 << 0,    /* also UID=<n>: every instance as one */
} GpNsysNorm;

/* An NVTX label ("domain:message", nsys's form) normalised: the default
 * domain's leading ':' dropped, counters folded. The domain ends at the
 * first ':' followed by neither ' ' nor ':' and not preceded by ':'
 * ("GstNvInfer: UID=1:buffer_process", "TensorRT:ExecutionContext::
 * enqueue"); none: "" in @domain. New strings, any out pointer NULL. */
gchar *gp_nsys_nvtx_normalise (const gchar * label, GpNsysNorm norm,
    gchar ** domain, gchar ** message);

/* @table's rows by normalised range name, added up: totals and counts
 * summed, the average recomputed, min of the minima, max of the maxima;
 * the median and deviation kept only for a row alone (NAN otherwise);
 * shares recomputed over the rows; ordered by total, largest first. A new
 * table of the same report. */
GpNsysTable *gp_nsys_nvtx_aggregate (const GpNsysTable * table,
    GpNsysNorm norm);
void gp_nsys_table_free (GpNsysTable * table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpNsysStats, gp_nsys_stats_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpNsysTable, gp_nsys_table_free)

G_END_DECLS

#endif /* __GP_NSYS_H__ */
