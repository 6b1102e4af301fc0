/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-budget.c: BUDGET, the frame budget: (a) a sink that gets fewer
 * frames per second than its stream's rate, (b) a live path whose latency
 * p95 is above one frame period. Thresholds and their reasons:
 * docs/rules.md.
 */
#include "gp-rules-private.h"

/* Achieved rate may fall this far below the target before it counts: the
 * first frames after PLAYING and the last before EOS make a short run's
 * rate a little low even when the pipeline keeps up. */
#define GP_BUDGET_FPS_TOLERANCE 0.05
/* Too few frames make any rate or percentile noise: at least this many
 * frames expected over the run, and matched on a latency path. */
#define GP_BUDGET_MIN_FRAMES 10
#define GP_BUDGET_MIN_MATCHED 10
/* A streaming thread busier than this is the limit; below it, no thread is
 * saturated and the cause is elsewhere (clock, source, drops). */
#define GP_BUDGET_SATURATED_PCT 80.0
/* ... or its hottest element does this share of all the processing (the
 * HOT threshold): busy can read low when the element also works in event
 * handlers (an encoder's start-up and EOS drain), which are not buffer
 * self time. */
#define GP_BUDGET_DOMINANT_PCT 40.0
/* ... on a thread busy at least this share of the run, or of unknown
 * business (imports): an element that does most of the work of a thread
 * idle most of the run limits nothing (a decoder 0.4 ms a frame on a
 * thread 1 % busy, fed by a slow server). */
#define GP_BUDGET_DOMINANT_MIN_BUSY_PCT 25.0

void
gp_rule_budget_limit (GpSession * s, GHashTable * up, GpRuleLimit * out)
{
  gdouble total = gp_session_total_work_ms (s);

  out->thread = gp_session_limiting_thread (s, up);
  out->busy_pct = -1;
  out->hot = NULL;
  out->hot_share_pct = 0;
  memset (&out->app, 0, sizeof (out->app));
  out->saturated = FALSE;
  if (out->thread == NULL)
    return;
  out->busy_pct = gp_session_thread_busy_pct (s, out->thread);
  out->hot = gp_session_hottest_on_thread (s, out->thread);
  gp_session_thread_app (s, out->thread, &out->app);
  /* the application's probes or handlers outweigh every element's own
   * work: they are the limit, and no element is */
  if (out->app.id && (out->hot == NULL || out->app.busy_pct >
          gp_session_work_busy_pct (s, out->hot)))
    out->hot = NULL;
  else
    out->app.id = NULL;
  if (out->hot && total > 0)
    out->hot_share_pct = gp_session_work_ms (s, out->hot) / total * 100.0;
  out->saturated = out->busy_pct >= GP_BUDGET_SATURATED_PCT ||
      (out->hot && out->hot_share_pct >= GP_BUDGET_DOMINANT_PCT &&
      (out->busy_pct < 0 ||
          out->busy_pct >= GP_BUDGET_DOMINANT_MIN_BUSY_PCT));
}

/* Whether a queue before @hot, the hottest element on a saturated thread,
 * would raise the rate: only where its own work per frame fits the
 * frame period of @target fps.  One slower than that falls behind on a
 * thread of its own too (a queue only moves the lag, and fills), and an
 * appsink's time is the application's callback (BEHIND's business). */
static gboolean
gp_budget_queue_helps (GpSession * s, GpElementSummary * hot, gdouble target)
{
  GpElement *e = gp_session_find_element (s, hot->name);

  if (e && g_strcmp0 (e->factory, "appsink") == 0)
    return FALSE;
  return hot->self_ms.p50 < 0 || hot->self_ms.p50 < 1000.0 / target;
}

static void
gp_budget_throughput (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    gdouble target = gp_session_sink_target_fps (s, sk->name);
    gdouble deficit, busy;
    GHashTable *up;
    GpThreadSummary *t;
    GpElementSummary *hot;
    gdouble hot_share;
    GpRuleLimit lim;
    gboolean live;
    GpFinding *f;
    GString *fix;
    gchar *title;

    if (target <= 0 || sk->fps < 0 || s->duration_s <= 0)
      continue;
    /* a stopped sink's rate is not a throughput: STOPPED says it; nor a
     * rate that paused to buffer: BUFFERING does; nor one over a preroll
     * and a few frames */
    if (gp_session_find_finding (s, "STOPPED", sk->name) != NULL ||
        gp_rule_buffered (s, sk->name) ||
        gp_session_sink_played_briefly (s, sk, GP_SESSION_RATE_MIN_PLAYED_S))
      continue;
    if (target * s->duration_s < GP_BUDGET_MIN_FRAMES)
      continue;
    if (sk->fps >= target * (1.0 - GP_BUDGET_FPS_TOLERANCE))
      continue;

    deficit = (target - sk->fps) / target * 100.0;
    up = gp_session_upstream_of (s, sk->name);
    live = gp_session_any_live (s, up);
    gp_rule_budget_limit (s, up, &lim);
    t = lim.thread;
    busy = lim.busy_pct;
    hot = lim.hot;
    hot_share = lim.hot_share_pct;

    title = g_strdup_printf ("%s gets %.1f fps, %.0f%% below the stream's "
        "%.1f fps", sk->name, sk->fps, deficit, target);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    gp_finding_add_target (f, sk->name);
    f->rank_value = deficit;

    gp_finding_set_double (f, "achieved_fps", sk->fps);
    gp_finding_set_double (f, "target_fps", target);
    gp_finding_set_double (f, "deficit_pct", deficit);
    gp_finding_set_int (f, "buffers", (gint64) sk->buffers);
    gp_finding_set_string (f, "source", live ? "live" : "not live");
    if (t) {
      gp_finding_set_string (f, "thread", t->name);
      if (busy >= 0)
        gp_finding_set_double (f, "thread_busy_pct", busy);
      gp_finding_set_double (f, "thread_cpu_pct", t->cpu_pct_mean);
    }
    if (hot) {
      gp_finding_set_string (f, "hottest", hot->name);
      if (hot->self_ms.p50 >= 0)
        gp_finding_set_double (f, "hottest_self_p50_ms", hot->self_ms.p50);
    }

    g_free (f->why);
    if (live)
      f->why = g_strdup_printf ("The live source delivers %.1f frames/s and "
          "%s handles %.1f: the rest are dropped or pile up in queues, and "
          "latency grows with them.", target, sk->name, sk->fps);
    else
      f->why = g_strdup_printf ("The stream runs at %.1f frames/s and this "
          "pipeline processes %.1f: it cannot keep up in real time (a file "
          "conversion may not need to; a live feed would).", target,
          sk->fps);

    fix = g_string_new (NULL);
    if (lim.saturated) {
      g_string_append_printf (fix, "Thread %s is busy %.0f%% of the run",
          t->name, busy);
      if (hot && gp_budget_queue_helps (s, hot, target))
        g_string_append_printf (fix, ", most of it in %s (%.0f%% of the "
            "processing): make %s faster (settings, a hardware element), or "
            "put a queue before it so it gets a thread of its own.",
            hot->name, hot_share, hot->name);
      else if (hot)
        g_string_append_printf (fix, ", most of it in %s (%.0f%% of the "
            "processing): make %s faster (settings, a hardware element; "
            "for an appsink, the application's callback: hand its work to "
            "a thread of the application's own). It takes longer than a "
            "frame period, so a queue before it would only move the lag.",
            hot->name, hot_share, hot->name);
      else
        g_string_append (fix, ": split it with a queue.");
    } else {
      g_string_append (fix, "No streaming thread looks saturated");
      if (t && busy >= 0)
        g_string_append_printf (fix, " (the busiest, %s, is busy %.0f%%)",
            t->name, busy);
      g_string_append (fix, ": look at what paces the stream: a sink that "
          "syncs to the clock, a source slower than its caps, QoS drops, or a "
          "leaky queue.");
    }
    g_free (f->fix);
    f->fix = g_string_free (fix, FALSE);
    g_hash_table_unref (up);
  }
}

/* Whether @element is on the way from @src to @sink (@up: the sink's
 * upstream). */
static gboolean
gp_budget_on_path (GpSession * s, GHashTable * up, const gchar * src,
    const gchar * sink, const gchar * element)
{
  return (g_strcmp0 (element, sink) == 0
      || g_hash_table_contains (up, element))
      && gp_session_feeds (s, src, element);
}

/* The application's work on the way from @src to @sink that held each
 * buffer longest: a link's pad probes, or an element's signal handlers,
 * into @app (its id NULL when there was none). */
static void
gp_budget_path_app (GpSession * s, GHashTable * up, const gchar * src,
    const gchar * sink, GpAppWork * app)
{
  guint i;

  memset (app, 0, sizeof (*app));
  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
    gchar *into;
    gdouble ms;

    if (ls == NULL || ls->probe_ms < 0 || ls->probe_pushes == 0)
      continue;
    ms = ls->probe_ms / ls->probe_pushes;
    into = gp_pad_element (l->sink);
    if (ms > app->mean_ms && gp_budget_on_path (s, up, src, sink, into))
      *app = (GpAppWork) {
      ls->id, FALSE, ls->probe_busy_pct, ms};
    g_free (into);
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gdouble ms;

    if (es->handler_ms < 0 || es->handler_calls == 0)
      continue;
    ms = es->handler_ms / es->handler_calls;
    if (ms > app->mean_ms && gp_budget_on_path (s, up, src, sink, es->name))
      *app = (GpAppWork) {
      es->name, TRUE, es->handler_busy_pct, ms};
  }
}

static void
gp_budget_latency (GpSession * s, const GpRule * rule)
{
  guint i, j;

  for (i = 0; s->paths && i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);
    gchar *src = gp_pad_element (p->source);
    gdouble target = gp_session_sink_target_fps (s, p->sink);
    gdouble period = target > 0 ? 1000.0 / target : s->frame_period_ms;
    gdouble queue_wait = -1, slow_p50 = -1;
    const gchar *slow = NULL;
    GpAppWork app;
    GHashTable *up;
    GpFinding *f;
    GString *fix;
    gchar *title;

    if (period <= 0 || p->latency_ms.p95 < 0 ||
        p->matched < GP_BUDGET_MIN_MATCHED ||
        p->latency_ms.p95 <= period || !gp_session_is_live_source (s, src) ||
        gp_session_recording_only (s, p->sink)) {
      /* latency on the way into a file costs nobody anything */
      g_free (src);
      continue;
    }

    /* Where the latency comes from: queues between this source and the
     * sink (their residence), and the slowest element on the way. */
    up = gp_session_upstream_of (s, p->sink);
    for (j = 0; s->elem_summaries && j < s->elem_summaries->len; j++) {
      GpElementSummary *es = g_ptr_array_index (s->elem_summaries, j);
      GHashTable *up_es;

      if (!g_hash_table_contains (up, es->name) ||
          gp_session_work_ms (s, es) < 0 || es->self_ms.p50 < slow_p50)
        continue;
      up_es = gp_session_upstream_of (s, es->name);
      if (g_hash_table_contains (up_es, src)) {
        slow = es->name;
        slow_p50 = es->self_ms.p50;
      }
      g_hash_table_unref (up_es);
    }
    for (j = 0; s->queue_summaries && j < s->queue_summaries->len; j++) {
      GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, j);
      GHashTable *up_q;

      if (!g_hash_table_contains (up, q->name) || q->residence_ms.p50 < 0)
        continue;
      up_q = gp_session_upstream_of (s, q->name);
      if (g_hash_table_contains (up_q, src))
        queue_wait = MAX (queue_wait, 0) + q->residence_ms.p50;
      g_hash_table_unref (up_q);
    }
    /* the application's pad probes and handlers on the way hold each
     * buffer too */
    gp_budget_path_app (s, up, src, p->sink, &app);
    if (app.id && app.mean_ms > slow_p50)
      slow = NULL;
    else
      app.id = NULL;
    g_hash_table_unref (up);

    title = g_strdup_printf ("%s to %s: latency p95 %.1f ms, above the "
        "%.1f ms frame period", src, p->sink, p->latency_ms.p95, period);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    gp_finding_add_target (f, p->sink);
    /* As a share of the budget, capped: comparable with the other rules'
     * percentages, and a huge overshoot is not more urgent than a large one. */
    f->rank_value = MIN (100.0, (p->latency_ms.p95 / period - 1.0) * 100.0);

    gp_finding_set_string (f, "source", p->source);
    gp_finding_set_double (f, "latency_p50_ms", p->latency_ms.p50);
    gp_finding_set_double (f, "latency_p95_ms", p->latency_ms.p95);
    if (p->latency_ms.p99 >= 0)
      gp_finding_set_double (f, "latency_p99_ms", p->latency_ms.p99);
    gp_finding_set_double (f, "frame_period_ms", period);
    gp_finding_set_int (f, "matched", (gint64) p->matched);
    gp_finding_set_int (f, "unmatched", (gint64) p->unmatched);
    if (queue_wait >= 0)
      gp_finding_set_double (f, "queue_wait_p50_ms", queue_wait);
    if (slow) {
      gp_finding_set_string (f, "slowest", slow);
      gp_finding_set_double (f, "slowest_self_p50_ms", slow_p50);
    } else if (app.id) {
      gp_finding_set_string (f, app.handlers ? "slowest_handlers" :
          "slowest_probe", app.id);
      gp_finding_set_double (f, app.handlers ? "handlers_mean_ms" :
          "probe_mean_ms", app.mean_ms);
    }

    g_free (f->why);
    f->why = g_strdup_printf ("Frames reach %s more than one frame period "
        "after capture in 5%% of cases or more, so more than one frame is in "
        "flight and the output lags the source (measured at the sink's "
        "input; its own rendering comes on top). Fine for recording, not "
        "for interactive or control use.", p->sink);
    fix = g_string_new (NULL);
    if (queue_wait > period / 2)
      g_string_append_printf (fix, "Queues on this path hold frames %.1f ms "
          "at the median: lower min-threshold-time, or keep only fresh "
          "frames (leaky=downstream max-size-buffers=2). ", queue_wait);
    if (slow && slow_p50 > period / 2)
      g_string_append_printf (fix, "%s takes %.1f ms per frame: make it "
          "faster, or lower its latency settings (encoders: no B-frames or "
          "lookahead, e.g. x264enc tune=zerolatency). ", slow, slow_p50);
    else if (app.id && app.mean_ms > period / 2) {
      gchar *what = gp_app_work_words (&app);

      g_string_append_printf (fix, "The application's work, %s, holds "
          "each buffer %.1f ms: take it off the streaming thread. ", what,
          app.mean_ms);
      g_free (what);
    }
    g_string_append (fix, "Check the latency the elements add by design "
        "(encoder lookahead, jitter buffers, sink processing-deadline).");
    g_free (f->fix);
    f->fix = g_string_free (fix, FALSE);
    g_free (src);
  }
}

void
gp_rule_budget (GpSession * s, const GpRule * rule)
{
  gp_budget_throughput (s, rule);
  gp_budget_latency (s, rule);
}
