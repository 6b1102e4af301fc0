/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-late.c: LATE, buffers dropped for being late, from the QoS
 * messages in events[].
 *
 * GstBaseSink posts a QoS message when it drops a buffer that came later
 * than its max-lateness; elements that act on the sink's QoS events
 * (videoconvert, videoscale, video decoders with qos=true) post one when
 * they skip a frame. Each message carries the poster's running totals
 * (processed, dropped), numbers in the event's data; what its dropped total
 * grew by since its previous message is that message's drop, late when the
 * message says the buffer was late (jitter > 0). A drop that was not late
 * (a video decoder throwing away a frame it could not decode posts QoS
 * with the frame early) is no lateness: LOSS counts it. Thresholds and
 * reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <math.h>

#include <string.h>

/* A single late frame at start-up (pre-roll, the first negotiation) is not
 * a problem worth a finding: at least this many drops ... */
#define GP_LATE_MIN_DROPPED 3
/* ... and at least this share of the buffers the poster handled. */
#define GP_LATE_MIN_DROPPED_PCT 1.0

typedef GpQosCount GpLateCount;

static void
gp_late_count_free (gpointer p)
{
  GpLateCount *c = p;

  g_free (c->source);
  g_free (c);
}

/* Whether the QoS event says its buffer was late (jitter > 0); one that
 * does not carry the jitter (an import) is taken as late. */
static gboolean
gp_late_was_late (const GpEvent * ev)
{
  JsonNode *j = json_object_get_member (ev->data, "jitter_ns");

  return j == NULL || !JSON_NODE_HOLDS_VALUE (j) || json_node_get_int (j) > 0;
}

/* The poster's running totals, as the QoS event's numbers. */
static gboolean
gp_late_counts (const GpEvent * ev, guint64 * processed, guint64 * dropped)
{
  JsonNode *p = ev->data ? json_object_get_member (ev->data, "processed") :
      NULL;
  JsonNode *d = ev->data ? json_object_get_member (ev->data, "dropped") :
      NULL;

  if (!p || !d || !JSON_NODE_HOLDS_VALUE (p) || !JSON_NODE_HOLDS_VALUE (d)
      || json_node_get_int (p) < 0 || json_node_get_int (d) < 0)
    return FALSE;
  *processed = (guint64) json_node_get_int (p);
  *dropped = (guint64) json_node_get_int (d);
  return TRUE;
}

GPtrArray *
gp_rules_qos_collect (GpSession * s)
{
  GHashTable *by_source = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *counts = g_ptr_array_new_with_free_func (gp_late_count_free);
  GpPlayingSpan span;
  guint i;

  gp_session_playing_span (s, &span);
  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    GpLateCount *c;
    guint64 p, d;

    if (g_strcmp0 (ev->type, "qos") != 0 || !gp_late_counts (ev, &p, &d))
      continue;
    c = g_hash_table_lookup (by_source, ev->source ? ev->source : "");
    if (c == NULL) {
      c = g_new0 (GpLateCount, 1);
      c->source = g_strdup (ev->source ? ev->source : "");
      c->first_t = G_MAXDOUBLE;
      g_ptr_array_add (counts, c);
      g_hash_table_insert (by_source, c->source, c);
    }
    /* Not a late frame: a QoS message posted before PLAYING (a decoder
     * dropping its header packets: theoradec's three), or one without the
     * running time of a buffer (nothing was late against the clock). The
     * poster's totals include them: they are taken off its later ones. */
    if (ev->t < span.t0 || !json_object_has_member (ev->data,
            "running_time")) {
      c->base_processed = MAX (c->base_processed, p);
      c->base_dropped = MAX (c->base_dropped, d);
      continue;
    }
    /* Totals only grow; the maximum survives events lost to the cap on
     * stored events and any reordering. The growth is this message's
     * drop, late or not */
    c->processed = MAX (c->processed, p);
    if (d > MAX (c->dropped, c->base_dropped)) {
      guint64 grew = d - MAX (c->dropped, c->base_dropped);

      if (gp_late_was_late (ev))
        c->late += grew;
      else
        c->not_late += grew;
    }
    c->dropped = MAX (c->dropped, d);
    if (!gp_late_was_late (ev))
      continue;
    c->messages++;
    c->first_t = MIN (c->first_t, ev->t);
    c->last_t = MAX (c->last_t, ev->t);
  }
  g_hash_table_unref (by_source);
  return counts;
}

guint64
gp_rules_qos_handled (GpSession * s, const GpQosCount * c)
{
  GpLink *in = gp_session_link_into (s, c->source);
  GpLinkSummary *ls = in ? gp_session_find_link_summary (s, in->id) : NULL;

  /* what came in; else its QoS totals (processed counts what it passed
   * on, up to its last message) */
  return ls && ls->buffers > 0 ? ls->buffers :
      (c->processed > c->base_processed ? c->processed - c->base_processed :
      0) + c->late + c->not_late;
}

/* The late frames @c dropped while playing. */
static guint64
gp_late_dropped (const GpLateCount * c)
{
  return c->messages == 0 ? 0 : c->late;
}

gint64
gp_rules_late_dropped (GpSession * s)
{
  GPtrArray *counts = gp_rules_qos_collect (s);
  gint64 sum = counts->len ? 0 : -1;
  guint i;

  for (i = 0; i < counts->len; i++)
    sum += (gint64) gp_late_dropped (g_ptr_array_index (counts, i));
  g_ptr_array_unref (counts);
  return sum;
}

/* A live pipeline declares, by default, the latency of its source (a
 * frame period) and basesink's processing-deadline (20 ms): a sink finds
 * late every buffer that takes longer than that to reach it, however
 * little work each element does. */
#define GP_LATE_DEFAULT_DEADLINE_MS 20.0

/* The latency p95 of the slowest path into @sink; < 0 when none. */
static gdouble
gp_late_path_p95 (GpSession * s, const gchar * sink)
{
  gdouble worst = -1;
  guint i;

  for (i = 0; s->paths && i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (g_strcmp0 (p->sink, sink) == 0)
      worst = MAX (worst, p->latency_ms.p95);
  }
  return worst;
}

/* Elements that report the latency they add in the latency query (a jitter
 * buffer's latency, an encoder's lookahead, a muxer's interleave): a path
 * through one has declared more than a frame period, which the default
 * cannot tell. */
static const gchar *const gp_late_declaring[] = {
  "rtpjitterbuffer", "rtpbin", "x264enc", "x265enc", "vp8enc", "vp9enc",
  "av1enc", "rav1enc", "svtav1enc", "aggregator", NULL
};

/* basesink's processing-deadline when nobody set it, in ns. */
#define GP_LATE_DEFAULT_DEADLINE_NS 20000000

/* Whether the path into @sink declares latency of its own: an element of
 * gp_late_declaring upstream (@up), or a processing-deadline on the sink
 * that is not the default. */
static gboolean
gp_late_declares (GpSession * s, GHashTable * up, const gchar * sink)
{
  GpElement *e = gp_session_find_element (s, sink);
  gint64 deadline;
  guint i;

  if (e && gp_element_get_prop_int (e, "processing-deadline", &deadline) &&
      deadline != GP_LATE_DEFAULT_DEADLINE_NS)
    return TRUE;
  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *u = g_ptr_array_index (s->elements, i);

    if (u->factory && g_hash_table_contains (up, u->name) &&
        g_strv_contains (gp_late_declaring, u->factory))
      return TRUE;
  }
  return FALSE;
}

/* Buffers reach the sink at this share of its target rate or more: the
 * pipeline keeps up, whatever it drops. */
#define GP_LATE_KEEPS_UP_SHARE 0.95

/* The fix where the stream keeps up (its buffers reach @sink at its rate)
 * but takes longer to get there than the latency the live pipeline
 * declares: the sink's processing-deadline, raised to cover them. TRUE
 * when it applies. */
static gboolean
gp_late_undeclared (GpSession * s, GpFinding * f, const gchar * sink,
    GHashTable * up, gdouble period, GString * fix)
{
  GpSinkSummary *sk = gp_session_find_sink (s, sink);
  gdouble target = gp_session_sink_target_fps (s, sink);
  gdouble p95 = gp_late_path_p95 (s, sink), declared, deadline_ms;
  GPtrArray *patch;
  gchar *name;

  if (period <= 0 || p95 < 0 || !gp_session_any_live (s, up) ||
      sk == NULL || target <= 0 || sk->fps < target * GP_LATE_KEEPS_UP_SHARE ||
      gp_late_declares (s, up, sink))
    return FALSE;
  declared = period + GP_LATE_DEFAULT_DEADLINE_MS;
  if (p95 <= declared)
    return FALSE;
  /* what the buffers take beyond the source's own frame period, and a
   * frame period more of room, to the next 10 ms */
  deadline_ms = ceil ((p95 - period + period) / 10.0) * 10.0;
  gp_finding_set_double (f, "latency_p95_ms", p95);
  gp_finding_set_double (f, "declared_ms", declared);
  gp_finding_set_double (f, "processing_deadline_ms", deadline_ms);
  g_string_append_printf (fix, "The stream keeps up (%.1f of %.1f frames a "
      "second reach %s), but each takes %.0f ms to get there (p95), more "
      "than the %.0f ms a live pipeline declares by default (the source's "
      "%.1f ms frame period and the sink's processing-deadline of %.0f ms): "
      "%s finds them late however fast each element is. Raise "
      "processing-deadline on %s to %.0f ms (or have the element that "
      "takes the time report it in the latency query). ", sk->fps, target,
      sink, p95, declared, period, GP_LATE_DEFAULT_DEADLINE_MS, sink, sink,
      deadline_ms);
  name = gp_session_launch_name (s, sink);
  if (name) {
    patch = gp_launch_patch_new ();
    g_ptr_array_add (patch, gp_launch_op_set_int (name,
            "processing-deadline", (gint64) (deadline_ms * 1e6)));
    gp_rules_attach_patch (s, f, patch);
    g_free (name);
  }
  return TRUE;
}

void
gp_rule_late (GpSession * s, const GpRule * rule)
{
  GPtrArray *counts = gp_rules_qos_collect (s);
  guint i;

  for (i = 0; i < counts->len; i++) {
    GpLateCount *c = g_ptr_array_index (counts, i);
    guint64 handled, dropped, processed;
    gdouble pct;
    gboolean sink = gp_session_is_sink (s, c->source);
    GpThreadSummary *t = NULL;
    GpElementSummary *hot = NULL;
    GHashTable *up;
    gdouble target, period;
    GString *fix;
    GpFinding *f;
    gchar *title;

    if (c->messages == 0)
      continue;
    dropped = gp_late_dropped (c);
    processed = c->processed > c->base_processed ?
        c->processed - c->base_processed : 0;
    handled = processed + dropped;
    pct = handled > 0 ? dropped * 100.0 / handled : 0;
    if (dropped < GP_LATE_MIN_DROPPED || pct < GP_LATE_MIN_DROPPED_PCT)
      continue;

    target = sink ? gp_session_sink_target_fps (s, c->source) : s->target_fps;
    period = target > 0 ? 1000.0 / target : s->frame_period_ms;
    /* What made the buffers late: the limiting thread upstream, and its
     * busiest element. */
    up = gp_session_upstream_of (s, c->source);
    t = gp_session_limiting_thread (s, up);
    if (t)
      hot = gp_session_hottest_on_thread (s, t);

    if (sink)
      title = g_strdup_printf ("%s dropped %" G_GUINT64_FORMAT " late "
          "buffers (%.1f%% of %" G_GUINT64_FORMAT ")", c->source, dropped,
          pct, handled);
    else
      title = g_strdup_printf ("%s skipped %" G_GUINT64_FORMAT " frames on "
          "QoS (%.1f%% of %" G_GUINT64_FORMAT "): the sink reports them late",
          c->source, dropped, pct, handled);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, c->source);
    f->rank_value = MIN (100.0, pct);

    gp_finding_set_int (f, "dropped", (gint64) dropped);
    gp_finding_set_int (f, "processed", (gint64) processed);
    gp_finding_set_double (f, "dropped_pct", pct);
    gp_finding_set_int (f, "qos_messages", c->messages);
    gp_finding_set_double (f, "first_drop_s", c->first_t);
    gp_finding_set_double (f, "last_drop_s", c->last_t);
    if (period > 0)
      gp_finding_set_double (f, "frame_period_ms", period);
    if (hot) {
      gp_finding_set_string (f, "hottest", hot->name);
      if (hot->self_ms.p50 >= 0)
        gp_finding_set_double (f, "hottest_self_p50_ms", hot->self_ms.p50);
    }

    g_free (f->why);
    if (sink)
      f->why = g_strdup_printf ("These buffers reached %s after their "
          "running time plus the pipeline latency, so it dropped them: the "
          "output misses frames (stutter), and the work spent on them "
          "upstream was wasted.", c->source);
    else
      f->why = g_strdup_printf ("The sink reported buffers late, so %s "
          "skipped frames to catch up: the output misses frames (stutter).",
          c->source);

    fix = g_string_new (NULL);
    if (sink && gp_late_undeclared (s, f, c->source, up, period, fix)) {
      /* no element's work made them late */
      json_object_remove_member (f->evidence, "hottest");
      json_object_remove_member (f->evidence, "hottest_self_p50_ms");
      g_hash_table_unref (up);
      g_free (f->fix);
      f->fix = g_string_free (fix, FALSE);
      continue;
    }
    g_hash_table_unref (up);
    if (hot && hot->self_ms.p50 >= 0 && period > 0 &&
        hot->self_ms.p50 > period)
      g_string_append_printf (fix, "%s takes %.1f ms per frame, more than "
          "the %.1f ms frame period: make it faster (its settings, a "
          "hardware element) or lower the rate or resolution before it. ",
          hot->name, hot->self_ms.p50, period);
    else if (hot)
      g_string_append_printf (fix, "The busiest element upstream is %s: "
          "make it faster, or give it its own thread with a queue so its "
          "spikes do not delay everything behind it. ", hot->name);
    g_string_append (fix, "Buffers that arrive late are the symptom; "
        "raising max-lateness or setting sync=false only hides them. If the "
        "pipeline is live, check that its latency (the sink's "
        "processing-deadline, queues' sizes) covers the time it takes.");
    g_free (f->fix);
    f->fix = g_string_free (fix, FALSE);
  }

  g_ptr_array_unref (counts);
}
