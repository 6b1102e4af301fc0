/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session.c: the session model's constructors, destructors, lookups and
 * property getters, and the names of what an import could not know.
 * session.json is written by gp-session-write.c and read by
 * gp-session-read.c.
 *
 * The arrays keep the order (the order written to the file and shown to
 * the user); lookups of elements and element summaries by name go through
 * an index of positions in them (GpNameIndex), because a session read from
 * a file may hold tens of thousands of elements and the rules look each up
 * many times. Most other lookups are linear scans over short arrays.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp-json.h"
#include "gp-series.h"
#include "gp-session.h"

G_DEFINE_QUARK (gp-session-error-quark, gp_session_error);

gchar *
gp_pad_element (const gchar * pad)
{
  const gchar *dot;

  if (pad == NULL)
    return g_strdup ("");
  dot = strrchr (pad, '.');
  return dot ? g_strndup (pad, dot - pad) : g_strdup (pad);
}

/* gstreamer and friends hand us NULL for "none"; the model keeps "" for
 * names so readers never have to test them. */
static gchar *
gp_strdup_or_empty (const gchar * str)
{
  return g_strdup (str != NULL ? str : "");
}

void
gp_quantiles_set_unknown (GpQuantiles * q)
{
  g_return_if_fail (q != NULL);

  q->p50 = q->p95 = q->p99 = q->max = -1;
}

/* graph */

GpElement *
gp_element_new (const gchar * name, const gchar * factory,
    const gchar * parent, const gchar * kind)
{
  GpElement *e = g_new0 (GpElement, 1);

  e->name = gp_strdup_or_empty (name);
  e->factory = gp_strdup_or_empty (factory);
  e->parent = gp_strdup_or_empty (parent);
  e->kind = gp_strdup_or_empty (kind);
  return e;
}

void
gp_element_free (GpElement * e)
{
  if (e == NULL)
    return;
  g_free (e->name);
  g_free (e->factory);
  g_free (e->parent);
  g_free (e->kind);
  if (e->props != NULL)
    json_object_unref (e->props);
  g_free (e);
}

GpLink *
gp_link_new (const gchar * src, const gchar * sink, const gchar * caps,
    const gchar * memory)
{
  GpLink *l = g_new0 (GpLink, 1);

  l->src = gp_strdup_or_empty (src);
  l->sink = gp_strdup_or_empty (sink);
  l->id = g_strconcat (l->src, "->", l->sink, NULL);
  l->caps = g_strdup (caps);
  l->memory = g_strdup (memory != NULL ? memory : "system");
  return l;
}

void
gp_link_free (GpLink * l)
{
  if (l == NULL)
    return;
  g_free (l->id);
  g_free (l->src);
  g_free (l->sink);
  g_free (l->caps);
  g_free (l->memory);
  g_free (l);
}

/* summary */

GpElementSummary *
gp_element_summary_new (const gchar * name)
{
  GpElementSummary *es = g_new0 (GpElementSummary, 1);

  es->name = gp_strdup_or_empty (name);
  gp_quantiles_set_unknown (&es->self_ms);
  gp_quantiles_set_unknown (&es->wait_ms);
  es->wait_total_ms = -1;
  es->cpu_ms = -1;
  es->queued_mb_max = es->queued_mb_end = -1;
  es->handler_ms = es->handler_busy_pct = -1;
  es->threads = g_ptr_array_new_with_free_func (g_free);
  return es;
}

void
gp_element_summary_free (GpElementSummary * es)
{
  if (es == NULL)
    return;
  g_free (es->name);
  g_ptr_array_unref (es->threads);
  g_free (es);
}

GpQueueSummary *
gp_queue_summary_new (const gchar * name)
{
  GpQueueSummary *qs = g_new0 (GpQueueSummary, 1);

  qs->name = gp_strdup_or_empty (name);
  gp_quantiles_set_unknown (&qs->residence_ms);
  qs->level_pct_mean = qs->level_pct_max = -1;
  qs->leaky = g_strdup ("no");
  return qs;
}

void
gp_queue_summary_free (GpQueueSummary * qs)
{
  if (qs == NULL)
    return;
  g_free (qs->name);
  g_free (qs->leaky);
  g_free (qs);
}

GpLinkSummary *
gp_link_summary_new (const gchar * id)
{
  GpLinkSummary *ls = g_new0 (GpLinkSummary, 1);

  ls->id = gp_strdup_or_empty (id);
  ls->media_per_s = -1;
  ls->first_s = -1;
  ls->probe_ms = -1;
  ls->probe_busy_pct = -1;
  return ls;
}

void
gp_link_summary_free (GpLinkSummary * ls)
{
  if (ls == NULL)
    return;
  g_free (ls->id);
  g_free (ls);
}

GpPath *
gp_path_new (const gchar * source, const gchar * sink)
{
  GpPath *p = g_new0 (GpPath, 1);

  p->source = gp_strdup_or_empty (source);
  p->sink = gp_strdup_or_empty (sink);
  gp_quantiles_set_unknown (&p->latency_ms);
  p->mean_ms = -1;
  p->startup_max_ms = -1;
  return p;
}

void
gp_path_free (GpPath * p)
{
  if (p == NULL)
    return;
  g_free (p->source);
  g_free (p->sink);
  g_free (p);
}

GpThreadSummary *
gp_thread_summary_new (guint64 tid, const gchar * name)
{
  GpThreadSummary *ts = g_new0 (GpThreadSummary, 1);

  ts->tid = tid;
  ts->name = gp_strdup_or_empty (name);
  ts->cpu_pct_mean = ts->cpu_pct_max = -1;
  ts->run_delay_pct = -1;
  ts->blocked_ms = -1;
  ts->elements = g_ptr_array_new_with_free_func (g_free);
  return ts;
}

void
gp_thread_summary_free (GpThreadSummary * ts)
{
  if (ts == NULL)
    return;
  g_free (ts->name);
  g_free (ts->blocked_in);
  g_ptr_array_unref (ts->elements);
  g_free (ts);
}

GpSinkSummary *
gp_sink_summary_new (const gchar * name)
{
  GpSinkSummary *ss = g_new0 (GpSinkSummary, 1);

  ss->name = gp_strdup_or_empty (name);
  ss->media = g_strdup ("unknown");
  ss->target_fps = -1;
  ss->media_per_s = -1;
  ss->bytes_per_s = -1;
  ss->first_s = -1;
  gp_quantiles_set_unknown (&ss->late_ms);
  ss->late_trend_ms_per_s = NAN;
  return ss;
}

void
gp_sink_summary_free (GpSinkSummary * ss)
{
  if (ss == NULL)
    return;
  g_free (ss->name);
  g_free (ss->media);
  g_free (ss);
}

/* events and findings */

GpEvent *
gp_event_new (gdouble t, const gchar * type, const gchar * source,
    const gchar * text)
{
  GpEvent *ev = g_new0 (GpEvent, 1);

  ev->t = t;
  ev->type = gp_strdup_or_empty (type);
  ev->source = gp_strdup_or_empty (source);
  ev->text = gp_strdup_or_empty (text);
  return ev;
}

void
gp_event_free (GpEvent * ev)
{
  if (ev == NULL)
    return;
  g_free (ev->type);
  g_free (ev->source);
  g_free (ev->text);
  if (ev->data)
    json_object_unref (ev->data);
  g_free (ev);
}

GpPrerollSink *
gp_preroll_sink_new (const gchar * name, const gchar * state,
    const gchar * pending, gboolean prerolled)
{
  GpPrerollSink *p = g_new0 (GpPrerollSink, 1);

  p->name = gp_strdup_or_empty (name);
  p->state = gp_strdup_or_empty (state);
  p->pending = gp_strdup_or_empty (pending);
  p->prerolled = prerolled;
  return p;
}

void
gp_preroll_sink_free (GpPrerollSink * p)
{
  if (p == NULL)
    return;
  g_free (p->name);
  g_free (p->state);
  g_free (p->pending);
  g_free (p);
}

gboolean
gp_session_never_played (GpSession * s)
{
  return s->reached != NULL && g_strcmp0 (s->reached, "PLAYING") != 0;
}

GpFinding *
gp_finding_new (const gchar * rule, const gchar * severity,
    const gchar * title)
{
  GpFinding *f = g_new0 (GpFinding, 1);

  f->rule = gp_strdup_or_empty (rule);
  f->severity = gp_strdup_or_empty (severity);
  f->title = gp_strdup_or_empty (title);
  f->targets = g_ptr_array_new_with_free_func (g_free);
  f->evidence = json_object_new ();
  f->why = g_strdup ("");
  f->fix = g_strdup ("");
  return f;
}

void
gp_finding_free (GpFinding * f)
{
  if (f == NULL)
    return;
  g_free (f->rule);
  g_free (f->severity);
  g_free (f->title);
  g_ptr_array_unref (f->targets);
  if (f->evidence != NULL)
    json_object_unref (f->evidence);
  g_free (f->why);
  g_free (f->fix);
  if (f->fix_patch != NULL)
    g_ptr_array_unref (f->fix_patch);
  g_free (f->verified_on);
  g_free (f);
}

void
gp_finding_add_target (GpFinding * f, const gchar * target)
{
  g_return_if_fail (f != NULL);

  g_ptr_array_add (f->targets, gp_strdup_or_empty (target));
}

/* the session */

GpSession *
gp_session_new (void)
{
  GpSession *s = g_new0 (GpSession, 1);

  s->schema = g_strdup (GP_SESSION_SCHEMA);
  s->mode = g_strdup ("run");
  s->started = g_strdup ("");
  s->gstreamer = g_strdup ("");
  s->platform = g_strdup ("generic");
  s->window_s = 0.25;

  s->elements = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_element_free);
  s->links = g_ptr_array_new_with_free_func ((GDestroyNotify) gp_link_free);
  s->hw_elements = g_ptr_array_new_with_free_func (g_free);

  s->elem_summaries = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_element_summary_free);
  s->queue_summaries = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_queue_summary_free);
  s->link_summaries = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_link_summary_free);
  s->paths = g_ptr_array_new_with_free_func ((GDestroyNotify) gp_path_free);
  s->interlatency = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_path_free);
  s->threads = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_thread_summary_free);
  s->sinks = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_sink_summary_free);
  s->target_fps = -1;
  s->frame_period_ms = -1;

  s->series = g_ptr_array_new_with_free_func ((GDestroyNotify)
      json_object_unref);
  s->events = g_ptr_array_new_with_free_func ((GDestroyNotify) gp_event_free);
  s->preroll = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_preroll_sink_free);
  s->stop_s = -1;
  s->drain_s = -1;
  s->findings = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_finding_free);
  return s;
}

void
gp_session_free (GpSession * s)
{
  if (s == NULL)
    return;
  g_free (s->schema);
  g_free (s->mode);
  g_free (s->launch);
  g_free (s->started);
  g_free (s->gstreamer);
  g_free (s->platform);
  g_free (s->reached);
  g_free (s->end);
  g_free (s->trace_file);
  gp_trace_free (s->trace);
  gp_machine_free (s->machine);
  g_ptr_array_unref (s->preroll);
  g_ptr_array_unref (s->elements);
  g_ptr_array_unref (s->links);
  g_ptr_array_unref (s->hw_elements);
  g_ptr_array_unref (s->elem_summaries);
  g_ptr_array_unref (s->queue_summaries);
  g_ptr_array_unref (s->link_summaries);
  g_ptr_array_unref (s->paths);
  g_ptr_array_unref (s->interlatency);
  g_ptr_array_unref (s->threads);
  g_ptr_array_unref (s->sinks);
  g_ptr_array_unref (s->series);
  g_ptr_array_unref (s->events);
  g_ptr_array_unref (s->findings);
  g_free (s->import_detail);
  g_clear_pointer (&s->launch_parsed, gp_launch_free);
  g_free (s->launch_parsed_of);
  gp_session_reindex (s);
  g_free (s);
}

GpElement *
gp_session_add_element (GpSession * s, const gchar * name,
    const gchar * factory, const gchar * parent, const gchar * kind)
{
  GpElement *e;

  g_return_val_if_fail (s != NULL, NULL);

  e = gp_element_new (name, factory, parent, kind);
  g_ptr_array_add (s->elements, e);
  return e;
}

GpLink *
gp_session_add_link (GpSession * s, const gchar * src, const gchar * sink,
    const gchar * caps, const gchar * memory)
{
  GpLink *l;

  g_return_val_if_fail (s != NULL, NULL);

  l = gp_link_new (src, sink, caps, memory);
  g_ptr_array_add (s->links, l);
  return l;
}

GpEvent *
gp_session_add_event (GpSession * s, gdouble t, const gchar * type,
    const gchar * source, const gchar * text)
{
  GpEvent *ev;

  g_return_val_if_fail (s != NULL, NULL);

  ev = gp_event_new (t, type, source, text);
  g_ptr_array_add (s->events, ev);
  return ev;
}

GpFinding *
gp_session_add_finding (GpSession * s, const gchar * rule,
    const gchar * severity, const gchar * title)
{
  GpFinding *f;

  g_return_val_if_fail (s != NULL, NULL);

  f = gp_finding_new (rule, severity, title);
  g_ptr_array_add (s->findings, f);
  return f;
}

GpElementSummary *
gp_session_add_elem_summary (GpSession * s, const gchar * name)
{
  GpElementSummary *es;

  g_return_val_if_fail (s != NULL, NULL);

  es = gp_element_summary_new (name);
  g_ptr_array_add (s->elem_summaries, es);
  return es;
}

GpQueueSummary *
gp_session_add_queue_summary (GpSession * s, const gchar * name)
{
  GpQueueSummary *qs;

  g_return_val_if_fail (s != NULL, NULL);

  qs = gp_queue_summary_new (name);
  g_ptr_array_add (s->queue_summaries, qs);
  return qs;
}

GpLinkSummary *
gp_session_add_link_summary (GpSession * s, const gchar * id)
{
  GpLinkSummary *ls;

  g_return_val_if_fail (s != NULL, NULL);

  ls = gp_link_summary_new (id);
  g_ptr_array_add (s->link_summaries, ls);
  return ls;
}

GpPath *
gp_session_add_path (GpSession * s, const gchar * source, const gchar * sink)
{
  GpPath *p;

  g_return_val_if_fail (s != NULL, NULL);

  p = gp_path_new (source, sink);
  g_ptr_array_add (s->paths, p);
  return p;
}

GpPath *
gp_session_add_interlatency (GpSession * s, const gchar * source,
    const gchar * element)
{
  GpPath *p;

  g_return_val_if_fail (s != NULL, NULL);

  p = gp_path_new (source, element);
  g_ptr_array_add (s->interlatency, p);
  return p;
}

GpThreadSummary *
gp_session_add_thread (GpSession * s, guint64 tid, const gchar * name)
{
  GpThreadSummary *ts;

  g_return_val_if_fail (s != NULL, NULL);

  ts = gp_thread_summary_new (tid, name);
  g_ptr_array_add (s->threads, ts);
  return ts;
}

GpSinkSummary *
gp_session_add_sink (GpSession * s, const gchar * name)
{
  GpSinkSummary *ss;

  g_return_val_if_fail (s != NULL, NULL);

  ss = gp_sink_summary_new (name);
  g_ptr_array_add (s->sinks, ss);
  return ss;
}

void
gp_session_add_window (GpSession * s, JsonObject * window)
{
  g_return_if_fail (s != NULL);
  g_return_if_fail (window != NULL);

  g_ptr_array_add (s->series, json_object_ref (window));
}

/* series */

JsonObject *
gp_series_window_new (gdouble t0, gdouble t1)
{
  static const gchar *const sections[] = { GP_SERIES_ELEMENTS,
    GP_SERIES_LINKS, GP_SERIES_QUEUES, GP_SERIES_THREADS, GP_SERIES_PATHS,
    GP_SERIES_PROCESS
  };
  JsonObject *w = json_object_new ();
  guint i;

  json_object_set_double_member (w, GP_SERIES_T0, t0);
  json_object_set_double_member (w, GP_SERIES_T1, t1);
  for (i = 0; i < G_N_ELEMENTS (sections); i++)
    json_object_set_object_member (w, sections[i], json_object_new ());
  return w;
}

static JsonObject *
gp_session_series_child (JsonObject * parent, const gchar * name)
{
  JsonNode *node = json_object_get_member (parent, name);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node)) {
    json_object_set_object_member (parent, name, json_object_new ());
    node = json_object_get_member (parent, name);
  }
  return json_node_get_object (node);
}

JsonObject *
gp_series_entry (JsonObject * window, const gchar * section,
    const gchar * key)
{
  JsonObject *o = gp_session_series_child (window, section);

  return key != NULL ? gp_session_series_child (o, key) : o;
}

void
gp_series_set (JsonObject * entry, const gchar * field, gdouble v)
{
  json_object_set_double_member (entry, field, v >= 0 ? v : -1.0);
}

void
gp_series_set_count (JsonObject * entry, const gchar * field, guint64 v)
{
  json_object_set_int_member (entry, field, (gint64) MIN (v,
          (guint64) G_MAXINT64));
}

void
gp_series_set_or_null (JsonObject * entry, const gchar * field, gdouble v)
{
  if (v >= 0)
    json_object_set_double_member (entry, field, v);
  else
    json_object_set_null_member (entry, field);
}

guint
gp_session_n_windows (GpSession * s)
{
  return s != NULL && s->series != NULL ? s->series->len : 0;
}

void
gp_session_window_span (GpSession * s, guint i, gdouble * t0, gdouble * t1)
{
  JsonObject *w;

  g_return_if_fail (i < gp_session_n_windows (s));
  w = g_ptr_array_index (s->series, i);
  if (t0)
    *t0 = gp_json_get_double (w, GP_SERIES_T0, -1);
  if (t1)
    *t1 = gp_json_get_double (w, GP_SERIES_T1, -1);
}

JsonObject *
gp_session_window_section (GpSession * s, guint i, const gchar * section)
{
  JsonNode *n;

  g_return_val_if_fail (i < gp_session_n_windows (s), NULL);
  n = json_object_get_member (g_ptr_array_index (s->series, i), section);
  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ?
      json_node_get_object (n) : NULL;
}

gdouble
gp_session_window_value (GpSession * s, guint i, const gchar * section,
    const gchar * key, const gchar * field)
{
  JsonObject *o = gp_session_window_section (s, i, section);

  if (o != NULL && key != NULL) {
    JsonNode *n = json_object_get_member (o, key);

    o = n != NULL && JSON_NODE_HOLDS_OBJECT (n) ?
        json_node_get_object (n) : NULL;
  }
  return gp_json_get_double (o, field, -1);
}

/* name indexes */

/* Positions by name in a GPtrArray whose entries begin with their name
 * (GpElement, GpElementSummary). Entries appended since the last lookup
 * are taken in then (named: an entry is named before the next lookup); a
 * hit is checked against the array (the entry there still has that
 * name), and an array whose first or last indexed entry moved is indexed
 * again, so a sort or an emptying is caught; a rename in place is not,
 * and is said with gp_session_reindex (). The first of several entries of
 * one name wins, as in a scan. */
typedef struct _GpNameIndex GpNameIndex;

struct _GpNameIndex
{
  GHashTable *positions;        /* name (owned) -> position + 1 */
  guint n;                      /* entries indexed: array[0..n) */
  gconstpointer first, last;    /* array[0] and array[n-1] when indexed */
};

static void
gp_name_index_free (GpNameIndex * ix)
{
  if (ix == NULL)
    return;
  g_hash_table_unref (ix->positions);
  g_free (ix);
}

static const gchar *
gp_name_index_name (GPtrArray * a, guint i)
{
  /* both kinds of entry start with their gchar *name */
  return *(const gchar * const *) g_ptr_array_index (a, i);
}

/* Takes in a's entries from ix->n on, starting over when the array no
 * longer begins and continues as indexed. */
static void
gp_name_index_update (GpNameIndex * ix, GPtrArray * a)
{
  if (ix->n > a->len || (ix->n > 0 && (g_ptr_array_index (a, 0) != ix->first
              || g_ptr_array_index (a, ix->n - 1) != ix->last))) {
    g_hash_table_remove_all (ix->positions);
    ix->n = 0;
  }
  for (; ix->n < a->len; ix->n++) {
    const gchar *name = gp_name_index_name (a, ix->n);

    if (name != NULL && !g_hash_table_contains (ix->positions, name))
      g_hash_table_insert (ix->positions, g_strdup (name),
          GUINT_TO_POINTER (ix->n + 1));
  }
  ix->first = a->len ? g_ptr_array_index (a, 0) : NULL;
  ix->last = a->len ? g_ptr_array_index (a, a->len - 1) : NULL;
}

static gpointer
gp_name_index_find (GpNameIndex ** ixp, GPtrArray * a, const gchar * name)
{
  guint pos, tries;

  if (*ixp == NULL) {
    *ixp = g_new0 (GpNameIndex, 1);
    (*ixp)->positions = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);
  }
  for (tries = 0; tries < 2; tries++) {
    gp_name_index_update (*ixp, a);
    pos = GPOINTER_TO_UINT (g_hash_table_lookup ((*ixp)->positions, name));
    if (pos == 0)
      return NULL;
    if (pos <= a->len && g_strcmp0 (gp_name_index_name (a, pos - 1),
            name) == 0)
      return g_ptr_array_index (a, pos - 1);
    /* an entry moved or was renamed: index the array again */
    (*ixp)->n = 0;
    g_hash_table_remove_all ((*ixp)->positions);
  }
  return NULL;
}

void
gp_session_reindex (GpSession * s)
{
  g_clear_pointer (&s->element_index, gp_name_index_free);
  g_clear_pointer (&s->elem_summary_index, gp_name_index_free);
}

/* lookups */

GpElement *
gp_session_find_element (GpSession * s, const gchar * name)
{
  g_return_val_if_fail (s != NULL, NULL);
  if (name == NULL)
    return NULL;
  return gp_name_index_find (&s->element_index, s->elements, name);
}

GpFinding *
gp_session_find_finding (GpSession * s, const gchar * rule,
    const gchar * target)
{
  guint i, j;

  g_return_val_if_fail (s != NULL, NULL);

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (rule && g_strcmp0 (f->rule, rule) != 0)
      continue;
    if (target == NULL)
      return f;
    for (j = 0; f->targets && j < f->targets->len; j++)
      if (g_strcmp0 (g_ptr_array_index (f->targets, j), target) == 0)
        return f;
  }
  return NULL;
}

GpEvent *
gp_session_find_event (GpSession * s, const gchar * type)
{
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, type) == 0)
      return ev;
  }
  return NULL;
}

guint
gp_session_count_findings (GpSession * s, const gchar * rule)
{
  guint i, n = 0;

  g_return_val_if_fail (s != NULL, 0);

  for (i = 0; s->findings && i < s->findings->len; i++)
    n += g_strcmp0 (((GpFinding *) g_ptr_array_index (s->findings,
                i))->rule, rule) == 0;
  return n;
}

GpElementSummary *
gp_session_find_elem_summary (GpSession * s, const gchar * name)
{
  g_return_val_if_fail (s != NULL, NULL);
  if (name == NULL)
    return NULL;
  return gp_name_index_find (&s->elem_summary_index, s->elem_summaries,
      name);
}

GpQueueSummary *
gp_session_find_queue_summary (GpSession * s, const gchar * name)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);
  if (name == NULL)
    return NULL;

  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);

    if (g_strcmp0 (qs->name, name) == 0)
      return qs;
  }
  return NULL;
}

GpLink *
gp_session_find_link (GpSession * s, const gchar * id)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);
  if (id == NULL)
    return NULL;

  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);

    if (g_strcmp0 (l->id, id) == 0)
      return l;
  }
  return NULL;
}

GpLinkSummary *
gp_session_find_link_summary (GpSession * s, const gchar * id)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);
  if (id == NULL)
    return NULL;

  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    if (g_strcmp0 (ls->id, id) == 0)
      return ls;
  }
  return NULL;
}

GpSinkSummary *
gp_session_find_sink (GpSession * s, const gchar * name)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);
  if (name == NULL)
    return NULL;

  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);

    if (g_strcmp0 (ss->name, name) == 0)
      return ss;
  }
  return NULL;
}

GpThreadSummary *
gp_session_find_thread (GpSession * s, guint64 tid)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *ts = g_ptr_array_index (s->threads, i);

    if (ts->tid == tid)
      return ts;
  }
  return NULL;
}

GpPath *
gp_session_find_path (GpSession * s, const gchar * source, const gchar * sink)
{
  guint i;

  g_return_val_if_fail (s != NULL, NULL);

  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (g_strcmp0 (p->source, source) == 0 && g_strcmp0 (p->sink, sink) == 0)
      return p;
  }
  return NULL;
}

/* ordering */

/* g_ptr_array_sort is a merge sort in GLib (stable), but that is not
 * documented; sorting (position, pointer) keys makes ties keep their order
 * whatever the algorithm. */
typedef struct
{
  gdouble key;
  guint pos;
  gpointer item;
} GpSortEntry;

static gint
gp_sort_entry_cmp_desc (gconstpointer a, gconstpointer b)
{
  const GpSortEntry *x = a, *y = b;

  /* NaN sorts last, like "unknown". */
  if (isnan (x->key) != isnan (y->key))
    return isnan (x->key) ? 1 : -1;
  if (x->key > y->key)
    return -1;
  if (x->key < y->key)
    return 1;
  return x->pos < y->pos ? -1 : (x->pos > y->pos ? 1 : 0);
}

static void
gp_sort_desc (GPtrArray * arr, gdouble (*key) (gconstpointer item))
{
  GpSortEntry *ents;
  guint i;

  if (arr->len < 2)
    return;
  ents = g_new (GpSortEntry, arr->len);
  for (i = 0; i < arr->len; i++) {
    ents[i].item = g_ptr_array_index (arr, i);
    ents[i].key = key (ents[i].item);
    ents[i].pos = i;
  }
  qsort (ents, arr->len, sizeof (GpSortEntry), gp_sort_entry_cmp_desc);
  for (i = 0; i < arr->len; i++)
    arr->pdata[i] = ents[i].item;
  g_free (ents);
}

static gdouble
gp_elem_summary_key (gconstpointer item)
{
  return ((const GpElementSummary *) item)->self_total_ms;
}

static gdouble
gp_thread_summary_key (gconstpointer item)
{
  return ((const GpThreadSummary *) item)->cpu_pct_mean;
}

void
gp_session_sort_summaries (GpSession * s)
{
  g_return_if_fail (s != NULL);

  gp_sort_desc (s->elem_summaries, gp_elem_summary_key);
  gp_sort_desc (s->threads, gp_thread_summary_key);
}

/* element properties */

static JsonNode *
gp_element_get_prop_node (GpElement * e, const gchar * prop)
{
  JsonNode *node;

  if (e == NULL || e->props == NULL || prop == NULL)
    return NULL;
  node = json_object_get_member (e->props, prop);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  return node;
}

gboolean
gp_element_get_prop_bool (GpElement * e, const gchar * prop, gboolean * out)
{
  JsonNode *node = gp_element_get_prop_node (e, prop);
  gboolean v;

  if (node == NULL)
    return FALSE;
  switch (json_node_get_value_type (node)) {
    case G_TYPE_BOOLEAN:
      v = json_node_get_boolean (node);
      break;
    case G_TYPE_STRING:{
      /* A property serialized through its string form. */
      const gchar *str = json_node_get_string (node);

      if (g_ascii_strcasecmp (str, "true") == 0)
        v = TRUE;
      else if (g_ascii_strcasecmp (str, "false") == 0)
        v = FALSE;
      else
        return FALSE;
      break;
    }
    default:
      return FALSE;
  }
  if (out != NULL)
    *out = v;
  return TRUE;
}

const gchar *
gp_element_get_prop_string (GpElement * e, const gchar * prop)
{
  JsonNode *node = gp_element_get_prop_node (e, prop);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

gboolean
gp_element_get_prop_int (GpElement * e, const gchar * prop, gint64 * out)
{
  JsonNode *node = gp_element_get_prop_node (e, prop);
  gint64 v;

  if (node == NULL)
    return FALSE;
  switch (json_node_get_value_type (node)) {
    case G_TYPE_INT64:
      v = json_node_get_int (node);
      break;
    case G_TYPE_DOUBLE:{
      gdouble d = json_node_get_double (node);

      /* guint64 properties above G_MAXINT64 can only travel as doubles. */
      if (!isfinite (d) || d != floor (d) || d < -9.2e18 || d > 9.2e18)
        return FALSE;
      v = (gint64) d;
      break;
    }
    default:
      return FALSE;
  }
  if (out != NULL)
    *out = v;
  return TRUE;
}

gboolean
gp_element_get_prop_double (GpElement * e, const gchar * prop, gdouble * out)
{
  JsonNode *node = gp_element_get_prop_node (e, prop);
  gdouble v;

  if (node == NULL)
    return FALSE;
  switch (json_node_get_value_type (node)) {
    case G_TYPE_INT64:
      v = (gdouble) json_node_get_int (node);
      break;
    case G_TYPE_DOUBLE:
      v = json_node_get_double (node);
      break;
    default:
      return FALSE;
  }
  if (out != NULL)
    *out = v;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* imports                                                              */
/* ------------------------------------------------------------------ */

/* session.imported_from.missing: bit n of GpSession.import_missing is
 * GpImportMissing 1 << n (src/ingest/gp-ingest.h, whose test checks that
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
  "element_time",
  "links",
  "thread_cpu",
  "interlatency",
  "latency",
  "queue_flow",
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
