/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-series.h: the fields of session.json's series, the contract between
 * their writers (src/capture: the aggregator; src/ingest: the gst-profile,
 * tracer-log and queue-levels importers) and their readers (rules, plot,
 * export, compare). Each field is declared once here, with its section,
 * its type, its unit and what it means, as docs/session-schema.md's
 * series[] table lists them (tests/core/test-series.c holds the two to
 * each other, and tests/common/gp-test-series.h the series of a real
 * capture and of each importer to this file); both sides use the names
 * declared here, never string literals. Windows are built with
 * gp_series_* and read with gp_session_window_* (gp-session.h).
 *
 * Header-only on purpose, like gp-record.h: a contract, not code.
 *
 * A window is one object: its span (GP_SERIES_WINDOW_FIELDS) and one
 * object per section, each keyed by instance (element, link id, queue,
 * thread name or path "source->sink") except the process's, which holds
 * its fields itself. An entry holds only what its writer measured: an
 * instance or field absent from a window is unknown there, never zero.
 */
#ifndef __GP_SERIES_H__
#define __GP_SERIES_H__

#include <glib.h>

G_BEGIN_DECLS

/* The sections of a window */
#define GP_SERIES_ELEMENTS "elements"
#define GP_SERIES_LINKS "links"
#define GP_SERIES_QUEUES "queues"
#define GP_SERIES_THREADS "threads"
#define GP_SERIES_PATHS "paths"
#define GP_SERIES_PROCESS "process"
/* not a section: the window object's own fields (its span) */
#define GP_SERIES_WINDOW ""

typedef enum
{
  GP_SERIES_INTEGER,            /* "integer": gp_series_set_count */
  GP_SERIES_NUMBER,             /* "number", -1 when no sample: gp_series_set */
  GP_SERIES_NUMBER_OR_NULL,     /* "number or null", null when unknown:
                                 * gp_series_set_or_null */
} GpSeriesType;

typedef struct
{
  const gchar *section;         /* GP_SERIES_ELEMENTS, ... or GP_SERIES_WINDOW */
  const gchar *name;
  GpSeriesType type;
  const gchar *unit;            /* "" when it has none */
  const gchar *meaning;
} GpSeriesFieldSpec;

/* F (C name, section, field name, type, unit, meaning) */
#define GP_SERIES_DECLARE_NAME(id, section, name, type, unit, meaning) \
  static const gchar id[] = name;
#define GP_SERIES_DECLARE_SPEC(id, section, name, type, unit, meaning) \
  { section, name, GP_SERIES_##type, unit, meaning },

#define GP_SERIES_WINDOW_FIELDS(F) \
  F (GP_SERIES_T0, GP_SERIES_WINDOW, "t0", NUMBER, "s", \
      "start of the window, since the session started") \
  F (GP_SERIES_T1, GP_SERIES_WINDOW, "t1", NUMBER, "s", "its end")

/* keyed by element name */
#define GP_SERIES_ELEMENT_FIELDS(F) \
  F (GP_SE_BUFFERS, GP_SERIES_ELEMENTS, "buffers", INTEGER, "buffers", \
      "self-time samples in the window") \
  F (GP_SE_SELF_MS, GP_SERIES_ELEMENTS, "self_ms", NUMBER, "ms", \
      "their self time, summed; the aggregator's only") \
  F (GP_SE_SELF_MS_P50, GP_SERIES_ELEMENTS, "self_ms_p50", NUMBER, "ms", \
      "self-time median") \
  F (GP_SE_SELF_MS_P95, GP_SERIES_ELEMENTS, "self_ms_p95", NUMBER, "ms", \
      "self-time 95th percentile")

/* keyed by link id */
#define GP_SERIES_LINK_FIELDS(F) \
  F (GP_SL_FPS, GP_SERIES_LINKS, "fps", NUMBER, "buffers/s", \
      "buffers over the window's span; 0 when it stopped flowing") \
  F (GP_SL_BYTES_PER_S, GP_SERIES_LINKS, "bytes_per_s", NUMBER, "bytes/s", \
      "their bytes over the span") \
  F (GP_SL_LATE_MS_P50, GP_SERIES_LINKS, "late_ms_p50", NUMBER, "ms", \
      "lateness against the pipeline clock, median (summary.sinks' " \
      "late_ms); absent where none was measured") \
  F (GP_SL_LATE_MS_MAX, GP_SERIES_LINKS, "late_ms_max", NUMBER, "ms", \
      "the latest buffer; absent where none was measured")

/* keyed by queue name */
#define GP_SERIES_QUEUE_FIELDS(F) \
  F (GP_SQ_LEVEL_PCT_MEAN, GP_SERIES_QUEUES, "level_pct_mean", NUMBER, "%", \
      "fill against the tightest limit, weighted by time") \
  F (GP_SQ_LEVEL_PCT_MAX, GP_SERIES_QUEUES, "level_pct_max", NUMBER, "%", \
      "fullest sample") \
  F (GP_SQ_DROPPED, GP_SERIES_QUEUES, "dropped", INTEGER, "buffers", \
      "drops of a leaky queue; not in a queue-levels import") \
  F (GP_SQ_RESIDENCE_MS_P50, GP_SERIES_QUEUES, "residence_ms_p50", NUMBER, \
      "ms", "residence median; imports that time queues as elements only") \
  F (GP_SQ_RESIDENCE_MS_P95, GP_SERIES_QUEUES, "residence_ms_p95", NUMBER, \
      "ms", "residence 95th percentile; the same imports only")

/* keyed by thread name (unique as name/tid, as summary.threads[]) */
#define GP_SERIES_THREAD_FIELDS(F) \
  F (GP_ST_CPU_PCT, GP_SERIES_THREADS, "cpu_pct", NUMBER, "% of one core", \
      "the thread's CPU time over the span")

/* keyed by "source->sink" */
#define GP_SERIES_PATH_FIELDS(F) \
  F (GP_SP_LATENCY_MS_P50, GP_SERIES_PATHS, "latency_ms_p50", NUMBER, "ms", \
      "latency median") \
  F (GP_SP_LATENCY_MS_P95, GP_SERIES_PATHS, "latency_ms_p95", NUMBER, "ms", \
      "latency 95th percentile") \
  F (GP_SP_MATCHED, GP_SERIES_PATHS, "matched", INTEGER, "buffers", \
      "buffers matched to an origin buffer") \
  F (GP_SP_UNMATCHED, GP_SERIES_PATHS, "unmatched", INTEGER, "buffers", \
      "buffers no origin buffer covered")

/* not keyed: the section holds them */
#define GP_SERIES_PROCESS_FIELDS(F) \
  F (GP_SPR_CPU_PCT, GP_SERIES_PROCESS, "cpu_pct", NUMBER_OR_NULL, \
      "% of one core", "the process's CPU time (all threads) over the span") \
  F (GP_SPR_RSS_MB, GP_SERIES_PROCESS, "rss_mb", NUMBER_OR_NULL, "MiB", \
      "largest resident set size sampled (one a window, at its end)")

#define GP_SERIES_FIELDS(F) \
  GP_SERIES_WINDOW_FIELDS (F) \
  GP_SERIES_ELEMENT_FIELDS (F) \
  GP_SERIES_LINK_FIELDS (F) \
  GP_SERIES_QUEUE_FIELDS (F) \
  GP_SERIES_THREAD_FIELDS (F) \
  GP_SERIES_PATH_FIELDS (F) \
  GP_SERIES_PROCESS_FIELDS (F)

/* the names, as static const strings */
GP_SERIES_FIELDS (GP_SERIES_DECLARE_NAME)

/* the specs, for checking the contract (tests) and for documenting it */
static const GpSeriesFieldSpec gp_series_spec[] = {
  GP_SERIES_FIELDS (GP_SERIES_DECLARE_SPEC)
};

G_END_DECLS

#endif /* __GP_SERIES_H__ */
