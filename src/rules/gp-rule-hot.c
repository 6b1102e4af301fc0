/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-hot.c: HOT, the element that takes most of the processing time.
 *
 * "Processing time" is working self time (gp_session_work_ms): queues are left
 * out (their residence is waiting, reported apart), and so is the wall time
 * of a sink that waits for the clock (its CPU time counts when measured).
 * Thresholds and their reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <string.h>

/* The top element must take at least this share: below it no single element
 * dominates, and a "hot spot" would be an artefact of ranking. */
#define GP_HOT_MIN_SHARE_PCT 40.0
/* ... and keep its thread busy at least this much of the run: an element
 * that dominates an idle pipeline (1 ms per frame at 30 fps) is not worth
 * anyone's time. */
#define GP_HOT_MIN_BUSY_PCT 10.0
/* A runner-up at or above this share is named in the evidence: fixing the
 * top element alone then gains less than its share suggests. */
#define GP_HOT_RUNNER_UP_PCT 25.0

/* What to look at first in well-known software elements. */
static const struct
{
  const gchar *factory;         /* exact name, or prefix when it ends in _ */
  const gchar *hint;
} gp_hot_hints[] = {
  {"x264enc", "speed-preset (superfast, ultrafast) and tune=zerolatency "
        "trade compression for speed; threads sets its worker count"},
  {"x265enc", "speed-preset and tune=zerolatency trade compression for "
        "speed"},
  {"vp8enc", "deadline=1 (realtime) and a higher cpu-used trade quality for "
        "speed; threads sets its worker count"},
  {"vp9enc", "deadline=1 (realtime) and a higher cpu-used trade quality for "
        "speed; threads sets its worker count"},
  {"openh264enc", "complexity=low and a lower bitrate cost less per frame"},
  {"videoconvert", "n-threads spreads the conversion over cores; converting "
        "once, at the smallest size, costs less"},
  {"videoscale", "n-threads, and method=nearest-neighbour or bilinear are "
        "the cheapest"},
  {"videorate", "drop-only=true avoids duplicating buffers"},
  {"identity", "sleep-time, datarate and sync=true make identity wait on "
        "purpose"},
  {"jpegenc", "a lower quality costs less per frame"},
  {"pngenc", "compression-level=0 or 1 is much cheaper"},
  {"avdec_", "max-threads (0: one per core) decodes on several cores"},
  {"avenc_", "threads (0: automatic) encodes on several cores"},
};

/* Families of work a hardware element can take over, by a piece of the
 * software factory's name and the piece a hardware factory then carries. */
static const struct
{
  const gchar *sw;
  const gchar *hw;
} gp_hot_hw_family[] = {
  {"264enc", "264enc"}, {"265enc", "265enc"}, {"h264enc", "h264enc"},
  {"vp8enc", "vp8enc"}, {"vp9enc", "vp9enc"}, {"jpegenc", "jpegenc"},
  {"jpegdec", "jpegdec"}, {"avdec_h264", "h264dec"},
  {"avdec_h265", "h265dec"}, {"videoconvert", "conv"},
  {"videoscale", "conv"},
};

static const gchar *
gp_hot_hint (const gchar * factory)
{
  guint i;

  for (i = 0; factory && i < G_N_ELEMENTS (gp_hot_hints); i++) {
    const gchar *f = gp_hot_hints[i].factory;

    if (g_str_has_suffix (f, "_") ? g_str_has_prefix (factory, f) :
        g_strcmp0 (factory, f) == 0)
      return gp_hot_hints[i].hint;
  }
  return NULL;
}

/* Up to two registered hardware factories that do @factory's job. */
static gchar *
gp_hot_hw_alternatives (GpSession * s, const gchar * factory)
{
  GString *out = g_string_new (NULL);
  guint i, j, n = 0;

  for (i = 0; factory && i < G_N_ELEMENTS (gp_hot_hw_family); i++) {
    if (strstr (factory, gp_hot_hw_family[i].sw) == NULL)
      continue;
    for (j = 0; s->hw_elements && j < s->hw_elements->len && n < 2; j++) {
      const gchar *hw = g_ptr_array_index (s->hw_elements, j);

      if (strstr (hw, gp_hot_hw_family[i].hw) && g_strcmp0 (hw, factory)) {
        g_string_append_printf (out, "%s%s", n ? " or " : "", hw);
        n++;
      }
    }
    break;
  }
  return g_string_free (out, out->len == 0);
}

void
gp_rule_hot (GpSession * s, const GpRule * rule)
{
  GpElementSummary *top = NULL, *next = NULL;
  gdouble top_w = -1, next_w = -1, total, share, busy, next_share;
  GpThreadSummary *t;
  GpElement *e;
  GpFinding *f;
  GString *fix;
  gchar *title, *hw;
  const gchar *hint;
  gdouble others_busy;
  gboolean waits;
  guint i, n_others;

  if (s->duration_s <= 0 || s->elem_summaries == NULL)
    return;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gdouble w = gp_session_work_ms (s, es);

    if (w <= 0)
      continue;
    if (w > top_w) {
      next = top;
      next_w = top_w;
      top = es;
      top_w = w;
    } else if (w > next_w) {
      next = es;
      next_w = w;
    }
  }
  total = gp_session_total_work_ms (s);
  if (top == NULL || total <= 0)
    return;

  share = top_w / total * 100.0;
  busy = gp_session_work_busy_pct (s, top);
  if (share < GP_HOT_MIN_SHARE_PCT || busy < GP_HOT_MIN_BUSY_PCT)
    return;

  e = gp_session_find_element (s, top->name);
  t = gp_session_thread_of (s, top->name);
  next_share = next ? next_w / total * 100.0 : 0;

  /* an import's element time includes waiting: the top may be a queue
   * whose factory the log does not say, a muxer interleaving */
  waits = (s->import_missing & GP_IMPORT_MISSING_SELF_TIME) != 0;
  title = g_strdup_printf (waits ? "%s holds buffers longest: %.0f%% of the "
      "element time" : "%s takes %.0f%% of the processing time", top->name,
      share);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
  g_free (title);
  gp_finding_add_target (f, top->name);
  f->rank_value = share;

  if (e && e->factory && *e->factory)
    gp_finding_set_string (f, "factory", e->factory);
  if (top->self_ms.p50 >= 0) {
    gp_finding_set_double (f, "self_p50_ms", top->self_ms.p50);
    gp_finding_set_double (f, "self_p95_ms", top->self_ms.p95);
  }
  gp_finding_set_double (f, "share_pct", share);
  gp_finding_set_double (f, "busy_pct", busy);
  gp_finding_set_int (f, "buffers", (gint64) top->buffers);
  if (top->cpu_ms >= 0 && top->self_total_ms > 0)
    gp_finding_set_double (f, "cpu_of_self_pct",
        top->cpu_ms / top->self_total_ms * 100.0);
  if (t) {
    gdouble tb = gp_session_thread_busy_pct (s, t);

    gp_finding_set_string (f, "thread", t->name);
    if (tb >= 0)
      gp_finding_set_double (f, "thread_busy_pct", tb);
    gp_finding_set_double (f, "thread_cpu_pct", t->cpu_pct_mean);
  }
  if (next && next_share >= GP_HOT_RUNNER_UP_PCT) {
    gp_finding_set_string (f, "next", next->name);
    gp_finding_set_double (f, "next_share_pct", next_share);
  }

  g_free (f->why);
  if (waits)
    f->why = g_strdup_printf ("Buffers spend %.0f%% of their time in the "
        "elements in %s (%s). Whether that is work or waiting (a queue, a "
        "muxer interleaving its streams, an encoder's look-ahead) this log "
        "does not say: waiting there is latency, not load.", share,
        top->name, gp_session_element_time_words (s));
  else
    f->why = g_strdup_printf ("%s does %.0f%% of the pipeline's processing "
        "(%s); making any other element faster gains at most the %.0f%% "
        "left.", top->name, share, gp_session_element_time_words (s),
        100.0 - share);

  fix = g_string_new (NULL);
  if (waits)
    g_string_append (fix, "Record the pipeline with gstprof run or wrap, "
        "whose self time is work only, to tell the two apart. If it is "
        "work: ");
  hint = gp_hot_hint (e ? e->factory : NULL);
  g_string_append_printf (fix, "%s %s. Its own settings: %s.",
      waits ? "start with" : "Start with", top->name, hint ? hint : "look for properties that trade quality or "
      "accuracy for speed");
  hw = gp_hot_hw_alternatives (s, e ? e->factory : NULL);
  if (hw)
    g_string_append_printf (fix, " A hardware element registered here does "
        "the same job: %s.", hw);
  else
    g_string_append (fix, " Or a faster element for the same job "
        "(hardware, or a cheaper format or size upstream).");
  /* A queue only helps when the thread has other work to hand off. */
  n_others = 0;
  others_busy = 0;
  for (i = 0; t && t->elements && i < t->elements->len; i++) {
    GpElementSummary *other = gp_session_find_elem_summary (s,
        g_ptr_array_index (t->elements, i));
    gdouble b;

    if (other == NULL || other == top ||
        (b = gp_session_work_busy_pct (s, other)) <= 0)
      continue;
    n_others++;
    others_busy += b;
  }
  if (others_busy >= GP_HOT_MIN_BUSY_PCT)
    g_string_append_printf (fix, " It shares thread %s with %u other "
        "working element(s), busy %.0f%% of the run together: a queue before "
        "it gives it a thread of its own, which raises throughput on several "
        "cores (the work per buffer stays).", t->name, n_others, others_busy);
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);
  g_free (hw);
}
