/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-qleak.c: the queues' own story. QLEAK: a leaky queue drops
 * buffers (how many, where). QFULL: a queue that is persistently full (what
 * comes after it is the limiter), or persistently empty while the sink
 * below it starves (the limiter is before it). Thresholds and their
 * reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-series.h"

#include <math.h>

/* QFULL: mean fill level over the run at or above this is "full". */
#define GP_QFULL_FULL_PCT 80.0
/* ... and the queue's upstream was blocked on it at least this share of
 * the PLAYING time (backpressure that really held the producer). */
#define GP_QFULL_MIN_BLOCKED_PCT 20.0
/* ... and the thread that drains it is busy at least this share of the
 * run: a full queue before a drain that mostly waits (a sink keeping
 * time with the clock: playback) is how clock-paced playback works. */
#define GP_QFULL_DRAIN_BUSY_PCT 50.0
/* A full queue before a muxer or mixer waits for another input when that
 * input's buffers reach the joiner at least this late (ms) ... */
#define GP_QFULL_LATE_BRANCH_MS 100.0
/* ... and at least this share of the time the queue holds its own. */
#define GP_QFULL_LATE_BRANCH_SHARE 0.5
/* Longest chain followed from a queue to the element that joins it with
 * other inputs. */
#define GP_QFULL_MAX_HOPS 32
/* QFULL (empty): mean level at or below this, while a sink below it gets
 * its target rate minus more than this. */
#define GP_QFULL_EMPTY_PCT 5.0
#define GP_QFULL_STARVED_DEFICIT_PCT 10.0

/* The element straight after @queue (the first one when it feeds several). */
static gchar *
gp_qleak_next (GpSession * s, const gchar * queue)
{
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src);
    gboolean hit = g_strcmp0 (src, queue) == 0;

    g_free (src);
    if (hit)
      return gp_pad_element (l->sink);
  }
  return NULL;
}

/* Rate out of @queue: the fastest of its output links; -1 unknown. */
static gdouble
gp_qleak_output_fps (GpSession * s, const gchar * queue)
{
  gdouble fps = -1;
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);

    if (g_strcmp0 (src, queue) == 0 && ls)
      fps = MAX (fps, ls->fps);
    g_free (src);
  }
  return fps;
}

/* The thread that pops @queue (it runs the element after it) and its
 * hottest element: what decides how fast the queue drains. */
static GpElementSummary *
gp_qleak_drainer (GpSession * s, const gchar * queue, GpThreadSummary ** t)
{
  gchar *next = gp_qleak_next (s, queue);

  *t = next ? gp_session_thread_of (s, next) : NULL;
  g_free (next);
  return *t ? gp_session_hottest_on_thread (s, *t) : NULL;
}

static void
gp_qleak_set_drainer (GpSession * s, GpFinding * f, GpThreadSummary * t,
    GpElementSummary * hot)
{
  if (t) {
    gdouble busy = gp_session_thread_busy_pct (s, t);

    gp_finding_set_string (f, "drain_thread", t->name);
    if (busy >= 0)
      gp_finding_set_double (f, "drain_thread_busy_pct", busy);
  }
  if (hot) {
    gp_finding_set_string (f, "limiter", hot->name);
    if (hot->self_ms.p50 >= 0)
      gp_finding_set_double (f, "limiter_self_p50_ms", hot->self_ms.p50);
  }
}

/* Drops per window: when they started and in how much of the run. */
static void
gp_qleak_drop_windows (GpSession * s, const gchar * queue, gdouble * first,
    guint * n_windows, guint * n_total)
{
  guint i;

  *first = -1;
  *n_windows = 0;
  *n_total = 0;
  for (i = 0; i < gp_session_n_windows (s); i++) {
    if (gp_session_window_section (s, i, GP_SERIES_QUEUES) == NULL)
      continue;
    (*n_total)++;
    if (gp_session_window_value (s, i, GP_SERIES_QUEUES, queue,
            GP_SQ_DROPPED) > 0) {
      if (*first < 0)
        gp_session_window_span (s, i, first, NULL);
      (*n_windows)++;
    }
  }
}

void
gp_rule_qleak (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->queue_summaries && i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);
    guint64 in = gp_session_buffers_into (s, q->name);
    GpThreadSummary *t;
    GpElementSummary *hot;
    gdouble pct, first;
    guint n_win, n_total;
    GpFinding *f;
    gchar *title;

    if (q->dropped < GP_QLEAK_MIN_DROPPED || in == 0)
      continue;
    pct = (gdouble) q->dropped / (gdouble) in * 100.0;
    if (pct < GP_QLEAK_MIN_DROP_PCT)
      continue;
    hot = gp_qleak_drainer (s, q->name, &t);
    gp_qleak_drop_windows (s, q->name, &first, &n_win, &n_total);

    title = g_strdup_printf ("%s (leaky=%s) dropped %" G_GUINT64_FORMAT
        " of %" G_GUINT64_FORMAT " buffers (%.0f%%)", q->name,
        q->leaky ? q->leaky : "?", q->dropped, in, pct);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    gp_finding_add_target (f, q->name);
    if (hot)
      gp_finding_add_target (f, hot->name);
    f->rank_value = MIN (pct, 100.0);

    gp_finding_set_int (f, "dropped", (gint64) q->dropped);
    gp_finding_set_int (f, "input_buffers", (gint64) in);
    gp_finding_set_double (f, "dropped_pct", pct);
    gp_finding_set_string (f, "leaky", q->leaky ? q->leaky : "");
    if (first >= 0)
      gp_finding_set_double (f, "first_drop_s", first);
    if (n_total > 0)
      gp_finding_set_double (f, "windows_with_drops_pct",
          (gdouble) n_win / n_total * 100.0);
    gp_finding_set_double (f, "level_mean_pct", q->level_pct_mean);
    gp_qleak_set_drainer (s, f, t, hot);

    g_free (f->why);
    f->why = g_strdup_printf ("A leaky queue drops when it is full, and it "
        "is full because what drains it is slower than what fills it: %.0f%% "
        "of the frames never reach %s. Intended when only fresh frames "
        "matter; a loss otherwise.", pct, hot ? hot->name : "the next element");
    g_free (f->fix);
    f->fix = g_strdup_printf ("The drops are the symptom: make %s faster (on "
        "thread %s) so the queue drains in time. Making the queue bigger "
        "only delays the drops and adds latency; leaky=no turns them into "
        "backpressure on the source.",
            hot ? hot->name : "the elements after it",
        t ? t->name : "?");
    /* No launch-string edit makes the consumer faster. */
    f->fix_patch = NULL;
  }
}

static gdouble
gp_qfull_playing_ms (GpSession * s)
{
  return s->duration_s > 0 ? s->duration_s * 1000.0 : -1;
}

/* The lowest achieved/target ratio among the sinks below @queue; -1 when no
 * sink below has a target. */
static gdouble
gp_qfull_worst_deficit (GpSession * s, const gchar * queue,
    const gchar ** sink)
{
  gdouble worst = -1;
  guint i;

  *sink = NULL;
  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    gdouble target = gp_session_sink_target_fps (s, sk->name);
    GHashTable *up;

    if (target <= 0 || sk->fps < 0)
      continue;
    up = gp_session_upstream_of (s, sk->name);
    if (g_hash_table_contains (up, queue) &&
        (target - sk->fps) / target * 100.0 > worst) {
      worst = (target - sk->fps) / target * 100.0;
      *sink = sk->name;
    }
    g_hash_table_unref (up);
  }
  return worst;
}

static gboolean
gp_qfull_live_upstream (GpSession * s, const gchar * queue)
{
  GHashTable *up = gp_session_upstream_of (s, queue);
  GHashTableIter it;
  gpointer key;
  gboolean live = FALSE;

  g_hash_table_iter_init (&it, up);
  while (!live && g_hash_table_iter_next (&it, &key, NULL))
    live = gp_session_is_live_source (s, key);
  g_hash_table_unref (up);
  return live;
}

static guint
gp_qfull_n_inputs (GpSession * s, const gchar * element)
{
  guint i, n = 0;

  for (i = 0; s->links && i < s->links->len; i++) {
    gchar *to = gp_pad_element (((GpLink *) g_ptr_array_index
            (s->links, i))->sink);

    n += g_strcmp0 (to, element) == 0;
    g_free (to);
  }
  return n;
}

/* The muxer or mixer @queue's data waits in: the first element below it,
 * on a chain without branches, with more than one input; NULL when the
 * chain ends first. */
static gchar *
gp_qfull_joiner (GpSession * s, const gchar * queue)
{
  gchar *cur = g_strdup (queue);
  guint hops;

  for (hops = 0; cur && hops < GP_QFULL_MAX_HOPS; hops++) {
    gchar *next = gp_qleak_next (s, cur);

    g_free (cur);
    cur = next;
    if (cur && gp_qfull_n_inputs (s, cur) > 1)
      return cur;
  }
  g_free (cur);
  return NULL;
}

/* The input of @joiner that arrives latest, from an origin that is not
 * upstream of @queue: its origin and its mean latency at @joiner's input.
 * FALSE when no such input was measured. */
static gboolean
gp_qfull_late_input (GpSession * s, const gchar * queue,
    const gchar * joiner, const gchar ** origin, gdouble * late_ms)
{
  GHashTable *mine = gp_session_upstream_of (s, queue);
  guint i;

  *origin = NULL;
  *late_ms = -1;
  for (i = 0; s->interlatency && i < s->interlatency->len; i++) {
    GpPath *p = g_ptr_array_index (s->interlatency, i);
    gchar *src = gp_pad_element (p->source);
    gdouble ms = p->mean_ms >= 0 ? p->mean_ms : p->latency_ms.p50;

    if (g_strcmp0 (p->sink, joiner) == 0 && !g_hash_table_contains (mine,
            src) && ms > *late_ms) {
      *late_ms = ms;
      *origin = p->source;
    }
    g_free (src);
  }
  g_hash_table_unref (mine);
  return *origin != NULL;
}

/* A full queue before a joiner that waits for a late input: the queue
 * holds this branch's buffers while the other branch's are still on their
 * way (an encoder's lookahead). TRUE when reported. */
static gboolean
gp_qfull_report_late_branch (GpSession * s, const GpRule * rule,
    GpQueueSummary * q, gdouble blocked_pct)
{
  gchar *joiner = gp_qfull_joiner (s, q->name);
  GpElement *qe = gp_session_find_element (s, q->name);
  const gchar *origin = NULL;
  gdouble late_ms = -1, want_s;
  gint64 max_time = -1;
  gchar *title, *other;
  GpFinding *f;
  GPtrArray *patch;

  if (joiner == NULL || !gp_qfull_late_input (s, q->name, joiner, &origin,
          &late_ms) || late_ms < GP_QFULL_LATE_BRANCH_MS ||
      q->residence_ms.p50 < 0 ||
      late_ms < GP_QFULL_LATE_BRANCH_SHARE * q->residence_ms.p50) {
    g_free (joiner);
    return FALSE;
  }
  other = gp_pad_element (origin);
  title = g_strdup_printf ("%s is full (%.0f%% on average) because %s waits "
      "for %s's branch, %.0f ms late", q->name, q->level_pct_mean, joiner,
      other, late_ms);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
  g_free (title);
  gp_finding_add_target (f, q->name);
  gp_finding_add_target (f, joiner);
  f->rank_value = MIN (blocked_pct, 100.0);
  gp_finding_set_string (f, "state", "full");
  gp_finding_set_double (f, "level_mean_pct", q->level_pct_mean);
  gp_finding_set_double (f, "blocked_pct", blocked_pct);
  gp_finding_set_double (f, "residence_p50_ms", q->residence_ms.p50);
  gp_finding_set_string (f, "joiner", joiner);
  gp_finding_set_string (f, "late_branch", other);
  gp_finding_set_double (f, "late_branch_latency_ms", late_ms);
  if (qe && gp_element_get_prop_int (qe, "max-size-time", &max_time))
    gp_finding_set_double (f, "queue_max_time_ms", max_time / 1e6);

  g_free (f->why);
  f->why = g_strdup_printf ("%s can only output once it has data from "
      "every input; %s's buffers reach it %.0f ms after they were made "
      "(an encoder's lookahead and B-frames hold that much), so this "
      "branch's buffers wait in %s until then. When %s cannot hold that "
      "long it blocks, and the source before it stalls: a live source "
      "loses data there.", joiner, other, late_ms, q->name, q->name);
  /* room for twice the other branch's lateness, in whole seconds */
  want_s = MAX (1.0, ceil (2.0 * late_ms / 1000.0));
  g_free (f->fix);
  f->fix = g_strdup_printf ("Let %s hold the difference: max-size-time=%.0f "
      "s (and no buffer or byte limit), or make %s's branch less late "
      "(an encoder's tune=zerolatency or a shorter lookahead, at some cost "
      "in compression).", q->name, want_s, other);
  patch = gp_launch_patch_new ();
  g_ptr_array_add (patch, gp_launch_op_set_int (q->name, "max-size-time",
      (gint64) (want_s * 1e9)));
  g_ptr_array_add (patch, gp_launch_op_set_int (q->name, "max-size-buffers",
      0));
  g_ptr_array_add (patch, gp_launch_op_set_int (q->name, "max-size-bytes", 0));
  gp_rules_attach_patch (s, f, patch);
  g_free (other);
  g_free (joiner);
  return TRUE;
}

void
gp_rule_qfull (GpSession * s, const GpRule * rule)
{
  gdouble playing_ms = gp_qfull_playing_ms (s);
  guint i;

  if (playing_ms <= 0)
    return;
  for (i = 0; s->queue_summaries && i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);
    gdouble blocked_pct = q->blocked_ms >= 0 ?
        q->blocked_ms / playing_ms * 100.0 : -1;
    gboolean leaky = q->leaky && g_strcmp0 (q->leaky, "no") != 0;
    const gchar *sink = NULL;
    GpSinkSummary *sink_summary;
    gdouble deficit, out_fps;
    GpThreadSummary *t;
    GpElementSummary *hot;
    GpFinding *f;
    gchar *title;

    if (q->level_pct_mean < 0)
      continue;

    /* Full: a leaky queue is QLEAK's (it drops instead of blocking). */
    if (!leaky && q->level_pct_mean >= GP_QFULL_FULL_PCT &&
        blocked_pct >= GP_QFULL_MIN_BLOCKED_PCT) {
      /* a leaky queue drops data: never on a recording */
      gboolean live = gp_qfull_live_upstream (s, q->name) &&
          !gp_session_recording_only (s, q->name);
      gdouble drain_busy;

      if (gp_qfull_report_late_branch (s, rule, q, blocked_pct))
        continue;
      hot = gp_qleak_drainer (s, q->name, &t);
      /* the drain waits, it does not work: the pace is set after it (a
       * sink keeping time with the clock) */
      drain_busy = t ? gp_session_thread_busy_pct (s, t) : -1;
      if (drain_busy >= 0 && drain_busy < GP_QFULL_DRAIN_BUSY_PCT)
        continue;
      title = g_strdup_printf ("%s is full (%.0f%% on average), upstream "
          "blocked %.0f%% of the run: %s limits", q->name, q->level_pct_mean,
          blocked_pct, hot ? hot->name : "what follows it");
      f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
      g_free (title);
      gp_finding_add_target (f, q->name);
      if (hot)
        gp_finding_add_target (f, hot->name);
      f->rank_value = MIN (blocked_pct, 100.0);
      gp_finding_set_string (f, "state", "full");
      gp_finding_set_double (f, "level_mean_pct", q->level_pct_mean);
      gp_finding_set_double (f, "level_max_pct", q->level_pct_max);
      gp_finding_set_int (f, "level_buffers_max",
          (gint64) q->level_buffers_max);
      gp_finding_set_double (f, "blocked_ms", q->blocked_ms);
      gp_finding_set_double (f, "blocked_pct", blocked_pct);
      if (q->residence_ms.p50 >= 0)
        gp_finding_set_double (f, "residence_p50_ms", q->residence_ms.p50);
      gp_qleak_set_drainer (s, f, t, hot);

      g_free (f->why);
      f->why = g_strdup_printf ("%s stays full, so everything upstream of it "
          "runs at the pace of %s: it is the limiter, and each buffer waits "
          "in the queue (%.1f ms at the median) on top.", q->name,
          hot ? hot->name : "the element after it",
          q->residence_ms.p50 >= 0 ? q->residence_ms.p50 : 0.0);
      g_free (f->fix);
      if (live) {
        GPtrArray *patch = gp_launch_patch_new ();

        f->fix = g_strdup_printf ("Make %s faster. Behind a live source, "
            "leaky=downstream on %s keeps only the newest frames, so latency "
            "stays low instead of growing with the backlog (QLEAK will then "
            "count the drops).", hot ? hot->name : "the element after it",
            q->name);
        g_ptr_array_add (patch, gp_launch_op_set_string (q->name, "leaky",
            "downstream"));
        gp_rules_attach_patch (s, f, patch);
      } else {
        f->fix = g_strdup_printf ("Make %s faster; a bigger queue only adds "
            "latency and memory, the rate stays that of %s.",
            hot ? hot->name : "the element after it",
            hot ? hot->name : "the element after it");
      }
      continue;
    }

    /* Empty while the sink below starves: the limiter is upstream. */
    deficit = gp_qfull_worst_deficit (s, q->name, &sink);
    out_fps = gp_qleak_output_fps (s, q->name);
    sink_summary = sink ? gp_session_find_sink (s, sink) : NULL;
    /* Only when the frames are missing before the queue: what leaves it
     * reaches the sink (a valve or a dropping element after the queue
     * would starve the sink with the queue empty too, and the limit would
     * then be after it). */
    /* (a queue without limits is at 0 % of none, whatever it holds) */
    if (q->level_pct_max >= 0 && q->level_pct_mean <= GP_QFULL_EMPTY_PCT &&
        !gp_session_queue_unbounded (s, q->name) &&
        deficit > GP_QFULL_STARVED_DEFICIT_PCT && sink_summary &&
        !gp_session_sink_played_briefly (s, sink_summary,
            GP_SESSION_RATE_MIN_PLAYED_S) &&
        out_fps > 0 && out_fps <= sink_summary->fps * 1.1 + 0.5) {
      GHashTable *up = gp_session_upstream_of (s, q->name);
      GpRuleLimit lim;
      GpThreadSummary *lt;
      GpElementSummary *lhot;
      GpFinding *behind = gp_session_find_finding (s, "BEHIND", sink);
      const gchar *full = behind && json_object_has_member (behind->evidence,
          "full_branch_queue") ? json_object_get_string_member
          (behind->evidence, "full_branch_queue") : NULL;

      /* an element upstream is the limit only on a saturated thread (as
       * BUDGET); a full queue on another branch of a tee holds it back
       * without any thread being busy (BEHIND names it) */
      gp_rule_budget_limit (s, up, &lim);
      lt = lim.thread;
      lhot = lim.saturated && full == NULL ? lim.hot : NULL;
      g_hash_table_unref (up);
      title = g_strdup_printf ("%s is empty (%.1f%% on average) while %s "
          "gets %.0f%% less than its rate: the limit is upstream%s%s%s",
          q->name, q->level_pct_mean, sink, deficit, lhot || full ? ", " :
          "", lhot ? "in " : full ? "the tee waits for " : "",
          lhot ? lhot->name : full ? full : "");
      f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
      g_free (title);
      gp_finding_add_target (f, q->name);
      if (lhot)
        gp_finding_add_target (f, lhot->name);
      f->rank_value = MIN (deficit, 100.0);
      gp_finding_set_string (f, "state", "empty");
      gp_finding_set_double (f, "level_mean_pct", q->level_pct_mean);
      gp_finding_set_double (f, "level_max_pct", q->level_pct_max);
      gp_finding_set_string (f, "sink", sink);
      gp_finding_set_double (f, "sink_deficit_pct", deficit);
      if (lt) {
        gdouble busy = gp_session_thread_busy_pct (s, lt);

        gp_finding_set_string (f, "upstream_thread", lt->name);
        if (busy >= 0)
          gp_finding_set_double (f, "upstream_thread_busy_pct", busy);
      }
      if (lhot) {
        gp_finding_set_string (f, "limiter", lhot->name);
        if (lhot->self_ms.p50 >= 0)
          gp_finding_set_double (f, "limiter_self_p50_ms", lhot->self_ms.p50);
      }
      if (full)
        gp_finding_set_string (f, "full_branch_queue", full);
      g_free (f->why);
      f->why = g_strdup_printf ("%s has nothing waiting in it most of the "
          "time, so the elements after it wait for data: they are not the "
          "limit, and making them faster gains nothing. The missing frames "
          "are lost before %s.", q->name, q->name);
      g_free (f->fix);
      f->fix = full ? g_strdup_printf ("%s, on another branch of the tee, "
          "is full: see BEHIND on %s.", full, sink) :
          g_strdup_printf ("Look upstream of %s: %s.", q->name,
          lhot ? "its busiest element, named here, or the source's own rate" :
          "the source's own rate, or an element that drops");
      f->fix_patch = NULL;
    }
  }
}
