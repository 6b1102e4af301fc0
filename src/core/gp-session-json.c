/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-json.c: session.json (schema "gstprof/1", described key by key
 * in docs/session-schema.md) to and from the GpSession model, with
 * json-glib.
 *
 * Writing: numbers that the model keeps negative for "unknown" are written
 * as null, and JSON has no NaN or infinity, so those become null (or 0 where
 * a field cannot be unknown) instead of the invalid tokens json-glib would
 * print. Strings that are not UTF-8 (thread names from /proc are raw bytes)
 * are repaired, because a file we write must always load again. The file is
 * written to a temporary name in the same directory and renamed over the
 * target, so a reader (or a crash) never sees half a file.
 *
 * Reading: every problem becomes one GError line that names the file, and
 * where possible the line and column or the key path. Missing keys take
 * their defaults, unknown keys are ignored (a newer gstprof may add some),
 * and a key of the wrong type is an error rather than a silent zero.
 * The text goes through gp_json_parse_strict () (gp-json.c), which refuses
 * what json-glib would mishandle (deep nesting, trailing values, comments).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gp-json.h"
#include "gp-session.h"

/* A 10-minute capture is a few MiB; this only stops us from reading
 * /dev/zero or a video file into memory. */

/* ------------------------------------------------------------------ */
/* imports                                                              */
/* ------------------------------------------------------------------ */

/* session.imported_from.missing: bit n of GpSession.import_missing is
 * GpIngestMissing 1 << n (src/ingest/gp-ingest.h, whose test checks that
 * every flag has a name here). Names, not numbers, in the file: a script
 * reading it should not need our header, and bits may be added. */
static const gchar *const gp_import_missing_names[] = {
  "self_time",
  "histograms",
  "element_threads",
  "prop_defaults",
  "element_cpu",
  "thread_cpu_run",
  "queue_levels",
  "hw_registry",
  "path_latency",
  "qos",
};

const gchar *
gp_session_import_missing_name (guint flag)
{
  guint bit;

  if (flag == 0 || (flag & (flag - 1)) != 0)
    return NULL;
  for (bit = 0; bit < G_N_ELEMENTS (gp_import_missing_names); bit++)
    if (flag == (1u << bit))
      return gp_import_missing_names[bit];
  return NULL;
}

guint
gp_session_import_missing_from_name (const gchar * name)
{
  guint bit;

  for (bit = 0; name != NULL && bit < G_N_ELEMENTS (gp_import_missing_names);
      bit++)
    if (strcmp (name, gp_import_missing_names[bit]) == 0)
      return 1u << bit;
  return 0;
}

/* import_schema and import_mode are static strings (the model never frees
 * them): a value read from a file becomes the matching static name, or
 * "other" for one this build does not know (interning every value a file
 * may hold would grow without bound). */
static const gchar *
gp_import_static_name (const gchar * value, const gchar * const *known,
    gsize n_known)
{
  gsize i;

  if (value == NULL)
    return NULL;
  for (i = 0; i < n_known; i++)
    if (strcmp (value, known[i]) == 0)
      return known[i];
  return "other";
}

/* ------------------------------------------------------------------ */
/* writing                                                              */
/* ------------------------------------------------------------------ */

static gchar *
gp_json_valid_utf8 (const gchar * str)
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
gp_json_printable (gdouble v)
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
 * same: no NaN/infinity, no double json-glib
 * would print wrongly (gp_json_printable ()), only UTF-8 strings and member names. */
static gboolean
gp_json_node_is_clean (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:{
      JsonObject *o = json_node_get_object (node);
      GList *members = json_object_get_members (o), *l;
      gboolean clean = TRUE;

      for (l = members; l != NULL && clean; l = l->next) {
        clean = g_utf8_validate (l->data, -1, NULL) &&
            gp_json_node_is_clean (json_object_get_member (o, l->data));
      }
      g_list_free (members);
      return clean;
    }
    case JSON_NODE_ARRAY:{
      JsonArray *a = json_node_get_array (node);
      guint i, n = json_array_get_length (a);

      for (i = 0; i < n; i++)
        if (!gp_json_node_is_clean (json_array_get_element (a, i)))
          return FALSE;
      return TRUE;
    }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE) {
        gdouble v = json_node_get_double (node);

        return isfinite (v) && gp_json_printable (v) == v;
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
gp_json_node_clean_copy (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:{
      JsonObject *o = json_node_get_object (node), *copy = json_object_new ();
      GList *members = json_object_get_members (o), *l;
      JsonNode *res;

      for (l = members; l != NULL; l = l->next) {
        gchar *name = gp_json_valid_utf8 (l->data);

        json_object_set_member (copy, name,
            gp_json_node_clean_copy (json_object_get_member (o, l->data)));
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
            gp_json_node_clean_copy (json_array_get_element (a, i)));
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
        json_node_set_double (res, gp_json_printable (v));
        return res;
      }
      if (json_node_get_value_type (node) == G_TYPE_STRING) {
        JsonNode *res = json_node_new (JSON_NODE_VALUE);
        gchar *valid = gp_json_valid_utf8 (json_node_get_string (node));

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
gp_json_object_node (JsonObject * o)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  if (o == NULL)
    json_node_take_object (node, json_object_new ());
  else
    json_node_set_object (node, o);
  if (!gp_json_node_is_clean (node)) {
    JsonNode *copy = gp_json_node_clean_copy (node);

    json_node_unref (node);
    node = copy;
  }
  return node;
}

static void
gp_json_set_string (JsonObject * o, const gchar * key, const gchar * str)
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
gp_json_set_maybe (JsonObject * o, const gchar * key, gdouble v)
{
  if (!isfinite (v) || v < 0)
    json_object_set_null_member (o, key);
  else
    /* + 0.0 turns -0.0 into 0.0, which prints the same way every time. */
    json_object_set_double_member (o, key, gp_json_printable (v + 0.0));
}

/* A number that is always known and may be negative (event times). */
static void
gp_json_set_real (JsonObject * o, const gchar * key, gdouble v)
{
  json_object_set_double_member (o, key,
      isfinite (v) ? gp_json_printable (v + 0.0) : 0.0);
}

static void
gp_json_set_count (JsonObject * o, const gchar * key, guint64 v)
{
  /* JSON readers (and json-glib) stop at signed 64 bits. */
  json_object_set_int_member (o, key, (gint64) MIN (v, (guint64) G_MAXINT64));
}

static JsonObject *
gp_json_quantiles (const GpQuantiles * q)
{
  JsonObject *o = json_object_new ();

  gp_json_set_maybe (o, "p50", q->p50);
  gp_json_set_maybe (o, "p95", q->p95);
  gp_json_set_maybe (o, "p99", q->p99);
  gp_json_set_maybe (o, "max", q->max);
  return o;
}

static JsonArray *
gp_json_string_array (GPtrArray * strings)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; strings != NULL && i < strings->len; i++) {
    const gchar *str = g_ptr_array_index (strings, i);
    gchar *valid = gp_json_valid_utf8 (str != NULL ? str : "");

    json_array_add_string_element (a, valid);
    g_free (valid);
  }
  return a;
}

/* Keyed sections (summary.elements.<name>) use the name as member name. */
static void
gp_json_set_keyed (JsonObject * parent, const gchar * key, JsonObject * o)
{
  gchar *valid = gp_json_valid_utf8 (key != NULL ? key : "");

  json_object_set_object_member (parent, valid, o);
  g_free (valid);
}

static JsonObject *
gp_json_session_info (GpSession * s)
{
  JsonObject *o = json_object_new ();

  gp_json_set_string (o, "mode", s->mode);
  gp_json_set_string (o, "launch", s->launch);
  gp_json_set_string (o, "started", s->started);
  gp_json_set_maybe (o, "duration_s", s->duration_s);
  gp_json_set_string (o, "gstreamer", s->gstreamer);
  gp_json_set_string (o, "platform", s->platform);
  gp_json_set_maybe (o, "window_s", s->window_s);
  json_object_set_int_member (o, "exit_code", s->exit_code);
  gp_json_set_string (o, "reached", s->reached);
  gp_json_set_string (o, "end", s->end);
  gp_json_set_maybe (o, "stop_s", s->stop_s);
  gp_json_set_maybe (o, "drain_s", s->drain_s);
  gp_json_set_count (o, "events_dropped", s->events_dropped);
  if (s->preroll->len > 0) {
    JsonArray *a = json_array_new ();
    guint i;

    for (i = 0; i < s->preroll->len; i++) {
      GpPrerollSink *p = g_ptr_array_index (s->preroll, i);
      JsonObject *po = json_object_new ();

      gp_json_set_string (po, "sink", p->name);
      gp_json_set_string (po, "state", p->state);
      gp_json_set_string (po, "pending", p->pending);
      json_object_set_boolean_member (po, "prerolled", p->prerolled);
      json_array_add_object_element (a, po);
    }
    json_object_set_array_member (o, "preroll", a);
  }
  if (s->import_schema != NULL) {
    JsonObject *imp = json_object_new ();
    JsonArray *missing = json_array_new ();
    guint bit;

    gp_json_set_string (imp, "schema", s->import_schema);
    gp_json_set_string (imp, "mode", s->import_mode);
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
gp_json_graph (GpSession * s)
{
  JsonObject *o = json_object_new ();
  JsonArray *elements = json_array_new (), *links = json_array_new ();
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    JsonObject *eo = json_object_new ();

    gp_json_set_string (eo, "name", e->name);
    gp_json_set_string (eo, "factory", e->factory);
    gp_json_set_string (eo, "parent", e->parent);
    gp_json_set_string (eo, "kind", e->kind);
    json_object_set_boolean_member (eo, "is_bin", e->is_bin);
    json_object_set_member (eo, "props", gp_json_object_node (e->props));
    json_array_add_object_element (elements, eo);
  }
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    JsonObject *lo = json_object_new ();

    gp_json_set_string (lo, "id", l->id);
    gp_json_set_string (lo, "src", l->src);
    gp_json_set_string (lo, "sink", l->sink);
    gp_json_set_string (lo, "caps", l->caps);
    gp_json_set_string (lo, "memory", l->memory);
    json_array_add_object_element (links, lo);
  }
  json_object_set_array_member (o, "elements", elements);
  json_object_set_array_member (o, "links", links);
  json_object_set_array_member (o, "hw_elements",
      gp_json_string_array (s->hw_elements));
  return o;
}

static JsonArray *
gp_json_paths (GPtrArray * paths)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < paths->len; i++) {
    GpPath *p = g_ptr_array_index (paths, i);
    JsonObject *po = json_object_new ();

    gp_json_set_string (po, "source", p->source);
    gp_json_set_string (po, "sink", p->sink);
    json_object_set_object_member (po, "latency_ms",
        gp_json_quantiles (&p->latency_ms));
    gp_json_set_maybe (po, "mean_ms", p->mean_ms);
    gp_json_set_count (po, "matched", p->matched);
    gp_json_set_count (po, "exact", p->exact);
    gp_json_set_count (po, "unmatched", p->unmatched);
    json_array_add_object_element (a, po);
  }
  return a;
}

/* summary.process: null as a whole when the session has none. */
static JsonNode *
gp_json_process (const GpProcessSummary * p)
{
  JsonObject *o, *cpu, *rss;
  JsonNode *node;

  if (!p->measured)
    return json_node_new (JSON_NODE_NULL);
  o = json_object_new ();
  cpu = json_object_new ();
  gp_json_set_maybe (cpu, "mean", p->cpu_pct_mean);
  gp_json_set_maybe (cpu, "max", p->cpu_pct_max);
  json_object_set_object_member (o, "cpu_pct", cpu);
  if (p->n_cpus > 0)
    json_object_set_int_member (o, "n_cpus", p->n_cpus);
  else
    json_object_set_null_member (o, "n_cpus");
  rss = json_object_new ();
  gp_json_set_maybe (rss, "start", p->rss_mb_start);
  gp_json_set_maybe (rss, "max", p->rss_mb_max);
  gp_json_set_maybe (rss, "end", p->rss_mb_end);
  json_object_set_object_member (o, "rss_mb", rss);
  /* init_object takes its own reference: drop ours (found leaking by
   * tests/fuzz) */
  node = json_node_init_object (json_node_alloc (), o);
  json_object_unref (o);
  return node;
}

static JsonObject *
gp_json_summary (GpSession * s)
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
        gp_json_quantiles (&es->self_ms));
    gp_json_set_count (eo, "buffers", es->buffers);
    gp_json_set_maybe (eo, "self_total_ms", es->self_total_ms);
    gp_json_set_count (eo, "cpu_buffers", es->cpu_buffers);
    json_object_set_object_member (eo, "wait_ms",
        gp_json_quantiles (&es->wait_ms));
    gp_json_set_maybe (eo, "wait_total_ms", es->wait_total_ms);
    gp_json_set_maybe (eo, "cpu_ms", es->cpu_ms);
    json_object_set_array_member (eo, "threads",
        gp_json_string_array (es->threads));
    gp_json_set_maybe (eo, "busy_pct", es->busy_pct);
    gp_json_set_maybe (eo, "share_pct", es->share_pct);
    gp_json_set_keyed (elements, es->name, eo);
  }
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);
    JsonObject *qo = json_object_new (), *level = json_object_new ();

    json_object_set_object_member (qo, "residence_ms",
        gp_json_quantiles (&qs->residence_ms));
    gp_json_set_maybe (level, "mean", qs->level_pct_mean);
    gp_json_set_maybe (level, "max", qs->level_pct_max);
    json_object_set_object_member (qo, "level_pct", level);
    gp_json_set_count (qo, "level_buffers_max", qs->level_buffers_max);
    gp_json_set_count (qo, "dropped", qs->dropped);
    gp_json_set_string (qo, "leaky", qs->leaky);
    gp_json_set_maybe (qo, "blocked_ms", qs->blocked_ms);
    gp_json_set_keyed (queues, qs->name, qo);
  }
  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);
    JsonObject *lo = json_object_new ();

    gp_json_set_maybe (lo, "fps", ls->fps);
    gp_json_set_maybe (lo, "bytes_per_s", ls->bytes_per_s);
    gp_json_set_maybe (lo, "media_per_s", ls->media_per_s);
    gp_json_set_maybe (lo, "first_s", ls->first_s);
    gp_json_set_count (lo, "buffers", ls->buffers);
    gp_json_set_keyed (links, ls->id, lo);
  }
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *ts = g_ptr_array_index (s->threads, i);
    JsonObject *to = json_object_new (), *cpu = json_object_new ();

    gp_json_set_count (to, "tid", ts->tid);
    gp_json_set_string (to, "name", ts->name);
    gp_json_set_maybe (cpu, "mean", ts->cpu_pct_mean);
    gp_json_set_maybe (cpu, "max", ts->cpu_pct_max);
    json_object_set_object_member (to, "cpu_pct", cpu);
    json_object_set_array_member (to, "elements",
        gp_json_string_array (ts->elements));
    json_object_set_boolean_member (to, "streaming", !ts->worker);
    if (ts->blocked_in) {
      gp_json_set_string (to, "blocked_in", ts->blocked_in);
      gp_json_set_maybe (to, "blocked_ms", ts->blocked_ms);
    }
    json_array_add_object_element (threads, to);
  }
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);
    JsonObject *so = json_object_new ();

    gp_json_set_string (so, "media", ss->media);
    gp_json_set_maybe (so, "fps", ss->fps);
    gp_json_set_maybe (so, "target_fps", ss->target_fps);
    gp_json_set_maybe (so, "media_per_s", ss->media_per_s);
    gp_json_set_maybe (so, "bytes_per_s", ss->bytes_per_s);
    gp_json_set_maybe (so, "first_s", ss->first_s);
    gp_json_set_count (so, "buffers", ss->buffers);
    gp_json_set_keyed (sinks, ss->name, so);
  }

  json_object_set_object_member (o, "elements", elements);
  json_object_set_object_member (o, "queues", queues);
  json_object_set_object_member (o, "links", links);
  json_object_set_array_member (o, "paths", gp_json_paths (s->paths));
  json_object_set_array_member (o, "interlatency",
      gp_json_paths (s->interlatency));
  json_object_set_array_member (o, "threads", threads);
  json_object_set_object_member (o, "sinks", sinks);
  gp_json_set_maybe (o, "target_fps", s->target_fps);
  gp_json_set_maybe (o, "frame_period_ms", s->frame_period_ms);
  json_object_set_member (o, "process", gp_json_process (&s->process));
  return o;
}

static JsonArray *
gp_json_events (GpSession * s)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    JsonObject *eo = json_object_new ();

    gp_json_set_real (eo, "t", ev->t);
    gp_json_set_string (eo, "type", ev->type);
    gp_json_set_string (eo, "source", ev->source);
    gp_json_set_string (eo, "text", ev->text);
    if (ev->data)
      json_object_set_member (eo, "data", gp_json_object_node (ev->data));
    json_array_add_object_element (a, eo);
  }
  return a;
}

static JsonArray *
gp_json_findings (GpSession * s)
{
  JsonArray *a = json_array_new ();
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    JsonObject *fo = json_object_new ();

    gp_json_set_string (fo, "rule", f->rule);
    gp_json_set_string (fo, "severity", f->severity);
    gp_json_set_string (fo, "title", f->title);
    json_object_set_array_member (fo, "targets",
        gp_json_string_array (f->targets));
    json_object_set_member (fo, "evidence", gp_json_object_node (f->evidence));
    gp_json_set_string (fo, "why", f->why);
    gp_json_set_string (fo, "fix", f->fix);
    if (f->fix_patch == NULL)
      json_object_set_null_member (fo, "fix_patch");
    else if (gp_json_node_is_clean (f->fix_patch))
      json_object_set_member (fo, "fix_patch", json_node_copy (f->fix_patch));
    else
      json_object_set_member (fo, "fix_patch",
          gp_json_node_clean_copy (f->fix_patch));
    json_object_set_boolean_member (fo, "heuristic", f->heuristic);
    gp_json_set_string (fo, "verified_on", f->verified_on);
    gp_json_set_real (fo, "rank_value", f->rank_value);
    json_array_add_object_element (a, fo);
  }
  return a;
}

JsonNode *
gp_session_to_json (GpSession * s)
{
  JsonObject *root;
  JsonArray *series;
  JsonNode *node;
  guint i;

  g_return_val_if_fail (s != NULL, NULL);

  root = json_object_new ();
  /* Always the schema this code writes, whatever the model says. */
  json_object_set_string_member (root, "schema", GP_SESSION_SCHEMA);
  json_object_set_object_member (root, "session", gp_json_session_info (s));
  json_object_set_object_member (root, "graph", gp_json_graph (s));
  json_object_set_object_member (root, "summary", gp_json_summary (s));

  series = json_array_new ();
  for (i = 0; i < s->series->len; i++)
    json_array_add_element (series,
        gp_json_object_node (g_ptr_array_index (s->series, i)));
  json_object_set_array_member (root, "series", series);

  json_object_set_array_member (root, "events", gp_json_events (s));
  json_object_set_array_member (root, "findings", gp_json_findings (s));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, root);
  return node;
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

/* Writes all of @data to @fd, through short writes and EINTR. */
static gboolean
gp_write_all (int fd, const gchar * data, gsize len, int *err)
{
  while (len > 0) {
    gssize n = write (fd, data, len);

    if (n < 0) {
      if (errno == EINTR)
        continue;
      *err = errno;
      return FALSE;
    }
    data += n;
    len -= (gsize) n;
  }
  return TRUE;
}

gboolean
gp_session_save (GpSession * s, const gchar * path, GError ** error)
{
  gchar *data, *tmp;
  gsize len;
  int fd, err = 0;
  gboolean ok;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = gp_session_to_data (s, TRUE, &len);

  /* Same directory as the target, so the rename never crosses a file
   * system and is atomic; 0666 minus the umask like any new file. */
  tmp = g_strconcat (path, ".tmp-XXXXXX", NULL);
  fd = g_mkstemp_full (tmp, O_WRONLY, 0666);
  if (fd < 0) {
    err = errno;
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
        "%s: cannot write: %s", path, g_strerror (err));
    g_free (tmp);
    g_free (data);
    return FALSE;
  }

  ok = gp_write_all (fd, data, len, &err);
  /* The rename must not land before the data: without fsync a crash right
   * after it can leave an empty session.json on ext4 and others. */
  if (ok && fsync (fd) != 0 && errno != EINVAL && errno != EROFS) {
    err = errno;
    ok = FALSE;
  }
  if (close (fd) != 0 && ok) {
    err = errno;
    ok = FALSE;
  }
  if (ok && g_rename (tmp, path) != 0) {
    err = errno;
    ok = FALSE;
  }
  if (!ok) {
    g_unlink (tmp);
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
        "%s: cannot write: %s", path, g_strerror (err));
  }
  g_free (tmp);
  g_free (data);
  return ok;
}

/* ------------------------------------------------------------------ */
/* reading                                                              */
/* ------------------------------------------------------------------ */

/* Error messages are one line whatever the file name or the keys contain:
 * control characters become spaces and overlong messages are cut. */
static void
gp_set_error_line (GError ** error, gint code, const gchar * format, ...)
    G_GNUC_PRINTF (3, 4);

static void
gp_set_error_line (GError ** error, gint code, const gchar * format, ...)
{
  va_list args;

  va_start (args, format);
  gp_json_error_line_valist (error, code, format, args);
  va_end (args);
}

typedef struct
{
  const gchar *origin;
  GError **error;
} GpReader;

/* Key paths in errors: "summary.elements.x264enc0.self_ms.p50". Long or
 * odd keys are cut so the message stays readable. */
static gchar *
gp_key_path (const gchar * path, const gchar * key)
{
  gchar *k = g_strndup (key, 80);
  gchar *res;

  if (path == NULL || path[0] == '\0')
    res = g_strdup (k);
  else if (key[0] == '[')
    res = g_strconcat (path, k, NULL);
  else
    res = g_strconcat (path, ".", k, NULL);
  g_free (k);
  return res;
}

static gboolean
gp_reader_type_error (GpReader * r, const gchar * path, const gchar * key,
    const gchar * expected)
{
  gchar *full = gp_key_path (path, key);

  gp_set_error_line (r->error, GP_SESSION_ERROR_SCHEMA,
      "%s: %s: expected %s", r->origin, full, expected);
  g_free (full);
  return FALSE;
}

/* The member @key of @o, or NULL when it is absent or null (both mean
 * "use the default"). */
static JsonNode *
gp_reader_member (JsonObject * o, const gchar * key)
{
  JsonNode *node;

  if (o == NULL)
    return NULL;
  node = json_object_get_member (o, key);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

static gboolean
gp_reader_string (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, const gchar * dflt, gchar ** out)
{
  JsonNode *node = gp_reader_member (o, key);

  if (node == NULL) {
    g_free (*out);
    *out = g_strdup (dflt);
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return gp_reader_type_error (r, path, key, "string");
  g_free (*out);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* Numbers no measurement here can reach: a share (a member or object
 * named *_pct) above a thousand cores, anything else above 1e15 (ms in
 * thirty thousand years, bytes in a petabyte). A session holding one was
 * not written by a measurement: it is rejected, not printed as "inf%". */
#define GP_READER_MAX_PCT 1e5
#define GP_READER_MAX_ABS 1e15

/* Numbers: integers and reals both; null and absent give @dflt. A real too
 * large for a double (1e999) reads as infinity, which the model cannot
 * hold: it is taken as null too. */
static gboolean
gp_reader_double (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gdouble dflt, gdouble * out)
{
  JsonNode *node = gp_reader_member (o, key);
  gdouble v;

  if (node == NULL) {
    *out = dflt;
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return gp_reader_type_error (r, path, key, "number");
  switch (json_node_get_value_type (node)) {
    case G_TYPE_INT64:
      v = (gdouble) json_node_get_int (node);
      break;
    case G_TYPE_DOUBLE:
      v = json_node_get_double (node);
      break;
    default:
      return gp_reader_type_error (r, path, key, "number");
  }
  if (isfinite (v)) {
    gboolean pct = g_str_has_suffix (key, "_pct") || (path &&
        g_str_has_suffix (path, "_pct"));
    gdouble max = pct ? GP_READER_MAX_PCT : GP_READER_MAX_ABS;

    if (fabs (v) > max) {
      gchar *full = gp_key_path (path, key);

      gp_set_error_line (r->error, GP_SESSION_ERROR_SCHEMA, "%s: %s: %g "
          "cannot be (%s stays within %g)", r->origin, full, v,
          pct ? "a share" : "a measurement", max);
      g_free (full);
      return FALSE;
    }
  }
  *out = isfinite (v) ? v : dflt;
  return TRUE;
}

/* Unknown-able numbers: null, absent or negative read as -1. */
static gboolean
gp_reader_maybe (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gdouble * out)
{
  if (!gp_reader_double (r, o, path, key, -1, out))
    return FALSE;
  if (*out < 0)
    *out = -1;
  return TRUE;
}

static gboolean
gp_reader_count (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, guint64 * out)
{
  JsonNode *node = gp_reader_member (o, key);

  if (node == NULL) {
    *out = 0;
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return gp_reader_type_error (r, path, key, "non-negative integer");
  switch (json_node_get_value_type (node)) {
    case G_TYPE_INT64:{
      gint64 v = json_node_get_int (node);

      if (v < 0)
        return gp_reader_type_error (r, path, key, "non-negative integer");
      *out = (guint64) v;
      return TRUE;
    }
    case G_TYPE_DOUBLE:{
      /* Some writers print every number as a real ("12.0"). */
      gdouble v = json_node_get_double (node);

      if (!isfinite (v) || v < 0)
        return gp_reader_type_error (r, path, key, "non-negative integer");
      *out = v >= 9.2e18 ? (guint64) G_MAXINT64 : (guint64) v;
      return TRUE;
    }
    default:
      return gp_reader_type_error (r, path, key, "non-negative integer");
  }
}

static gboolean
gp_reader_int (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gint dflt, gint * out)
{
  JsonNode *node = gp_reader_member (o, key);
  gint64 v;

  if (node == NULL) {
    *out = dflt;
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return gp_reader_type_error (r, path, key, "integer");
  v = json_node_get_int (node);
  if (v < G_MININT || v > G_MAXINT)
    return gp_reader_type_error (r, path, key, "integer");
  *out = (gint) v;
  return TRUE;
}

static gboolean
gp_reader_bool (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gboolean * out)
{
  JsonNode *node = gp_reader_member (o, key);

  if (node == NULL) {
    *out = FALSE;
    return TRUE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return gp_reader_type_error (r, path, key, "boolean");
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* An object member: *out is NULL when absent or null. Borrowed. */
static gboolean
gp_reader_object (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, JsonObject ** out)
{
  JsonNode *node = gp_reader_member (o, key);

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return gp_reader_type_error (r, path, key, "object");
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
gp_reader_array (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, JsonArray ** out)
{
  JsonNode *node = gp_reader_member (o, key);

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return gp_reader_type_error (r, path, key, "array");
  *out = json_node_get_array (node);
  return TRUE;
}

/* Element @i of @a as an object; @ipath receives "path.key[i]". */
static gboolean
gp_reader_array_object (GpReader * r, JsonArray * a, guint i,
    const gchar * path, JsonObject ** out, gchar ** ipath)
{
  JsonNode *node = json_array_get_element (a, i);
  gchar *idx = g_strdup_printf ("[%u]", i);

  *ipath = gp_key_path (path, idx);
  g_free (idx);
  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    gp_set_error_line (r->error, GP_SESSION_ERROR_SCHEMA,
        "%s: %s: expected object", r->origin, *ipath);
    return FALSE;
  }
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
gp_reader_string_array (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, GPtrArray * dst)
{
  JsonArray *a;
  guint i, n;

  if (!gp_reader_array (r, o, path, key, &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonNode *node = json_array_get_element (a, i);

    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_STRING) {
      gchar *apath = gp_key_path (path, key);
      gchar *idx = g_strdup_printf ("[%u]", i);

      gp_reader_type_error (r, apath, idx, "string");
      g_free (idx);
      g_free (apath);
      return FALSE;
    }
    g_ptr_array_add (dst, g_strdup (json_node_get_string (node)));
  }
  return TRUE;
}

static gboolean
gp_reader_quantiles (GpReader * r, JsonObject * o, const gchar * path,
    const gchar * key, GpQuantiles * q)
{
  JsonObject *qo;
  gchar *qpath;
  gboolean ok;

  gp_quantiles_set_unknown (q);
  if (!gp_reader_object (r, o, path, key, &qo))
    return FALSE;
  if (qo == NULL)
    return TRUE;
  qpath = gp_key_path (path, key);
  ok = gp_reader_maybe (r, qo, qpath, "p50", &q->p50) &&
      gp_reader_maybe (r, qo, qpath, "p95", &q->p95) &&
      gp_reader_maybe (r, qo, qpath, "p99", &q->p99) &&
      gp_reader_maybe (r, qo, qpath, "max", &q->max);
  g_free (qpath);
  return ok;
}

/* Calls @func on each member of the keyed section @key ("summary.queues")
 * in file order. A name given twice makes one entry (json-glib keeps the
 * last value; the member list is checked too, so no version of it can make
 * two entries of the same name). */
typedef gboolean (*GpReaderKeyedFunc) (GpReader * r, GpSession * s,
    const gchar * name, JsonObject * o, const gchar * path);

static gboolean
gp_reader_keyed (GpReader * r, GpSession * s, JsonObject * parent,
    const gchar * path, const gchar * key, GpReaderKeyedFunc func)
{
  JsonObject *o;
  GList *members, *l;
  GHashTable *seen;
  gchar *kpath;
  gboolean ok = TRUE;

  if (!gp_reader_object (r, parent, path, key, &o))
    return FALSE;
  if (o == NULL)
    return TRUE;

  kpath = gp_key_path (path, key);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  members = json_object_get_members (o);
  for (l = members; l != NULL && ok; l = l->next) {
    const gchar *name = l->data;
    JsonNode *node;
    gchar *epath;

    if (!g_hash_table_add (seen, (gpointer) name))
      continue;
    node = json_object_get_member (o, name);
    epath = gp_key_path (kpath, name);
    if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node)) {
      gp_set_error_line (r->error, GP_SESSION_ERROR_SCHEMA,
          "%s: %s: expected object", r->origin, epath);
      ok = FALSE;
    } else {
      ok = func (r, s, name, json_node_get_object (node), epath);
    }
    g_free (epath);
  }
  g_list_free (members);
  g_hash_table_unref (seen);
  g_free (kpath);
  return ok;
}

/* session.imported_from: absent or null for gstprof's own sessions. An
 * unknown name in "missing" is skipped: a newer gstprof may know more. */
static gboolean
gp_reader_imported_from (GpReader * r, GpSession * s, JsonObject * session)
{
  static const gchar *const schemas[] = { "gst-profile/1" };
  static const gchar *const modes[] = { "run", "wrap", "analyze", "other" };
  const gchar *p = "session.imported_from";
  JsonObject *o;
  gchar *schema = NULL, *mode = NULL;
  GPtrArray *missing;
  gboolean ok;
  guint i;

  if (!gp_reader_object (r, session, "session", "imported_from", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  missing = g_ptr_array_new_with_free_func (g_free);
  ok = gp_reader_string (r, o, p, "schema", "other", &schema) &&
      gp_reader_string (r, o, p, "mode", NULL, &mode) &&
      gp_reader_string_array (r, o, p, "missing", missing);
  if (ok) {
    s->import_schema = gp_import_static_name (schema, schemas,
        G_N_ELEMENTS (schemas));
    s->import_mode = gp_import_static_name (mode, modes, G_N_ELEMENTS (modes));
    s->import_missing = 0;
    for (i = 0; i < missing->len; i++)
      s->import_missing |=
          gp_session_import_missing_from_name (g_ptr_array_index (missing, i));
  }
  g_ptr_array_unref (missing);
  g_free (schema);
  g_free (mode);
  return ok;
}

static gboolean
gp_reader_preroll (GpReader * r, GpSession * s, JsonObject * session)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_reader_array (r, session, "session", "preroll", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *po;
    gchar *ip;

    ok = gp_reader_array_object (r, a, i, "session.preroll", &po, &ip);
    if (ok) {
      GpPrerollSink *p = gp_preroll_sink_new (NULL, NULL, NULL, FALSE);

      g_ptr_array_add (s->preroll, p);
      ok = gp_reader_string (r, po, ip, "sink", "", &p->name) &&
          gp_reader_string (r, po, ip, "state", "", &p->state) &&
          gp_reader_string (r, po, ip, "pending", "", &p->pending) &&
          gp_reader_bool (r, po, ip, "prerolled", &p->prerolled);
    }
    g_free (ip);
  }
  return ok;
}

static gboolean
gp_reader_session_info (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonObject *o;
  const gchar *p = "session";

  if (!gp_reader_object (r, root, "", "session", &o))
    return FALSE;
  return gp_reader_string (r, o, p, "mode", "run", &s->mode) &&
      gp_reader_string (r, o, p, "launch", NULL, &s->launch) &&
      gp_reader_string (r, o, p, "started", "", &s->started) &&
      gp_reader_maybe (r, o, p, "duration_s", &s->duration_s) &&
      gp_reader_string (r, o, p, "gstreamer", "", &s->gstreamer) &&
      gp_reader_string (r, o, p, "platform", "generic", &s->platform) &&
      gp_reader_maybe (r, o, p, "window_s", &s->window_s) &&
      gp_reader_int (r, o, p, "exit_code", 0, &s->exit_code) &&
      gp_reader_string (r, o, p, "reached", NULL, &s->reached) &&
      gp_reader_string (r, o, p, "end", NULL, &s->end) &&
      gp_reader_maybe (r, o, p, "stop_s", &s->stop_s) &&
      gp_reader_maybe (r, o, p, "drain_s", &s->drain_s) &&
      gp_reader_count (r, o, p, "events_dropped", &s->events_dropped) &&
      gp_reader_preroll (r, s, o) && gp_reader_imported_from (r, s, o);
}

/* A link's memory: null is "unknown" (an import whose tool had no name for
 * the feature) and stays NULL; only an absent key takes the default,
 * "system", as files from before the key was written did mean. */
static gboolean
gp_reader_link_memory (GpReader * r, JsonObject * lo, const gchar * path,
    gchar ** out)
{
  JsonNode *node = json_object_get_member (lo, "memory");

  if (node != NULL && JSON_NODE_HOLDS_NULL (node)) {
    g_clear_pointer (out, g_free);
    return TRUE;
  }
  return gp_reader_string (r, lo, path, "memory", "system", out);
}

static gboolean
gp_reader_graph (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonObject *graph;
  JsonArray *a;
  guint i, n;

  if (!gp_reader_object (r, root, "", "graph", &graph))
    return FALSE;

  if (!gp_reader_array (r, graph, "graph", "elements", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *eo, *props;
    gchar *ip;
    GpElement *e;
    gboolean ok;

    if (!gp_reader_array_object (r, a, i, "graph.elements", &eo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    e = gp_session_add_element (s, NULL, NULL, NULL, NULL);
    ok = gp_reader_string (r, eo, ip, "name", "", &e->name) &&
        gp_reader_string (r, eo, ip, "factory", "", &e->factory) &&
        gp_reader_string (r, eo, ip, "parent", "", &e->parent) &&
        gp_reader_string (r, eo, ip, "kind", "", &e->kind) &&
        gp_reader_bool (r, eo, ip, "is_bin", &e->is_bin) &&
        gp_reader_object (r, eo, ip, "props", &props);
    g_free (ip);
    if (!ok)
      return FALSE;
    e->props = props != NULL ? json_object_ref (props) : json_object_new ();
  }

  if (!gp_reader_array (r, graph, "graph", "links", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *lo;
    gchar *ip;
    GpLink *l;
    gboolean ok;

    if (!gp_reader_array_object (r, a, i, "graph.links", &lo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    l = gp_session_add_link (s, NULL, NULL, NULL, NULL);
    ok = gp_reader_string (r, lo, ip, "src", "", &l->src) &&
        gp_reader_string (r, lo, ip, "sink", "", &l->sink) &&
        gp_reader_string (r, lo, ip, "caps", NULL, &l->caps) &&
        gp_reader_link_memory (r, lo, ip, &l->memory);
    if (ok) {
      /* The id is derived; a file without one still gets the usual id. */
      gchar *dflt = g_strconcat (l->src, "->", l->sink, NULL);

      ok = gp_reader_string (r, lo, ip, "id", dflt, &l->id);
      g_free (dflt);
    }
    g_free (ip);
    if (!ok)
      return FALSE;
  }

  return gp_reader_string_array (r, graph, "graph", "hw_elements",
      s->hw_elements);
}

static gboolean
gp_reader_elem_summary (GpReader * r, GpSession * s, const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpElementSummary *es = gp_session_add_elem_summary (s, name);

  return gp_reader_quantiles (r, o, p, "self_ms", &es->self_ms) &&
      gp_reader_count (r, o, p, "buffers", &es->buffers) &&
      gp_reader_maybe (r, o, p, "self_total_ms", &es->self_total_ms) &&
      gp_reader_count (r, o, p, "cpu_buffers", &es->cpu_buffers) &&
      gp_reader_quantiles (r, o, p, "wait_ms", &es->wait_ms) &&
      gp_reader_maybe (r, o, p, "wait_total_ms", &es->wait_total_ms) &&
      gp_reader_maybe (r, o, p, "cpu_ms", &es->cpu_ms) &&
      gp_reader_string_array (r, o, p, "threads", es->threads) &&
      gp_reader_maybe (r, o, p, "busy_pct", &es->busy_pct) &&
      gp_reader_maybe (r, o, p, "share_pct", &es->share_pct);
}

static gboolean
gp_reader_queue_summary (GpReader * r, GpSession * s, const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpQueueSummary *qs = gp_session_add_queue_summary (s, name);
  JsonObject *level;
  gboolean ok;

  ok = gp_reader_quantiles (r, o, p, "residence_ms", &qs->residence_ms) &&
      gp_reader_object (r, o, p, "level_pct", &level);
  if (ok) {
    gchar *lp = gp_key_path (p, "level_pct");

    ok = gp_reader_maybe (r, level, lp, "mean", &qs->level_pct_mean) &&
        gp_reader_maybe (r, level, lp, "max", &qs->level_pct_max);
    g_free (lp);
  }
  return ok &&
      gp_reader_count (r, o, p, "level_buffers_max", &qs->level_buffers_max) &&
      gp_reader_count (r, o, p, "dropped", &qs->dropped) &&
      gp_reader_string (r, o, p, "leaky", "no", &qs->leaky) &&
      gp_reader_maybe (r, o, p, "blocked_ms", &qs->blocked_ms);
}

static gboolean
gp_reader_link_summary (GpReader * r, GpSession * s, const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpLinkSummary *ls = gp_session_add_link_summary (s, name);

  return gp_reader_maybe (r, o, p, "fps", &ls->fps) &&
      gp_reader_maybe (r, o, p, "bytes_per_s", &ls->bytes_per_s) &&
      gp_reader_maybe (r, o, p, "media_per_s", &ls->media_per_s) &&
      gp_reader_maybe (r, o, p, "first_s", &ls->first_s) &&
      gp_reader_count (r, o, p, "buffers", &ls->buffers);
}

static gboolean
gp_reader_sink_summary (GpReader * r, GpSession * s, const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpSinkSummary *ss = gp_session_add_sink (s, name);

  return gp_reader_string (r, o, p, "media", "unknown", &ss->media) &&
      gp_reader_maybe (r, o, p, "fps", &ss->fps) &&
      gp_reader_maybe (r, o, p, "target_fps", &ss->target_fps) &&
      gp_reader_maybe (r, o, p, "media_per_s", &ss->media_per_s) &&
      gp_reader_maybe (r, o, p, "bytes_per_s", &ss->bytes_per_s) &&
      gp_reader_maybe (r, o, p, "first_s", &ss->first_s) &&
      gp_reader_count (r, o, p, "buffers", &ss->buffers);
}

static gboolean
gp_reader_paths (GpReader * r, JsonObject * summary, const gchar * key,
    GPtrArray * dst)
{
  JsonArray *a;
  gchar *apath = gp_key_path ("summary", key);
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_reader_array (r, summary, "summary", key, &a)) {
    g_free (apath);
    return FALSE;
  }
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *po;
    gchar *ip;
    GpPath *p;

    ok = gp_reader_array_object (r, a, i, apath, &po, &ip);
    if (ok) {
      p = gp_path_new (NULL, NULL);
      g_ptr_array_add (dst, p);
      ok = gp_reader_string (r, po, ip, "source", "", &p->source) &&
          gp_reader_string (r, po, ip, "sink", "", &p->sink) &&
          gp_reader_quantiles (r, po, ip, "latency_ms", &p->latency_ms) &&
          gp_reader_maybe (r, po, ip, "mean_ms", &p->mean_ms) &&
          gp_reader_count (r, po, ip, "matched", &p->matched) &&
          gp_reader_count (r, po, ip, "exact", &p->exact) &&
          gp_reader_count (r, po, ip, "unmatched", &p->unmatched);
      /* sessions from before interval matching matched exactly only */
      if (ok && !json_object_has_member (po, "exact"))
        p->exact = p->matched;
    }
    g_free (ip);
  }
  g_free (apath);
  return ok;
}

static gboolean
gp_reader_threads (GpReader * r, GpSession * s, JsonObject * summary)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_reader_array (r, summary, "summary", "threads", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *to, *cpu;
    gchar *ip;
    GpThreadSummary *ts;

    ok = gp_reader_array_object (r, a, i, "summary.threads", &to, &ip);
    if (ok) {
      ts = gp_session_add_thread (s, 0, NULL);
      ok = gp_reader_count (r, to, ip, "tid", &ts->tid) &&
          gp_reader_string (r, to, ip, "name", "", &ts->name) &&
          gp_reader_object (r, to, ip, "cpu_pct", &cpu);
      if (ok) {
        gchar *cp = gp_key_path (ip, "cpu_pct");

        ok = gp_reader_maybe (r, cpu, cp, "mean", &ts->cpu_pct_mean) &&
            gp_reader_maybe (r, cpu, cp, "max", &ts->cpu_pct_max);
        g_free (cp);
      }
      ok = ok && gp_reader_string_array (r, to, ip, "elements", ts->elements)
          && gp_reader_string (r, to, ip, "blocked_in", NULL, &ts->blocked_in)
          && gp_reader_maybe (r, to, ip, "blocked_ms", &ts->blocked_ms);
      if (ok && gp_reader_member (to, "streaming") != NULL) {
        gboolean streaming;

        /* absent (older sessions): a streaming thread */
        ok = gp_reader_bool (r, to, ip, "streaming", &streaming);
        ts->worker = ok && !streaming;
      }
    }
    g_free (ip);
  }
  return ok;
}

/* summary.process; absent or null leaves it unmeasured. */
static gboolean
gp_reader_process (GpReader * r, GpSession * s, JsonObject * summary)
{
  GpProcessSummary *p = &s->process;
  JsonObject *o, *cpu, *rss;
  gint n_cpus = -1;
  gboolean ok;

  p->measured = FALSE;
  if (!gp_reader_object (r, summary, "summary", "process", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  ok = gp_reader_object (r, o, "summary.process", "cpu_pct", &cpu) &&
      gp_reader_maybe (r, cpu, "summary.process.cpu_pct", "mean",
      &p->cpu_pct_mean) &&
      gp_reader_maybe (r, cpu, "summary.process.cpu_pct", "max",
      &p->cpu_pct_max) &&
      gp_reader_int (r, o, "summary.process", "n_cpus", -1, &n_cpus) &&
      gp_reader_object (r, o, "summary.process", "rss_mb", &rss) &&
      gp_reader_maybe (r, rss, "summary.process.rss_mb", "start",
      &p->rss_mb_start) &&
      gp_reader_maybe (r, rss, "summary.process.rss_mb", "max",
      &p->rss_mb_max) &&
      gp_reader_maybe (r, rss, "summary.process.rss_mb", "end",
      &p->rss_mb_end);
  p->n_cpus = n_cpus > 0 ? n_cpus : -1;
  p->measured = ok;
  return ok;
}

static gboolean
gp_reader_summary (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonObject *o;
  const gchar *p = "summary";

  if (!gp_reader_object (r, root, "", "summary", &o))
    return FALSE;
  return gp_reader_keyed (r, s, o, p, "elements", gp_reader_elem_summary) &&
      gp_reader_keyed (r, s, o, p, "queues", gp_reader_queue_summary) &&
      gp_reader_keyed (r, s, o, p, "links", gp_reader_link_summary) &&
      gp_reader_paths (r, o, "paths", s->paths) &&
      gp_reader_paths (r, o, "interlatency", s->interlatency) &&
      gp_reader_threads (r, s, o) &&
      gp_reader_keyed (r, s, o, p, "sinks", gp_reader_sink_summary) &&
      gp_reader_maybe (r, o, p, "target_fps", &s->target_fps) &&
      gp_reader_maybe (r, o, p, "frame_period_ms", &s->frame_period_ms) &&
      gp_reader_process (r, s, o);
}

static gboolean
gp_reader_series (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;

  if (!gp_reader_array (r, root, "", "series", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *wo;
    gchar *ip;

    if (!gp_reader_array_object (r, a, i, "series", &wo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    g_free (ip);
    gp_session_add_window (s, wo);
  }
  return TRUE;
}

static gboolean
gp_reader_events (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_reader_array (r, root, "", "events", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *eo;
    gchar *ip;
    GpEvent *ev;

    ok = gp_reader_array_object (r, a, i, "events", &eo, &ip);
    if (ok) {
      ev = gp_session_add_event (s, 0, NULL, NULL, NULL);
      JsonObject *data = NULL;

      ok = gp_reader_double (r, eo, ip, "t", 0, &ev->t) &&
          gp_reader_string (r, eo, ip, "type", "", &ev->type) &&
          gp_reader_string (r, eo, ip, "source", "", &ev->source) &&
          gp_reader_string (r, eo, ip, "text", "", &ev->text) &&
          gp_reader_object (r, eo, ip, "data", &data);
      if (ok && data)
        ev->data = json_object_ref (data);
    }
    g_free (ip);
  }
  return ok;
}

static gboolean
gp_reader_findings (GpReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_reader_array (r, root, "", "findings", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *fo, *evidence = NULL;
    gchar *ip;
    GpFinding *f;

    ok = gp_reader_array_object (r, a, i, "findings", &fo, &ip);
    if (ok) {
      f = gp_session_add_finding (s, NULL, NULL, NULL);
      ok = gp_reader_string (r, fo, ip, "rule", "", &f->rule) &&
          gp_reader_string (r, fo, ip, "severity", "", &f->severity) &&
          gp_reader_string (r, fo, ip, "title", "", &f->title) &&
          gp_reader_string_array (r, fo, ip, "targets", f->targets) &&
          gp_reader_object (r, fo, ip, "evidence", &evidence) &&
          gp_reader_string (r, fo, ip, "why", "", &f->why) &&
          gp_reader_string (r, fo, ip, "fix", "", &f->fix) &&
          gp_reader_bool (r, fo, ip, "heuristic", &f->heuristic) &&
          gp_reader_string (r, fo, ip, "verified_on", NULL, &f->verified_on)
          && gp_reader_double (r, fo, ip, "rank_value", 0, &f->rank_value);
      if (ok && evidence != NULL) {
        json_object_unref (f->evidence);
        f->evidence = json_object_ref (evidence);
      }
      if (ok) {
        /* Any JSON value: the patch format belongs to the rules. */
        JsonNode *patch = gp_reader_member (fo, "fix_patch");

        if (patch != NULL)
          f->fix_patch = json_node_copy (patch);
      }
    }
    g_free (ip);
  }
  return ok;
}

static const gchar *
gp_json_node_type_name (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node)) {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        default:
          return "a number";
      }
  }
}

GpSession *
gp_session_from_json (JsonNode * root, const gchar * origin, GError ** error)
{
  GpReader reader = { origin != NULL ? origin : "<data>", error };
  GpReader *r = &reader;
  JsonObject *o;
  JsonNode *schema;
  GpSession *s;
  gboolean ok;

  if (root == NULL) {
    gp_set_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: empty, not a gstprof session", r->origin);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    gp_set_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (the top level is %s, not an object)",
        r->origin, gp_json_node_type_name (root));
    return NULL;
  }
  o = json_node_get_object (root);
  schema = json_object_get_member (o, "schema");
  if (schema == NULL) {
    gp_set_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (no \"schema\" key)", r->origin);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_VALUE (schema) ||
      json_node_get_value_type (schema) != G_TYPE_STRING) {
    gp_reader_type_error (r, "", "schema", "string");
    return NULL;
  }
  if (g_strcmp0 (json_node_get_string (schema), GP_SESSION_SCHEMA) != 0) {
    gchar *shown = g_strndup (json_node_get_string (schema), 64);
    gchar *escaped = g_strescape (shown, NULL);

    gp_set_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (schema \"%s\")", r->origin, escaped);
    g_free (escaped);
    g_free (shown);
    return NULL;
  }

  s = gp_session_new ();
  ok = gp_reader_session_info (r, s, o) &&
      gp_reader_graph (r, s, o) &&
      gp_reader_summary (r, s, o) &&
      gp_reader_series (r, s, o) &&
      gp_reader_events (r, s, o) && gp_reader_findings (r, s, o);
  if (!ok) {
    gp_session_free (s);
    return NULL;
  }
  return s;
}

GpSession *
gp_session_load_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error)
{
  return gp_json_load_session_data (data, length, origin, gp_session_from_json, error);
}

GpSession *
gp_session_load (const gchar * path, GError ** error)
{
  return gp_json_load_session_file (path, gp_session_from_json, error);
}
