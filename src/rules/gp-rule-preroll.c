/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-preroll.c: PREROLL, a pipeline that never reached PLAYING.  A
 * pipeline goes to PLAYING only once every sink has its first buffer
 * (preroll); a sink that has one blocks the thread that brought it until
 * then.  When one streaming thread feeds several sinks (a demuxer or a tee
 * without a queue on each branch), the first sink to preroll blocks the
 * thread that the others wait on: the pipeline hangs in PAUSED.  The rule
 * names the sinks that never prerolled, the one that holds its buffer and
 * the thread it blocks, and the fix.  Thresholds and reasons:
 * docs/rules.md.
 */
#include "gp-rules-private.h"

#include <string.h>

/* Where the data stops on the way to @sink: the element nearest the sink
 * that got buffers and passed none on (a depayloader waiting for the
 * parameter sets, a decoder for a keyframe, a valve), with what it got in
 * @got; NULL when data reached the sink, or none came at all. */
static gchar *
gp_preroll_stops_at (GpSession * s, const gchar * sink, guint64 * got)
{
  gchar *cur = g_strdup (sink);
  guint steps;

  for (steps = 0; cur && steps < 64; steps++) {
    GpLink *in = gp_session_link_into (s, cur);
    GpLinkSummary *ls = in ? gp_session_find_link_summary (s, in->id) : NULL;

    if (ls && ls->buffers > 0) {
      if (steps == 0) {
        g_free (cur);
        return NULL;
      }
      *got = ls->buffers;
      return cur;
    }
    g_free (cur);
    cur = in ? gp_pad_element (in->src) : NULL;
  }
  g_free (cur);
  return NULL;
}

/* A queue a thread is blocked in is full from this level (% of its
 * limits): room for one more buffer is no block. */
#define GP_PREROLL_FULL_PCT 90.0

/* Links whose src element is @element, in the session's order. */
static GPtrArray *
gp_preroll_outputs (GpSession * s, const gchar * element)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src);

    if (g_strcmp0 (src, element) == 0)
      g_ptr_array_add (out, l);
    g_free (src);
  }
  return out;
}

/* The element feeding @element (its first input link's), or NULL. */
static gchar *
gp_preroll_upstream (GpSession * s, const gchar * element)
{
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *sink = gp_pad_element (l->sink);
    gboolean mine = g_strcmp0 (sink, element) == 0;

    g_free (sink);
    if (mine)
      return gp_pad_element (l->src);
  }
  return NULL;
}

/* The nearest element upstream of @sink with more than one output: where
 * the branches part (a demuxer, a tee).  NULL when none. */
static gchar *
gp_preroll_branch_point (GpSession * s, const gchar * sink)
{
  gchar *cur = g_strdup (sink);
  guint steps;

  for (steps = 0; cur && steps < 64; steps++) {
    gchar *up = gp_preroll_upstream (s, cur);
    GPtrArray *outs;

    g_free (cur);
    cur = up;
    if (!cur)
      break;
    outs = gp_preroll_outputs (s, cur);
    if (outs->len > 1) {
      g_ptr_array_unref (outs);
      return cur;
    }
    g_ptr_array_unref (outs);
  }
  g_free (cur);
  return NULL;
}

/* Whether the branch that starts at @first (down its first outputs to a
 * sink) has a queue, which gives it a thread of its own. */
static gboolean
gp_preroll_branch_has_queue (GpSession * s, const gchar * first)
{
  gchar *cur = g_strdup (first);
  gboolean queue = FALSE;
  guint steps;

  for (steps = 0; cur && !queue && steps < 64; steps++) {
    GPtrArray *outs;

    queue = gp_session_is_queue (s, cur);
    outs = gp_preroll_outputs (s, cur);
    g_free (cur);
    cur = outs->len > 0 ?
        gp_pad_element (((GpLink *) g_ptr_array_index (outs, 0))->sink)
        : NULL;
    g_ptr_array_unref (outs);
  }
  g_free (cur);
  return queue;
}

/* A valve that drops everything (drop=true) on the way up from @sink: it
 * never gets a buffer while the valve is shut. NULL when none. */
static GpElement *
gp_preroll_shut_valve (GpSession * s, const gchar * sink)
{
  GHashTable *up = gp_session_upstream_of (s, sink);
  GpElement *valve = NULL;
  guint i;

  for (i = 0; s->elements && i < s->elements->len && !valve; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gboolean drop = FALSE;

    if (g_strcmp0 (e->factory, "valve") == 0 &&
        g_hash_table_contains (up, e->name) &&
        gp_element_get_prop_bool (e, "drop", &drop) && drop)
      valve = e;
  }
  g_hash_table_unref (up);
  return valve;
}

/* Whether a live source is in the pipeline: its queues are not to grow
 * without limit. */
static gboolean
gp_preroll_any_live (GpSession * s)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++)
    if (gp_session_is_live_source (s, ((GpElement *) g_ptr_array_index
                (s->elements, i))->name))
      return TRUE;
  return FALSE;
}

/* A queue that a streaming thread is blocked in at the end, full (its
 * level at its limit): NULL when none. */
static const gchar *
gp_preroll_full_queue (GpSession * s)
{
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    GpQueueSummary *q = t->blocked_in ?
        gp_session_find_queue_summary (s, t->blocked_in) : NULL;

    if (q && q->level_pct_max >= GP_PREROLL_FULL_PCT)
      return q->name;
  }
  return NULL;
}

/* The fix where every branch has its queue: a queue a thread is blocked
 * in is full, and the other branch's data lies behind what fills
 * it (a file whose streams are interleaved in chunks longer than the
 * queue holds: the muxer or the other sink waits for it); a shut valve
 * starves its sink. Into @fix and @ops. */
static void
gp_preroll_queued_fix (GpSession * s, GpFinding * f, const gchar * waiting,
    GString * fix, GPtrArray * ops)
{
  GpElement *valve = waiting ? gp_preroll_shut_valve (s, waiting) : NULL;
  GpElement *se = NULL;
  const gchar *q;
  guint64 got = 0;
  gchar *stop;

  if (valve) {
    gp_finding_set_string (f, "shut_valve", valve->name);
    g_string_append_printf (fix, "%s drops every buffer (drop=true), so %s "
        "never gets one to preroll with: set async=false on %s so the "
        "pipeline plays without waiting for it (or open the valve before "
        "going to PLAYING).", valve->name, waiting, waiting);
    g_ptr_array_add (ops, gp_launch_op_set_bool (waiting, "async", FALSE));
    return;
  }
  if ((q = gp_preroll_full_queue (s)) != NULL && !gp_preroll_any_live (s)) {
    gp_finding_set_string (f, "full_queue", q);
    g_string_append_printf (fix, "%s is full and blocks the thread that "
        "also carries the data %s waits for: in a file read as fast as it "
        "goes, one stream can come in chunks longer than the queue holds "
        "(its default: 1 s, 200 buffers, 10 MB). Lift %s's limits "
        "(max-size-time=0 max-size-bytes=0 max-size-buffers=0: a file's "
        "queue can hold what its interleave needs), or give it room for "
        "more than the file's interleave.", q, waiting ? waiting : "the "
        "other branch", q);
    g_ptr_array_add (ops, gp_launch_op_set_int (q, "max-size-time", 0));
    g_ptr_array_add (ops, gp_launch_op_set_int (q, "max-size-bytes", 0));
    g_ptr_array_add (ops, gp_launch_op_set_int (q, "max-size-buffers", 0));
    return;
  }
  stop = waiting ? gp_preroll_stops_at (s, waiting, &got) : NULL;
  se = stop ? gp_session_find_element (s, stop) : NULL;
  g_free (stop);
  if (se == NULL) {
    g_string_append_printf (fix, "If %s waits for data that only flows "
        "once the pipeline plays (its source is a receiver in this same "
        "pipeline), set async=false on %s so the pipeline does not wait for "
        "its preroll.", waiting ? waiting : "the sink", waiting ? waiting :
        "it");
    return;
  }
  gp_finding_set_string (f, "stops_at", se->name);
  gp_finding_set_int (f, "stops_at_got", (gint64) got);
  if (se->factory && (g_str_equal (se->factory, "rtph264depay") ||
          g_str_equal (se->factory, "rtph265depay")))
    g_string_append_printf (fix, "%s got %" G_GUINT64_FORMAT " packets and "
        "passed nothing on: it waits for the stream's parameter sets "
        "(SPS/PPS), which the sender sends only at its start or not at all. "
        "Have the sender repeat them (rtph264pay config-interval=-1, with "
        "every keyframe), or give %s's caps the sprop-parameter-sets of the "
        "stream.", se->name, got, se->name);
  else
    g_string_append_printf (fix, "%s got %" G_GUINT64_FORMAT " buffers and "
        "passed nothing on, so %s never gets one to preroll with: look at "
        "what %s waits for (a keyframe, headers, its caps), or set "
        "async=false on %s if it only outputs once the pipeline plays.",
        se->name, got, waiting, se->name, waiting);
}

void
gp_rule_preroll (GpSession * s, const GpRule * rule)
{
  GString *waiting = g_string_new (NULL), *holding = g_string_new (NULL);
  GString *fix = g_string_new (NULL), *no_queue = g_string_new (NULL);
  GString *why;
  GPtrArray *ops = gp_launch_patch_new ();
  const GpThreadSummary *blocked = NULL;
  gchar *branch = NULL, *title;
  const gchar *first_waiting = NULL;
  GpFinding *f;
  guint i;

  if (!gp_session_never_played (s))
    goto out;
  /* an error stopped it: that is the finding, not the preroll */
  for (i = 0; i < s->events->len; i++)
    if (g_strcmp0 (((GpEvent *) g_ptr_array_index (s->events, i))->type,
            "error") == 0)
      goto out;

  for (i = 0; i < s->preroll->len; i++) {
    GpPrerollSink *p = g_ptr_array_index (s->preroll, i);
    GString *into = p->prerolled ? holding : waiting;

    g_string_append_printf (into, "%s%s", into->len ? ", " : "", p->name);
    if (!p->prerolled && !first_waiting)
      first_waiting = p->name;
  }
  /* every sink prerolled and a buffering element was never full: the
   * pipeline waited for data to play (BUFFERING says it) */
  if (waiting->len == 0 && s->preroll->len > 0) {
    gdouble waited;

    if (gp_session_buffering_unfilled (s, &waited))
      goto out;
  }
  /* the streaming thread stuck inside a push */
  blocked = gp_session_blocked_thread (s);

  if (first_waiting)
    branch = gp_preroll_branch_point (s, first_waiting);
  if (branch) {
    GPtrArray *outs = gp_preroll_outputs (s, branch);

    for (i = 0; i < outs->len; i++) {
      GpLink *l = g_ptr_array_index (outs, i);
      gchar *first = gp_pad_element (l->sink);

      if (!gp_preroll_branch_has_queue (s, first)) {
        g_string_append_printf (no_queue, "%s%s", no_queue->len ? ", " : "",
            first);
        g_ptr_array_add (ops, gp_launch_op_insert (GP_LAUNCH_AT_BEFORE,
                first, "queue"));
      }
      g_free (first);
    }
    g_ptr_array_unref (outs);
  }

  title = g_strdup_printf ("the pipeline never reached PLAYING: %s never "
      "prerolled", waiting->len ? waiting->str : "a sink");
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_HIGH, title);
  g_free (title);
  for (i = 0; i < s->preroll->len; i++) {
    GpPrerollSink *p = g_ptr_array_index (s->preroll, i);

    if (!p->prerolled)
      gp_finding_add_target (f, p->name);
  }
  gp_finding_set_string (f, "reached", s->reached);
  if (waiting->len)
    gp_finding_set_string (f, "never_prerolled", waiting->str);
  if (holding->len)
    gp_finding_set_string (f, "prerolled", holding->str);
  if (blocked) {
    gp_finding_set_string (f, "blocked_thread", blocked->name);
    gp_finding_set_string (f, "blocked_in", blocked->blocked_in);
    gp_finding_set_double (f, "blocked_ms", blocked->blocked_ms);
  }
  if (branch)
    gp_finding_set_string (f, "branches_at", branch);
  if (no_queue->len)
    gp_finding_set_string (f, "branches_without_queue", no_queue->str);

  why = g_string_new ("A pipeline plays only once every sink has its first "
      "buffer (preroll), and a sink that has one holds the thread that "
      "brought it until then.");
  if (holding->len)
    g_string_append_printf (why, " %s prerolled and holds its buffer",
        holding->str);
  if (holding->len && blocked)
    g_string_append_printf (why, ", blocking thread %s inside %s",
        blocked->name, blocked->blocked_in);
  if (holding->len)
    g_string_append (why, ";");
  if (branch && no_queue->len)
    g_string_append_printf (why, " %s feeds its branches from that one "
        "thread, so %s never gets a buffer: the pipeline waits for ever.",
        branch, waiting->len ? waiting->str : "the other sink");
  else
    g_string_append_printf (why, " %s never got a buffer.", waiting->len ?
        waiting->str : "a sink");
  g_free (f->why);
  f->why = g_string_free (why, FALSE);
  if (no_queue->len) {
    g_string_append_printf (fix, "Put a queue at the start of each branch "
        "of %s (before %s): each branch then has its own thread.", branch,
        no_queue->str);
    gp_rules_attach_patch (s, f, ops);
    ops = NULL;
  } else {
    gp_preroll_queued_fix (s, f, first_waiting, fix, ops);
    if (ops->len > 0) {
      gp_rules_attach_patch (s, f, ops);
      ops = NULL;
    }
  }
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);
  fix = NULL;
  f->rank_value = 100.0;

out:
  g_free (branch);
  if (ops)
    g_ptr_array_unref (ops);
  g_string_free (waiting, TRUE);
  g_string_free (holding, TRUE);
  g_string_free (no_queue, TRUE);
  if (fix)
    g_string_free (fix, TRUE);
}
