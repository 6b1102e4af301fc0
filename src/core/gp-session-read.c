/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-read.c: session.json (schema "gstprof/1", docs/session-schema.md)
 * back into the GpSession model, through gp-json's strict parse and its
 * typed reads (gp-session-write.c is the way there).
 *
 * Every problem becomes one GError line that names the file, and where
 * possible the line and column or the key path. Missing keys take their
 * defaults, unknown keys are ignored (a newer gstprof may add some), and a
 * key of the wrong type is an error rather than a silent zero.
 */
#include <math.h>
#include <string.h>

#include "gp-json.h"
#include "gp-session.h"

/* import_schema and import_mode are static strings (the model never frees
 * them): a value read from a file becomes the matching static name, or
 * "other" for one this build does not know (interning every value a file
 * may hold would grow without bound). */
static const gchar *
gp_session_read_static_name (const gchar * value, const gchar * const *known,
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
/* reading                                                              */
/* ------------------------------------------------------------------ */

/* A string member as a new string in *@out (whatever was there is freed);
 * @dflt when absent or null. */
static gboolean
gp_session_read_string (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, const gchar * dflt, gchar ** out)
{
  const gchar *v;

  if (!gp_json_read_string (r, o, path, key, &v))
    return FALSE;
  g_free (*out);
  *out = g_strdup (v != NULL ? v : dflt);
  return TRUE;
}

/* A number; @dflt when absent or null. A share (a member or object named
 * *_pct) stays within GP_JSON_MAX_SHARE, anything else within
 * GP_JSON_MAX_MAGNITUDE: a session holding more was not written by a
 * measurement, and is refused rather than printed as "inf%". */
static gboolean
gp_session_read_double (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gdouble dflt, gdouble * out)
{
  gboolean share = g_str_has_suffix (key, "_pct") || (path &&
      g_str_has_suffix (path, "_pct"));
  gdouble v;

  if (!gp_json_read_number (r, o, path, key, share ? GP_JSON_MAX_SHARE :
          GP_JSON_MAX_MAGNITUDE, &v))
    return FALSE;
  *out = isnan (v) ? dflt : v;
  return TRUE;
}

/* Unknown-able numbers: null, absent or negative read as -1. */
static gboolean
gp_session_read_maybe (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gdouble * out)
{
  if (!gp_session_read_double (r, o, path, key, -1, out))
    return FALSE;
  if (*out < 0)
    *out = -1;
  return TRUE;
}

static gboolean
gp_session_read_quantiles (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, GpQuantiles * q)
{
  JsonObject *qo;
  gchar *qpath;
  gboolean ok;

  gp_quantiles_set_unknown (q);
  if (!gp_json_read_object (r, o, path, key, &qo))
    return FALSE;
  if (qo == NULL)
    return TRUE;
  qpath = gp_json_key_path (path, key);
  ok = gp_session_read_maybe (r, qo, qpath, "p50", &q->p50) &&
      gp_session_read_maybe (r, qo, qpath, "p95", &q->p95) &&
      gp_session_read_maybe (r, qo, qpath, "p99", &q->p99) &&
      gp_session_read_maybe (r, qo, qpath, "max", &q->max);
  g_free (qpath);
  return ok;
}

/* An octave histogram (GpOctaves) at PATH.KEY: {"below": [GP_OCTAVE_N
 * counts, none below the one before nor above count], "count": N};
 * absent: none kept. */
static gboolean
gp_session_read_octaves (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, GpOctaves * oct)
{
  JsonObject *oo;
  JsonArray *a = NULL;
  gchar *opath;
  gboolean ok;
  guint i;

  memset (oct, 0, sizeof (*oct));
  if (!gp_json_read_object (r, o, path, key, &oo))
    return FALSE;
  if (oo == NULL)
    return TRUE;
  opath = gp_json_key_path (path, key);
  ok = gp_json_read_count (r, oo, opath, "count", &oct->count) &&
      gp_json_read_array (r, oo, opath, "below", &a);
  if (ok && (a == NULL || json_array_get_length (a) != GP_OCTAVE_N))
    ok = gp_json_reader_expected (r, opath, "below",
        "an array of " G_STRINGIFY (GP_OCTAVE_N) " counts");
  for (i = 0; ok && i < GP_OCTAVE_N; i++) {
    JsonNode *n = json_array_get_element (a, i);
    gint64 v = JSON_NODE_HOLDS_VALUE (n) &&
        json_node_get_value_type (n) == G_TYPE_INT64 ?
        json_node_get_int (n) : -1;

    if (v < 0 || (guint64) v > oct->count ||
        (i > 0 && (guint64) v < oct->below[i - 1]))
      ok = gp_json_reader_fail (r, opath, "below[%u]: expected a count "
          "not below the one before it nor above count", i);
    else
      oct->below[i] = (guint64) v;
  }
  g_free (opath);
  if (!ok)
    memset (oct, 0, sizeof (*oct));
  return ok;
}

/* Calls @func on each member of the keyed section @key ("summary.queues")
 * in file order. A name given twice makes one entry (json-glib keeps the
 * last value; the member list is checked too, so no version of it can make
 * two entries of the same name). */
typedef gboolean (*GpSessionReadKeyedFunc) (GpJsonReader * r, GpSession * s,
    const gchar * name, JsonObject * o, const gchar * path);

static gboolean
gp_session_read_keyed (GpJsonReader * r, GpSession * s, JsonObject * parent,
    const gchar * path, const gchar * key, GpSessionReadKeyedFunc func)
{
  JsonObject *o;
  GList *members, *l;
  GHashTable *seen;
  gchar *kpath;
  gboolean ok = TRUE;

  if (!gp_json_read_object (r, parent, path, key, &o))
    return FALSE;
  if (o == NULL)
    return TRUE;

  kpath = gp_json_key_path (path, key);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  members = json_object_get_members (o);
  for (l = members; l != NULL && ok; l = l->next) {
    const gchar *name = l->data;
    JsonNode *node;
    gchar *epath;

    if (!g_hash_table_add (seen, (gpointer) name))
      continue;
    node = json_object_get_member (o, name);
    epath = gp_json_key_path (kpath, name);
    if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node)) {
      ok = gp_json_reader_fail (r, epath, "expected an object");
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
gp_session_read_imported_from (GpJsonReader * r, GpSession * s,
    JsonObject * session)
{
  static const gchar *const schemas[] = { "gst-profile/1",
    "gst-tracer-log", "queue-levels", "gst-tracer-log+queue-levels",
    "tegrastats", "nvidia-smi"
  };
  static const gchar *const modes[] = { "run", "wrap", "analyze", "other" };
  const gchar *p = "session.imported_from";
  JsonObject *o;
  gchar *schema = NULL, *mode = NULL;
  GPtrArray *missing;
  gboolean ok;
  guint i;

  if (!gp_json_read_object (r, session, "session", "imported_from", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  missing = g_ptr_array_new_with_free_func (g_free);
  ok = gp_session_read_string (r, o, p, "schema", "other", &schema) &&
      gp_session_read_string (r, o, p, "mode", NULL, &mode) &&
      gp_json_read_string_array (r, o, p, "missing", missing);
  if (ok) {
    s->import_schema = gp_session_read_static_name (schema, schemas,
        G_N_ELEMENTS (schemas));
    s->import_mode = gp_session_read_static_name (mode, modes,
        G_N_ELEMENTS (modes));
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

/* session.trace: absent or null without --trace. The file's name stays
 * a name in the session's folder: no folder of its own, no "..". */
static gboolean
gp_session_read_trace (GpJsonReader * r, GpSession * s, JsonObject * session)
{
  const gchar *p = "session.trace";
  JsonObject *o;
  gint seconds = 0;

  if (!gp_json_read_object (r, session, "session", "trace", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  if (!gp_session_read_string (r, o, p, "file", NULL, &s->trace_file) ||
      !gp_json_read_int (r, o, p, "seconds", 0, &seconds) ||
      !gp_json_read_count (r, o, p, "slices", &s->trace_slices))
    return FALSE;
  if (s->trace_file != NULL && (*s->trace_file == '\0'
          || strchr (s->trace_file, '/') != NULL
          || strcmp (s->trace_file, "..") == 0))
    return gp_json_reader_expected (r, p, "file", "a file name in the "
        "session's folder");
  if (seconds < 0)
    return gp_json_reader_expected (r, p, "seconds", "a number of seconds");
  s->trace_s = (guint) seconds;
  return TRUE;
}

static gboolean
gp_session_read_preroll (GpJsonReader * r, GpSession * s, JsonObject * session)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_array (r, session, "session", "preroll", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *po;
    gchar *ip;

    ok = gp_json_read_element_object (r, a, i, "session.preroll", &po, &ip);
    if (ok) {
      GpPrerollSink *p = gp_preroll_sink_new (NULL, NULL, NULL, FALSE);

      g_ptr_array_add (s->preroll, p);
      ok = gp_session_read_string (r, po, ip, "sink", "", &p->name) &&
          gp_session_read_string (r, po, ip, "state", "", &p->state) &&
          gp_session_read_string (r, po, ip, "pending", "", &p->pending) &&
          gp_json_read_bool (r, po, ip, "prerolled", &p->prerolled);
    }
    g_free (ip);
  }
  return ok;
}

static gboolean
gp_session_read_session_info (GpJsonReader * r, GpSession * s,
    JsonObject * root)
{
  JsonObject *o;
  const gchar *p = "session";

  if (!gp_json_read_object (r, root, "", "session", &o))
    return FALSE;
  return gp_session_read_string (r, o, p, "mode", "run", &s->mode) &&
      gp_session_read_string (r, o, p, "launch", NULL, &s->launch) &&
      gp_session_read_string (r, o, p, "started", "", &s->started) &&
      gp_session_read_maybe (r, o, p, "duration_s", &s->duration_s) &&
      gp_session_read_string (r, o, p, "gstreamer", "", &s->gstreamer) &&
      gp_session_read_string (r, o, p, "platform", "generic", &s->platform) &&
      gp_session_read_maybe (r, o, p, "window_s", &s->window_s) &&
      gp_json_read_int (r, o, p, "exit_code", 0, &s->exit_code) &&
      gp_session_read_string (r, o, p, "reached", NULL, &s->reached) &&
      gp_session_read_string (r, o, p, "end", NULL, &s->end) &&
      gp_session_read_maybe (r, o, p, "stop_s", &s->stop_s) &&
      gp_session_read_maybe (r, o, p, "drain_s", &s->drain_s) &&
      gp_json_read_count (r, o, p, "events_dropped", &s->events_dropped) &&
      gp_session_read_trace (r, s, o) &&
      gp_session_read_preroll (r, s, o) && gp_session_read_imported_from (r, s,
          o);
}

/* A link's memory: null is "unknown" (an import whose tool had no name for
 * the feature) and stays NULL; only an absent key takes the default,
 * "system", as files from before the key was written did mean. */
static gboolean
gp_session_read_link_memory (GpJsonReader * r, JsonObject * lo,
    const gchar * path,
    gchar ** out)
{
  JsonNode *node = json_object_get_member (lo, "memory");

  if (node != NULL && JSON_NODE_HOLDS_NULL (node)) {
    g_clear_pointer (out, g_free);
    return TRUE;
  }
  return gp_session_read_string (r, lo, path, "memory", "system", out);
}

/* Refuses graph.elements whose parent chain comes back to where it began
 * (an element its own parent, two bins each other's): every question that
 * climbs the bins would climb forever. Each element is climbed from once,
 * and a climb stops at an element already cleared, so this is linear. */
static gboolean
gp_session_read_parent_loops (GpJsonReader * r, GpSession * s)
{
  /* element -> 1 while on the climb being made, 2 once cleared */
  GHashTable *state = g_hash_table_new (g_direct_hash, g_direct_equal);
  GPtrArray *climb = g_ptr_array_new ();
  gboolean ok = TRUE;
  guint i, j;

  for (i = 0; ok && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    g_ptr_array_set_size (climb, 0);
    while (e != NULL && !g_hash_table_contains (state, e)) {
      g_hash_table_insert (state, e, GUINT_TO_POINTER (1));
      g_ptr_array_add (climb, e);
      e = *e->parent ? gp_session_find_element (s, e->parent) : NULL;
    }
    if (e != NULL && GPOINTER_TO_UINT (g_hash_table_lookup (state, e)) == 1) {
      GString *chain = g_string_new (NULL);
      gchar *path = gp_json_index_path ("graph.elements", i);

      for (j = 0; j < climb->len && climb->pdata[j] != e; j++);
      for (; j < climb->len; j++)
        g_string_append_printf (chain, "%.80s -> ",
            ((GpElement *) climb->pdata[j])->name);
      g_string_append_printf (chain, "%.80s", e->name);
      ok = gp_json_reader_fail (r, path, "the parent chain loops (%s)",
          chain->str);
      g_string_free (chain, TRUE);
      g_free (path);
    }
    for (j = 0; j < climb->len; j++)
      g_hash_table_insert (state, climb->pdata[j], GUINT_TO_POINTER (2));
  }
  g_ptr_array_unref (climb);
  g_hash_table_unref (state);
  return ok;
}

static gboolean
gp_session_read_graph (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  JsonObject *graph;
  JsonArray *a;
  guint i, n;

  if (!gp_json_read_object (r, root, "", "graph", &graph))
    return FALSE;

  if (!gp_json_read_array (r, graph, "graph", "elements", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *eo, *props;
    gchar *ip;
    GpElement *e;
    gboolean ok;

    if (!gp_json_read_element_object (r, a, i, "graph.elements", &eo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    e = gp_session_add_element (s, NULL, NULL, NULL, NULL);
    ok = gp_session_read_string (r, eo, ip, "name", "", &e->name) &&
        gp_session_read_string (r, eo, ip, "factory", "", &e->factory) &&
        gp_session_read_string (r, eo, ip, "parent", "", &e->parent) &&
        gp_session_read_string (r, eo, ip, "kind", "", &e->kind) &&
        gp_json_read_bool (r, eo, ip, "is_bin", &e->is_bin) &&
        gp_json_read_object (r, eo, ip, "props", &props);
    g_free (ip);
    if (!ok)
      return FALSE;
    e->props = props != NULL ? json_object_ref (props) : json_object_new ();
  }
  if (!gp_session_read_parent_loops (r, s))
    return FALSE;

  if (!gp_json_read_array (r, graph, "graph", "links", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *lo;
    gchar *ip;
    GpLink *l;
    gboolean ok;

    if (!gp_json_read_element_object (r, a, i, "graph.links", &lo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    l = gp_session_add_link (s, NULL, NULL, NULL, NULL);
    ok = gp_session_read_string (r, lo, ip, "src", "", &l->src) &&
        gp_session_read_string (r, lo, ip, "sink", "", &l->sink) &&
        gp_session_read_string (r, lo, ip, "caps", NULL, &l->caps) &&
        gp_session_read_link_memory (r, lo, ip, &l->memory);
    if (ok) {
      /* The id is derived; a file without one still gets the usual id. */
      gchar *dflt = g_strconcat (l->src, "->", l->sink, NULL);

      ok = gp_session_read_string (r, lo, ip, "id", dflt, &l->id);
      g_free (dflt);
    }
    g_free (ip);
    if (!ok)
      return FALSE;
  }

  return gp_json_read_string_array (r, graph, "graph", "hw_elements",
      s->hw_elements);
}

static gboolean
gp_session_read_elem_summary (GpJsonReader * r, GpSession * s,
    const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpElementSummary *es = gp_session_add_elem_summary (s, name);
  JsonObject *queued, *handlers;
  gchar *qp;
  gboolean ok;

  if (!(gp_session_read_quantiles (r, o, p, "self_ms", &es->self_ms) &&
          gp_session_read_octaves (r, o, p, "self_octaves",
              &es->self_octaves) &&
          gp_json_read_count (r, o, p, "buffers", &es->buffers) &&
          gp_session_read_maybe (r, o, p, "self_total_ms",
              &es->self_total_ms) &&
          gp_json_read_count (r, o, p, "cpu_buffers", &es->cpu_buffers) &&
          gp_session_read_quantiles (r, o, p, "wait_ms", &es->wait_ms) &&
          gp_session_read_maybe (r, o, p, "wait_total_ms",
              &es->wait_total_ms) &&
          gp_session_read_maybe (r, o, p, "cpu_ms", &es->cpu_ms) &&
          gp_json_read_string_array (r, o, p, "threads", es->threads) &&
          gp_session_read_maybe (r, o, p, "busy_pct", &es->busy_pct) &&
          gp_session_read_maybe (r, o, p, "share_pct", &es->share_pct) &&
          gp_json_read_object (r, o, p, "queued", &queued) &&
          gp_json_read_object (r, o, p, "handlers", &handlers)))
    return FALSE;
  if (handlers) {
    qp = gp_json_key_path (p, "handlers");
    ok = gp_session_read_maybe (r, handlers, qp, "ms", &es->handler_ms) &&
        gp_json_read_count (r, handlers, qp, "calls", &es->handler_calls) &&
        gp_session_read_maybe (r, handlers, qp, "busy_pct",
        &es->handler_busy_pct);
    g_free (qp);
    if (!ok)
      return FALSE;
  }
  if (queued == NULL)
    return TRUE;
  qp = gp_json_key_path (p, "queued");
  ok = gp_session_read_maybe (r, queued, qp, "max_mb", &es->queued_mb_max) &&
      gp_session_read_maybe (r, queued, qp, "end_mb", &es->queued_mb_end) &&
      gp_json_read_count (r, queued, qp, "limit_bytes",
      &es->queued_limit_bytes) &&
      gp_json_read_bool (r, queued, qp, "blocks", &es->queued_blocks);
  g_free (qp);
  return ok;
}

static gboolean
gp_session_read_queue_summary (GpJsonReader * r, GpSession * s,
    const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpQueueSummary *qs = gp_session_add_queue_summary (s, name);
  JsonObject *level;
  gboolean ok;

  ok = gp_session_read_quantiles (r, o, p, "residence_ms", &qs->residence_ms) &&
      gp_json_read_object (r, o, p, "level_pct", &level);
  if (ok) {
    gchar *lp = gp_json_key_path (p, "level_pct");

    ok = gp_session_read_maybe (r, level, lp, "mean", &qs->level_pct_mean) &&
        gp_session_read_maybe (r, level, lp, "max", &qs->level_pct_max);
    g_free (lp);
  }
  return ok &&
      gp_json_read_count (r, o, p, "level_buffers_max",
          &qs->level_buffers_max) &&
      gp_json_read_count (r, o, p, "dropped", &qs->dropped) &&
      gp_session_read_string (r, o, p, "leaky", "no", &qs->leaky) &&
      gp_session_read_maybe (r, o, p, "blocked_ms", &qs->blocked_ms);
}

static gboolean
gp_session_read_link_summary (GpJsonReader * r, GpSession * s,
    const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpLinkSummary *ls = gp_session_add_link_summary (s, name);
  JsonObject *rtp, *probe;
  gchar *rp;
  gboolean ok;

  if (!(gp_session_read_maybe (r, o, p, "fps", &ls->fps) &&
          gp_session_read_maybe (r, o, p, "bytes_per_s", &ls->bytes_per_s) &&
          gp_session_read_maybe (r, o, p, "media_per_s", &ls->media_per_s) &&
          gp_session_read_maybe (r, o, p, "first_s", &ls->first_s) &&
          gp_json_read_count (r, o, p, "buffers", &ls->buffers) &&
          gp_json_read_count (r, o, p, "no_pts", &ls->no_pts) &&
          gp_json_read_count (r, o, p, "gap", &ls->gap) &&
          gp_json_read_object (r, o, p, "probe", &probe) &&
          gp_json_read_object (r, o, p, "rtp", &rtp)))
    return FALSE;
  if (probe) {
    rp = gp_json_key_path (p, "probe");
    ok = gp_session_read_maybe (r, probe, rp, "ms", &ls->probe_ms) &&
        gp_json_read_count (r, probe, rp, "pushes", &ls->probe_pushes) &&
        gp_session_read_maybe (r, probe, rp, "busy_pct", &ls->probe_busy_pct);
    g_free (rp);
    if (!ok)
      return FALSE;
  }
  if (rtp == NULL)
    return TRUE;
  ls->rtp = TRUE;
  rp = gp_json_key_path (p, "rtp");
  ok = gp_json_read_count (r, rtp, rp, "expected", &ls->rtp_expected) &&
      gp_json_read_count (r, rtp, rp, "received", &ls->rtp_received) &&
      gp_json_read_count (r, rtp, rp, "restarts", &ls->rtp_restarts);
  g_free (rp);
  return ok;
}

static gboolean
gp_session_read_sink_summary (GpJsonReader * r, GpSession * s,
    const gchar * name,
    JsonObject * o, const gchar * p)
{
  GpSinkSummary *ss = gp_session_add_sink (s, name);

  return gp_session_read_string (r, o, p, "media", "unknown", &ss->media) &&
      gp_session_read_maybe (r, o, p, "fps", &ss->fps) &&
      gp_session_read_maybe (r, o, p, "target_fps", &ss->target_fps) &&
      gp_session_read_maybe (r, o, p, "media_per_s", &ss->media_per_s) &&
      gp_session_read_maybe (r, o, p, "bytes_per_s", &ss->bytes_per_s) &&
      gp_session_read_maybe (r, o, p, "first_s", &ss->first_s) &&
      gp_json_read_count (r, o, p, "buffers", &ss->buffers) &&
      gp_session_read_quantiles (r, o, p, "late_ms", &ss->late_ms) &&
      gp_session_read_double (r, o, p, "late_trend_ms_per_s", NAN,
      &ss->late_trend_ms_per_s) &&
      gp_json_read_count (r, o, p, "late_windows", &ss->late_windows);
}

static gboolean
gp_session_read_paths (GpJsonReader * r, JsonObject * summary,
    const gchar * key,
    GPtrArray * dst)
{
  JsonArray *a;
  gchar *apath = gp_json_key_path ("summary", key);
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_array (r, summary, "summary", key, &a)) {
    g_free (apath);
    return FALSE;
  }
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *po;
    gchar *ip;
    GpPath *p;

    ok = gp_json_read_element_object (r, a, i, apath, &po, &ip);
    if (ok) {
      p = gp_path_new (NULL, NULL);
      g_ptr_array_add (dst, p);
      ok = gp_session_read_string (r, po, ip, "source", "", &p->source) &&
          gp_session_read_string (r, po, ip, "sink", "", &p->sink) &&
          gp_session_read_quantiles (r, po, ip, "latency_ms", &p->latency_ms) &&
          gp_session_read_octaves (r, po, ip, "latency_octaves",
          &p->latency_octaves) &&
          gp_session_read_maybe (r, po, ip, "mean_ms", &p->mean_ms) &&
          gp_json_read_count (r, po, ip, "matched", &p->matched) &&
          gp_json_read_count (r, po, ip, "exact", &p->exact) &&
          gp_json_read_count (r, po, ip, "unmatched", &p->unmatched) &&
          gp_json_read_bool (r, po, ip, "steady", &p->steady) &&
          gp_session_read_maybe (r, po, ip, "startup_max_ms",
          &p->startup_max_ms);
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
gp_session_read_threads (GpJsonReader * r, GpSession * s, JsonObject * summary)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_array (r, summary, "summary", "threads", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *to, *cpu;
    gchar *ip;
    GpThreadSummary *ts;

    ok = gp_json_read_element_object (r, a, i, "summary.threads", &to, &ip);
    if (ok) {
      ts = gp_session_add_thread (s, 0, NULL);
      ok = gp_json_read_count (r, to, ip, "tid", &ts->tid) &&
          gp_session_read_string (r, to, ip, "name", "", &ts->name) &&
          gp_json_read_object (r, to, ip, "cpu_pct", &cpu);
      if (ok) {
        gchar *cp = gp_json_key_path (ip, "cpu_pct");

        ok = gp_session_read_maybe (r, cpu, cp, "mean", &ts->cpu_pct_mean) &&
            gp_session_read_maybe (r, cpu, cp, "max", &ts->cpu_pct_max);
        g_free (cp);
      }
      ok = ok && gp_session_read_maybe (r, to, ip, "run_delay_pct",
          &ts->run_delay_pct)
          && gp_json_read_string_array (r, to, ip, "elements", ts->elements)
          && gp_session_read_string (r, to, ip, "blocked_in", NULL,
              &ts->blocked_in)
          && gp_session_read_maybe (r, to, ip, "blocked_ms", &ts->blocked_ms);
      if (ok && gp_json_member (to, "streaming") != NULL) {
        gboolean streaming;

        /* absent (older sessions): a streaming thread */
        ok = gp_json_read_bool (r, to, ip, "streaming", &streaming);
        ts->worker = ok && !streaming;
      }
    }
    g_free (ip);
  }
  return ok;
}

/* summary.process; absent or null leaves it unmeasured. */
static gboolean
gp_session_read_process (GpJsonReader * r, GpSession * s, JsonObject * summary)
{
  GpProcessSummary *p = &s->process;
  JsonObject *o, *cpu, *rss;
  gint n_cpus = -1;
  gboolean ok;

  p->measured = FALSE;
  if (!gp_json_read_object (r, summary, "summary", "process", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  ok = gp_json_read_object (r, o, "summary.process", "cpu_pct", &cpu) &&
      gp_session_read_maybe (r, cpu, "summary.process.cpu_pct", "mean",
      &p->cpu_pct_mean) &&
      gp_session_read_maybe (r, cpu, "summary.process.cpu_pct", "max",
      &p->cpu_pct_max) &&
      gp_json_read_int (r, o, "summary.process", "n_cpus", -1, &n_cpus) &&
      gp_json_read_object (r, o, "summary.process", "rss_mb", &rss) &&
      gp_session_read_maybe (r, rss, "summary.process.rss_mb", "start",
      &p->rss_mb_start) &&
      gp_session_read_maybe (r, rss, "summary.process.rss_mb", "max",
      &p->rss_mb_max) &&
      gp_session_read_maybe (r, rss, "summary.process.rss_mb", "end",
      &p->rss_mb_end);
  p->n_cpus = n_cpus > 0 ? n_cpus : -1;
  p->measured = ok;
  return ok;
}

static gboolean
gp_session_read_summary (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  JsonObject *o;
  const gchar *p = "summary";

  if (!gp_json_read_object (r, root, "", "summary", &o))
    return FALSE;
  return gp_session_read_keyed (r, s, o, p, "elements",
      gp_session_read_elem_summary) &&
      gp_session_read_keyed (r, s, o, p, "queues",
          gp_session_read_queue_summary) &&
      gp_session_read_keyed (r, s, o, p, "links",
          gp_session_read_link_summary) &&
      gp_session_read_paths (r, o, "paths", s->paths) &&
      gp_session_read_paths (r, o, "interlatency", s->interlatency) &&
      gp_session_read_threads (r, s, o) &&
      gp_session_read_keyed (r, s, o, p, "sinks",
          gp_session_read_sink_summary) &&
      gp_session_read_maybe (r, o, p, "target_fps", &s->target_fps) &&
      gp_session_read_maybe (r, o, p, "frame_period_ms", &s->frame_period_ms) &&
      gp_session_read_process (r, s, o);
}

static gboolean
gp_session_read_series (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;

  if (!gp_json_read_array (r, root, "", "series", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *wo;
    gchar *ip;

    if (!gp_json_read_element_object (r, a, i, "series", &wo, &ip)) {
      g_free (ip);
      return FALSE;
    }
    g_free (ip);
    gp_session_add_window (s, wo);
  }
  return TRUE;
}

/* One number of a series' t or v array: a number within
 * GP_JSON_MAX_MAGNITUDE, or (@allow_null) null for a missing value. */
static gboolean
gp_session_read_machine_number (GpJsonReader * r, JsonArray * a, guint i,
    const gchar * path, gboolean allow_null, gdouble * out)
{
  JsonNode *node = json_array_get_element (a, i);

  if (allow_null && JSON_NODE_HOLDS_NULL (node)) {
    *out = NAN;
    return TRUE;
  }
  if (!gp_json_node_number (node, out) || !isfinite (*out)
      || fabs (*out) > GP_JSON_MAX_MAGNITUDE) {
    gchar *ip = gp_json_index_path (path, i);
    gboolean ok = gp_json_reader_fail (r, ip, "expected %s",
        allow_null ? "a number or null" : "a number");

    g_free (ip);
    return ok;
  }
  return TRUE;
}

static gboolean
gp_session_read_machine_series (GpJsonReader * r, GpMachine * m,
    JsonObject * so, const gchar * path)
{
  const gchar *name, *unit, *source;
  JsonArray *t, *v;
  GpMachineSeries *ms;
  gchar *quantity, *tpath;
  const gchar *slash;
  gdouble limit;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_string (r, so, path, "name", &name) ||
      !gp_json_read_string (r, so, path, "unit", &unit) ||
      !gp_json_read_string (r, so, path, "source", &source) ||
      !gp_json_read_number (r, so, path, "limit", GP_JSON_MAX_MAGNITUDE,
          &limit) ||
      !gp_json_read_array (r, so, path, "t", &t) ||
      !gp_json_read_array (r, so, path, "v", &v))
    return FALSE;
  slash = name != NULL ? strchr (name, '/') : NULL;
  if (slash == NULL || slash == name)
    return gp_json_reader_expected (r, path, "name", "QUANTITY/INSTANCE");
  n = t != NULL ? json_array_get_length (t) : 0;
  if (n != (v != NULL ? json_array_get_length (v) : 0))
    return gp_json_reader_expected (r, path, "v", "as many values as "
        "times");
  quantity = g_strndup (name, slash - name);
  if (gp_machine_find (m, quantity, slash + 1) != NULL) {
    g_free (quantity);
    return gp_json_reader_fail (r, path, "series \"%s\" given twice",
        name);
  }
  ms = gp_machine_series (m, quantity, slash + 1, unit ? unit : "",
      source ? source : "");
  g_free (quantity);
  ms->limit = limit;
  tpath = gp_json_key_path (path, "t");
  for (i = 0; i < n && ok; i++) {
    gdouble ti, vi;

    ok = gp_session_read_machine_number (r, t, i, tpath, FALSE, &ti) &&
        gp_session_read_machine_number (r, v, i, path, TRUE, &vi);
    if (ok && !gp_machine_series_append (m, ms, ti, vi))
      ok = gp_json_reader_fail (r, tpath, "times go back at [%u]", i);
  }
  g_free (tpath);
  return ok;
}

/* session.machine: absent when nothing sampled the machine. */
static gboolean
gp_session_read_machine (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  const gchar *p = "machine";
  JsonObject *o, *facts;
  JsonArray *sources, *series;
  GpMachine *m;
  guint i, n;
  gboolean ok;

  if (!gp_json_read_object (r, root, "", "machine", &o))
    return FALSE;
  if (o == NULL)
    return TRUE;
  m = s->machine = gp_machine_new ();
  ok = gp_session_read_maybe (r, o, p, "cost_pct", &m->cost_pct) &&
      gp_json_read_array (r, o, p, "sources", &sources) &&
      gp_json_read_object (r, o, p, "facts", &facts) &&
      gp_json_read_array (r, o, p, "series", &series);
  n = ok && sources != NULL ? json_array_get_length (sources) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *so;
    gchar *ip;
    const gchar *name, *state, *detail;
    GpMachineSource *src;

    ok = gp_json_read_element_object (r, sources, i, "machine.sources", &so,
        &ip) && gp_json_read_string (r, so, ip, "name", &name) &&
        gp_json_read_string (r, so, ip, "state", &state) &&
        gp_json_read_string (r, so, ip, "detail", &detail);
    if (ok && name == NULL)
      ok = gp_json_reader_expected (r, ip, "name", "a string");
    if (ok) {
      gp_machine_source_set (m, name, state, detail);
      src = gp_machine_source (m, name);
      ok = gp_json_read_count (r, so, ip, "samples", &src->samples) &&
          gp_session_read_maybe (r, so, ip, "interval_s", &src->interval_s);
    }
    g_free (ip);
  }
  if (ok && facts != NULL) {
    GList *members = json_object_get_members (facts), *l;

    for (l = members; l != NULL && ok; l = l->next) {
      const gchar *value;

      ok = gp_json_read_string (r, facts, "machine.facts", l->data, &value);
      if (ok && value != NULL)
        gp_machine_set_fact (m, l->data, value);
    }
    g_list_free (members);
  }
  n = ok && series != NULL ? json_array_get_length (series) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *so;
    gchar *ip;

    ok = gp_json_read_element_object (r, series, i, "machine.series", &so,
        &ip) && gp_session_read_machine_series (r, m, so, ip);
    g_free (ip);
  }
  /* or, in a large session, one at a time: each one's tree goes once it
   * is read */
  n = ok ? gp_json_lazy_length (r, "machine.series") : 0;
  for (i = 0; i < n && ok; i++) {
    JsonNode *node;
    JsonObject *so;
    gchar *ip;

    ok = gp_json_read_lazy_object (r, "machine.series", i, &node, &so, &ip)
        && gp_session_read_machine_series (r, m, so, ip);
    if (node != NULL)
      json_node_unref (node);
    g_free (ip);
  }
  return ok;
}

static gboolean
gp_session_read_events (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_array (r, root, "", "events", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *eo;
    gchar *ip;
    GpEvent *ev;

    ok = gp_json_read_element_object (r, a, i, "events", &eo, &ip);
    if (ok) {
      ev = gp_session_add_event (s, 0, NULL, NULL, NULL);
      JsonObject *data = NULL;

      ok = gp_session_read_double (r, eo, ip, "t", 0, &ev->t) &&
          gp_session_read_string (r, eo, ip, "type", "", &ev->type) &&
          gp_session_read_string (r, eo, ip, "source", "", &ev->source) &&
          gp_session_read_string (r, eo, ip, "text", "", &ev->text) &&
          gp_json_read_object (r, eo, ip, "data", &data);
      if (ok && data)
        ev->data = json_object_ref (data);
    }
    g_free (ip);
  }
  return ok;
}

/* ------------------------------------------------------------------ */
/* findings[].fix_patch: the ops of gp-launch-op.h                      */
/* ------------------------------------------------------------------ */

/* A string member an op cannot go without. */
static const gchar *
gp_session_read_op_string (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, const gchar * what)
{
  const gchar *v = NULL;

  if (gp_json_read_string (r, o, path, key, &v) && v == NULL)
    gp_json_reader_expected (r, path, key, what);
  return v;
}

/* A property value: a string, number or boolean. */
static gboolean
gp_session_read_op_scalar (GpJsonReader * r, JsonNode * node,
    const gchar * path, const gchar * key, GValue * out)
{
  if (r->error != NULL)
    return FALSE;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return gp_json_reader_expected (r, path, key,
        "a string, number or boolean");
  json_node_get_value (node, out);
  return TRUE;
}

/* Which element the op names, and where: "target" for set, replace and
 * remove; one of "after" or "before" for insert; one of the three for
 * caps. */
static gboolean
gp_session_read_op_at (GpJsonReader * r, JsonObject * o, const gchar * path,
    GpLaunchOpKind kind, GpLaunchAt * at, const gchar ** name)
{
  GpLaunchAt a, first = kind == GP_LAUNCH_OP_INSERT ? GP_LAUNCH_AT_AFTER :
      GP_LAUNCH_AT_TARGET;
  GpLaunchAt last = kind == GP_LAUNCH_OP_INSERT ||
      kind == GP_LAUNCH_OP_CAPS ? GP_LAUNCH_AT_BEFORE : GP_LAUNCH_AT_TARGET;
  guint found = 0;

  for (a = first; a <= last; a++) {
    const gchar *v = NULL;

    if (!gp_json_read_string (r, o, path, gp_launch_at_name (a), &v))
      return FALSE;
    if (v != NULL) {
      found++;
      *at = a;
      *name = v;
    }
  }
  if (found == 1)
    return TRUE;
  if (first == last)
    return gp_json_reader_expected (r, path, "target", "an element name");
  return gp_json_reader_fail (r, path, "%s needs one of %s",
      gp_launch_op_kind_name (kind), kind == GP_LAUNCH_OP_CAPS ?
      "\"after\", \"before\" or \"target\"" : "\"after\" or \"before\"");
}

/* "props" of an insert or replace: absent, or an object of scalars. */
static gboolean
gp_session_read_op_props (GpJsonReader * r, JsonObject * o,
    const gchar * path, GpLaunchOp * op)
{
  JsonObject *props;
  GList *keys, *k;
  gchar *pp;

  if (!gp_json_read_object (r, o, path, "props", &props))
    return FALSE;
  if (props == NULL) {
    g_clear_pointer (&op->props, g_array_unref);
    return TRUE;
  }
  pp = gp_json_key_path (path, "props");
  keys = json_object_get_members (props);
  for (k = keys; k != NULL && r->error == NULL; k = k->next) {
    GValue v = G_VALUE_INIT;

    if (gp_session_read_op_scalar (r, json_object_get_member (props, k->data),
            pp, k->data, &v)) {
      gp_launch_op_add_prop (op, k->data, &v);
      g_value_unset (&v);
    }
  }
  g_list_free (keys);
  g_free (pp);
  return r->error == NULL;
}

/* The members of an op of @kind naming @name at @at. */
static GpLaunchOp *
gp_session_read_op_of (GpJsonReader * r, JsonObject * o, const gchar * path,
    GpLaunchOpKind kind, GpLaunchAt at, const gchar * name)
{
  const gchar *prop, *factory, *caps;
  gboolean keep = FALSE;
  GValue v = G_VALUE_INIT;
  GpLaunchOp *op = NULL;

  switch (kind) {
    case GP_LAUNCH_OP_SET:
      prop = gp_session_read_op_string (r, o, path, "prop", "a property name");
      if (gp_session_read_op_scalar (r, gp_json_member (o, "value"), path,
              "value", &v)) {
        op = gp_launch_op_set (name, prop, &v);
        g_value_unset (&v);
      }
      return op;
    case GP_LAUNCH_OP_INSERT:
    case GP_LAUNCH_OP_REPLACE:
      factory = gp_session_read_op_string (r, o, path, "element",
          "a factory name");
      if (kind == GP_LAUNCH_OP_REPLACE)
        gp_json_read_bool (r, o, path, "keep_props", &keep);
      if (r->error != NULL)
        return NULL;
      op = kind == GP_LAUNCH_OP_INSERT ?
          gp_launch_op_insert (at, name, factory) :
          gp_launch_op_replace (name, factory, keep);
      if (!gp_session_read_op_props (r, o, path, op))
        g_clear_pointer (&op, gp_launch_op_free);
      return op;
    case GP_LAUNCH_OP_CAPS:
      caps = gp_session_read_op_string (r, o, path, "caps", "a caps string");
      return caps != NULL ? gp_launch_op_caps (at, name, caps) : NULL;
    case GP_LAUNCH_OP_REMOVE:
    default:
      return gp_launch_op_remove (name);
  }
}

static GpLaunchOp *
gp_session_read_op (GpJsonReader * r, JsonObject * o, const gchar * path)
{
  const gchar *kind_name = NULL, *name = NULL;
  GpLaunchOpKind kind;
  GpLaunchAt at = GP_LAUNCH_AT_TARGET;

  if (!gp_json_read_string (r, o, path, "op", &kind_name))
    return NULL;
  if (!gp_launch_op_kind_from_name (kind_name, &kind)) {
    gp_json_reader_expected (r, path, "op",
        "set, insert, caps, replace or remove");
    return NULL;
  }
  if (!gp_session_read_op_at (r, o, path, kind, &at, &name))
    return NULL;
  return gp_session_read_op_of (r, o, path, kind, at, name);
}

/* One op (an object) or an array of them. */
static gboolean
gp_session_read_patch (GpJsonReader * r, JsonNode * node, const gchar * path,
    GPtrArray ** out)
{
  GPtrArray *patch = gp_launch_patch_new ();
  GpLaunchOp *op;
  guint i;

  if (JSON_NODE_HOLDS_OBJECT (node)) {
    if ((op = gp_session_read_op (r, json_node_get_object (node), path)))
      g_ptr_array_add (patch, op);
  } else if (JSON_NODE_HOLDS_ARRAY (node)) {
    JsonArray *a = json_node_get_array (node);

    for (i = 0; i < json_array_get_length (a) && r->error == NULL; i++) {
      JsonObject *o;
      gchar *ip;

      if (gp_json_read_element_object (r, a, i, path, &o, &ip) &&
          (op = gp_session_read_op (r, o, ip)))
        g_ptr_array_add (patch, op);
      g_free (ip);
    }
  } else {
    gp_json_reader_fail (r, path, "expected an edit (an object) or an "
        "array of them");
  }
  if (r->error != NULL)
    g_clear_pointer (&patch, g_ptr_array_unref);
  *out = patch;
  return patch != NULL;
}

GPtrArray *
gp_session_patch_from_json (JsonNode * node, const gchar * origin,
    GError ** error)
{
  GpJsonReader r;
  GPtrArray *patch = NULL;

  gp_json_reader_init (&r, origin);
  if (node == NULL)
    gp_json_reader_fail (&r, "fix_patch", "no patch");
  else
    gp_session_read_patch (&r, node, "fix_patch", &patch);
  gp_json_reader_finish (&r, error);
  return patch;
}

static gboolean
gp_session_read_findings (GpJsonReader * r, GpSession * s, JsonObject * root)
{
  JsonArray *a;
  guint i, n;
  gboolean ok = TRUE;

  if (!gp_json_read_array (r, root, "", "findings", &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  for (i = 0; i < n && ok; i++) {
    JsonObject *fo, *evidence = NULL;
    gchar *ip;
    GpFinding *f;

    ok = gp_json_read_element_object (r, a, i, "findings", &fo, &ip);
    if (ok) {
      f = gp_session_add_finding (s, NULL, NULL, NULL);
      ok = gp_session_read_string (r, fo, ip, "rule", "", &f->rule) &&
          gp_session_read_string (r, fo, ip, "severity", "", &f->severity) &&
          gp_session_read_string (r, fo, ip, "title", "", &f->title) &&
          gp_json_read_string_array (r, fo, ip, "targets", f->targets) &&
          gp_json_read_object (r, fo, ip, "evidence", &evidence) &&
          gp_session_read_string (r, fo, ip, "why", "", &f->why) &&
          gp_session_read_string (r, fo, ip, "fix", "", &f->fix) &&
          gp_json_read_bool (r, fo, ip, "heuristic", &f->heuristic) &&
          gp_session_read_string (r, fo, ip, "verified_on", NULL,
              &f->verified_on)
          && gp_session_read_double (r, fo, ip, "rank_value", 0,
              &f->rank_value);
      if (ok && evidence != NULL) {
        json_object_unref (f->evidence);
        f->evidence = json_object_ref (evidence);
      }
      if (ok && gp_json_member (fo, "fix_patch") != NULL) {
        gchar *pp = gp_json_key_path (ip, "fix_patch");

        ok = gp_session_read_patch (r, gp_json_member (fo, "fix_patch"), pp,
            &f->fix_patch);
        g_free (pp);
      }
    }
    g_free (ip);
  }
  return ok;
}

static const gchar *
gp_session_read_type_name (JsonNode * node)
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
  return gp_session_from_json_lazy (root, NULL, origin, error);
}

GpSession *
gp_session_from_json_lazy (JsonNode * root, GpJsonLazy * lazy,
    const gchar * origin, GError ** error)
{
  GpJsonReader reader;
  GpJsonReader *r = &reader;
  JsonObject *o;
  const gchar *schema;
  GpSession *s;

  gp_json_reader_init (r, origin);
  r->lazy = lazy;
  if (root == NULL) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: empty, not a gstprof session", r->origin);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (the top level is %s, not an object)",
        r->origin, gp_session_read_type_name (root));
    return NULL;
  }
  o = json_node_get_object (root);
  if (json_object_get_member (o, "schema") == NULL) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (no \"schema\" key)", r->origin);
    return NULL;
  }
  if (!gp_json_read_string (r, o, "", "schema", &schema) || schema == NULL) {
    if (schema == NULL)
      gp_json_reader_expected (r, "", "schema", "a string");
    gp_json_reader_finish (r, error);
    return NULL;
  }
  if (strcmp (schema, GP_SESSION_SCHEMA) != 0) {
    gchar *shown = gp_json_excerpt (schema);

    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gstprof session (schema \"%s\")", r->origin, shown);
    g_free (shown);
    return NULL;
  }

  s = gp_session_new ();
  if (!(gp_session_read_session_info (r, s, o) &&
          gp_session_read_graph (r, s, o) &&
          gp_session_read_summary (r, s, o) &&
          gp_session_read_series (r, s, o) &&
          gp_session_read_machine (r, s, o) &&
          gp_session_read_events (r, s, o) &&
          gp_session_read_findings (r, s, o))) {
    gp_json_reader_finish (r, error);
    gp_session_free (s);
    return NULL;
  }
  return s;
}

GpSession *
gp_session_load_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error)
{
  return gp_json_load_session_data (data, length, origin,
      gp_session_from_json_lazy, error);
}

GpSession *
gp_session_load (const gchar * path, GError ** error)
{
  return gp_json_load_session_file (path, gp_session_from_json_lazy, error);
}
