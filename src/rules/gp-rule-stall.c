/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-stall.c: STALL, a link that carries nothing for several frame
 * periods while the pipeline is PLAYING: one that never flowed, one that
 * stopped or paused mid-run, and a source that starves. Read from the
 * series (per-window link rates), so only stalls of at least one window
 * can be seen. Sparse streams (RTCP, subtitles, metadata) flow at their
 * own cadence, seconds apart, and are not judged; nor is a link without
 * caps out of an element a bin made for itself (rtspsrc's NAT probe sends
 * a few buffers and stops, by design). Thresholds and their reasons:
 * docs/rules.md.
 *
 * STOPPED is the symptom a user feels, at the sinks: one or more of them
 * got nothing for a second or more while the pipeline played, said with
 * where the flow stops when a streaming thread is held in a push, else
 * the links STALL reports above them, else "cause not identified".
 */
#include "gp-rules-private.h"
#include "core/gp-caps.h"
#include "core/gp-series.h"

#include <stdlib.h>
#include <string.h>

/* A stop (STOPPED, STALL) this much inside the pauses of a buffering
 * element is BUFFERING's (the pipeline was paused to refill it), not a
 * stop of unknown cause. */
#define GP_STOPPED_BUFFERING_SHARE 0.8

/* A gap counts when it lasts this many frame periods ... */
#define GP_STALL_MIN_PERIODS 5.0
/* ... and at least this long: a window shorter than this says little, and
 * sub-second hiccups are BUDGET's and LATE's business. */
#define GP_STALL_MIN_S 0.5
/* Frame period assumed when neither the link's caps nor the session give a
 * rate (audio, data). */
#define GP_STALL_DEFAULT_PERIOD_MS 100.0

/* Media types of sparse streams: a buffer when there is something to say
 * (an RTCP report every few seconds, a subtitle, a metadata record). */
static const gchar *const gp_stall_sparse[] = {
  "application/x-rtcp", "application/x-srtcp", "text/", "subpicture/",
  "closedcaption/", "meta/", "application/x-subtitle",
  "application/x-ssa", "application/x-ass", "application/x-kate",
  "application/ttml+xml", "application/x-onvif-metadata", NULL
};

/* TRUE when @l is not judged: a sparse stream, or a link that carried
 * buffers without caps out of an element the user did not write (one that
 * never carried any has no caps either, and is judged). */
static gboolean
gp_stall_not_judged (GpSession * s, GpLink * l, const gchar * src_el)
{
  GpLinkSummary *ls;
  guint i;

  if (l->caps == NULL || *l->caps == '\0') {
    ls = gp_session_find_link_summary (s, l->id);
    return ls && ls->buffers > 0 && !gp_session_is_users (s, src_el);
  }
  for (i = 0; gp_stall_sparse[i]; i++)
    if (g_str_has_prefix (l->caps, gp_stall_sparse[i]))
      return TRUE;
  return FALSE;
}

/* The frame period of a link, from "framerate=(fraction)N/D" in its caps. */
static gdouble
gp_stall_period_ms (GpSession * s, GpLink * l)
{
  gdouble fps = l ? gp_caps_framerate (l->caps) : -1;

  if (fps > 0)
    return 1000.0 / fps;
  if (s->frame_period_ms > 0)
    return s->frame_period_ms;
  return GP_STALL_DEFAULT_PERIOD_MS;
}

/* The longest run of windows inside PLAYING where @id carried nothing,
 * after it first flowed (@after_flow) or from PLAYING on. Returns its
 * length in s, with its start and end; 0 when none. Also says whether the
 * link ever flowed inside PLAYING. */
static gdouble
gp_stall_longest_gap (GpSession * s, const GpPlayingSpan * span,
    const gchar * id, gdouble * g0, gdouble * g1, gboolean * flowed,
    gboolean * measured)
{
  gdouble best = 0, run0 = -1, run1 = -1;
  guint i;

  *flowed = FALSE;
  *measured = FALSE;
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t0, t1, mid, fps;

    gp_session_window_span (s, i, &t0, &t1);
    mid = (t0 + t1) / 2;

    /* Windows mostly outside PLAYING (start-up, the EOS drain) say
     * nothing about flow while playing. */
    if (mid < span->t0 || mid > span->t1)
      continue;
    /* gstprof's windows carry every link of the graph (0 when it did not
     * flow); an import carries only the links its tool measured, and a
     * missing one is unknown (-1), never zero. */
    fps = gp_session_window_value (s, i, GP_SERIES_LINKS, id, GP_SL_FPS);
    if (fps < 0)
      continue;
    *measured = TRUE;
    if (fps > 0) {
      *flowed = TRUE;
      run0 = -1;
      continue;
    }
    /* A link that has not started yet is a slow start (an encoder's
     * look-ahead), not a stall; it is reported only if it never flows. */
    if (!*flowed)
      continue;
    if (run0 < 0)
      run0 = t0;
    run1 = MIN (t1, span->t1);
    if (run1 - run0 > best) {
      best = run1 - run0;
      *g0 = run0;
      *g1 = run1;
    }
  }
  return best;
}

/* Sinks downstream of @element (itself included when it is one). */
static GPtrArray *
gp_stall_sinks_below (GpSession * s, const gchar * element)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GHashTable *up = gp_session_upstream_of (s, sk->name);

    if (g_hash_table_contains (up, element))
      g_ptr_array_add (out, sk->name);
    g_hash_table_unref (up);
  }
  return out;
}

/* TRUE when a sink below @element posted EOS before @t: the stream
 * ended there (EOS went that way), it did not stall. */
static gboolean
gp_stall_branch_ended (GpSession * s, const gchar * element, gdouble t)
{
  GPtrArray *sinks = gp_stall_sinks_below (s, element);
  gboolean any = FALSE;
  guint i, j;

  for (i = 0; !any && i < sinks->len; i++) {
    for (j = 0; s->events && j < s->events->len && !any; j++) {
      GpEvent *ev = g_ptr_array_index (s->events, j);

      any = g_strcmp0 (ev->type, "eos") == 0 &&
          g_strcmp0 (ev->source, g_ptr_array_index (sinks, i)) == 0 &&
          ev->t <= t;
    }
  }
  g_ptr_array_free (sinks, TRUE);
  return any;
}

/* The first EOS any element posted: after it, links stop because the
 * stream ends. */
static gdouble
gp_stall_first_eos (GpSession * s, gdouble t_end)
{
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, "eos") == 0 && ev->t < t_end)
      t_end = ev->t;
  }
  return t_end;
}

typedef struct
{
  GpLink *link;
  gchar *src_el;
  gboolean flowed;
  gdouble gap_s, g0, g1;
  gboolean gapped;              /* a gap long enough, whatever its cause */
  gboolean stalled;             /* ... and not the stream ending */
} GpStallLink;

/* TRUE when @sl stopped for good because what feeds it ran out: the gap
 * lasts to the end of PLAYING and nothing upstream is live (a file read
 * to its end while the queues below still play what they hold). */
static gboolean
gp_stall_data_ran_out (GpSession * s, const GpPlayingSpan * span,
    const GpStallLink * sl)
{
  GHashTable *up;
  GHashTableIter it;
  gpointer key;
  gboolean live = FALSE;
  gdouble w = s->window_s > 0 ? s->window_s : 0.25;

  if (!sl->flowed || sl->g1 < span->t1 - w)
    return FALSE;
  up = gp_session_upstream_of (s, sl->src_el);
  g_hash_table_iter_init (&it, up);
  while (!live && g_hash_table_iter_next (&it, &key, NULL))
    live = gp_session_is_live_source (s, key);
  g_hash_table_unref (up);
  return !live;
}

/* TRUE when @sl's gap is a queue a bin made for itself holding buffers up
 * to the limit the bin gave it: splitmuxsink (hlssink2's) sizes its
 * queue to a GOP (max-size-buffers=31 for key-int-max=30) and lets the
 * GOP go when the next keyframe decides where the file is cut, so its
 * output stops for up to a GOP by design.  An element that holds buffers
 * by design, up to its own limit, has not stalled; past that limit (or
 * in a queue of the user's, whose limits say nothing of a design) it
 * has. */
static gboolean
gp_stall_holds_by_design (GpSession * s, const GpStallLink * sl,
    gdouble period_ms)
{
  GpElement *e = gp_session_find_element (s, sl->src_el);
  gint64 max_buffers = 0, max_ns = 0;
  gdouble limit_s = 0;

  if (e == NULL || !sl->flowed || !gp_session_is_queue (s, sl->src_el) ||
      gp_session_is_users (s, sl->src_el))
    return FALSE;
  if (gp_element_get_prop_int (e, "max-size-buffers", &max_buffers) &&
      max_buffers > 0)
    limit_s = max_buffers * period_ms / 1000.0;
  if (gp_element_get_prop_int (e, "max-size-time", &max_ns) && max_ns > 0)
    limit_s = limit_s > 0 ? MIN (limit_s, max_ns / 1e9) : max_ns / 1e9;
  return limit_s > 0 && sl->gap_s <= limit_s;
}

static void
gp_stall_link_clear (gpointer p)
{
  GpStallLink *sl = p;

  g_free (sl->src_el);
}

/* TRUE when link @id carried nothing in any window inside [@g0, @g1). */
static gboolean
gp_stall_idle_during (GpSession * s, const gchar * id, gdouble g0,
    gdouble g1)
{
  guint i;

  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t0, t1;

    gp_session_window_span (s, i, &t0, &t1);
    if (t0 >= g0 - 1e-6 && t1 <= g1 + 1e-6 && gp_session_window_value (s, i,
            GP_SERIES_LINKS, id, GP_SL_FPS) > 0)
      return FALSE;
  }
  return TRUE;
}

/* TRUE when a link into @element stopped first (or never flowed, for a
 * link that never flowed), or carried nothing all through @sl's gap (its
 * longest gap may be another, earlier one: a queue that holds a GOP at a
 * time stops once a GOP): @sl's gap is then a consequence, reported where
 * it starts. */
static gboolean
gp_stall_input_stalled (GpSession * s, GArray * all, const GpStallLink * sl,
    gdouble win)
{
  guint i;

  for (i = 0; i < all->len; i++) {
    GpStallLink *in = &g_array_index (all, GpStallLink, i);
    gchar *sink = gp_pad_element (in->link->sink);
    gboolean hit = FALSE;

    if (g_strcmp0 (sink, sl->src_el) == 0 && in->gapped) {
      if (!sl->flowed)
        hit = !in->flowed;
      else
        hit = (in->g0 <= sl->g0 + win && in->g1 >= sl->g0) ||
            gp_stall_idle_during (s, in->link->id, sl->g0, sl->g1);
    }
    g_free (sink);
    if (hit)
      return TRUE;
  }
  return FALSE;
}

/* The flow into @element over the run: the fastest of its input links. */
static GpLinkSummary *
gp_stall_input (GpSession * s, const gchar * element)
{
  GpLinkSummary *best = NULL;
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *sink = gp_pad_element (l->sink);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);

    if (g_strcmp0 (sink, element) == 0 && ls && (best == NULL ||
            ls->fps > best->fps))
      best = ls;
    g_free (sink);
  }
  return best;
}

static GPtrArray *
gp_stall_valve_patch (GpSession * s, const gchar * element)
{
  GpElement *e = gp_session_find_element (s, element);
  gboolean drop;
  GPtrArray *patch;

  if (e == NULL || g_strcmp0 (e->factory, "valve") != 0 ||
      !gp_element_get_prop_bool (e, "drop", &drop) || !drop)
    return NULL;
  patch = gp_launch_patch_new ();
  g_ptr_array_add (patch, gp_launch_op_set_bool (element, "drop", FALSE));
  return patch;
}

/* A queue below @element that was (nearly) full during the gap: the data
 * did not stop at the source, the way out was blocked. */
static const gchar *
gp_stall_full_queue_below (GpSession * s, const gchar * element,
    gdouble g0, gdouble g1)
{
  guint i, j;

  for (i = 0; s->queue_summaries && i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);
    GHashTable *up = gp_session_upstream_of (s, q->name);
    gboolean below = g_hash_table_contains (up, element);

    g_hash_table_unref (up);
    if (!below)
      continue;
    for (j = 0; j < gp_session_n_windows (s); j++) {
      gdouble t0;

      gp_session_window_span (s, j, &t0, NULL);
      if (t0 >= g0 && t0 < g1 && gp_session_window_value (s, j,
              GP_SERIES_QUEUES, q->name, GP_SQ_LEVEL_PCT_MAX) >= 90.0)
        return q->name;
    }
  }
  return NULL;
}

/* Every link of @s with its longest gap while PLAYING (@span) and whether
 * that gap is a stall; NULL when there is nothing to judge: no windows, no
 * PLAYING, or nothing flowed anywhere (the pipeline never ran, an error or
 * a state change that failed: that is not one link's stall). */
static GArray *
gp_stall_links (GpSession * s, GpPlayingSpan * span)
{
  GArray *all;
  gboolean any_flow = FALSE;
  guint i;

  if (gp_session_n_windows (s) == 0 || s->links == NULL)
    return NULL;
  gp_session_playing_span (s, span);
  if (span->t1 - span->t0 <= 0)
    return NULL;

  all = g_array_new (FALSE, TRUE, sizeof (GpStallLink));
  g_array_set_clear_func (all, gp_stall_link_clear);
  for (i = 0; i < s->links->len; i++) {
    GpStallLink sl = { 0, };
    gboolean measured;
    gdouble min_s;

    sl.link = g_ptr_array_index (s->links, i);
    sl.src_el = gp_pad_element (sl.link->src);
    if (gp_stall_not_judged (s, sl.link, sl.src_el)) {
      g_array_append_val (all, sl);
      continue;
    }
    min_s = MAX (GP_STALL_MIN_S, GP_STALL_MIN_PERIODS *
        gp_stall_period_ms (s, sl.link) / 1000.0);
    sl.gap_s = gp_stall_longest_gap (s, span, sl.link->id, &sl.g0, &sl.g1,
        &sl.flowed, &measured);
    any_flow |= sl.flowed;
    if (!measured) {
      /* no rate in any window: nothing to say about it */
      sl.gap_s = 0;
    } else if (!sl.flowed) {
      sl.g0 = span->t0;
      sl.g1 = gp_stall_first_eos (s, span->t1);
      sl.gap_s = sl.g1 - sl.g0;
    }
    sl.gapped = sl.gap_s >= min_s;
    sl.stalled = sl.gapped &&
        !gp_stall_branch_ended (s, sl.src_el, sl.g0 + 0.05) &&
        !gp_stall_data_ran_out (s, span, &sl) &&
        !gp_stall_holds_by_design (s, &sl, gp_stall_period_ms (s, sl.link));
    g_array_append_val (all, sl);
  }
  if (!any_flow) {
    g_array_unref (all);
    return NULL;
  }
  return all;
}

void
gp_rule_stall (GpSession * s, const GpRule * rule)
{
  GpPlayingSpan span;
  GArray *all = gp_stall_links (s, &span);
  gdouble win = s->window_s > 0 ? s->window_s : 0.25;
  guint i;

  if (all == NULL)
    return;

  for (i = 0; i < all->len; i++) {
    GpStallLink *sl = &g_array_index (all, GpStallLink, i);
    GpElement *src = gp_session_find_element (s, sl->src_el);
    gboolean is_source = src && g_strcmp0 (src->kind, "source") == 0;
    GpLinkSummary *in = NULL;
    const gchar *full = NULL;
    gdouble period = gp_stall_period_ms (s, sl->link);
    GpFinding *f;
    gchar *title;
    GString *why;

    if (!sl->stalled || gp_stall_input_stalled (s, all, sl, win))
      continue;
    /* the pipeline paused to buffer: BUFFERING's */
    if (sl->flowed && gp_session_buffering_within (s, sl->g0, sl->g1) >=
        GP_STOPPED_BUFFERING_SHARE * (sl->g1 - sl->g0))
      continue;
    if (!is_source)
      in = gp_stall_input (s, sl->src_el);
    else
      full = gp_stall_full_queue_below (s, sl->src_el, sl->g0, sl->g1);

    if (!sl->flowed)
      title = g_strdup_printf ("%s never carried a buffer in %.1f s of "
          "PLAYING", sl->link->id, sl->gap_s);
    else if (is_source && full == NULL)
      title = g_strdup_printf ("source %s starves: nothing for %.1f s "
          "(from %.1f s)", sl->src_el, sl->gap_s, sl->g0);
    else
      title = g_strdup_printf ("%s stalled for %.1f s (from %.1f s)",
          sl->link->id, sl->gap_s, sl->g0);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    gp_finding_add_target (f, sl->link->id);
    gp_finding_add_target (f, sl->src_el);
    /* Share of the PLAYING time the link carried nothing. */
    f->rank_value = MIN (100.0, sl->gap_s / (span.t1 - span.t0) * 100.0);

    gp_finding_set_string (f, "link", sl->link->id);
    gp_finding_set_string (f, "kind", !sl->flowed ? "never flowed" :
        is_source && full == NULL ? "source starves" : "stopped");
    gp_finding_set_string (f, "stops_at", sl->src_el);
    gp_finding_set_double (f, "gap_s", sl->gap_s);
    gp_finding_set_double (f, "gap_start_s", sl->g0);
    gp_finding_set_double (f, "gap_end_s", sl->g1);
    gp_finding_set_double (f, "gap_frame_periods", sl->gap_s * 1000.0 /
        period);
    /* PLAYING until the first EOS: the stream's own end is not flow */
    gp_finding_set_double (f, "playing_s",
        gp_stall_first_eos (s, span.t1) - span.t0);
    if (sl->flowed) {
      GpLinkSummary *ls = gp_session_find_link_summary (s, sl->link->id);

      if (ls)
        gp_finding_set_int (f, "buffers", (gint64) ls->buffers);
    }
    if (in) {
      gp_finding_set_string (f, "input", in->id);
      gp_finding_set_double (f, "input_fps", in->fps);
    }
    if (full)
      gp_finding_set_string (f, "full_queue", full);

    why = g_string_new (NULL);
    if (!sl->flowed && in && in->fps > 0)
      g_string_append_printf (why, "%s receives %.1f buffers/s but passes "
          "none on this link: everything downstream of it gets no data while "
          "the pipeline plays (a valve with drop=true, an input-selector on "
          "another pad, a branch blocked by a pad probe).", sl->src_el,
          in->fps);
    else if (!sl->flowed)
      g_string_append_printf (why, "Nothing left %s on this link while the "
          "pipeline played: the branch downstream of it produced nothing.",
          sl->src_el);
    else if (is_source && full == NULL)
      g_string_append_printf (why, "Source %s produced nothing for %.1f s "
          "(%.0f frame periods) without ending the stream: a camera or "
          "network feed that stopped delivering; everything downstream "
          "starves with it.", sl->src_el, sl->gap_s,
          sl->gap_s * 1000.0 / period);
    else if (full)
      g_string_append_printf (why, "Queue %s downstream was full during the "
          "gap: the source was blocked by backpressure, not starved.", full);
    else
      g_string_append_printf (why, "%s stopped passing data for %.1f s (%.0f "
          "frame periods) while its input kept flowing: it held or dropped "
          "buffers (a pad block, a lock, a wait on another stream).",
          sl->src_el, sl->gap_s, sl->gap_s * 1000.0 / period);
    g_free (f->why);
    f->why = g_string_free (why, FALSE);

    g_free (f->fix);
    if (gp_rules_attach_patch (s, f, gp_stall_valve_patch (s, sl->src_el)))
      f->fix = g_strdup_printf ("%s is a valve with drop=true: set drop=false "
          "(or remove the branch if it is not wanted).", sl->src_el);
    else if (is_source && full == NULL && sl->flowed)
      f->fix = g_strdup_printf ("Check what feeds %s (device, network, "
          "sender); a timeout on the source (e.g. udpsrc timeout) turns a "
          "silent stall into a message the application can act on.",
          sl->src_el);
    else if (full)
      f->fix = g_strdup_printf ("Look downstream of %s: the element after "
          "it stopped taking data (see QFULL).", full);
    else
      f->fix = g_strdup_printf ("Look at why %s holds data: its properties "
          "(drop, active pad), pad probes the application installs, or a "
          "branch that waits on another.", sl->src_el);
  }
  g_array_unref (all);
}

/* ------------------------------------------------------------------ */
/* STOPPED: the symptom, at the sinks                                   */

/* A sink that gets nothing for this long while PLAYING is a stream that
 * stopped, whatever the cause: a frozen display, a hole in a recording
 * (four of the default 250 ms windows) ... */
#define GP_STOPPED_MIN_S 1.0
/* ... and high when the gap is this share of PLAYING or more: the stream
 * was dead for a good part of the run. */
#define GP_STOPPED_HIGH_PCT 25.0

/* Sinks whose input stopped over one span: the gap from the earliest
 * start to the latest end of theirs. */
typedef struct
{
  GPtrArray *sinks;             /* gchar* (borrowed from the graph) */
  gdouble g0, g1;
  gboolean never;               /* none of them ever got a buffer */
} GpStoppedGroup;

/* Whether @a and @b share their flow: one is upstream of the other, or
 * something is upstream of both (a source, a tee). */
static gboolean
gp_stopped_related (GpSession * s, const gchar * a, const gchar * b)
{
  GHashTable *ua = gp_session_upstream_of (s, a);
  GHashTable *ub = gp_session_upstream_of (s, b);
  GHashTableIter it;
  gpointer k;
  gboolean shared = g_strcmp0 (a, b) == 0 || g_hash_table_contains (ua, b)
      || g_hash_table_contains (ub, a);

  g_hash_table_iter_init (&it, ua);
  while (!shared && g_hash_table_iter_next (&it, &k, NULL))
    shared = g_hash_table_contains (ub, k);
  g_hash_table_unref (ua);
  g_hash_table_unref (ub);
  return shared;
}

/* The element where the group's flow stops, when a streaming thread has
 * been inside one push since before the gap began to its end (the gap
 * lasts to the end of the run, where the session says where each thread
 * is) and that element shares the flow of the group's sinks: the innermost
 * of the blocked pushes, i.e. the one that is not a full queue waiting on
 * what is below it. */
static GpThreadSummary *
gp_stopped_blocked (GpSession * s, const GpStoppedGroup * g)
{
  GpThreadSummary *best = NULL;
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (t->blocked_in == NULL || t->blocked_ms < 1000.0 * (g->g1 - g->g0) ||
        !gp_stopped_related (s, t->blocked_in,
            g_ptr_array_index (g->sinks, 0)))
      continue;
    if (best == NULL || (gp_session_is_queue (s, best->blocked_in) &&
            !gp_session_is_queue (s, t->blocked_in)))
      best = t;
  }
  return best;
}

/* What the group's sinks have in common upstream: the roots STALL reports
 * (a stalled link whose input did not stop first) above any of them. */
static GString *
gp_stopped_stall_roots (GpSession * s, GArray * all, const GpStoppedGroup * g,
    gdouble win)
{
  GString *out = g_string_new (NULL);
  guint i, k;

  for (i = 0; i < all->len; i++) {
    GpStallLink *sl = &g_array_index (all, GpStallLink, i);
    gboolean above = FALSE;

    if (!sl->stalled || gp_stall_input_stalled (s, all, sl, win))
      continue;
    for (k = 0; k < g->sinks->len && !above; k++) {
      GHashTable *up = gp_session_upstream_of (s,
          g_ptr_array_index (g->sinks, k));

      above = g_hash_table_contains (up, sl->src_el) ||
          g_strcmp0 (sl->src_el, g_ptr_array_index (g->sinks, k)) == 0;
      g_hash_table_unref (up);
    }
    if (above && strstr (out->str, sl->link->id) == NULL)
      g_string_append_printf (out, "%s%s (from %.1f s)", out->len ? ", " :
          "", sl->link->id, sl->g0);
  }
  return out;
}

void
gp_rule_stopped (GpSession * s, const GpRule * rule)
{
  GpPlayingSpan span;
  GArray *all = gp_stall_links (s, &span);
  GPtrArray *groups;
  gdouble win = s->window_s > 0 ? s->window_s : 0.25, playing;
  guint i, k;

  /* the gaps are within the PLAYING span: their share is of it */
  playing = span.t1 - span.t0;
  if (all == NULL || playing <= 0) {
    g_clear_pointer (&all, g_array_unref);
    return;
  }
  groups = g_ptr_array_new ();
  for (i = 0; i < all->len; i++) {
    GpStallLink *sl = &g_array_index (all, GpStallLink, i);
    gchar *sink = gp_pad_element (sl->link->sink);
    GpStoppedGroup *g = NULL;

    if (!sl->stalled || sl->gap_s < GP_STOPPED_MIN_S ||
        !gp_session_is_sink (s, sink)) {
      g_free (sink);
      continue;
    }
    /* one group per stop: a sink that shares the flow of a group's and
     * whose gap overlaps the group's by half of the shorter joins it */
    for (k = 0; k < groups->len && g == NULL; k++) {
      GpStoppedGroup *o = g_ptr_array_index (groups, k);
      gdouble common = MIN (o->g1, sl->g1) - MAX (o->g0, sl->g0);

      if (common >= 0.5 * MIN (o->g1 - o->g0, sl->g1 - sl->g0) &&
          gp_stopped_related (s, sink, g_ptr_array_index (o->sinks, 0)))
        g = o;
    }
    if (g == NULL) {
      g = g_new0 (GpStoppedGroup, 1);
      g->sinks = g_ptr_array_new_with_free_func (g_free);
      g->g0 = sl->g0;
      g->g1 = sl->g1;
      g->never = TRUE;
      g_ptr_array_add (groups, g);
    }
    g->g0 = MIN (g->g0, sl->g0);
    g->g1 = MAX (g->g1, sl->g1);
    g->never &= !sl->flowed;
    if (!g_ptr_array_find_with_equal_func (g->sinks, sink, g_str_equal, NULL))
      g_ptr_array_add (g->sinks, sink);
    else
      g_free (sink);
  }

  for (k = 0; k < groups->len; k++) {
    GpStoppedGroup *g = g_ptr_array_index (groups, k);
    gdouble gap = g->g1 - g->g0, pct = MIN (100.0, 100.0 * gap / playing);

    /* paused to buffer: BUFFERING's */
    if (gp_session_buffering_within (s, g->g0, g->g1) >=
        GP_STOPPED_BUFFERING_SHARE * gap)
      continue;
    GString *joined = g_string_new (NULL);
    gchar *names;
    GpThreadSummary *blocked = g->g1 >= span.t1 - win ?
        gp_stopped_blocked (s, g) : NULL;
    GString *roots = gp_stopped_stall_roots (s, all, g, win);
    GString *why = g_string_new (NULL);
    GpElement *at = blocked ? gp_session_find_element (s,
        blocked->blocked_in) : NULL;
    gchar *title;
    GpFinding *f;

    for (i = 0; i < g->sinks->len; i++)
      g_string_append_printf (joined, "%s%s", i ? ", " : "",
          (const gchar *) g_ptr_array_index (g->sinks, i));
    names = g_string_free (joined, FALSE);
    if (g->never)
      title = g_strdup_printf ("nothing reached %s in %.1f s of PLAYING",
          names, gap);
    else
      title = g_strdup_printf ("the stream stopped: nothing reached %s from "
          "%.1f s to %.1f s (%.1f s, %.0f%% of PLAYING)", names, g->g0,
          g->g1, gap, pct);
    f = gp_rule_add_finding (s, rule, pct >= GP_STOPPED_HIGH_PCT ?
        GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM, title);
    g_free (title);
    for (i = 0; i < g->sinks->len; i++)
      gp_finding_add_target (f, g_ptr_array_index (g->sinks, i));
    f->rank_value = pct;
    gp_finding_set_string (f, "sinks", names);
    gp_finding_set_double (f, "gap_s", gap);
    gp_finding_set_double (f, "gap_start_s", g->g0);
    gp_finding_set_double (f, "gap_end_s", g->g1);
    gp_finding_set_double (f, "playing_s", playing);
    gp_finding_set_double (f, "gap_pct", pct);
    if (blocked) {
      gp_finding_set_string (f, "blocked_in", blocked->blocked_in);
      gp_finding_set_string (f, "blocked_thread", blocked->name);
      gp_finding_set_double (f, "blocked_s", blocked->blocked_ms / 1000.0);
      gp_finding_add_target (f, blocked->blocked_in);
    }
    if (roots->len)
      gp_finding_set_string (f, "stops_at", roots->str);

    g_string_append_printf (why, "While the pipeline played, %s got no data "
        "for %.1f s: what a user sees as a frozen picture, silence or a hole "
        "in a recording. ", names, gap);
    if (blocked && at && g_strcmp0 (at->factory, "appsink") == 0) {
      gint64 max = 0;
      gboolean drop = FALSE;

      gp_element_get_prop_int (at, "max-buffers", &max);
      gp_element_get_prop_bool (at, "drop", &drop);
      g_string_append_printf (why, "Where it stops: %s; thread %s had been "
          "inside its push for %.1f s when the run ended. An appsink keeps "
          "at most max-buffers samples (%" G_GINT64_FORMAT " here; 0 is no "
          "limit)%s and then blocks until the application pulls one. "
          "Everything upstream that shares its flow waits with it: a full "
          "queue, then a tee that blocks every branch.", at->name,
          blocked->name, blocked->blocked_ms / 1000.0, max,
          drop ? "" : ", drops none (drop=false)");
    } else if (blocked) {
      g_string_append_printf (why, "Where it stops: %s; thread %s had "
          "been inside its push for %.1f s when the run ended: it stopped "
          "taking data, and what shares its flow waits with it.",
          blocked->blocked_in, blocked->name, blocked->blocked_ms / 1000.0);
    } else if (roots->len) {
      g_string_append_printf (why, "Where it stops: %s (STALL says how).",
          roots->str);
    } else {
      g_string_append (why, "Cause not identified: no link above them "
          "stopped first and no streaming thread was held in a push.");
    }
    g_free (f->why);
    f->why = g_string_free (why, FALSE);
    g_free (f->fix);
    if (blocked && at && g_strcmp0 (at->factory, "appsink") == 0)
      f->fix = g_strdup_printf ("Pull every sample from %s (its new-sample "
          "callback or pull-sample), or let it drop what the application "
          "does not take: drop=true with max-buffers set keeps the newest "
          "and the other branches flowing.", at->name);
    else if (blocked)
      f->fix = g_strdup_printf ("Look at why %s stops taking data (a sink "
          "waiting on a device, a network peer or the application).",
          blocked->blocked_in);
    else if (roots->len)
      f->fix = g_strdup ("See the STALL findings for the link where the "
          "data stops and what to look at there.");
    else
      f->fix = g_strdup ("Look at what feeds these sinks: a source that "
          "paused, a pad probe or valve that drops, a branch that waits on "
          "another.");
    g_string_free (roots, TRUE);
    g_free (names);
  }
  for (k = 0; k < groups->len; k++) {
    GpStoppedGroup *g = g_ptr_array_index (groups, k);

    g_ptr_array_unref (g->sinks);
    g_free (g);
  }
  g_ptr_array_unref (groups);
  g_array_unref (all);
}
