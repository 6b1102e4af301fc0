/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-mem.c: MEM, the process's resident memory growing through the
 * run.
 *
 * The series holds the RSS once per window (series[].process.rss_mb). Every
 * pipeline grows at start-up (buffer pools, encoder state, the first
 * frames in queues) and then, when healthy, stays flat. So the first part
 * of the run is left out and a least-squares line is fitted through the
 * rest (the steady part): MEM fires when that slope and the growth it
 * explains are both large, and memory is still growing at the end (a step
 * that settles is not growth). Unbounded growth ends in the OOM killer;
 * its usual cause in a pipeline is a queue without limits in front of an
 * element slower than the rate. Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-series.h"

#include <math.h>

/* Start-up left out: this share of the run, and at least this long. */
#define GP_MEM_RAMP_SHARE 0.25
#define GP_MEM_RAMP_MIN_S 0.5
/* Points needed in the steady part for a slope to mean anything. */
#define GP_MEM_MIN_POINTS 4
/* Fires at this slope over the steady part ... */
#define GP_MEM_MIN_SLOPE_MIB_S 2.0
/* ... when the steady part grew at least this much ... */
#define GP_MEM_MIN_GROWTH_MIB 32.0
/* ... and its last half still grows at this share of the slope. */
#define GP_MEM_TAIL_SHARE 0.25
/* Medium (a symptom, measured: tests/corpus/test-advice.c
 * /advice/mem-unbounded) when the growth does not slow (the last half at
 * this share of the slope or more) and it cannot be a warm-up: a queue
 * without limits held at least GP_MEM_HOLDER_BUFFERS (where the memory
 * goes, and it has no end), or the growth went on for GP_MEM_LONG_S. A
 * shorter run without such a queue may be an encoder filling its
 * lookahead (x264enc veryslow: 25 MiB/s for the first 8 s, 107 to 737
 * MiB): info, and run longer. */
#define GP_MEM_GROWING_SHARE 0.5
#define GP_MEM_HOLDER_BUFFERS 30
#define GP_MEM_LONG_S 60.0
/* An element with a queue of its own (appsrc) holds the growth when it
 * held at least this share of it at the end, and this many MiB: a few
 * frames queued are how appsrc works. */
#define GP_MEM_OWN_QUEUE_SHARE 0.25
#define GP_MEM_OWN_QUEUE_MIN_MB 16.0
/* A sink keeps what it is given when the memory grows at this share of
 * the bytes a second into it or more (an appsink nobody pulls from, a
 * tcpserversink whose client reads slower: all of it, or all but what
 * leaves), and not above this share (another stream's rate); an encoder
 * filling its lookahead keeps about a third of raw 720p (x264enc
 * veryslow: 25 MiB/s of 79). */
#define GP_MEM_KEPT_MIN_SHARE 0.5
#define GP_MEM_KEPT_MAX_SHARE 1.3

/* Least-squares slope of y over x for points [from, to). */
static gdouble
gp_mem_slope (const gdouble * x, const gdouble * y, guint from, guint to)
{
  gdouble mx = 0, my = 0, sxx = 0, sxy = 0;
  guint i, n = to - from;

  if (n < 2)
    return 0;
  for (i = from; i < to; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  for (i = from; i < to; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  return sxx > 0 ? sxy / sxx : 0;
}

/* The queues that can hold buffers without bound. */
static GPtrArray *
gp_mem_unbounded_queues (GpSession * s)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (gp_session_queue_unbounded (s, e->name))
      g_ptr_array_add (out, e);
  }
  return out;
}

/* The queue of @queues (without limits) that held the most buffers, when
 * it held at least GP_MEM_HOLDER_BUFFERS: where the growth sits. */
static GpElement *
gp_mem_holder (GpSession * s, GPtrArray * queues)
{
  GpElement *best = NULL;
  guint64 most = 0;
  guint i;

  for (i = 0; i < queues->len; i++) {
    GpElement *q = g_ptr_array_index (queues, i);
    GpQueueSummary *qs = gp_session_find_queue_summary (s, q->name);

    if (qs && qs->level_buffers_max >= GP_MEM_HOLDER_BUFFERS &&
        qs->level_buffers_max > most) {
      best = q;
      most = qs->level_buffers_max;
    }
  }
  return best;
}

/* The element with a queue of its own (appsrc) that held the most, when
 * that is GP_MEM_OWN_QUEUE_SHARE of @growth_mb or more: where the growth
 * sits when an application pushes faster than the pipeline takes. Its
 * most, not its last: an EOS drains it before the run ends. */
static GpElementSummary *
gp_mem_own_queue (GpSession * s, gdouble growth_mb)
{
  GpElementSummary *best = NULL;
  guint i;

  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (es->queued_mb_max >= GP_MEM_OWN_QUEUE_MIN_MB &&
        es->queued_mb_max >= growth_mb * GP_MEM_OWN_QUEUE_SHARE &&
        (best == NULL || es->queued_mb_max > best->queued_mb_max))
      best = es;
  }
  return best;
}

/* Sinks that keep what they are given until someone takes it: an appsink
 * until the application pulls, a server sink until each client reads. */
static gboolean
gp_mem_sink_keeps (GpElement * e)
{
  return e->factory && (g_str_equal (e->factory, "appsink") ||
      g_str_has_suffix (e->factory, "serversink") ||
      g_str_equal (e->factory, "multifdsink") ||
      g_str_equal (e->factory, "multisocketsink"));
}

/* The sink whose input's byte rate the growth of @slope MiB/s matches
 * (GP_MEM_KEPT_*), the fastest of them; NULL when none does. */
static GpElement *
gp_mem_kept_by_sink (GpSession * s, gdouble slope, gdouble * rate_out)
{
  GpElement *best = NULL;
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
    gchar *name = gp_pad_element (l->sink);
    GpElement *e = gp_session_find_element (s, name);
    gdouble rate = ls ? ls->bytes_per_s / (1024.0 * 1024.0) : -1;

    g_free (name);
    if (e == NULL || !gp_mem_sink_keeps (e) || rate <= 0 ||
        slope < rate * GP_MEM_KEPT_MIN_SHARE ||
        slope > rate * GP_MEM_KEPT_MAX_SHARE || rate <= *rate_out)
      continue;
    best = e;
    *rate_out = rate;
  }
  return best;
}

/* The end of the part of the run in which a source still produced: the
 * end of the last window where a link out of a source element carried
 * buffers. After it comes the EOS drain, where memory stops growing because
 * nothing new comes in, not because the pipeline is healthy. < 0 when the
 * series does not tell (no source links recorded). */
static gdouble
gp_mem_sources_end (GpSession * s)
{
  gdouble end = -1;
  guint i, k;

  for (i = 0; i < gp_session_n_windows (s); i++) {
    gboolean flowing = FALSE;

    for (k = 0; k < s->links->len && !flowing; k++) {
      GpLink *link = g_ptr_array_index (s->links, k);
      gchar *name = gp_pad_element (link->src);
      GpElement *src = gp_session_find_element (s, name);

      g_free (name);
      flowing = src && g_strcmp0 (src->kind, "source") == 0 &&
          gp_session_window_value (s, i, GP_SERIES_LINKS, link->id,
          GP_SL_FPS) > 0;
    }
    if (flowing)
      gp_session_window_span (s, i, NULL, &end);
  }
  return end;
}

void
gp_rule_mem (GpSession * s, const GpRule * rule)
{
  GArray *xs, *ys;
  gdouble *x, *y, ramp_end, active_end, teardown, slope, tail_slope, growth,
      span;
  gboolean cut;
  gdouble rss0, rss1;
  guint i, n, first, mid;
  GPtrArray *queues;
  GpElement *holder;
  GpElementSummary *own;
  GpElement *kept;
  gdouble kept_rate = 0;
  GpFinding *f;
  GString *fix;
  gchar *title;

  if (gp_session_n_windows (s) == 0)
    return;

  active_end = gp_mem_sources_end (s);
  teardown = gp_session_left_playing (s);
  /* the teardown cuts the samples only where it came before the sources'
   * end (no EOS drained it first) */
  cut = teardown > 0 && (active_end < 0 || teardown < active_end);
  if (cut)
    active_end = teardown;
  xs = g_array_new (FALSE, FALSE, sizeof (gdouble));
  ys = g_array_new (FALSE, FALSE, sizeof (gdouble));
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t, v = gp_session_window_value (s, i, GP_SERIES_PROCESS, NULL,
        GP_SPR_RSS_MB);

    if (!(v > 0))
      continue;
    /* The sample is taken at the window's end. */
    gp_session_window_span (s, i, NULL, &t);
    if (t < 0 || (active_end > 0 && t > active_end + 1e-6))
      continue;
    g_array_append_val (xs, t);
    g_array_append_val (ys, v);
  }
  n = xs->len;
  x = (gdouble *) xs->data;
  y = (gdouble *) ys->data;
  if (n < GP_MEM_MIN_POINTS + 1)
    goto out;

  ramp_end = x[0] + MAX (GP_MEM_RAMP_MIN_S, (x[n - 1] - x[0]) *
      GP_MEM_RAMP_SHARE);
  for (first = 0; first < n && x[first] < ramp_end; first++);
  if (n - first < GP_MEM_MIN_POINTS)
    goto out;

  slope = gp_mem_slope (x, y, first, n);
  span = x[n - 1] - x[first];
  growth = slope * span;
  mid = first + (n - first) / 2;
  tail_slope = gp_mem_slope (x, y, mid, n);
  if (n - mid < 2)
    tail_slope = slope;
  if (slope < GP_MEM_MIN_SLOPE_MIB_S || growth < GP_MEM_MIN_GROWTH_MIB ||
      tail_slope < slope * GP_MEM_TAIL_SHARE)
    goto out;

  rss0 = s->process.measured && s->process.rss_mb_start > 0 ?
      s->process.rss_mb_start : y[0];
  /* after a teardown, the process's own end is what it freed */
  rss1 = !cut && s->process.measured && s->process.rss_mb_end > 0 ?
      s->process.rss_mb_end : y[n - 1];

  queues = gp_mem_unbounded_queues (s);
  holder = gp_mem_holder (s, queues);
  own = holder ? NULL : gp_mem_own_queue (s, rss1 - rss0);
  kept = holder || own ? NULL : gp_mem_kept_by_sink (s, slope, &kept_rate);
  title = g_strdup_printf ("process memory grows %.1f MiB/s (%.0f MiB to "
      "%.0f MiB over the run)%s%s", slope, rss0, rss1,
      holder || own || kept ? " and sits in " : "", holder ? holder->name :
      own ? own->name : kept ? kept->name : "");
  f = gp_rule_add_finding (s, rule, tail_slope >= slope *
      GP_MEM_GROWING_SHARE && (holder || own || kept ||
          span >= GP_MEM_LONG_S) ? GP_SEVERITY_MEDIUM : GP_SEVERITY_INFO,
      title);
  g_free (title);
  /* As a share of what the process started with, capped: doubling is as
   * urgent as it gets. */
  f->rank_value = rss0 > 0 ? MIN (100.0, growth / rss0 * 100.0) : 100.0;

  gp_finding_set_double (f, "growth_rate_mib_per_sec", slope);
  gp_finding_set_double (f, "growth_mib", growth);
  gp_finding_set_double (f, "tail_rate_mib_per_sec", tail_slope);
  gp_finding_set_double (f, "rss_start_mib", rss0);
  if (s->process.measured && s->process.rss_mb_max > 0)
    gp_finding_set_double (f, "rss_max_mib", s->process.rss_mb_max);
  gp_finding_set_double (f, "rss_end_mib", rss1);
  gp_finding_set_double (f, "steady_from_s", x[first]);
  gp_finding_set_double (f, "steady_s", span);
  gp_finding_set_int (f, "samples", n - first);

  fix = g_string_new (NULL);
  if (own) {
    gp_finding_add_target (f, own->name);
    gp_finding_set_string (f, "own_queue", own->name);
    gp_finding_set_double (f, "queued_max_mib", own->queued_mb_max);
    gp_finding_set_int (f, "queued_limit_bytes", own->queued_limit_bytes);
    g_string_append_printf (fix, "The application pushes into %s faster "
        "than the pipeline takes its buffers: it held up to %.0f MiB. ",
        own->name, own->queued_mb_max);
    if (own->queued_limit_bytes == 0)
      g_string_append (fix, "Its max-bytes is 0, no limit at all: give it "
          "one of a few buffers, with block=true (a push then waits for "
          "room) or stopping the pushes on enough-data until need-data.");
    else if (own->queued_blocks)
      g_string_append_printf (fix, "It blocks at its max-bytes (%"
          G_GUINT64_FORMAT "), which lets it hold that much: lower it to a "
          "few buffers.", own->queued_limit_bytes);
    else
      g_string_append_printf (fix, "With block=false its max-bytes (%"
          G_GUINT64_FORMAT ") only asks the application to stop "
          "(enough-data): set block=true (a push then waits for room), or "
          "stop pushing on enough-data until need-data.",
          own->queued_limit_bytes);
    g_string_append (fix, " Then make what drains it keep up.");
  } else if (kept) {
    gp_finding_add_target (f, kept->name);
    gp_finding_set_string (f, "kept_by", kept->name);
    gp_finding_set_double (f, "kept_input_mib_per_sec", kept_rate);
    g_string_append_printf (fix, "Memory grows %.0f%% as fast as the %.1f "
        "MiB a second going into %s: it keeps what it is given. ",
        slope / kept_rate * 100.0, kept_rate, kept->name);
    if (g_strcmp0 (kept->factory, "appsink") == 0)
      g_string_append (fix, "An appsink keeps every sample nobody pulls "
          "(max-buffers=0, no limit): pull each sample (or connect "
          "new-sample and pull there), or bound it with max-buffers and "
          "drop=true if old samples may go.");
    else if (g_str_has_suffix (kept->factory ? kept->factory : "",
            "serversink") || g_strcmp0 (kept->factory, "multifdsink") == 0
        || g_strcmp0 (kept->factory, "multisocketsink") == 0)
      g_string_append (fix, "A client reads slower than the stream and its "
          "backlog has no limit: bound it (units-max, units-soft-max with "
          "recover-policy, or a time-based limit) so a slow client is "
          "dropped or skipped ahead instead of held.");
    else
      g_string_append (fix, "Bound what it holds, or make what takes its "
          "data keep up.");
  } else if (queues->len > 0) {
    GpElement *q = holder ? holder : g_ptr_array_index (queues, 0);
    GPtrArray *patch = gp_launch_patch_new ();
    GpQueueSummary *qs = gp_session_find_queue_summary (s, q->name);

    for (i = 0; i < queues->len; i++)
      gp_finding_add_target (f, ((GpElement *) g_ptr_array_index (queues,
                  i))->name);
    gp_finding_set_string (f, "unbounded_queue", q->name);
    if (qs && qs->level_buffers_max > 0)
      gp_finding_set_int (f, "queue_buffers_max", qs->level_buffers_max);
    g_string_append_printf (fix, "%s has no limit (max-size-buffers, "
        "-bytes and -time all 0), so it keeps every buffer its downstream "
        "cannot take yet. Bound it (max-size-time=1000000000 holds at most "
        "1 s), with leaky=downstream on a live feed so old frames go first; "
        "then make the element after it keep up.", q->name);
    g_ptr_array_add (patch, gp_launch_op_set_int (q->name, "max-size-time",
        1000000000));
    gp_rules_attach_patch (s, f, patch);
  } else {
    g_string_append (fix, "Look for buffers piling up (a queue with large "
        "limits before a slow element, an appsink nobody pulls from, "
        "max-buffers=0), or a leak: run again longer, and under valgrind "
        "or heaptrack if the growth does not level off.");
  }
  g_ptr_array_unref (queues);
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);
  g_free (f->why);
  f->why = g_strdup_printf ("After start-up the resident memory still grows "
      "%.1f MiB every second and had not levelled off while the sources "
      "were producing: "
      "left running, the process ends in swapping or the OOM killer, and "
      "any frames piling up behind the growth also add latency.%s", slope,
      g_strcmp0 (f->severity, GP_SEVERITY_INFO) == 0 ? " Nothing here says "
      "it has no end: a warm-up (an encoder filling its lookahead) can grow "
      "this long; run longer to see whether it levels off." : "");

out:
  g_array_unref (xs);
  g_array_unref (ys);
}
