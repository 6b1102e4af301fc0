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
    g_string_append_printf (fix, "If %s waits for data that only flows once "
        "the pipeline plays (its source is a receiver in this same pipeline), "
        "set async=false on %s so the pipeline does not wait for its "
        "preroll; a tee or demuxer needs a queue on each branch.",
        waiting->len ? waiting->str : "the sink", waiting->len ?
        waiting->str : "it");
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
