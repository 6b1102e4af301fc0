/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-queue.c: QUEUE, from the thread map: an expensive element shares
 * its streaming thread with a live source, or with another expensive
 * element, so one stalls the other. Not "is there a queue anywhere": a
 * pipeline full of queues can still run two heavy elements on one thread,
 * and one without any can be fine. Thresholds and their reasons:
 * docs/rules.md.
 */
#include "gp-rules-private.h"

/* The thread must be this busy (sum of its elements' working time, % of the
 * run) before sharing it costs anything: below it, every element gets its
 * turn in time. */
#define GP_QUEUE_SATURATED_PCT 80.0
/* An element is expensive when it keeps the thread busy this much alone. */
#define GP_QUEUE_EXPENSIVE_PCT 20.0
/* Splitting the thread must promise at least this much more throughput (%
 * of the current rate) to be worth a finding. */
#define GP_QUEUE_MIN_GAIN_PCT 10.0
/* Share of the machine's cores a process can really have: the rest goes
 * to the scheduler, interrupts and everything else running. Two threads
 * only run in parallel on cores that are free. */
#define GP_QUEUE_CPU_USABLE 0.9

/* The most throughput a second thread can add on this machine, in % of
 * the current rate: the process needs that much more CPU, and only the
 * free part of the cores is there to give it (a process at 172% of 200%
 * has about 5% left). -1 when the process CPU was not measured. */
static gdouble
gp_queue_cpu_gain_cap (GpSession * s)
{
  GpMachineCpu mc;
  gdouble others = 0;

  if (!s->process.measured || s->process.cpu_pct_mean <= 0 ||
      s->process.n_cpus <= 0)
    return -1;
  /* what other processes held is not free either (% of one core) */
  if (gp_session_machine_cpu (s, GP_RULES_MACHINE_MIN_SAMPLES, &mc))
    others = mc.others_pct * mc.n_cpus;
  return MAX (0.0, ((GP_QUEUE_CPU_USABLE * s->process.n_cpus * 100.0 -
              others) / s->process.cpu_pct_mean - 1.0) * 100.0);
}

/* Elements whose real work runs on a thread of their own (a pad task, or a
 * device): their time on the upstream thread is handing buffers over or
 * waiting for a free slot, not work a queue could move. Hardware codecs and
 * converters (V4L2 memory-to-memory, NVIDIA, VA, ...) are recognised by
 * gp_rules_is_hardware_factory (). */
static const gchar *const gp_queue_own_thread[] = {
  "queue", "queue2", "multiqueue", "rtpjitterbuffer", "compositor",
  "glvideomixer", "videomixer", "audiomixer", "audiointerleave", "mpegtsmux",
  "mp4mux", "qtmux", "flvmux", "splitmuxsink", "nvstreammux", NULL
};

static gboolean
gp_queue_runs_own_thread (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);

  if (e == NULL || e->factory == NULL)
    return FALSE;
  return g_strv_contains (gp_queue_own_thread, e->factory) ||
      gp_rules_is_hardware_factory (e->factory, NULL);
}

/* Busy share an element adds to one thread (split evenly when it ran on
 * several, as gp_session_thread_busy_pct () does). */
static gdouble
gp_queue_busy_on_thread (GpSession * s, const gchar * name)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gdouble b;

  if (es == NULL || (b = gp_session_work_busy_pct (s, es)) < 0)
    return 0;
  if (es->threads && es->threads->len > 1)
    b /= es->threads->len;
  return b;
}

/* The live source whose buffers are pushed on @t: a source linked straight
 * to an element that runs on @t. */
static const gchar *
gp_queue_live_source_on (GpSession * s, const GpThreadSummary * t)
{
  guint i, j;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src);
    gchar *sink = gp_pad_element (l->sink);
    GpElement *e = gp_session_find_element (s, src);
    const gchar *found = NULL;

    if (e && g_strcmp0 (e->kind, "source") == 0 &&
        gp_session_is_live_source (s, src)) {
      for (j = 0; t->elements && j < t->elements->len; j++)
        if (g_strcmp0 (g_ptr_array_index (t->elements, j), sink) == 0)
          found = e->name;
    }
    g_free (src);
    g_free (sink);
    if (found)
      return found;
  }
  return NULL;
}

static GPtrArray *
gp_queue_patch (const gchar * before, gboolean leaky)
{
  GPtrArray *patch = gp_launch_patch_new ();
  GpLaunchOp *queue = gp_launch_op_insert (GP_LAUNCH_AT_BEFORE, before,
      "queue");

  /* Behind a live source a plain queue fills up and blocks the source
   * again; keeping only the freshest frames lets the source keep time. */
  if (leaky) {
    gp_launch_op_add_prop_string (queue, "leaky", "downstream");
    gp_launch_op_add_prop_int (queue, "max-size-buffers", 2);
  }
  g_ptr_array_add (patch, queue);
  return patch;
}

static void
gp_queue_thread (GpSession * s, const GpRule * rule, GpThreadSummary * t)
{
  GPtrArray *expensive;
  const gchar *live, *split = NULL, *other = NULL;
  gdouble busy, best_max = G_MAXDOUBLE, split_up = 0, split_down = 0;
  gdouble gain_pct = 0, fps = -1, target = -1, rank, cap, split_gain = 0;
  gdouble media_per_s = -1;
  GpFinding *f;
  gchar *title;
  guint i, j;

  if (t->worker || t->elements == NULL || t->elements->len < 2)
    return;
  busy = gp_session_thread_busy_pct (s, t);
  if (busy < GP_QUEUE_SATURATED_PCT)
    return;

  expensive = g_ptr_array_new ();
  for (i = 0; i < t->elements->len; i++) {
    const gchar *name = g_ptr_array_index (t->elements, i);

    if (gp_queue_runs_own_thread (s, name))
      continue;
    if (gp_queue_busy_on_thread (s, name) >= GP_QUEUE_EXPENSIVE_PCT)
      g_ptr_array_add (expensive, (gpointer) name);
  }
  live = gp_queue_live_source_on (s, t);
  if (expensive->len == 0 || (expensive->len < 2 && live == NULL)) {
    g_ptr_array_free (expensive, TRUE);
    return;
  }

  /* Where to cut: before the expensive element that leaves the two halves
   * of the thread's work most even (the slower half sets the new rate). A
   * cut before the first element of the thread splits nothing, unless a
   * live source pushes there: then it frees the source. */
  for (i = 0; i < expensive->len; i++) {
    const gchar *cand = g_ptr_array_index (expensive, i);
    GHashTable *up = gp_session_upstream_of (s, cand);
    gdouble b_up = 0, b_down = 0;

    for (j = 0; j < t->elements->len; j++) {
      const gchar *name = g_ptr_array_index (t->elements, j);
      gdouble b = gp_queue_busy_on_thread (s, name);

      if (g_strcmp0 (name, cand) != 0 && g_hash_table_contains (up, name))
        b_up += b;
      else
        b_down += b;
    }
    g_hash_table_unref (up);
    if (b_up < GP_QUEUE_EXPENSIVE_PCT && expensive->len >= 2)
      continue;
    if (MAX (b_up, b_down) < best_max) {
      best_max = MAX (b_up, b_down);
      split = cand;
      split_up = b_up;
      split_down = b_down;
    }
  }
  if (split == NULL && live) {
    /* Two expensive elements, but no cut leaves real work upstream (they
     * run in parallel branches): free the source from the busiest one. */
    split = g_ptr_array_index (expensive, 0);
    split_up = 0;
    split_down = busy;
  }
  for (i = 0; i < expensive->len; i++)
    if (g_ptr_array_index (expensive, i) != split && other == NULL)
      other = g_ptr_array_index (expensive, i);
  g_ptr_array_free (expensive, TRUE);
  if (split == NULL)
    return;

  /* The thread's rate is set by its total work; after the cut, by the
   * larger half. */
  if (split_up >= GP_QUEUE_EXPENSIVE_PCT)
    split_gain = gain_pct = (busy / MAX (split_up, split_down) - 1.0) * 100.0;
  /* ... as far as the free cores allow */
  cap = gp_queue_cpu_gain_cap (s);
  if (cap >= 0 && gain_pct > cap)
    gain_pct = cap;
  if (live == NULL && gain_pct < GP_QUEUE_MIN_GAIN_PCT)
    return;
  if (live && split_up >= GP_QUEUE_EXPENSIVE_PCT &&
      gain_pct < GP_QUEUE_MIN_GAIN_PCT)
    return;

  /* The rate below the cut: frames per second for video; for any other
   * stream (an audio encode) its buffers are no frames, so its media time
   * per second of wall time instead. A sink whose pace PACE judged (a job
   * held to the clock, a sender faster than real time) wins nothing from
   * more throughput. */
  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GHashTable *up = gp_session_upstream_of (s, sk->name);
    gboolean paced = g_hash_table_contains (up, split) &&
        gp_session_find_finding (s, "PACE", sk->name) != NULL;

    if (paced) {
      g_hash_table_unref (up);
      return;
    }
    if (g_hash_table_contains (up, split)) {
      if (g_strcmp0 (sk->media, "video") == 0 && sk->fps >= 0) {
        fps = sk->fps;
        target = gp_session_sink_target_fps (s, sk->name);
      } else if (g_strcmp0 (sk->media, "video") != 0 && fps < 0 &&
          sk->media_per_s > 0) {
        media_per_s = sk->media_per_s;
      }
    }
    g_hash_table_unref (up);
  }

  /* A live path that already gets its source's rate has nothing to win
   * (within GP_QUEUE_MIN_GAIN_PCT: run-to-run noise on a loaded machine). */
  if (live && fps > 0 && target > 0 &&
      (target / fps - 1.0) * 100.0 < GP_QUEUE_MIN_GAIN_PCT)
    return;

  /* Freeing a live source only helps when the work after the cut fits in
   * a frame period: if that work alone is slower than the source, a queue
   * cannot raise the rate, and a leaky one only adds its depth to the
   * latency (measured with gstprof fix --apply: 20.0 -> 19.8 fps, latency
   * p50 49 -> 99 ms for a 50 ms element behind a 30 fps source). */
  if (live && split_up < GP_QUEUE_EXPENSIVE_PCT) {
    /* without a measured rate and target that cannot be told: say nothing */
    if (fps <= 0 || target <= 0
        || split_down / 100.0 * 1000.0 / fps >= 1000.0 / target)
      return;
  }

  if (other && split_up >= GP_QUEUE_EXPENSIVE_PCT)
    title = g_strdup_printf ("%s and %s share thread %s (busy %.0f%%): a "
        "queue before %s splits it", other, split, t->name, busy, split);
  else
    title = g_strdup_printf ("live source %s waits for %s on thread %s "
        "(busy %.0f%%)", live, split, t->name, busy);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, split);
  if (other)
    gp_finding_add_target (f, other);
  if (live)
    gp_finding_add_target (f, live);

  gp_finding_set_string (f, "thread", t->name);
  gp_finding_set_double (f, "thread_busy_pct", busy);
  gp_finding_set_double (f, "thread_cpu_pct", t->cpu_pct_mean);
  gp_finding_set_string (f, "queue_before", split);
  gp_finding_set_double (f, "split_busy_pct",
      gp_queue_busy_on_thread (s, split));
  if (other) {
    gp_finding_set_string (f, "other", other);
    gp_finding_set_double (f, "other_busy_pct",
        gp_queue_busy_on_thread (s, other));
  }
  if (live)
    gp_finding_set_string (f, "live_source", live);
  gp_finding_set_double (f, "upstream_busy_after_pct", split_up);
  gp_finding_set_double (f, "downstream_busy_after_pct", split_down);
  if (fps >= 0)
    gp_finding_set_double (f, "achieved_fps", fps);
  else if (media_per_s > 0)
    gp_finding_set_double (f, "achieved_realtime_x", media_per_s);
  if (target > 0)
    gp_finding_set_double (f, "target_fps", target);
  if (cap >= 0) {
    gp_finding_set_double (f, "process_cpu_pct", s->process.cpu_pct_mean);
    gp_finding_set_int (f, "n_cpus", s->process.n_cpus);
    if (split_gain > cap)
      gp_finding_set_double (f, "cpu_gain_cap_pct", cap);
  }
  if (gain_pct > 0) {
    gdouble expected = fps >= 0 ? fps * (1.0 + gain_pct / 100.0) : -1;

    /* A live source caps the rate at its own. */
    if (expected >= 0 && target > 0 && live)
      expected = MIN (expected, target);
    gp_finding_set_double (f, "gain_pct", gain_pct);
    if (expected >= 0)
      gp_finding_set_double (f, "expected_fps", expected);
    else if (media_per_s > 0)
      gp_finding_set_double (f, "expected_realtime_x",
          media_per_s * (1.0 + gain_pct / 100.0));
  }

  /* Estimated gain in % of the current rate, capped by what a live
   * source can deliver. */
  rank = gain_pct;
  if (target > 0 && fps > 0 && live && gain_pct > 0)
    rank = MIN (rank, (target / fps - 1.0) * 100.0);
  else if (gain_pct <= 0)
    /* No throughput to win, only capture on time: the share of the
     * source's frames lost while it waits, when the rate says it. */
    rank = target > 0 && fps >= 0 ? MAX (0, (target - fps) / target * 100.0)
        : busy - GP_QUEUE_SATURATED_PCT;
  f->rank_value = MIN (rank, 100.0);

  g_free (f->why);
  if (gain_pct > 0)
    f->why = g_strdup_printf ("Every buffer crosses all of thread %s's "
        "elements one after the other, so the thread's rate is set by their "
        "total (busy %.0f%% of the run, saturated). With a queue before %s "
        "the work splits over two threads, %.0f%% and %.0f%% busy, and they "
        "run in parallel on two cores: about %.0f%% more throughput%s%s.",
        t->name, busy, split, split_up, split_down, gain_pct,
        split_gain > gain_pct ? ", as much as the free CPU allows" : "",
        live ? ", up to the source's rate" : "");
  else
    f->why = g_strdup_printf ("Live source %s pushes on thread %s, which is "
        "busy %.0f%% of the run with %s's work: while it works the source "
        "cannot capture, so frames are lost at the source or arrive stale "
        "and latency grows.", live, t->name, busy, split);

  g_free (f->fix);
  if (live && split_up < GP_QUEUE_EXPENSIVE_PCT)
    f->fix = g_strdup_printf ("Insert `queue leaky=downstream "
        "max-size-buffers=2` before %s: the source keeps its own thread and "
        "timing, and %s always takes the newest frame (the older ones are "
        "dropped there, counted by QLEAK).", split, split);
  else
    f->fix = g_strdup_printf ("Insert a queue before %s, so %s and %s run "
        "on two threads.", split, other ? other : "the elements before it",
        split);
  gp_rules_attach_patch (s, f, gp_queue_patch (split, live && split_up <
          GP_QUEUE_EXPENSIVE_PCT));
}

void
gp_rule_queue (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++)
    gp_queue_thread (s, rule, g_ptr_array_index (s->threads, i));
}
