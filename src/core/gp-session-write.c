/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-write.c: a GpSession to session.json (schema "gstprof/1",
 * described key by key in docs/session-schema.md), with json-glib's
 * generator; gp-session-read.c is the way back.
 *
 * Numbers that the model keeps negative for "unknown" are written as null,
 * and JSON has no NaN or infinity, so those become null (or 0 where a field
 * cannot be unknown) instead of the invalid tokens json-glib would print.
 * Strings that are not UTF-8 (thread names from /proc are raw bytes) are
 * repaired, because a file we write must always load again. The file is
 * written to a temporary name in the same directory and renamed over the
 * target, so a reader (or a crash) never sees half a file.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gp-json.h"
#include "gp-session.h"
#include "gp-file.h"

/* ------------------------------------------------------------------ */
/* writing                                                              */
/* ------------------------------------------------------------------ */

static gchar *
gp_session_write_valid_utf8 (const gchar * str)
{
  if (g_utf8_validate (str, -1, NULL))
    return g_strdup (str);
  return g_utf8_make_valid (str, -1);
}

/* json-glib prints a double with "%.17g" and appends ".0" when that has
 * no '.', so 1e-99 or 1e+20 come out as "1e-99.0", which no JSON reader
 * takes (found by the garbage test: a mutated file that loaded saved as
 * one that did not). Such a value (a short exact mantissa with an
 * exponent) moves by one ulp toward zero, which prints with a '.': the
 * file stays valid, and the moved value reads back exactly. */
static gdouble
gp_session_write_printable (gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
  guint i;

  for (i = 0; i < 4 && isfinite (v) && v != 0.0; i++) {
    g_ascii_formatd (buf, sizeof (buf), "%.17g", v);
    if (strchr (buf, '.') != NULL || strchr (buf, 'e') == NULL)
      break;
    v = nextafter (v, 0.0);
  }
  return v;
}

/* True when json-glib can print @node as valid JSON that reads back the
 * same: no NaN/infinity, no double json-glib would print wrongly
 * (gp_session_write_printable ()), only UTF-8 strings and member names. */
static gboolean
gp_session_write_node_is_clean (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:{
      JsonObject *o = json_node_get_object (node);
      GList *members = json_object_get_members (o), *l;
      gboolean clean = TRUE;

      for (l = members; l != NULL && clean; l = l->next) {
        clean = g_utf8_validate (l->data, -1, NULL) &&
            gp_session_write_node_is_clean (json_object_get_member (o,
                l->data));
      }
      g_list_free (members);
      return clean;
    }
    case JSON_NODE_ARRAY:{
      JsonArray *a = json_node_get_array (node);
      guint i, n = json_array_get_length (a);

      for (i = 0; i < n; i++)
        if (!gp_session_write_node_is_clean (json_array_get_element (a, i)))
          return FALSE;
      return TRUE;
    }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE) {
        gdouble v = json_node_get_double (node);

        return isfinite (v) && gp_session_write_printable (v) == v;
      }
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        return g_utf8_validate (json_node_get_string (node), -1, NULL);
      return TRUE;
    case JSON_NODE_NULL:
    default:
      return TRUE;
  }
}

/* A deep copy of @node with non-finite numbers turned to null and strings
 * made valid UTF-8. */
static JsonNode *
gp_session_write_node_clean_copy (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:{
      JsonObject *o = json_node_get_object (node), *copy = json_object_new ();
      GList *members = json_object_get_members (o), *l;
      JsonNode *res;

      for (l = members; l != NULL; l = l->next) {
        gchar *name = gp_session_write_valid_utf8 (l->data);

        json_object_set_member (copy, name,
            gp_session_write_node_clean_copy (json_object_get_member (o,
                l->data)));
        g_free (name);
      }
      g_list_free (members);
      res = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (res, copy);
      return res;
    }
    case JSON_NODE_ARRAY:{
      JsonArray *a = json_node_get_array (node);
      JsonArray *copy = json_array_new ();
      guint i, n = json_array_get_length (a);
      JsonNode *res;

      for (i = 0; i < n; i++)
        json_array_add_element (copy,
            gp_session_write_node_clean_copy (json_array_get_element (a, i)));
      res = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (res, copy);
      return res;
    }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE) {
        gdouble v = json_node_get_double (node);
        JsonNode *res;

        if (!isfinite (v))
          return json_node_new (JSON_NODE_NULL);
        res = json_node_new (JSON_NODE_VALUE);
        json_node_set_double (res, gp_session_write_printable (v));
        return res;
      }
      if (json_node_get_value_type (node) == G_TYPE_STRING) {
        JsonNode *res = json_node_new (JSON_NODE_VALUE);
        gchar *valid =
            gp_session_write_valid_utf8 (json_node_get_string (node));

        json_node_set_string (res, valid);
        g_free (valid);
        return res;
      }
      return json_node_copy (node);
    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
  }
}

/* A node for an opaque object of the model (series window, props,
 * evidence): shared when it prints cleanly, a repaired copy otherwise. */
static JsonNode *
gp_session_write_object_node (JsonObject * o)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  if (o == NULL)
    json_node_take_object (node, json_object_new ());
  else
    json_node_set_object (node, o);
  if (!gp_session_write_node_is_clean (node)) {
    JsonNode *copy = gp_session_write_node_clean_copy (node);

    json_node_unref (node);
    node = copy;
  }
  return node;
}

static void
gp_session_write_set_string (JsonObject * o, const gchar * key,
    const gchar * str)
{
  if (str == NULL) {
    json_object_set_null_member (o, key);
  } else if (g_utf8_validate (str, -1, NULL)) {
    json_object_set_string_member (o, key, str);
  } else {
    gchar *valid = g_utf8_make_valid (str, -1);

    json_object_set_string_member (o, key, valid);
    g_free (valid);
  }
}

/* A number the model may not know: negative (or not a number) is null. */
static void
gp_session_write_set_maybe (JsonObject * o, const gchar * key, gdouble v)
{
  if (!isfinite (v) || v < 0)
    json_object_set_null_member (o, key);
  else
    /* + 0.0 turns -0.0 into 0.0, which prints the same way every time. */
    json_object_set_double_member (o, key,
        gp_session_write_printable (v + 0.0));
}

/* A number that is always known and may be negative (event times). */
static void
gp_session_write_set_real (JsonObject * o, const gchar * key, gdouble v)
{
  json_object_set_double_member (o, key,
      isfinite (v) ? gp_session_write_printable (v + 0.0) : 0.0);
}

static void
gp_session_write_set_count (JsonObject * o, const gchar * key, guint64 v)
{
  /* JSON readers (and json-glib) stop at signed 64 bits. */
  json_object_set_int_member (o, key, (gint64) MIN (v, (guint64) G_MAXINT64));
}

static JsonObject *
gp_session_write_quantiles (const GpQuantiles * q)
{
  JsonObject *o = json_object_new ();

  gp_session_write_set_maybe (o, "p50", q->p50);
  gp_session_write_set_maybe (o, "p95", q->p95);
  gp_session_write_set_maybe (o, "p99", q->p99);
  gp_session_write_set_maybe (o, "max", q->max);
  return o;
}

/* An octave histogram as {"below": [...], "count": N}; NULL when none. */
static JsonObject *
gp_session_write_octaves (const GpOctaves * oct)
{
  JsonObject *o;
  JsonArray *below;
  guint i;

  if (oct->count == 0)
    return NULL;
  o = json_object_new ();
  below = json_array_new ();
  for (i = 0; i < GP_OCTAVE_N; i++)
    json_array_add_int_element (below, (gint64) oct->below[i]);
  json_object_set_array_member (o, "below", below);
  gp_session_write_set_count (o, "count", oct->count);
  return o;
}

/* @oct at @key of @o, when there is one. */
static void
gp_session_write_set_octaves (JsonObject * o, const gchar * key,
    const GpOctaves * oct)
{
  JsonObject *oo = gp_session_write_octaves (oct);

  if (oo)
    json_object_set_object_member (o, key, oo);
}

static JsonArray *
gp_session_write_string_array (GPtrArray * strings)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; strings != NULL && i < strings->len; i++) {
    const gchar *str = g_ptr_array_index (strings, i);
    gchar *valid = gp_session_write_valid_utf8 (str != NULL ? str : "");

    json_array_add_string_element (a, valid);
    g_free (valid);
  }
  return a;
}

/* Keyed sections (summary.elements.<name>) use the name as member name. */
static void
gp_session_write_set_keyed (JsonObject * parent, const gchar * key,
    JsonObject * o)
{
  gchar *valid = gp_session_write_valid_utf8 (key != NULL ? key : "");

  json_object_set_object_member (parent, valid, o);
  g_free (valid);
}

static JsonObject *
gp_session_write_session_info (GpSession * s)
{
  JsonObject *o = json_object_new ();

  gp_session_write_set_string (o, "mode", s->mode);
  gp_session_write_set_string (o, "launch", s->launch);
  gp_session_write_set_string (o, "started", s->started);
  gp_session_write_set_maybe (o, "duration_s", s->duration_s);
  gp_session_write_set_string (o, "gstreamer", s->gstreamer);
  gp_session_write_set_string (o, "platform", s->platform);
  gp_session_write_set_maybe (o, "window_s", s->window_s);
  json_object_set_int_member (o, "exit_code", s->exit_code);
  gp_session_write_set_string (o, "reached", s->reached);
  gp_session_write_set_string (o, "end", s->end);
  gp_session_write_set_maybe (o, "stop_s", s->stop_s);
  gp_session_write_set_maybe (o, "drain_s", s->drain_s);
  gp_session_write_set_count (o, "events_dropped", s->events_dropped);
  if (s->trace_file != NULL) {
    JsonObject *tr = json_object_new ();

    gp_session_write_set_string (tr, "file", s->trace_file);
    json_object_set_int_member (tr, "seconds", s->trace_s);
    gp_session_write_set_count (tr, "slices", s->trace_slices);
    json_object_set_object_member (o, "trace", tr);
  }
  if (s->preroll->len > 0) {
    JsonArray *a = json_array_new ();
    guint i;

    for (i = 0; i < s->preroll->len; i++) {
      GpPrerollSink *p = g_ptr_array_index (s->preroll, i);
      JsonObject *po = json_object_new ();

      gp_session_write_set_string (po, "sink", p->name);
      gp_session_write_set_string (po, "state", p->state);
      gp_session_write_set_string (po, "pending", p->pending);
      json_object_set_boolean_member (po, "prerolled", p->prerolled);
      json_array_add_object_element (a, po);
    }
    json_object_set_array_member (o, "preroll", a);
  }
  if (s->import_schema != NULL) {
    JsonObject *imp = json_object_new ();
    JsonArray *missing = json_array_new ();
    guint bit;

    gp_session_write_set_string (imp, "schema", s->import_schema);
    gp_session_write_set_string (imp, "mode", s->import_mode);
    for (bit = 0; bit < 32; bit++) {
      const gchar *name =
          gp_session_import_missing_name (s->import_missing & (1u << bit));

      if (name != NULL)
        json_array_add_string_element (missing, name);
    }
    json_object_set_array_member (imp, "missing", missing);
    json_object_set_object_member (o, "imported_from", imp);
  }
  return o;
}

static JsonObject *
gp_session_write_graph (GpSession * s)
{
  JsonObject *o = json_object_new ();
  JsonArray *elements = json_array_new (), *links = json_array_new ();
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    JsonObject *eo = json_object_new ();

    gp_session_write_set_string (eo, "name", e->name);
    gp_session_write_set_string (eo, "factory", e->factory);
    gp_session_write_set_string (eo, "parent", e->parent);
    gp_session_write_set_string (eo, "kind", e->kind);
    json_object_set_boolean_member (eo, "is_bin", e->is_bin);
    json_object_set_member (eo, "props",
        gp_session_write_object_node (e->props));
    json_array_add_object_element (elements, eo);
  }
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    JsonObject *lo = json_object_new ();

    gp_session_write_set_string (lo, "id", l->id);
    gp_session_write_set_string (lo, "src", l->src);
    gp_session_write_set_string (lo, "sink", l->sink);
    gp_session_write_set_string (lo, "caps", l->caps);
    gp_session_write_set_string (lo, "memory", l->memory);
    json_array_add_object_element (links, lo);
  }
  json_object_set_array_member (o, "elements", elements);
  json_object_set_array_member (o, "links", links);
  json_object_set_array_member (o, "hw_elements",
      gp_session_write_string_array (s->hw_elements));
  return o;
}

static JsonArray *
gp_session_write_paths (GPtrArray * paths)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < paths->len; i++) {
    GpPath *p = g_ptr_array_index (paths, i);
    JsonObject *po = json_object_new ();

    gp_session_write_set_string (po, "source", p->source);
    gp_session_write_set_string (po, "sink", p->sink);
    json_object_set_object_member (po, "latency_ms",
        gp_session_write_quantiles (&p->latency_ms));
    gp_session_write_set_octaves (po, "latency_octaves", &p->latency_octaves);
    gp_session_write_set_maybe (po, "mean_ms", p->mean_ms);
    gp_session_write_set_count (po, "matched", p->matched);
    gp_session_write_set_count (po, "exact", p->exact);
    gp_session_write_set_count (po, "unmatched", p->unmatched);
    json_object_set_boolean_member (po, "steady", p->steady);
    gp_session_write_set_maybe (po, "startup_max_ms", p->startup_max_ms);
    json_array_add_object_element (a, po);
  }
  return a;
}

/* summary.process: null as a whole when the session has none. */
static JsonNode *
gp_session_write_process (const GpProcessSummary * p)
{
  JsonObject *o, *cpu, *rss;
  JsonNode *node;

  if (!p->measured)
    return json_node_new (JSON_NODE_NULL);
  o = json_object_new ();
  cpu = json_object_new ();
  gp_session_write_set_maybe (cpu, "mean", p->cpu_pct_mean);
  gp_session_write_set_maybe (cpu, "max", p->cpu_pct_max);
  json_object_set_object_member (o, "cpu_pct", cpu);
  if (p->n_cpus > 0)
    json_object_set_int_member (o, "n_cpus", p->n_cpus);
  else
    json_object_set_null_member (o, "n_cpus");
  rss = json_object_new ();
  gp_session_write_set_maybe (rss, "start", p->rss_mb_start);
  gp_session_write_set_maybe (rss, "max", p->rss_mb_max);
  gp_session_write_set_maybe (rss, "end", p->rss_mb_end);
  json_object_set_object_member (o, "rss_mb", rss);
  /* init_object takes its own reference: drop ours (found leaking by
   * tests/fuzz) */
  node = json_node_init_object (json_node_alloc (), o);
  json_object_unref (o);
  return node;
}

static JsonObject *
gp_session_write_summary (GpSession * s)
{
  JsonObject *o = json_object_new ();
  JsonObject *elements = json_object_new (), *queues = json_object_new ();
  JsonObject *links = json_object_new (), *sinks = json_object_new ();
  JsonArray *threads = json_array_new ();
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    JsonObject *eo = json_object_new ();

    json_object_set_object_member (eo, "self_ms",
        gp_session_write_quantiles (&es->self_ms));
    gp_session_write_set_octaves (eo, "self_octaves", &es->self_octaves);
    gp_session_write_set_count (eo, "buffers", es->buffers);
    gp_session_write_set_maybe (eo, "self_total_ms", es->self_total_ms);
    gp_session_write_set_count (eo, "cpu_buffers", es->cpu_buffers);
    json_object_set_object_member (eo, "wait_ms",
        gp_session_write_quantiles (&es->wait_ms));
    gp_session_write_set_maybe (eo, "wait_total_ms", es->wait_total_ms);
    gp_session_write_set_maybe (eo, "cpu_ms", es->cpu_ms);
    if (es->queued_mb_max >= 0) {
      JsonObject *qo = json_object_new ();

      gp_session_write_set_maybe (qo, "max_mb", es->queued_mb_max);
      gp_session_write_set_maybe (qo, "end_mb", es->queued_mb_end);
      gp_session_write_set_count (qo, "limit_bytes", es->queued_limit_bytes);
      json_object_set_boolean_member (qo, "blocks", es->queued_blocks);
      json_object_set_object_member (eo, "queued", qo);
    }
    if (es->handler_ms >= 0) {
      JsonObject *ho = json_object_new ();

      gp_session_write_set_maybe (ho, "ms", es->handler_ms);
      gp_session_write_set_count (ho, "calls", es->handler_calls);
      gp_session_write_set_maybe (ho, "busy_pct", es->handler_busy_pct);
      json_object_set_object_member (eo, "handlers", ho);
    }
    json_object_set_array_member (eo, "threads",
        gp_session_write_string_array (es->threads));
    gp_session_write_set_maybe (eo, "busy_pct", es->busy_pct);
    gp_session_write_set_maybe (eo, "share_pct", es->share_pct);
    gp_session_write_set_keyed (elements, es->name, eo);
  }
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);
    JsonObject *qo = json_object_new (), *level = json_object_new ();

    json_object_set_object_member (qo, "residence_ms",
        gp_session_write_quantiles (&qs->residence_ms));
    gp_session_write_set_maybe (level, "mean", qs->level_pct_mean);
    gp_session_write_set_maybe (level, "max", qs->level_pct_max);
    json_object_set_object_member (qo, "level_pct", level);
    gp_session_write_set_count (qo, "level_buffers_max", qs->level_buffers_max);
    gp_session_write_set_count (qo, "dropped", qs->dropped);
    gp_session_write_set_string (qo, "leaky", qs->leaky);
    gp_session_write_set_maybe (qo, "blocked_ms", qs->blocked_ms);
    gp_session_write_set_keyed (queues, qs->name, qo);
  }
  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);
    JsonObject *lo = json_object_new ();

    gp_session_write_set_maybe (lo, "fps", ls->fps);
    gp_session_write_set_maybe (lo, "bytes_per_s", ls->bytes_per_s);
    gp_session_write_set_maybe (lo, "media_per_s", ls->media_per_s);
    gp_session_write_set_maybe (lo, "first_s", ls->first_s);
    gp_session_write_set_count (lo, "buffers", ls->buffers);
    if (ls->no_pts > 0)
      gp_session_write_set_count (lo, "no_pts", ls->no_pts);
    if (ls->gap > 0)
      gp_session_write_set_count (lo, "gap", ls->gap);
    if (ls->rtp) {
      JsonObject *ro = json_object_new ();

      gp_session_write_set_count (ro, "expected", ls->rtp_expected);
      gp_session_write_set_count (ro, "received", ls->rtp_received);
      gp_session_write_set_count (ro, "restarts", ls->rtp_restarts);
      json_object_set_object_member (lo, "rtp", ro);
    }
    if (ls->probe_ms >= 0) {
      JsonObject *po = json_object_new ();

      gp_session_write_set_maybe (po, "ms", ls->probe_ms);
      gp_session_write_set_count (po, "pushes", ls->probe_pushes);
      gp_session_write_set_maybe (po, "busy_pct", ls->probe_busy_pct);
      json_object_set_object_member (lo, "probe", po);
    }
    gp_session_write_set_keyed (links, ls->id, lo);
  }
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *ts = g_ptr_array_index (s->threads, i);
    JsonObject *to = json_object_new (), *cpu = json_object_new ();

    gp_session_write_set_count (to, "tid", ts->tid);
    gp_session_write_set_string (to, "name", ts->name);
    gp_session_write_set_maybe (cpu, "mean", ts->cpu_pct_mean);
    gp_session_write_set_maybe (cpu, "max", ts->cpu_pct_max);
    json_object_set_object_member (to, "cpu_pct", cpu);
    gp_session_write_set_maybe (to, "run_delay_pct", ts->run_delay_pct);
    json_object_set_array_member (to, "elements",
        gp_session_write_string_array (ts->elements));
    json_object_set_boolean_member (to, "streaming", !ts->worker);
    if (ts->blocked_in) {
      gp_session_write_set_string (to, "blocked_in", ts->blocked_in);
      gp_session_write_set_maybe (to, "blocked_ms", ts->blocked_ms);
    }
    json_array_add_object_element (threads, to);
  }
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);
    JsonObject *so = json_object_new ();

    gp_session_write_set_string (so, "media", ss->media);
    gp_session_write_set_maybe (so, "fps", ss->fps);
    gp_session_write_set_maybe (so, "target_fps", ss->target_fps);
    gp_session_write_set_maybe (so, "media_per_s", ss->media_per_s);
    gp_session_write_set_maybe (so, "bytes_per_s", ss->bytes_per_s);
    gp_session_write_set_maybe (so, "first_s", ss->first_s);
    gp_session_write_set_count (so, "buffers", ss->buffers);
    if (ss->late_ms.p50 >= 0) {
      json_object_set_object_member (so, "late_ms",
          gp_session_write_quantiles (&ss->late_ms));
      if (isfinite (ss->late_trend_ms_per_s))
        gp_session_write_set_real (so, "late_trend_ms_per_s",
            ss->late_trend_ms_per_s);
      else
        json_object_set_null_member (so, "late_trend_ms_per_s");
      gp_session_write_set_count (so, "late_windows", ss->late_windows);
    }
    gp_session_write_set_keyed (sinks, ss->name, so);
  }

  json_object_set_object_member (o, "elements", elements);
  json_object_set_object_member (o, "queues", queues);
  json_object_set_object_member (o, "links", links);
  json_object_set_array_member (o, "paths", gp_session_write_paths (s->paths));
  json_object_set_array_member (o, "interlatency",
      gp_session_write_paths (s->interlatency));
  json_object_set_array_member (o, "threads", threads);
  json_object_set_object_member (o, "sinks", sinks);
  gp_session_write_set_maybe (o, "target_fps", s->target_fps);
  gp_session_write_set_maybe (o, "frame_period_ms", s->frame_period_ms);
  json_object_set_member (o, "process", gp_session_write_process (&s->process));
  return o;
}

static JsonArray *
gp_session_write_events (GpSession * s)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    JsonObject *eo = json_object_new ();

    gp_session_write_set_real (eo, "t", ev->t);
    gp_session_write_set_string (eo, "type", ev->type);
    gp_session_write_set_string (eo, "source", ev->source);
    gp_session_write_set_string (eo, "text", ev->text);
    if (ev->data)
      json_object_set_member (eo, "data",
          gp_session_write_object_node (ev->data));
    json_array_add_object_element (a, eo);
  }
  return a;
}

/* A property value: a string, integer, boolean or real */
static JsonNode *
gp_session_write_scalar (const GValue * value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_value (node, value);
  return node;
}

/* "props" of an insert or replace, in their order */
static JsonObject *
gp_session_write_props (const GpLaunchOp * op)
{
  JsonObject *o = json_object_new ();
  guint i;

  for (i = 0; i < op->props->len; i++) {
    GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, i);

    json_object_set_member (o, p->key, gp_session_write_scalar (&p->value));
  }
  return o;
}

/* One op, its members in the order session.json has always had them. */
static JsonObject *
gp_session_write_op (const GpLaunchOp * op)
{
  JsonObject *o = json_object_new ();
  const gchar *at = gp_launch_at_name (op->at);

  json_object_set_string_member (o, "op", gp_launch_op_kind_name (op->kind));
  json_object_set_string_member (o, at, op->name);
  if (op->kind == GP_LAUNCH_OP_SET) {
    json_object_set_string_member (o, "prop", op->prop);
    json_object_set_member (o, "value", gp_session_write_scalar
        (&op->value));
  }
  if (op->factory != NULL)
    json_object_set_string_member (o, "element", op->factory);
  if (op->kind == GP_LAUNCH_OP_REPLACE && op->keep_props)
    json_object_set_boolean_member (o, "keep_props", TRUE);
  if (op->props != NULL)
    json_object_set_object_member (o, "props", gp_session_write_props (op));
  if (op->caps != NULL)
    json_object_set_string_member (o, "caps", op->caps);
  return o;
}

JsonNode *
gp_session_patch_to_json (GPtrArray * patch)
{
  JsonArray *a = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  guint i;

  for (i = 0; i < patch->len; i++)
    json_array_add_object_element (a,
        gp_session_write_op (g_ptr_array_index (patch, i)));
  json_node_take_array (node, a);
  return node;
}

/* findings[].fix_patch, its strings made UTF-8 */
static JsonNode *
gp_session_write_patch (GPtrArray * patch)
{
  JsonNode *node = gp_session_patch_to_json (patch), *clean;

  if (gp_session_write_node_is_clean (node))
    return node;
  clean = gp_session_write_node_clean_copy (node);
  json_node_unref (node);
  return clean;
}

static JsonArray *
gp_session_write_findings (GpSession * s)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    JsonObject *fo = json_object_new ();

    gp_session_write_set_string (fo, "rule", f->rule);
    gp_session_write_set_string (fo, "severity", f->severity);
    gp_session_write_set_string (fo, "title", f->title);
    json_object_set_array_member (fo, "targets",
        gp_session_write_string_array (f->targets));
    json_object_set_member (fo, "evidence",
        gp_session_write_object_node (f->evidence));
    gp_session_write_set_string (fo, "why", f->why);
    gp_session_write_set_string (fo, "fix", f->fix);
    if (f->fix_patch == NULL)
      json_object_set_null_member (fo, "fix_patch");
    else
      json_object_set_member (fo, "fix_patch",
          gp_session_write_patch (f->fix_patch));
    json_object_set_boolean_member (fo, "heuristic", f->heuristic);
    gp_session_write_set_string (fo, "verified_on", f->verified_on);
    gp_session_write_set_real (fo, "rank_value", f->rank_value);
    json_array_add_object_element (a, fo);
  }
  return a;
}

/* A machine series' limit, and its samples from the @from'th on as "t"
 * and "v", into @so. */
static void
gp_session_write_machine_values (JsonObject * so, const GpMachineSeries * ms,
    guint from)
{
  JsonArray *t = json_array_new ();
  JsonArray *v = json_array_new ();
  guint j;

  if (isfinite (ms->limit))
    gp_session_write_set_real (so, "limit", ms->limit);
  else
    json_object_set_null_member (so, "limit");
  for (j = from; j < ms->t->len; j++) {
    gdouble vj = g_array_index (ms->v, gdouble, j);

    json_array_add_double_element (t,
        gp_session_write_printable (g_array_index (ms->t, gdouble, j)));
    if (isfinite (vj))
      json_array_add_double_element (v, gp_session_write_printable (vj + 0.0));
    else
      json_array_add_null_element (v);
  }
  json_object_set_array_member (so, "t", t);
  json_object_set_array_member (so, "v", v);
}

/* session.machine: what sampled the machine and what it saw, each series
 * at most @max samples (0: all). */
static JsonObject *
gp_session_write_machine (const GpMachine * m, guint max)
{
  JsonObject *o = json_object_new ();
  JsonObject *facts = json_object_new ();
  JsonArray *sources = json_array_new ();
  JsonArray *series = json_array_new ();
  guint i;

  gp_session_write_set_maybe (o, "cost_pct", m->cost_pct);
  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);
    JsonObject *so = json_object_new ();

    gp_session_write_set_string (so, "name", src->name);
    gp_session_write_set_string (so, "state", src->state);
    gp_session_write_set_string (so, "detail", src->detail);
    gp_session_write_set_count (so, "samples", src->samples);
    gp_session_write_set_maybe (so, "interval_s", src->interval_s);
    json_array_add_object_element (sources, so);
  }
  json_object_set_array_member (o, "sources", sources);
  for (i = 0; i + 1 < m->facts->len; i += 2) {
    gchar *key = gp_session_write_valid_utf8 (g_ptr_array_index (m->facts,
            i));

    gp_session_write_set_string (facts, key,
        g_ptr_array_index (m->facts, i + 1));
    g_free (key);
  }
  json_object_set_object_member (o, "facts", facts);
  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (m->series, i);
    JsonObject *so = json_object_new ();

    gp_session_write_set_string (so, "name", ms->name);
    gp_session_write_set_string (so, "unit", ms->unit);
    gp_session_write_set_string (so, "source", ms->source);
    if (max > 0 && ms->t->len > max) {
      GpMachineSeries *thin = gp_machine_series_thinned (ms, max);

      gp_session_write_machine_values (so, thin, 0);
      gp_machine_series_free (thin);
    } else
      gp_session_write_machine_values (so, ms, 0);
    json_array_add_object_element (series, so);
  }
  json_object_set_array_member (o, "series", series);
  return o;
}

static JsonNode *gp_session_write_root (GpSession * s, gboolean machine,
    guint machine_max);

JsonNode *
gp_session_to_json (GpSession * s)
{
  return gp_session_write_root (s, TRUE, 0);
}

JsonNode *
gp_session_to_json_bounded (GpSession * s, guint machine_max)
{
  return gp_session_write_root (s, TRUE, machine_max);
}

GpSession *
gp_session_copy (GpSession * s, GError ** error)
{
  JsonNode *node = gp_session_write_root (s, FALSE, 0);
  GpSession *copy = gp_session_from_json (node, "a copy", error);

  json_node_unref (node);
  if (copy && s->machine)
    copy->machine = gp_machine_copy (s->machine);
  return copy;
}

/* The session as session.json holds it, its machine when @machine (each
 * series at most @machine_max samples; 0: all). */
static JsonNode *
gp_session_write_root (GpSession * s, gboolean machine, guint machine_max)
{
  JsonObject *root;
  JsonArray *series;
  JsonNode *node;
  guint i;

  g_return_val_if_fail (s != NULL, NULL);

  root = json_object_new ();
  /* Always the schema this code writes, whatever the model says. */
  json_object_set_string_member (root, "schema", GP_SESSION_SCHEMA);
  json_object_set_object_member (root, "session",
      gp_session_write_session_info (s));
  json_object_set_object_member (root, "graph", gp_session_write_graph (s));
  json_object_set_object_member (root, "summary", gp_session_write_summary (s));

  series = json_array_new ();
  for (i = 0; i < s->series->len; i++)
    json_array_add_element (series,
        gp_session_write_object_node (g_ptr_array_index (s->series, i)));
  json_object_set_array_member (root, "series", series);

  if (machine && s->machine != NULL)
    json_object_set_object_member (root, "machine",
        gp_session_write_machine (s->machine, machine_max));
  json_object_set_array_member (root, "events", gp_session_write_events (s));
  json_object_set_array_member (root, "findings",
      gp_session_write_findings (s));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, root);
  return node;
}

/* The samples of machine series @ms after @after as {unit, limit, t, v};
 * NULL when there are none. */
static JsonObject *
gp_session_write_machine_after (const GpMachineSeries * ms, gdouble after)
{
  JsonObject *so;
  guint j = ms->t->len;

  while (j > 0 && g_array_index (ms->t, gdouble, j - 1) > after)
    j--;
  if (j == ms->t->len)
    return NULL;
  so = json_object_new ();
  gp_session_write_set_string (so, "unit", ms->unit);
  gp_session_write_machine_values (so, ms, j);
  return so;
}

JsonObject *
gp_session_live_json (GpSession * s, gdouble series_after,
    GHashTable * machine_after)
{
  JsonObject *o = json_object_new ();
  JsonObject *machine = json_object_new ();
  JsonArray *series = json_array_new ();
  guint i;

  json_object_set_object_member (o, "summary", gp_session_write_summary (s));
  for (i = 0; i < s->series->len; i++) {
    JsonObject *e = g_ptr_array_index (s->series, i);

    if (json_object_get_double_member (e, "t1") > series_after)
      json_array_add_element (series, gp_session_write_object_node (e));
  }
  json_object_set_array_member (o, "series", series);
  for (i = 0; s->machine && i < s->machine->series->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (s->machine->series, i);
    gdouble *after = machine_after ? g_hash_table_lookup (machine_after,
        ms->name) : NULL;
    JsonObject *so = gp_session_write_machine_after (ms, after ? *after :
        -G_MAXDOUBLE);

    if (so)
      json_object_set_object_member (machine, ms->name, so);
  }
  json_object_set_object_member (o, "machine", machine);
  return o;
}

gchar *
gp_session_to_data (GpSession * s, gboolean pretty, gsize * length)
{
  JsonGenerator *gen;
  JsonNode *root;
  gchar *text, *res;
  gsize len;

  g_return_val_if_fail (s != NULL, NULL);

  root = gp_session_to_json (s);
  gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, &len);
  g_object_unref (gen);
  json_node_unref (root);

  /* A text file ends with a newline (diff, cat, editors). */
  res = g_realloc (text, len + 2);
  res[len++] = '\n';
  res[len] = '\0';
  if (length != NULL)
    *length = len;
  return res;
}

gboolean
gp_session_save (GpSession * s, const gchar * path, GError ** error)
{
  gchar *data;
  gsize len;
  gboolean ok;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = gp_session_to_data (s, TRUE, &len);
  ok = gp_atomic_file_write (path, data, len, error);
  g_free (data);
  return ok;
}
