/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-metrics.c: the Prometheus text of a session (gp-metrics.h).
 *
 * The metrics are built family by family into a small model (a family:
 * its name, type, help, and samples; a sample: the value of one label
 * set), then written out. The model is where the cardinality bound is
 * kept: each family that labels an element, link, queue, path, thread,
 * sink or machine instance (its "entity" label) keeps its first
 * GP_METRICS_MAX_SERIES entities, in the session's order (elements by
 * self time, threads by CPU: the heaviest are kept), and folds the rest
 * into one sample whose entity label is GP_METRICS_OTHER: counters,
 * histograms' buckets and summaries' and histograms' sums and counts are
 * added, gauges and quantiles take the largest. gstprof_series_folded{family} says how many were folded.
 *
 * Every value is in a base unit: seconds, bytes, hertz, watts, degrees
 * Celsius, ratios 0..1. A value the session does not know is left out,
 * never written as 0.
 */
#include <math.h>
#include <string.h>

#include "gp-metrics.h"
#include "core/gp-session-query.h"

/* The entity label of a folded sample: not a name GStreamer gives (an
 * object name starting with '_' is possible but unusual) */
#define GP_METRICS_OTHER "_other"

/* Values are written with this many significant digits: more than any
 * measurement has, fewer than the 17 that print a millisecond figure
 * divided by 1000 as 0.020107735999999998 */
#define GP_METRICS_DIGITS 15

/* MiB, as the session keeps memory sizes */
#define GP_METRICS_MIB 1048576.0

typedef enum
{
  GP_METRICS_GAUGE,
  GP_METRICS_COUNTER,
  GP_METRICS_SUMMARY,
  GP_METRICS_HISTOGRAM,         /* at the tracer's octave edges (GpOctaves) */
} GpMetricsType;

/* The quantiles a summary writes (the session's p50, p95, p99) */
#define GP_METRICS_N_QUANTILES 3
static const gchar *const gp_metrics_quantile_names[GP_METRICS_N_QUANTILES] =
    { "0.5", "0.95", "0.99" };

typedef struct
{
  gchar *entity;                /* the entity label's value, or NULL */
  gchar *extra;                 /* the other labels, written:
                                 * `,a="x",b="y"` or "" */
  gdouble value;                /* gauge, counter */
  gdouble q[GP_METRICS_N_QUANTILES];    /* summary; NAN unknown */
  gdouble below[GP_OCTAVE_N];   /* histogram: cumulative, le each edge */
  gdouble sum, count;           /* summary, histogram */
} GpMetricsSample;

typedef struct
{
  const gchar *name;
  GpMetricsType type;
  const gchar *help;
  const gchar *entity_label;    /* NULL: no entity, never folded */
  GPtrArray *samples;           /* GpMetricsSample*, in order */
  GHashTable *entities;         /* kept entity names */
  GHashTable *folded;           /* folded entity names */
  GHashTable *other;            /* extra -> the folded sample */
  GPtrArray *other_order;       /* the folded samples, in order */
} GpMetricsFamily;

typedef struct
{
  GpSession *s;
  gchar *pipeline;              /* escaped */
  GPtrArray *families;          /* GpMetricsFamily*, in order */
} GpMetrics;

/* ------------------------------------------------------------------------ */
/* text                                                                      */

/* A label value, escaped as the format asks: backslash, double quote and
 * line feed; bytes that are not UTF-8 replaced. */
static void
gp_metrics_escape_label (GString * out, const gchar * v)
{
  gchar *valid = NULL;
  const gchar *p;

  if (v == NULL)
    v = "";
  if (!g_utf8_validate (v, -1, NULL))
    v = valid = g_utf8_make_valid (v, -1);
  for (p = v; *p; p++) {
    if (*p == '\\')
      g_string_append (out, "\\\\");
    else if (*p == '"')
      g_string_append (out, "\\\"");
    else if (*p == '\n')
      g_string_append (out, "\\n");
    else
      g_string_append_c (out, *p);
  }
  g_free (valid);
}

static gchar *
gp_metrics_escaped (const gchar * v)
{
  GString *out = g_string_new (NULL);

  gp_metrics_escape_label (out, v);
  return g_string_free (out, FALSE);
}

/* A sample value as Go's ParseFloat reads it, in the C locale. */
static void
gp_metrics_append_value (GString * out, gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v)) {
    g_string_append (out, "NaN");
    return;
  }
  if (isinf (v)) {
    g_string_append (out, v > 0 ? "+Inf" : "-Inf");
    return;
  }
  if (v == floor (v) && fabs (v) < 9007199254740992.0) {
    g_string_append_printf (out, "%.0f", v);
    return;
  }
  g_ascii_formatd (buf, sizeof buf, "%." G_STRINGIFY (GP_METRICS_DIGITS)
      "g", v);
  g_string_append (out, buf);
}

/* ------------------------------------------------------------------------ */
/* the model                                                                 */

static void
gp_metrics_sample_free (gpointer p)
{
  GpMetricsSample *m = p;

  g_free (m->entity);
  g_free (m->extra);
  g_free (m);
}

static void
gp_metrics_family_free (gpointer p)
{
  GpMetricsFamily *f = p;

  g_ptr_array_unref (f->samples);
  g_hash_table_unref (f->entities);
  g_hash_table_unref (f->folded);
  g_hash_table_unref (f->other);
  g_ptr_array_unref (f->other_order);
  g_free (f);
}

static GpMetricsFamily *
gp_metrics_family (GpMetrics * m, const gchar * name, GpMetricsType type,
    const gchar * entity_label, const gchar * help)
{
  GpMetricsFamily *f = g_new0 (GpMetricsFamily, 1);

  f->name = name;
  f->type = type;
  f->help = help;
  f->entity_label = entity_label;
  f->samples = g_ptr_array_new_with_free_func (gp_metrics_sample_free);
  f->entities = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->other = g_hash_table_new (g_str_hash, g_str_equal);
  f->other_order = g_ptr_array_new_with_free_func (gp_metrics_sample_free);
  g_ptr_array_add (m->families, f);
  return f;
}

/* max ignoring what is unknown */
static gdouble
gp_metrics_max (gdouble a, gdouble b)
{
  if (isnan (a))
    return b;
  if (isnan (b))
    return a;
  return MAX (a, b);
}

static void
gp_metrics_fold_into (GpMetricsFamily * f, GpMetricsSample * o,
    const GpMetricsSample * in)
{
  guint i;

  switch (f->type) {
    case GP_METRICS_COUNTER:
      o->value += in->value;
      break;
    case GP_METRICS_GAUGE:
      o->value = gp_metrics_max (o->value, in->value);
      break;
    case GP_METRICS_SUMMARY:
      for (i = 0; i < GP_METRICS_N_QUANTILES; i++)
        o->q[i] = gp_metrics_max (o->q[i], in->q[i]);
      o->sum += in->sum;
      o->count += in->count;
      break;
    case GP_METRICS_HISTOGRAM:
      for (i = 0; i < GP_OCTAVE_N; i++)
        o->below[i] += in->below[i];
      o->sum += in->sum;
      o->count += in->count;
      break;
  }
}

/* Hands @in (its entity and extra set) to @f: kept, or folded into the
 * family's GP_METRICS_OTHER sample of the same other labels. */
static void
gp_metrics_add (GpMetricsFamily * f, GpMetricsSample * in)
{
  GpMetricsSample *o;

  if (in->extra == NULL)
    in->extra = g_strdup ("");
  if (f->entity_label == NULL || in->entity == NULL ||
      g_hash_table_contains (f->entities, in->entity)) {
    g_ptr_array_add (f->samples, in);
    return;
  }
  if (g_hash_table_size (f->entities) < GP_METRICS_MAX_SERIES) {
    g_hash_table_add (f->entities, g_strdup (in->entity));
    g_ptr_array_add (f->samples, in);
    return;
  }
  g_hash_table_add (f->folded, g_strdup (in->entity));
  o = g_hash_table_lookup (f->other, in->extra);
  if (o == NULL) {
    o = g_new0 (GpMetricsSample, 1);
    *o = *in;
    o->entity = g_strdup (GP_METRICS_OTHER);
    o->extra = g_strdup (in->extra);
    g_ptr_array_add (f->other_order, o);
    g_hash_table_insert (f->other, o->extra, o);
  } else
    gp_metrics_fold_into (f, o, in);
  gp_metrics_sample_free (in);
}

/* A gauge or counter sample; @extra (may be NULL) the other labels,
 * written (taken). */
static void
gp_metrics_put (GpMetricsFamily * f, const gchar * entity, gchar * extra,
    gdouble value)
{
  GpMetricsSample *in = g_new0 (GpMetricsSample, 1);

  in->entity = g_strdup (entity);
  in->extra = extra;
  in->value = value;
  gp_metrics_add (f, in);
}

/* A summary's sample from quantiles in ms (negative: unknown), its sum in
 * ms and its count. */
static void
gp_metrics_put_summary (GpMetricsFamily * f, const gchar * entity,
    const GpQuantiles * q_ms, gdouble sum_ms, gdouble count)
{
  GpMetricsSample *in = g_new0 (GpMetricsSample, 1);
  const gdouble qs[GP_METRICS_N_QUANTILES] = { q_ms->p50, q_ms->p95,
    q_ms->p99
  };
  guint i;

  in->entity = g_strdup (entity);
  for (i = 0; i < GP_METRICS_N_QUANTILES; i++)
    in->q[i] = qs[i] >= 0 ? qs[i] / 1000.0 : NAN;
  in->sum = sum_ms / 1000.0;
  in->count = count;
  gp_metrics_add (f, in);
}

/* A histogram's sample from octave counts, its sum in ms (NAN unknown). */
static void
gp_metrics_put_histogram (GpMetricsFamily * f, const gchar * entity,
    const GpOctaves * oct, gdouble sum_ms)
{
  GpMetricsSample *in = g_new0 (GpMetricsSample, 1);
  guint i;

  in->entity = g_strdup (entity);
  for (i = 0; i < GP_OCTAVE_N; i++)
    in->below[i] = oct->below[i];
  in->sum = sum_ms / 1000.0;
  in->count = oct->count;
  gp_metrics_add (f, in);
}

/* `,NAME="VALUE"` */
static void
gp_metrics_append_label (GString * out, const gchar * name,
    const gchar * value)
{
  g_string_append_printf (out, ",%s=\"", name);
  gp_metrics_escape_label (out, value);
  g_string_append_c (out, '"');
}

static gchar *
gp_metrics_labels (const gchar * first, ...) G_GNUC_NULL_TERMINATED;

/* Other labels, written: name, value pairs, NULL-terminated. */
static gchar *
gp_metrics_labels (const gchar * first, ...)
{
  GString *out = g_string_new (NULL);
  const gchar *name;
  va_list ap;

  va_start (ap, first);
  for (name = first; name; name = va_arg (ap, const gchar *))
    gp_metrics_append_label (out, name, va_arg (ap, const gchar *));
  va_end (ap);
  return g_string_free (out, FALSE);
}

/* One line of @sm: @suffix after the family's name, and a last label
 * @bound (a summary's quantile, a histogram's le) when not NULL. */
static void
gp_metrics_write_sample_line (GpMetrics * m, GString * out,
    GpMetricsFamily * f, const GpMetricsSample * sm, const gchar * suffix,
    const gchar * bound, gdouble v)
{
  g_string_append_printf (out, "%s%s{pipeline=\"%s\"", f->name, suffix,
      m->pipeline);
  if (f->entity_label && sm->entity)
    gp_metrics_append_label (out, f->entity_label, sm->entity);
  g_string_append (out, sm->extra);
  if (bound)
    g_string_append_printf (out, ",%s=\"%s\"",
        f->type == GP_METRICS_HISTOGRAM ? "le" : "quantile", bound);
  g_string_append (out, "} ");
  gp_metrics_append_value (out, v);
  g_string_append_c (out, '\n');
}

static void
gp_metrics_write_sample (GpMetrics * m, GString * out, GpMetricsFamily * f,
    const GpMetricsSample * sm)
{
  guint i;

  if (f->type == GP_METRICS_HISTOGRAM) {
    for (i = 0; i < GP_OCTAVE_N; i++) {
      GString *le = g_string_new (NULL);

      gp_metrics_append_value (le, GP_OCTAVE_EDGE_MS (i) / 1000.0);
      gp_metrics_write_sample_line (m, out, f, sm, "_bucket", le->str,
          sm->below[i]);
      g_string_free (le, TRUE);
    }
    gp_metrics_write_sample_line (m, out, f, sm, "_bucket", "+Inf",
        sm->count);
  } else if (f->type == GP_METRICS_SUMMARY) {
    for (i = 0; i < GP_METRICS_N_QUANTILES; i++)
      gp_metrics_write_sample_line (m, out, f, sm, "",
          gp_metrics_quantile_names[i], sm->q[i]);
  } else {
    gp_metrics_write_sample_line (m, out, f, sm, "", NULL, sm->value);
    return;
  }
  gp_metrics_write_sample_line (m, out, f, sm, "_sum", NULL, sm->sum);
  gp_metrics_write_sample_line (m, out, f, sm, "_count", NULL, sm->count);
}

static const gchar *
gp_metrics_type_name (GpMetricsType t)
{
  switch (t) {
    case GP_METRICS_COUNTER:
      return "counter";
    case GP_METRICS_SUMMARY:
      return "summary";
    case GP_METRICS_HISTOGRAM:
      return "histogram";
    case GP_METRICS_GAUGE:
    default:
      return "gauge";
  }
}

/* Families with no sample are left out. */
static void
gp_metrics_write (GpMetrics * m, GString * out)
{
  guint i, j;

  for (i = 0; i < m->families->len; i++) {
    GpMetricsFamily *f = g_ptr_array_index (m->families, i);

    if (f->samples->len == 0 && f->other_order->len == 0)
      continue;
    g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n", f->name,
        f->help, f->name, gp_metrics_type_name (f->type));
    for (j = 0; j < f->samples->len; j++)
      gp_metrics_write_sample (m, out, f, g_ptr_array_index (f->samples, j));
    for (j = 0; j < f->other_order->len; j++)
      gp_metrics_write_sample (m, out, f,
          g_ptr_array_index (f->other_order, j));
  }
}

/* ------------------------------------------------------------------------ */
/* the session                                                               */

/* The latest window's @section.@key.@field when that window has it and it
 * was measured there; else -1. */
static gdouble
gp_metrics_last_window (GpSession * s, const gchar * section,
    const gchar * key, const gchar * field)
{
  guint n = gp_session_n_windows (s);

  if (n == 0)
    return -1;
  return gp_session_window_value (s, n - 1, section, key, field);
}

static void
gp_metrics_session (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *f;
  GHashTable *by_type;
  GPtrArray *types;
  gdouble duration = s->duration_s;
  guint n = gp_session_n_windows (s);
  guint i;

  f = gp_metrics_family (m, "gstprof_up", GP_METRICS_GAUGE, NULL,
      "1 while gstprof serves this session.");
  gp_metrics_put (f, NULL, NULL, 1);

  f = gp_metrics_family (m, "gstprof_session_info", GP_METRICS_GAUGE, NULL,
      "What ran: mode (run, wrap, analyze), GStreamer version, platform, "
      "the highest state reached and how the run ended; always 1.");
  gp_metrics_put (f, NULL, gp_metrics_labels ("mode", s->mode ? s->mode : "",
          "gstreamer", s->gstreamer ? s->gstreamer : "",
          "platform", s->platform ? s->platform : "",
          "reached", s->reached ? s->reached : "",
          "end", s->end ? s->end : "", NULL), 1);

  if (duration < 0 && n > 0) {
    gdouble t0, t1;

    gp_session_window_span (s, n - 1, &t0, &t1);
    duration = t1;
  }
  f = gp_metrics_family (m, "gstprof_duration_seconds", GP_METRICS_GAUGE,
      NULL, "How long the pipeline has run (PLAYING time; a live capture: "
      "to the end of its latest window).");
  if (duration >= 0)
    gp_metrics_put (f, NULL, NULL, duration);

  f = gp_metrics_family (m, "gstprof_windows", GP_METRICS_GAUGE, NULL,
      "Windows in the session's series (a long capture merges older "
      "neighbours pairwise, so this can go down).");
  gp_metrics_put (f, NULL, NULL, n);
  f = gp_metrics_family (m, "gstprof_window_seconds", GP_METRICS_GAUGE,
      NULL, "The tracer's window length.");
  if (s->window_s > 0)
    gp_metrics_put (f, NULL, NULL, s->window_s);

  f = gp_metrics_family (m, "gstprof_target_buffers_per_second",
      GP_METRICS_GAUGE, NULL,
      "The source's target rate from its caps (frames per second).");
  if (s->target_fps > 0)
    gp_metrics_put (f, NULL, NULL, s->target_fps);
  f = gp_metrics_family (m, "gstprof_frame_period_seconds",
      GP_METRICS_GAUGE, NULL, "1 / the target rate: one frame's budget.");
  if (s->frame_period_ms > 0)
    gp_metrics_put (f, NULL, NULL, s->frame_period_ms / 1000.0);

  /* events by type, in the order their types first came */
  by_type = g_hash_table_new (g_str_hash, g_str_equal);
  types = g_ptr_array_new ();
  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    const gchar *type = ev->type ? ev->type : "";
    guint c = GPOINTER_TO_UINT (g_hash_table_lookup (by_type, type));

    if (c == 0)
      g_ptr_array_add (types, (gpointer) type);
    g_hash_table_insert (by_type, (gpointer) type, GUINT_TO_POINTER (c + 1));
  }
  f = gp_metrics_family (m, "gstprof_events_total", GP_METRICS_COUNTER,
      NULL, "Events kept, by type (error, warning, qos, eos, state, "
      "interrupt, ...).");
  for (i = 0; i < types->len; i++) {
    const gchar *type = g_ptr_array_index (types, i);

    gp_metrics_put (f, NULL, gp_metrics_labels ("type", type, NULL),
        GPOINTER_TO_UINT (g_hash_table_lookup (by_type, type)));
  }
  g_ptr_array_unref (types);
  g_hash_table_unref (by_type);
  f = gp_metrics_family (m, "gstprof_events_dropped_total",
      GP_METRICS_COUNTER, NULL,
      "Events the tracer or the capture could not keep (QoS storms).");
  gp_metrics_put (f, NULL, NULL, s->events_dropped);
}

static void
gp_metrics_process (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *f;
  gdouble v;

  f = gp_metrics_family (m, "gstprof_process_cpu_ratio", GP_METRICS_GAUGE,
      NULL, "The process's CPU (all threads) in the latest window, in "
      "cores (can exceed 1).");
  v = gp_metrics_last_window (m->s, GP_SERIES_PROCESS, NULL, GP_SPR_CPU_PCT);
  if (v < 0 && s->process.measured)
    v = s->process.cpu_pct_mean;
  if (v >= 0)
    gp_metrics_put (f, NULL, NULL, v / 100.0);
  f = gp_metrics_family (m, "gstprof_process_resident_memory_bytes",
      GP_METRICS_GAUGE, NULL,
      "The process's resident set size, last sampled.");
  v = gp_metrics_last_window (m->s, GP_SERIES_PROCESS, NULL, GP_SPR_RSS_MB);
  if (v < 0 && s->process.measured)
    v = s->process.rss_mb_end;
  if (v >= 0)
    gp_metrics_put (f, NULL, NULL, v * GP_METRICS_MIB);
}

static void
gp_metrics_elements (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *self, *hist, *buffers, *wait, *cpu, *busy, *share;
  guint i;

  self = gp_metrics_family (m, "gstprof_element_self_seconds",
      GP_METRICS_SUMMARY, "element", "Self time per buffer (exclusive: "
      "downstream pushes left out; for an element that waits, its CPU "
      "time), quantiles over the run so far.");
  hist = gp_metrics_family (m, "gstprof_element_self_octaves_seconds",
      GP_METRICS_HISTOGRAM, "element", "Self time per buffer, counted "
      "below each power of two of nanoseconds (the tracer's own bucket "
      "edges: exact counts), over the run so far.");
  buffers = gp_metrics_family (m, "gstprof_element_buffers_total",
      GP_METRICS_COUNTER, "element", "Buffers measured (self-time "
      "samples).");
  wait = gp_metrics_family (m, "gstprof_element_wait_seconds_total",
      GP_METRICS_COUNTER, "element", "Time the element waited (clock, "
      "preroll, other inputs), apart from its self time.");
  cpu = gp_metrics_family (m, "gstprof_element_cpu_seconds_total",
      GP_METRICS_COUNTER, "element", "Thread CPU time spent in the element "
      "itself (run --cpu).");
  busy = gp_metrics_family (m, "gstprof_element_busy_ratio",
      GP_METRICS_GAUGE, "element", "Self time over the PLAYING time and the "
      "threads it ran on.");
  share = gp_metrics_family (m, "gstprof_element_share_ratio",
      GP_METRICS_GAUGE, "element", "Its part of all elements' self time "
      "(queues excluded).");
  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (es->buffers == 0)
      continue;
    gp_metrics_put_summary (self, es->name, &es->self_ms,
        MAX (es->self_total_ms, 0), es->buffers);
    if (es->self_octaves.count > 0)
      gp_metrics_put_histogram (hist, es->name, &es->self_octaves,
          MAX (es->self_total_ms, 0));
    gp_metrics_put (buffers, es->name, NULL, es->buffers);
    if (es->wait_total_ms >= 0 && es->cpu_buffers > 0)
      gp_metrics_put (wait, es->name, NULL, es->wait_total_ms / 1000.0);
    if (es->cpu_ms >= 0)
      gp_metrics_put (cpu, es->name, NULL, es->cpu_ms / 1000.0);
    if (es->busy_pct >= 0)
      gp_metrics_put (busy, es->name, NULL, es->busy_pct / 100.0);
    if (es->share_pct >= 0)
      gp_metrics_put (share, es->name, NULL, es->share_pct / 100.0);
  }
}

/* Bytes each link carried, summed over the series: a window's
 * bytes_per_s is its bytes over its own span (merged windows too). */
static GHashTable *
gp_metrics_link_bytes (GpSession * s)
{
  GHashTable *bytes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      g_free);
  guint n = gp_session_n_windows (s);
  guint i, j;

  for (i = 0; s->link_summaries && i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    g_hash_table_insert (bytes, ls->id, g_new0 (gdouble, 1));
  }
  for (i = 0; i < n; i++) {
    JsonObject *links = gp_session_window_section (s, i, GP_SERIES_LINKS);
    gdouble t0, t1;

    if (links == NULL)
      continue;
    gp_session_window_span (s, i, &t0, &t1);
    for (j = 0; s->link_summaries && j < s->link_summaries->len; j++) {
      GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, j);
      gdouble rate, *sum;

      if (!json_object_has_member (links, ls->id))
        continue;
      rate = gp_session_window_value (s, i, GP_SERIES_LINKS, ls->id,
          GP_SL_BYTES_PER_S);
      sum = g_hash_table_lookup (bytes, ls->id);
      if (rate > 0 && t1 > t0)
        *sum += rate * (t1 - t0);
    }
  }
  return bytes;
}

static void
gp_metrics_links (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *buffers, *bytes, *rate, *byte_rate;
  GHashTable *carried = gp_metrics_link_bytes (s);
  guint i;

  buffers = gp_metrics_family (m, "gstprof_link_buffers_total",
      GP_METRICS_COUNTER, "link", "Buffers pushed over the link.");
  bytes = gp_metrics_family (m, "gstprof_link_bytes_total",
      GP_METRICS_COUNTER, "link", "Bytes pushed over the link (its "
      "windows' rates times their spans).");
  rate = gp_metrics_family (m, "gstprof_link_steady_buffers_per_second",
      GP_METRICS_GAUGE, "link", "The link's steady rate: start-up, drain "
      "and its last partial window left out.");
  byte_rate = gp_metrics_family (m, "gstprof_link_steady_bytes_per_second",
      GP_METRICS_GAUGE, "link", "The link's steady byte rate.");
  for (i = 0; s->link_summaries && i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);
    gdouble *b = g_hash_table_lookup (carried, ls->id);

    gp_metrics_put (buffers, ls->id, NULL, ls->buffers);
    gp_metrics_put (bytes, ls->id, NULL, b ? floor (*b + 0.5) : 0);
    if (ls->fps >= 0)
      gp_metrics_put (rate, ls->id, NULL, ls->fps);
    if (ls->bytes_per_s >= 0)
      gp_metrics_put (byte_rate, ls->id, NULL, ls->bytes_per_s);
  }
  g_hash_table_unref (carried);
}

/* The element that holds a queue's properties: itself, or the multiqueue
 * of a single queue keyed "multiqueue0.sink_0". */
static GpElement *
gp_metrics_queue_element (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  gchar *owner;

  if (e || strchr (name, '.') == NULL)
    return e;
  owner = gp_pad_element (name);
  e = gp_session_find_element (s, owner);
  g_free (owner);
  return e;
}

static void
gp_metrics_queues (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *level, *level_max, *lim_buf, *lim_bytes, *lim_time,
      *dropped, *blocked;
  guint i;

  level = gp_metrics_family (m, "gstprof_queue_level_ratio",
      GP_METRICS_GAUGE, "queue", "Fill against the tightest of the queue's "
      "limits, time-weighted mean of the latest window (the run's when the "
      "window has none).");
  level_max = gp_metrics_family (m, "gstprof_queue_level_max_ratio",
      GP_METRICS_GAUGE, "queue", "The fullest the queue was over the run, "
      "against its tightest limit.");
  lim_buf = gp_metrics_family (m, "gstprof_queue_limit_buffers",
      GP_METRICS_GAUGE, "queue", "Its max-size-buffers (0: no limit).");
  lim_bytes = gp_metrics_family (m, "gstprof_queue_limit_bytes",
      GP_METRICS_GAUGE, "queue", "Its max-size-bytes (0: no limit).");
  lim_time = gp_metrics_family (m, "gstprof_queue_limit_seconds",
      GP_METRICS_GAUGE, "queue", "Its max-size-time (0: no limit).");
  dropped = gp_metrics_family (m, "gstprof_queue_dropped_total",
      GP_METRICS_COUNTER, "queue", "Buffers a leaky queue dropped.");
  blocked = gp_metrics_family (m, "gstprof_queue_blocked_seconds_total",
      GP_METRICS_COUNTER, "queue", "Time upstream pushes were blocked on "
      "the full queue (backpressure).");
  for (i = 0; s->queue_summaries && i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);
    GpElement *e = gp_metrics_queue_element (s, qs->name);
    gdouble v;
    gint64 lim;

    v = gp_metrics_last_window (s, GP_SERIES_QUEUES, qs->name,
        GP_SQ_LEVEL_PCT_MEAN);
    if (v < 0)
      v = qs->level_pct_mean;
    if (v >= 0)
      gp_metrics_put (level, qs->name, NULL, v / 100.0);
    if (qs->level_pct_max >= 0)
      gp_metrics_put (level_max, qs->name, NULL, qs->level_pct_max / 100.0);
    if (e && gp_element_get_prop_int (e, "max-size-buffers", &lim))
      gp_metrics_put (lim_buf, qs->name, NULL, lim);
    if (e && gp_element_get_prop_int (e, "max-size-bytes", &lim))
      gp_metrics_put (lim_bytes, qs->name, NULL, lim);
    if (e && gp_element_get_prop_int (e, "max-size-time", &lim))
      gp_metrics_put (lim_time, qs->name, NULL, lim / 1e9);
    if (!(s->import_missing & (GP_IMPORT_MISSING_QUEUE_LEVELS |
                GP_IMPORT_MISSING_QUEUE_FLOW))) {
      gp_metrics_put (dropped, qs->name, NULL, qs->dropped);
      if (qs->blocked_ms >= 0)
        gp_metrics_put (blocked, qs->name, NULL, qs->blocked_ms / 1000.0);
    }
  }
}

static void
gp_metrics_paths (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *lat, *hist, *unmatched, *w50, *w95;
  guint i;

  lat = gp_metrics_family (m, "gstprof_path_latency_seconds",
      GP_METRICS_SUMMARY, "path", "Latency from the source pad to the "
      "sink's input, quantiles over the run so far; _sum is the exact mean "
      "times _count (NaN when the mean is unknown).");
  hist = gp_metrics_family (m, "gstprof_path_latency_octaves_seconds",
      GP_METRICS_HISTOGRAM, "path", "Latency from the source pad to the "
      "sink's input, counted below each power of two of nanoseconds (exact "
      "counts), over the run so far; _sum NaN when the mean is unknown.");
  unmatched = gp_metrics_family (m, "gstprof_path_unmatched_total",
      GP_METRICS_COUNTER, "path", "Buffers that reached the sink with no "
      "origin buffer to match.");
  w50 = gp_metrics_family (m, "gstprof_path_window_latency_p50_seconds",
      GP_METRICS_GAUGE, "path", "Latency median in the latest window.");
  w95 = gp_metrics_family (m, "gstprof_path_window_latency_p95_seconds",
      GP_METRICS_GAUGE, "path", "Latency 95th percentile in the latest "
      "window.");
  for (i = 0; s->paths && i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);
    gchar *id = g_strdup_printf ("%s->%s", p->source, p->sink);
    gdouble v;

    if (p->matched > 0)
      gp_metrics_put_summary (lat, id, &p->latency_ms,
          p->mean_ms >= 0 ? p->mean_ms * p->matched : NAN, p->matched);
    if (p->latency_octaves.count > 0)
      gp_metrics_put_histogram (hist, id, &p->latency_octaves,
          p->mean_ms >= 0 ? p->mean_ms * p->latency_octaves.count : NAN);
    if (!(s->import_missing & GP_IMPORT_MISSING_PATH_LATENCY))
      gp_metrics_put (unmatched, id, NULL, p->unmatched);
    v = gp_metrics_last_window (s, GP_SERIES_PATHS, id,
        GP_SP_LATENCY_MS_P50);
    if (v >= 0)
      gp_metrics_put (w50, id, NULL, v / 1000.0);
    v = gp_metrics_last_window (s, GP_SERIES_PATHS, id,
        GP_SP_LATENCY_MS_P95);
    if (v >= 0)
      gp_metrics_put (w95, id, NULL, v / 1000.0);
    g_free (id);
  }
}

static void
gp_metrics_threads (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *cpu, *mean, *max, *info;
  GpThreadSummary *lim;
  GpElementSummary *hot;
  guint i;

  cpu = gp_metrics_family (m, "gstprof_thread_cpu_ratio", GP_METRICS_GAUGE,
      "thread", "A streaming thread's CPU in the latest window, of one "
      "core.");
  mean = gp_metrics_family (m, "gstprof_thread_cpu_run_ratio",
      GP_METRICS_GAUGE, "thread", "Its CPU over its life so far, of one "
      "core.");
  max = gp_metrics_family (m, "gstprof_thread_cpu_max_ratio",
      GP_METRICS_GAUGE, "thread", "Its CPU in its busiest window, of one "
      "core.");
  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gdouble v;

    /* a streaming thread that ran elements: not an element's own worker,
     * nor the application's thread that only sent an event */
    if (t->worker || t->elements == NULL || t->elements->len == 0)
      continue;
    v = gp_metrics_last_window (s, GP_SERIES_THREADS, t->name,
        GP_ST_CPU_PCT);
    if (v >= 0)
      gp_metrics_put (cpu, t->name, NULL, v / 100.0);
    if (t->cpu_pct_mean >= 0)
      gp_metrics_put (mean, t->name, NULL, t->cpu_pct_mean / 100.0);
    if (t->cpu_pct_max >= 0)
      gp_metrics_put (max, t->name, NULL, t->cpu_pct_max / 100.0);
  }

  info = gp_metrics_family (m, "gstprof_limiting_info", GP_METRICS_GAUGE,
      NULL, "The streaming thread that limits the run (highest busy share, "
      "then CPU) and its busiest element; always 1.");
  lim = gp_session_limiting_thread (s, NULL);
  if (lim && !lim->worker) {
    hot = gp_session_hottest_on_thread (s, lim);
    gp_metrics_put (info, NULL, gp_metrics_labels ("thread", lim->name,
            "element", hot ? hot->name : "", NULL), 1);
  }
}

static void
gp_metrics_sinks (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *buffers, *rate, *target;
  guint i;

  buffers = gp_metrics_family (m, "gstprof_sink_buffers_total",
      GP_METRICS_COUNTER, "element", "Buffers that reached the sink.");
  rate = gp_metrics_family (m, "gstprof_sink_steady_buffers_per_second",
      GP_METRICS_GAUGE, "element", "The sink's steady input rate.");
  target = gp_metrics_family (m, "gstprof_sink_target_buffers_per_second",
      GP_METRICS_GAUGE, "element", "The rate the caps at a video sink's "
      "input ask for.");
  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    gdouble t = gp_session_sink_target_fps (s, sk->name);

    gp_metrics_put (buffers, sk->name, NULL, sk->buffers);
    if (sk->fps >= 0)
      gp_metrics_put (rate, sk->name, NULL, sk->fps);
    if (t > 0)
      gp_metrics_put (target, sk->name, NULL, t);
  }
}

static void
gp_metrics_findings (GpMetrics * m)
{
  GpSession *s = m->s;
  GpMetricsFamily *f;
  GHashTable *count = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GPtrArray *order = g_ptr_array_new ();
  guint i;

  f = gp_metrics_family (m, "gstprof_findings", GP_METRICS_GAUGE, NULL,
      "Findings of the rules now, by rule and severity (high, medium, "
      "info).");
  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *fd = g_ptr_array_index (s->findings, i);
    gchar *labels = gp_metrics_labels ("rule", fd->rule ? fd->rule : "",
        "severity", fd->severity ? fd->severity : "", NULL);
    gpointer c;

    if (g_hash_table_lookup_extended (count, labels, NULL, &c)) {
      g_hash_table_insert (count, labels,
          GUINT_TO_POINTER (GPOINTER_TO_UINT (c) + 1));
    } else {
      g_ptr_array_add (order, labels);
      g_hash_table_insert (count, labels, GUINT_TO_POINTER (1));
    }
  }
  for (i = 0; i < order->len; i++) {
    const gchar *labels = g_ptr_array_index (order, i);

    gp_metrics_put (f, NULL, g_strdup (labels),
        GPOINTER_TO_UINT (g_hash_table_lookup (count, labels)));
  }
  g_ptr_array_unref (order);
  g_hash_table_unref (count);
}

/* The machine's quantities, each a family: its name, the unit the session
 * keeps it in, the factor to the base unit, and its limit's family. */
typedef struct
{
  const gchar *quantity;
  const gchar *family;
  const gchar *limit;           /* NULL: no limit family */
  gdouble scale;
  const gchar *help;
} GpMetricsMachineQuantity;

static const GpMetricsMachineQuantity gp_metrics_machine_quantities[] = {
  {GP_MACHINE_CPU_LOAD, "gstprof_machine_cpu_load_ratio", NULL, 0.01,
      "CPU busy share: instance all, or the core."},
  {GP_MACHINE_CPU_FREQ, "gstprof_machine_cpu_frequency_hertz",
      "gstprof_machine_cpu_frequency_limit_hertz", 1e6,
      "A core's clock; the limit is its maximum."},
  {GP_MACHINE_CPU_REF, "gstprof_machine_cpu_reference_seconds", NULL, 1e-9,
      "CPU time a fixed piece of work took on the sampler's thread."},
  {GP_MACHINE_THREAD_CPU, "gstprof_machine_thread_cpu_ratio", NULL, 0.01,
      "A thread's CPU of one core, as the sampler saw it (\"TID name\")."},
  {GP_MACHINE_MEM_USED, "gstprof_machine_memory_used_bytes",
      "gstprof_machine_memory_used_limit_bytes", GP_METRICS_MIB,
      "Memory in use (ram, swap); the limit is the total."},
  {GP_MACHINE_RSS, "gstprof_machine_process_resident_memory_bytes", NULL,
      GP_METRICS_MIB, "A process's resident set size (its PID)."},
  {GP_MACHINE_TEMP, "gstprof_machine_temperature_celsius",
      "gstprof_machine_temperature_limit_celsius", 1,
      "A thermal zone or sensor; the limit is its trip point."},
  {GP_MACHINE_GPU_LOAD, "gstprof_machine_gpu_load_ratio", NULL, 0.01,
      "A GPU's busy share."},
  {GP_MACHINE_GPU_FREQ, "gstprof_machine_gpu_frequency_hertz",
      "gstprof_machine_gpu_frequency_limit_hertz", 1e6,
      "A GPU's clock; the limit is its maximum."},
  {GP_MACHINE_GPU_MEM, "gstprof_machine_gpu_memory_used_bytes",
      "gstprof_machine_gpu_memory_used_limit_bytes", GP_METRICS_MIB,
      "A GPU's memory in use; the limit is its total."},
  {GP_MACHINE_MEMBW_LOAD, "gstprof_machine_memory_bandwidth_load_ratio",
      NULL, 0.01, "The memory's busy share (EMC on a Jetson)."},
  {GP_MACHINE_MEM_FREQ, "gstprof_machine_memory_frequency_hertz",
      "gstprof_machine_memory_frequency_limit_hertz", 1e6,
      "The memory's clock; the limit is its maximum."},
  {GP_MACHINE_ENGINE_LOAD, "gstprof_machine_engine_load_ratio", NULL, 0.01,
      "A hardware engine's busy share (NVENC, NVDEC, VIC, ...)."},
  {GP_MACHINE_ENGINE_FREQ, "gstprof_machine_engine_frequency_hertz",
      "gstprof_machine_engine_frequency_limit_hertz", 1e6,
      "A hardware engine's clock."},
  {GP_MACHINE_POWER, "gstprof_machine_power_watts",
      "gstprof_machine_power_limit_watts", 1,
      "A rail's, the board's or a GPU's power; the limit is its cap."},
  {GP_MACHINE_THROTTLE, "gstprof_machine_throttle_reasons", NULL, 1,
      "Why clocks were held down, bits: 1 thermal, 2 power, 4 other."},
};

static void
gp_metrics_machine (GpMetrics * m)
{
  GpMachine *mc = m->s->machine;
  guint i, j, k;

  for (i = 0; i < G_N_ELEMENTS (gp_metrics_machine_quantities); i++) {
    const GpMetricsMachineQuantity *q = &gp_metrics_machine_quantities[i];
    GpMetricsFamily *f, *lf = NULL;
    GPtrArray *all;

    f = gp_metrics_family (m, q->family, GP_METRICS_GAUGE, "device",
        q->help);
    if (q->limit)
      lf = gp_metrics_family (m, q->limit, GP_METRICS_GAUGE, "device",
          "The line the value beside it is held against.");
    if (mc == NULL)
      continue;
    all = gp_machine_find_all (mc, q->quantity);
    for (j = 0; j < all->len; j++) {
      GpMachineSeries *ms = g_ptr_array_index (all, j);
      const gchar *inst = gp_machine_series_instance (ms);
      guint len = gp_machine_series_len (ms);

      /* its latest sample with a value */
      for (k = len; k > 0; k--) {
        gdouble v = gp_machine_series_v (ms, k - 1);

        if (!isnan (v)) {
          gp_metrics_put (f, inst, NULL, v * q->scale);
          break;
        }
      }
      if (lf && !isnan (ms->limit))
        gp_metrics_put (lf, inst, NULL, ms->limit * q->scale);
    }
    g_ptr_array_unref (all);
  }
}

static void
gp_metrics_folded (GpMetrics * m)
{
  GpMetricsFamily *f;
  guint i, n = m->families->len;

  f = gp_metrics_family (m, "gstprof_series_folded", GP_METRICS_GAUGE, NULL,
      "Entities (elements, links, queues, paths, threads, instances) past "
      "the bound of series a family labels, folded into its \"_other\" "
      "series.");
  for (i = 0; i < n; i++) {
    GpMetricsFamily *g = g_ptr_array_index (m->families, i);
    guint folded = g_hash_table_size (g->folded);

    if (folded > 0)
      gp_metrics_put (f, NULL, gp_metrics_labels ("family", g->name, NULL),
          folded);
  }
}

gchar *
gp_metrics_text (GpSession * s, const gchar * pipeline)
{
  GpMetrics m = { 0 };
  GString *out = g_string_new (NULL);

  m.s = s;
  m.pipeline = gp_metrics_escaped (pipeline ? pipeline : "pipeline");
  m.families = g_ptr_array_new_with_free_func (gp_metrics_family_free);
  gp_metrics_session (&m);
  gp_metrics_process (&m);
  gp_metrics_elements (&m);
  gp_metrics_links (&m);
  gp_metrics_queues (&m);
  gp_metrics_paths (&m);
  gp_metrics_threads (&m);
  gp_metrics_sinks (&m);
  gp_metrics_findings (&m);
  gp_metrics_machine (&m);
  gp_metrics_folded (&m);
  gp_metrics_write (&m, out);
  g_ptr_array_unref (m.families);
  g_free (m.pipeline);
  return g_string_free (out, FALSE);
}

const gchar *const *
gp_metrics_names (void)
{
  static const gchar *const names[] = {
    "gstprof_up", "gstprof_session_info", "gstprof_duration_seconds",
    "gstprof_windows", "gstprof_window_seconds",
    "gstprof_target_buffers_per_second", "gstprof_frame_period_seconds",
    "gstprof_events_total", "gstprof_events_dropped_total",
    "gstprof_process_cpu_ratio", "gstprof_process_resident_memory_bytes",
    "gstprof_element_self_seconds", "gstprof_element_self_seconds_sum",
    "gstprof_element_self_seconds_count",
    "gstprof_element_self_octaves_seconds_bucket",
    "gstprof_element_self_octaves_seconds_sum",
    "gstprof_element_self_octaves_seconds_count",
    "gstprof_element_buffers_total",
    "gstprof_element_wait_seconds_total",
    "gstprof_element_cpu_seconds_total", "gstprof_element_busy_ratio",
    "gstprof_element_share_ratio",
    "gstprof_link_buffers_total", "gstprof_link_bytes_total",
    "gstprof_link_steady_buffers_per_second",
    "gstprof_link_steady_bytes_per_second",
    "gstprof_queue_level_ratio", "gstprof_queue_level_max_ratio",
    "gstprof_queue_limit_buffers", "gstprof_queue_limit_bytes",
    "gstprof_queue_limit_seconds", "gstprof_queue_dropped_total",
    "gstprof_queue_blocked_seconds_total",
    "gstprof_path_latency_seconds", "gstprof_path_latency_seconds_sum",
    "gstprof_path_latency_seconds_count",
    "gstprof_path_latency_octaves_seconds_bucket",
    "gstprof_path_latency_octaves_seconds_sum",
    "gstprof_path_latency_octaves_seconds_count",
    "gstprof_path_unmatched_total",
    "gstprof_path_window_latency_p50_seconds",
    "gstprof_path_window_latency_p95_seconds",
    "gstprof_thread_cpu_ratio", "gstprof_thread_cpu_run_ratio",
    "gstprof_thread_cpu_max_ratio", "gstprof_limiting_info",
    "gstprof_sink_buffers_total", "gstprof_sink_steady_buffers_per_second",
    "gstprof_sink_target_buffers_per_second",
    "gstprof_findings",
    "gstprof_machine_cpu_load_ratio", "gstprof_machine_cpu_frequency_hertz",
    "gstprof_machine_cpu_frequency_limit_hertz",
    "gstprof_machine_cpu_reference_seconds",
    "gstprof_machine_thread_cpu_ratio", "gstprof_machine_memory_used_bytes",
    "gstprof_machine_memory_used_limit_bytes",
    "gstprof_machine_process_resident_memory_bytes",
    "gstprof_machine_temperature_celsius",
    "gstprof_machine_temperature_limit_celsius",
    "gstprof_machine_gpu_load_ratio", "gstprof_machine_gpu_frequency_hertz",
    "gstprof_machine_gpu_frequency_limit_hertz",
    "gstprof_machine_gpu_memory_used_bytes",
    "gstprof_machine_gpu_memory_used_limit_bytes",
    "gstprof_machine_memory_bandwidth_load_ratio",
    "gstprof_machine_memory_frequency_hertz",
    "gstprof_machine_memory_frequency_limit_hertz",
    "gstprof_machine_engine_load_ratio",
    "gstprof_machine_engine_frequency_hertz",
    "gstprof_machine_engine_frequency_limit_hertz",
    "gstprof_machine_power_watts", "gstprof_machine_power_limit_watts",
    "gstprof_machine_throttle_reasons",
    "gstprof_series_folded",
    NULL
  };

  return names;
}
