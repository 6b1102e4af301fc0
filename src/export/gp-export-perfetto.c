/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export-perfetto.c: a session as trace-event JSON (gp-export.h
 * says what the viewer shows). The format is the Chrome trace event
 * format's JSON object form, {"traceEvents": [...], ...}: "X" complete
 * events (ts, dur), "C" counters (their values in args), "i" instants, "M"
 * metadata (process_name, thread_name, process_sort_index). Every event
 * carries ph, name, ts, pid and tid. Written as it goes, through a buffer,
 * to a temporary file renamed over @path at the end.
 */
#include "gp-export.h"
#include "core/gp-series.h"
#include "core/gp-version.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the buffer is handed to the file past this size */
#define GP_PERFETTO_FLUSH_BYTES (1024 * 1024)
/* counters, instants and metadata of the windows process are on a thread
 * numbered as the process (a main thread's number): tid 0 is the kernel's
 * idle task to a viewer, and no streaming thread is tid 1 */
#define GP_PERFETTO_TID_PIPELINE GP_EXPORT_PID_WINDOWS

static const gchar gp_perfetto_window_what[] =
    "per-window aggregate: each slice inside is one element's self time in "
    "this window, summed over its buffers and laid out back to back from "
    "the window's start; not when the buffers ran (gstprof run --trace "
    "keeps every push)";

typedef struct
{
  FILE *f;
  GString *buf;
  gboolean first;               /* no comma before the next event */
  gboolean failed;
  int err;                      /* errno of the first failed write */
  guint64 events;
  /* what the trace left out, for otherData */
  guint64 trace_before_start;
  guint64 trace_overlapping;
  guint64 trace_slices;
} GpPerfettoOut;

/* ------------------------------------------------------------------ */
/* writing JSON                                                        */

static void
gp_perfetto_flush (GpPerfettoOut * o)
{
  if (!o->failed && o->buf->len > 0
      && fwrite (o->buf->str, 1, o->buf->len, o->f) != o->buf->len) {
    o->failed = TRUE;
    o->err = errno;
  }
  g_string_truncate (o->buf, 0);
}

/* @s as a JSON string: quotes, backslashes and control characters
 * escaped, bytes that are not UTF-8 (a tracer log's octal escapes can
 * make them) as U+FFFD, so that the file stays one a JSON parser takes. */
static void
gp_perfetto_string (GString * b, const gchar * s)
{
  const gchar *c = s ? s : "";
  const gchar *end = c + strlen (c);

  g_string_append_c (b, '"');
  while (c < end) {
    guchar u = (guchar) * c;
    gunichar ch;

    if (u == '"' || u == '\\')
      g_string_append_printf (b, "\\%c", u);
    else if (u < 0x20)
      g_string_append_printf (b, "\\u%04x", u);
    else if (u < 0x80)
      g_string_append_c (b, (gchar) u);
    else if ((ch = g_utf8_get_char_validated (c, end - c)) >= 0x80
        && ch <= 0x10ffff) {
      const gchar *next = g_utf8_next_char (c);

      g_string_append_len (b, c, next - c);
      c = next;
      continue;
    } else
      g_string_append_unichar (b, 0xfffd);
    c++;
  }
  g_string_append_c (b, '"');
}

/* ns as microseconds with its ns digits: exact, so that nesting in ns is
 * nesting in the file */
static void
gp_perfetto_us (GString * b, gint64 ns)
{
  if (ns < 0) {
    g_string_append_c (b, '-');
    ns = -ns;
  }
  g_string_append_printf (b, "%" G_GINT64_FORMAT ".%03d", ns / 1000,
      (gint) (ns % 1000));
}

static void
gp_perfetto_number (GString * b, gdouble v)
{
  gchar num[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (b, g_ascii_formatd (num, sizeof num, "%.6g",
          isfinite (v) ? v : 0.0));
}

/* {"ph":PH,"name":NAME,"pid":PID,"tid":TID,"ts":TS ... : the caller adds
 * its members and closes it with gp_perfetto_end () */
static void
gp_perfetto_begin (GpPerfettoOut * o, const gchar * ph, const gchar * name,
    gint pid, guint64 tid, gint64 ts_ns)
{
  GString *b = o->buf;

  g_string_append (b, o->first ? "\n" : ",\n");
  o->first = FALSE;
  g_string_append_printf (b, "{\"ph\":\"%s\",\"name\":", ph);
  gp_perfetto_string (b, name);
  g_string_append_printf (b, ",\"pid\":%d,\"tid\":%" G_GUINT64_FORMAT
      ",\"ts\":", pid, tid);
  gp_perfetto_us (b, ts_ns);
}

static void
gp_perfetto_end (GpPerfettoOut * o)
{
  g_string_append_c (o->buf, '}');
  o->events++;
  if (o->buf->len > GP_PERFETTO_FLUSH_BYTES)
    gp_perfetto_flush (o);
}

static void
gp_perfetto_arg_number (GString * b, gboolean * first, const gchar * key,
    gdouble v)
{
  g_string_append (b, *first ? ",\"args\":{" : ",");
  *first = FALSE;
  gp_perfetto_string (b, key);
  g_string_append_c (b, ':');
  gp_perfetto_number (b, v);
}

static void
gp_perfetto_arg_string (GString * b, gboolean * first, const gchar * key,
    const gchar * v)
{
  g_string_append (b, *first ? ",\"args\":{" : ",");
  *first = FALSE;
  gp_perfetto_string (b, key);
  g_string_append_c (b, ':');
  gp_perfetto_string (b, v);
}

static void
gp_perfetto_args_end (GString * b, gboolean first)
{
  if (!first)
    g_string_append_c (b, '}');
}

static void
gp_perfetto_metadata (GpPerfettoOut * o, const gchar * what, gint pid,
    guint64 tid, const gchar * key, const gchar * value, gint sort)
{
  gboolean first = TRUE;

  gp_perfetto_begin (o, "M", what, pid, tid, 0);
  if (value)
    gp_perfetto_arg_string (o->buf, &first, key, value);
  else
    gp_perfetto_arg_number (o->buf, &first, key, sort);
  gp_perfetto_args_end (o->buf, first);
  gp_perfetto_end (o);
}

/* ------------------------------------------------------------------ */
/* the windows process: threads, per-window slices, counters, events   */

static gint64
gp_perfetto_s_to_ns (gdouble s)
{
  return isfinite (s) ? (gint64) llround (s * 1e9) : 0;
}

/* The streaming threads that ran elements, and each element's thread (the
 * first it ran on: a window's self time cannot be split between two). */
static GHashTable *
gp_perfetto_element_threads (GpSession * s)
{
  GHashTable *map = g_hash_table_new (g_str_hash, g_str_equal);
  guint i, j;

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *th = g_ptr_array_index (s->threads, i);

    for (j = 0; th->elements && j < th->elements->len; j++)
      if (!g_hash_table_contains (map, g_ptr_array_index (th->elements, j)))
        g_hash_table_insert (map, g_ptr_array_index (th->elements, j), th);
  }
  return map;
}

static void
gp_perfetto_window_threads (GpPerfettoOut * o, GpSession * s)
{
  guint i;

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *th = g_ptr_array_index (s->threads, i);

    gp_perfetto_metadata (o, "thread_name", GP_EXPORT_PID_WINDOWS, th->tid,
        "name", th->name, 0);
  }
  gp_perfetto_metadata (o, "thread_name", GP_EXPORT_PID_WINDOWS,
      GP_PERFETTO_TID_PIPELINE, "name", "pipeline (counters, events)", 0);
}

typedef struct
{
  const gchar *name;
  gdouble self_ms;
  gdouble buffers;
  gdouble p50;
  gboolean estimated;
} GpPerfettoPart;

/* Window @i on thread @th: the window slice, and inside it one slice per
 * element of the thread with self time in the window, back to back. A
 * session from before series carried self_ms has p50 x buffers, said. */
static void
gp_perfetto_window_on_thread (GpPerfettoOut * o, GpSession * s, guint i,
    GpThreadSummary * th, GHashTable * owner, gint64 t0, gint64 span)
{
  GArray *parts = g_array_new (FALSE, FALSE, sizeof (GpPerfettoPart));
  gdouble sum = 0, scale = 1;
  gint64 at = t0;
  gboolean first = TRUE;
  gchar *name;
  guint j;

  for (j = 0; th->elements && j < th->elements->len; j++) {
    GpPerfettoPart p = { g_ptr_array_index (th->elements, j), -1, 0, -1,
      FALSE
    };

    if (g_hash_table_lookup (owner, p.name) != th)
      continue;
    p.self_ms = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, p.name,
        GP_SE_SELF_MS);
    p.buffers = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, p.name,
        GP_SE_BUFFERS);
    p.p50 = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, p.name,
        GP_SE_SELF_MS_P50);
    if (p.self_ms < 0 && p.p50 > 0 && p.buffers > 0) {
      p.self_ms = p.p50 * p.buffers;
      p.estimated = TRUE;
    }
    if (p.self_ms > 0) {
      g_array_append_val (parts, p);
      sum += p.self_ms;
    }
  }
  if (parts->len == 0) {
    g_array_unref (parts);
    return;
  }
  /* self time past the window's span (samples are counted in the window
   * their push ended in) is shrunk to fit, and said */
  if (sum * 1e6 > span)
    scale = span / (sum * 1e6);

  name = g_strdup_printf ("window %u", i);
  gp_perfetto_begin (o, "X", name, GP_EXPORT_PID_WINDOWS, th->tid, t0);
  g_string_append (o->buf, ",\"dur\":");
  gp_perfetto_us (o->buf, span);
  g_string_append (o->buf, ",\"cat\":\"window\"");
  gp_perfetto_arg_number (o->buf, &first, "window", i);
  gp_perfetto_arg_number (o->buf, &first, "self_ms", sum);
  gp_perfetto_arg_string (o->buf, &first, "what", gp_perfetto_window_what);
  gp_perfetto_args_end (o->buf, first);
  gp_perfetto_end (o);
  g_free (name);

  for (j = 0; j < parts->len; j++) {
    GpPerfettoPart *p = &g_array_index (parts, GpPerfettoPart, j);
    gint64 dur = (gint64) (p->self_ms * 1e6 * scale);

    first = TRUE;
    name = g_strdup_printf ("%s (window total)", p->name);
    gp_perfetto_begin (o, "X", name, GP_EXPORT_PID_WINDOWS, th->tid, at);
    g_string_append (o->buf, ",\"dur\":");
    gp_perfetto_us (o->buf, dur);
    g_string_append (o->buf, ",\"cat\":\"window\"");
    gp_perfetto_arg_string (o->buf, &first, "element", p->name);
    gp_perfetto_arg_number (o->buf, &first, "self_ms", p->self_ms);
    gp_perfetto_arg_number (o->buf, &first, "buffers", p->buffers);
    if (p->p50 >= 0)
      gp_perfetto_arg_number (o->buf, &first, "self_ms_p50", p->p50);
    if (p->estimated)
      gp_perfetto_arg_string (o->buf, &first, "estimated", "self_ms_p50 x "
          "buffers: the session has no self_ms per window");
    if (scale < 1)
      gp_perfetto_arg_number (o->buf, &first, "scaled_to_fit", scale);
    gp_perfetto_args_end (o->buf, first);
    gp_perfetto_end (o);
    g_free (name);
    at += dur;
  }
  g_array_unref (parts);
}

static void
gp_perfetto_window_slices (GpPerfettoOut * o, GpSession * s)
{
  GHashTable *owner = gp_perfetto_element_threads (s);
  guint i, k;

  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t0, t1;
    gint64 a, b;

    gp_session_window_span (s, i, &t0, &t1);
    /* the first window may open a few us before the session's t = 0 */
    a = MAX (gp_perfetto_s_to_ns (t0), 0);
    b = gp_perfetto_s_to_ns (t1);
    if (b <= a)
      continue;
    for (k = 0; k < s->threads->len; k++) {
      GpThreadSummary *th = g_ptr_array_index (s->threads, k);

      if (!th->worker)
        gp_perfetto_window_on_thread (o, s, i, th, owner, a, b - a);
    }
  }
  g_hash_table_unref (owner);
}

/* One counter sample: "C" NAME at @ts with the fields of @entry named in
 * @fields that hold a sample (>= 0); none, nothing. */
static void
gp_perfetto_counter (GpPerfettoOut * o, const gchar * name, gint64 ts,
    JsonObject * entry, const gchar * const *fields, const gchar * const *keys)
{
  GString *args = g_string_new (NULL);
  gboolean first = TRUE;
  guint i;

  for (i = 0; fields[i]; i++) {
    JsonNode *n = entry ? json_object_get_member (entry, fields[i]) : NULL;
    gdouble v;

    if (n == NULL || !JSON_NODE_HOLDS_VALUE (n)
        || json_node_get_value_type (n) == G_TYPE_STRING
        || json_node_get_value_type (n) == G_TYPE_BOOLEAN)
      continue;
    v = json_node_get_double (n);
    if (v < 0 || !isfinite (v))
      continue;
    gp_perfetto_arg_number (args, &first, keys[i], v);
  }
  if (!first) {
    gp_perfetto_begin (o, "C", name, GP_EXPORT_PID_WINDOWS,
        GP_PERFETTO_TID_PIPELINE, ts);
    g_string_append_len (o->buf, args->str, args->len);
    gp_perfetto_args_end (o->buf, FALSE);
    gp_perfetto_end (o);
  }
  g_string_free (args, TRUE);
}

/* Every entry of window @i's @section as a counter "PREFIX KEY SUFFIX". */
static void
gp_perfetto_section_counters (GpPerfettoOut * o, GpSession * s, guint i,
    gint64 ts, const gchar * section, const gchar * prefix,
    const gchar * suffix, const gchar * const *fields,
    const gchar * const *keys)
{
  JsonObject *sec = gp_session_window_section (s, i, section);
  GList *members, *l;

  if (sec == NULL)
    return;
  members = json_object_get_members (sec);
  for (l = members; l; l = l->next) {
    JsonNode *n = json_object_get_member (sec, l->data);
    gchar *name = g_strdup_printf ("%s %s%s", prefix, (gchar *) l->data,
        suffix);

    if (JSON_NODE_HOLDS_OBJECT (n))
      gp_perfetto_counter (o, name, ts, json_node_get_object (n), fields, keys);
    g_free (name);
  }
  g_list_free (members);
}

/* fps of the link into each sink, "fps sink NAME" */
static void
gp_perfetto_sink_counters (GpPerfettoOut * o, GpSession * s, guint i, gint64 ts)
{
  static const gchar *const fields[] = { GP_SL_FPS, NULL };
  JsonObject *links = gp_session_window_section (s, i, GP_SERIES_LINKS);
  guint k, j;

  for (k = 0; links && k < s->sinks->len; k++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, k);

    for (j = 0; j < s->links->len; j++) {
      GpLink *l = g_ptr_array_index (s->links, j);
      gchar *el = gp_pad_element (l->sink);
      JsonNode *n = json_object_get_member (links, l->id);

      if (g_strcmp0 (el, ss->name) == 0 && n && JSON_NODE_HOLDS_OBJECT (n)) {
        gchar *name = g_strdup_printf ("fps sink %s", ss->name);

        gp_perfetto_counter (o, name, ts, json_node_get_object (n), fields,
            fields);
        g_free (name);
      }
      g_free (el);
    }
  }
}

static void
gp_perfetto_counters (GpPerfettoOut * o, GpSession * s)
{
  static const gchar *const fps[] = { GP_SL_FPS, NULL };
  static const gchar *const level[] = { GP_SQ_LEVEL_PCT_MEAN,
    GP_SQ_LEVEL_PCT_MAX, NULL
  };
  static const gchar *const level_keys[] = { "mean", "max", NULL };
  static const gchar *const lat[] = { GP_SP_LATENCY_MS_P50,
    GP_SP_LATENCY_MS_P95, NULL
  };
  static const gchar *const lat_keys[] = { "p50", "p95", NULL };
  static const gchar *const cpu[] = { GP_ST_CPU_PCT, NULL };
  static const gchar *const proc_cpu[] = { GP_SPR_CPU_PCT, NULL };
  static const gchar *const rss[] = { GP_SPR_RSS_MB, NULL };
  guint i;

  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t0;
    gint64 ts;

    gp_session_window_span (s, i, &t0, NULL);
    ts = MAX (gp_perfetto_s_to_ns (t0), 0);
    gp_perfetto_section_counters (o, s, i, ts, GP_SERIES_LINKS, "fps", "",
        fps, fps);
    gp_perfetto_sink_counters (o, s, i, ts);
    gp_perfetto_section_counters (o, s, i, ts, GP_SERIES_QUEUES, "queue",
        " level %", level, level_keys);
    gp_perfetto_section_counters (o, s, i, ts, GP_SERIES_PATHS, "latency",
        " ms", lat, lat_keys);
    gp_perfetto_section_counters (o, s, i, ts, GP_SERIES_THREADS, "cpu",
        " %", cpu, cpu);
    gp_perfetto_counter (o, "cpu process %", ts, gp_session_window_section
        (s, i, GP_SERIES_PROCESS), proc_cpu, proc_cpu);
    gp_perfetto_counter (o, "rss process MiB", ts, gp_session_window_section
        (s, i, GP_SERIES_PROCESS), rss, rss);
  }
}

static void
gp_perfetto_events (GpPerfettoOut * o, GpSession * s)
{
  guint i;

  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    gint64 ts = gp_perfetto_s_to_ns (ev->t);
    gboolean first = TRUE;
    gchar *name;

    if (ts < 0)
      continue;
    name = ev->source && *ev->source ? g_strdup_printf ("%s: %s", ev->type,
        ev->source) : g_strdup (ev->type);
    gp_perfetto_begin (o, "i", name, GP_EXPORT_PID_WINDOWS,
        GP_PERFETTO_TID_PIPELINE, ts);
    g_string_append (o->buf, ",\"s\":\"p\"");
    gp_perfetto_arg_string (o->buf, &first, "text", ev->text);
    gp_perfetto_args_end (o->buf, first);
    gp_perfetto_end (o);
    g_free (name);
  }
}

/* ------------------------------------------------------------------ */
/* the trace process: every push                                       */

/* earlier start first; of two that start together the longer (the push
 * around the other) */
static gint
gp_perfetto_slice_cmp (gconstpointer a, gconstpointer b)
{
  const GpTraceSlice *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return (gint) x->depth - (gint) y->depth;
}

static const gchar *
gp_perfetto_kind_name (guint8 kind)
{
  switch (kind) {
    case GP_TRACE_KIND_PULL:
      return "pull";
    case GP_TRACE_KIND_EVENT:
      return "event";
    default:
      return "push";
  }
}

/* One thread's pushes: sorted, nested by their times (a stack of the
 * pushes around the current one), each with its self time (its duration
 * less the pushes directly inside it). One that overlaps the push around
 * it without ending inside it cannot come from one thread's stack and is
 * left out, counted. */
static void
gp_perfetto_trace_thread (GpPerfettoOut * o, const GpTrace * trace,
    const GpTraceThread * th)
{
  GArray *sl = g_array_new (FALSE, FALSE, sizeof (GpTraceSlice));
  gint64 *self;
  gboolean *keep;
  guint *stack, depth = 0, i;
  gchar *tname;

  for (i = 0; i < th->slices->len; i++) {
    const GpTraceSlice *x = &g_array_index (th->slices, GpTraceSlice, i);

    if (x->start < trace->t0)
      o->trace_before_start++;
    else
      g_array_append_vals (sl, x, 1);
  }
  g_array_sort (sl, gp_perfetto_slice_cmp);
  self = g_new (gint64, sl->len + 1);
  keep = g_new0 (gboolean, sl->len + 1);
  stack = g_new (guint, sl->len + 1);
  for (i = 0; i < sl->len; i++) {
    const GpTraceSlice *x = &g_array_index (sl, GpTraceSlice, i);

    while (depth > 0
        && g_array_index (sl, GpTraceSlice, stack[depth - 1]).end <= x->start)
      depth--;
    if (depth > 0
        && x->end > g_array_index (sl, GpTraceSlice, stack[depth - 1]).end) {
      o->trace_overlapping++;
      continue;
    }
    self[i] = (gint64) (x->end - x->start);
    keep[i] = TRUE;
    if (depth > 0)
      self[stack[depth - 1]] -= (gint64) (x->end - x->start);
    stack[depth++] = i;
  }

  tname = g_strdup_printf ("%s (every push)", th->name);
  gp_perfetto_metadata (o, "thread_name", GP_EXPORT_PID_TRACE, th->tid,
      "name", tname, 0);
  g_free (tname);
  for (i = 0; i < sl->len; i++) {
    const GpTraceSlice *x = &g_array_index (sl, GpTraceSlice, i);
    gboolean first = TRUE;

    if (!keep[i])
      continue;
    gp_perfetto_begin (o, "X", g_ptr_array_index (trace->elements,
            x->element), GP_EXPORT_PID_TRACE, th->tid,
        (gint64) (x->start - trace->t0));
    g_string_append (o->buf, ",\"dur\":");
    gp_perfetto_us (o->buf, (gint64) (x->end - x->start));
    g_string_append (o->buf, ",\"cat\":");
    gp_perfetto_string (o->buf, gp_perfetto_kind_name (x->kind));
    g_string_append (o->buf, ",\"args\":{\"self_us\":");
    gp_perfetto_us (o->buf, MAX (self[i], 0));
    first = FALSE;
    if (x->kind != GP_TRACE_KIND_EVENT && x->n != 1)
      gp_perfetto_arg_number (o->buf, &first, "buffers", x->n);
    gp_perfetto_args_end (o->buf, first);
    gp_perfetto_end (o);
    o->trace_slices++;
  }
  g_free (self);
  g_free (keep);
  g_free (stack);
  g_array_unref (sl);
}

static void
gp_perfetto_trace (GpPerfettoOut * o, const GpTrace * trace)
{
  guint i;

  for (i = 0; i < trace->threads->len; i++)
    gp_perfetto_trace_thread (o, trace, g_ptr_array_index (trace->threads, i));
}

/* ------------------------------------------------------------------ */
/* the file                                                            */

static void
gp_perfetto_processes (GpPerfettoOut * o, GpSession * s, const GpTrace * trace)
{
  gchar *name = g_strdup_printf ("gstprof windows: per-window aggregates, "
      "not per buffer%s%s", s->launch ? ": " : "", s->launch ? s->launch : "");

  gp_perfetto_metadata (o, "process_name", GP_EXPORT_PID_WINDOWS,
      GP_EXPORT_PID_WINDOWS, "name", name, 0);
  gp_perfetto_metadata (o, "process_sort_index", GP_EXPORT_PID_WINDOWS,
      GP_EXPORT_PID_WINDOWS, "sort_index", NULL, 2);
  g_free (name);
  if (trace == NULL)
    return;
  name = g_strdup_printf ("gstprof trace: every push, the last %u s",
      trace->seconds);
  gp_perfetto_metadata (o, "process_name", GP_EXPORT_PID_TRACE,
      GP_EXPORT_PID_TRACE, "name", name, 0);
  gp_perfetto_metadata (o, "process_sort_index", GP_EXPORT_PID_TRACE,
      GP_EXPORT_PID_TRACE, "sort_index", NULL, 1);
  g_free (name);
}

static void
gp_perfetto_other_data (GpPerfettoOut * o, GpSession * s, const GpTrace * trace)
{
  GString *b = o->buf;
  gchar *text;

  g_string_append (b, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{");
  g_string_append (b, "\"generator\":");
  text = g_strdup_printf ("gstprof %s export --perfetto", gp_version ());
  gp_perfetto_string (b, text);
  g_free (text);
  g_string_append (b, ",\"launch\":");
  gp_perfetto_string (b, s->launch ? s->launch : "");
  g_string_append (b, ",\"started\":");
  gp_perfetto_string (b, s->started);
  g_string_append (b, ",\"windows\":");
  gp_perfetto_string (b, gp_perfetto_window_what);
  if (trace) {
    guint64 lost = 0;
    guint i;

    for (i = 0; i < trace->threads->len; i++)
      lost += ((GpTraceThread *) g_ptr_array_index (trace->threads, i))->lost;
    text = g_strdup_printf ("every push into an element per streaming "
        "thread, from its enter to its exit, nested: %" G_GUINT64_FORMAT
        " slices over the last %u s of data flow; %" G_GUINT64_FORMAT
        " older pushes not kept, %" G_GUINT64_FORMAT " before the "
        "session's start and %" G_GUINT64_FORMAT " overlapping ones left "
        "out", o->trace_slices, trace->seconds, lost, o->trace_before_start,
        o->trace_overlapping);
    g_string_append (b, ",\"trace\":");
    gp_perfetto_string (b, text);
    g_free (text);
  }
  g_string_append (b, "}}\n");
}

gboolean
gp_export_perfetto (const GpSession * cs, const GpTrace * trace,
    const gchar * path, GError ** error)
{
  GpSession *s = (GpSession *) cs;      /* the session's readers take it so */
  GpPerfettoOut o = { NULL, NULL, TRUE, FALSE, 0, 0, 0, 0, 0 };
  GpAtomicFile *file = gp_atomic_file_open (path, error);
  gboolean ok;

  if (file == NULL)
    return FALSE;
  o.f = file->fp;
  o.buf = g_string_sized_new (GP_PERFETTO_FLUSH_BYTES + 4096);
  g_string_append (o.buf, "{\"traceEvents\":[");

  gp_perfetto_processes (&o, s, trace);
  gp_perfetto_window_threads (&o, s);
  gp_perfetto_window_slices (&o, s);
  gp_perfetto_counters (&o, s);
  gp_perfetto_events (&o, s);
  if (trace)
    gp_perfetto_trace (&o, trace);
  gp_perfetto_other_data (&o, s, trace);

  gp_perfetto_flush (&o);
  if (o.failed) {
    gp_atomic_file_abort (file);
    g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_IO,
        "%s: cannot write: %s", path, g_strerror (o.err));
    ok = FALSE;
  } else {
    ok = gp_atomic_file_commit (file, error);
  }
  g_string_free (o.buf, TRUE);
  return ok;
}
