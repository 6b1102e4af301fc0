/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-loss.c: LOSS, data lost on the way, a symptom: RTP packets that
 * never came, and buffers a leaky queue threw away.
 *
 * RTP: the tracer follows the sequence numbers on every link whose caps are
 * application/x-rtp (summary.links.<id>.rtp: expected, received, as RFC
 * 3550 A.3 counts them for a receiver report). The packets missing at a
 * link and not already missing at the links into its source element went
 * missing there: before a source element that takes no RTP in (udpsrc: on
 * the network or in the socket), else inside that element (a jitter
 * buffer dropping packets that came after their deadline). Leaky queues:
 * the buffers they dropped against those that entered (QLEAK, a cause,
 * names what drains the queue too slowly). Frames dropped late on QoS are
 * LATE's. Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-caps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* RTP: medium from this many packets lost at a place ... */
#define GP_LOSS_RTP_MIN_PACKETS 5
/* ... that are at least this share (%) of those sent: each packet lost of
 * a compressed video stream damages the picture until the next keyframe,
 * and video sends several packets a frame, so one in a thousand is
 * already a visible glitch every few seconds. Fewer: info. */
#define GP_LOSS_RTP_MIN_PCT 0.1
/* High from this share (%): a stream that breaks up all the time. */
#define GP_LOSS_HIGH_PCT 5.0
/* A link whose numbering started anew more often than this carries
 * several senders interleaved (a socket two senders send to): its counts
 * say nothing of loss, so a place below it is not located. */
#define GP_LOSS_MAX_RESTARTS 3
/* Inside an element, only a jitter buffer is known to lose packets it got
 * (those that came after their deadline): it says so at medium. Another
 * element that passes on fewer may do it by design (an FEC decoder keeps
 * its repair packets, a payload-type demuxer splits one numbering): info. */
static const gchar *const gp_loss_drops_late[] = {
  "rtpjitterbuffer", NULL
};


/* The packets lost before @ls: expected less received, 0 when duplicates
 * or packets from before the first made up for the gaps. */
static guint64
gp_loss_rtp_lost (const GpLinkSummary * ls)
{
  return ls->rtp_expected > ls->rtp_received ?
      ls->rtp_expected - ls->rtp_received : 0;
}

/* How many links out of @element carried RTP: a payload-type or SSRC
 * demuxer splits one numbering over several, each with holes. */
static guint
gp_loss_rtp_outputs (GpSession * s, const gchar * element)
{
  guint i, n = 0;

  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
    gchar *from = gp_pad_element (l->src);

    if (ls && ls->rtp && g_strcmp0 (from, element) == 0)
      n++;
    g_free (from);
  }
  return n;
}

/* What the links into @element say of the packets lost before it: the
 * most any of them lost (*@upstream), whether one of them carried RTP at
 * all (returned), and whether one is unmeasurable (*@mixed). */
static gboolean
gp_loss_rtp_upstream (GpSession * s, const gchar * element,
    guint64 * upstream, gboolean * mixed)
{
  gboolean any = FALSE;
  guint i;

  *upstream = 0;
  *mixed = FALSE;
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls;
    gchar *into = gp_pad_element (l->sink);
    gboolean ours = g_strcmp0 (into, element) == 0;

    g_free (into);
    if (!ours || (ls = gp_session_find_link_summary (s, l->id)) == NULL
        || !ls->rtp)
      continue;
    any = TRUE;
    if (ls->rtp_restarts > GP_LOSS_MAX_RESTARTS)
      *mixed = TRUE;
    else
      *upstream = MAX (*upstream, gp_loss_rtp_lost (ls));
  }
  return any;
}

static void
gp_loss_rtp_link (GpSession * s, const GpRule * rule, GpLink * l,
    GpLinkSummary * ls)
{
  gchar *from = gp_pad_element (l->src), *into = gp_pad_element (l->sink);
  guint64 lost = gp_loss_rtp_lost (ls), upstream, here;
  gboolean rtp_in, mixed;
  gdouble pct;
  const gchar *severity;
  gchar *title;
  GpElement *e;
  GpFinding *f;

  if (lost == 0 || ls->rtp_restarts > GP_LOSS_MAX_RESTARTS)
    goto out;
  rtp_in = gp_loss_rtp_upstream (s, from, &upstream, &mixed);
  /* the loss the links above already show is theirs; an element that
   * splits one numbering over several outputs leaves holes in each */
  if (upstream >= lost || (rtp_in && gp_loss_rtp_outputs (s, from) > 1))
    goto out;
  here = lost - upstream;
  pct = ls->rtp_expected > 0 ? here * 100.0 / ls->rtp_expected : 0;
  e = gp_session_find_element (s, from);
  severity = here < GP_LOSS_RTP_MIN_PACKETS || pct < GP_LOSS_RTP_MIN_PCT ||
      (rtp_in && !mixed && (e == NULL ||
          !g_strv_contains (gp_loss_drops_late, e->factory))) ?
      GP_SEVERITY_INFO : pct >= GP_LOSS_HIGH_PCT ? GP_SEVERITY_HIGH :
      GP_SEVERITY_MEDIUM;

  if (!rtp_in)
    title = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
        " RTP packets (%.2f%%) never reached %s: lost before %s received "
        "them", here, ls->rtp_expected, pct, into, from);
  else if (mixed)
    title = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
        " RTP packets (%.2f%%) never reached %s: lost in %s or before it",
        here, ls->rtp_expected, pct, into, from);
  else
    title = g_strdup_printf ("%s passed on %" G_GUINT64_FORMAT " fewer RTP "
        "packets than it got (%.2f%% of %" G_GUINT64_FORMAT ")", from, here,
        pct, ls->rtp_expected);
  f = gp_rule_add_finding (s, rule, severity, title);
  g_free (title);
  /* a link of several senders above: where they went missing is not
   * known, and no element is to blame more than the rest */
  if (!mixed)
    gp_finding_add_target (f, from);
  f->rank_value = MIN (100.0, pct * 10.0);
  gp_finding_set_string (f, "kind", "rtp");
  gp_finding_set_string (f, "link", l->id);
  gp_finding_set_int (f, "lost", (gint64) here);
  gp_finding_set_int (f, "expected", (gint64) ls->rtp_expected);
  gp_finding_set_int (f, "received", (gint64) ls->rtp_received);
  gp_finding_set_double (f, "lost_pct", pct);
  gp_finding_set_int (f, "lost_upstream", (gint64) upstream);
  gp_finding_set_string (f, "where", !rtp_in ? "before" : mixed ?
      "at-or-before" : "in");

  g_free (f->why);
  f->why = g_strdup ("Each RTP packet lost is a hole in what the receiver "
      "plays: compressed video shows a damaged or frozen picture until the "
      "next keyframe, audio a click or a gap. The sequence numbers say how "
      "many the sender sent, whatever the cause.");
  g_free (f->fix);
  if (!rtp_in)
    f->fix = g_strdup_printf ("The packets were missing when %s received "
        "them: lost on the network or dropped by the kernel because the "
        "socket's receive buffer overflowed. Raise the buffer (udpsrc "
        "buffer-size, and net.core.rmem_max, which caps it) and, where the "
        "sender can resend, turn on retransmission (rtpbin do-retransmission "
        "with RTX) or use FEC; over a lossy network, a lower bitrate.",
        from);
  else if (mixed)
    f->fix = g_strdup_printf ("The links into %s carry several senders "
        "interleaved, so where the packets went missing above it is not "
        "measured. Look at the socket's receive buffer and the network "
        "first.", from);
  else if (e && g_strv_contains (gp_loss_drops_late, e->factory))
    f->fix = g_strdup_printf ("%s received these packets and did not pass "
        "them on: a jitter buffer drops those that come after their "
        "deadline. Give it more latency (its latency property, rtpbin's "
        "latency) if the network's jitter is larger than it allows.", from);
  else
    f->fix = g_strdup_printf ("%s received these packets and did not pass "
        "them on. That may be its design (an FEC decoder keeps its repair "
        "packets; a demuxer of payload types or SSRCs splits one "
        "numbering), so this stays info; if it is not, look at why it "
        "drops.", from);
out:
  g_free (from);
  g_free (into);
}

static void
gp_loss_leaky (GpSession * s, const GpRule * rule, GpQueueSummary * qs)
{
  guint64 entered;
  gdouble pct;
  GpFinding *f;
  gchar *title;

  if (qs->dropped < GP_QLEAK_MIN_DROPPED ||
      (entered = gp_session_buffers_into (s, qs->name)) == 0)
    return;
  pct = MIN (100.0, qs->dropped * 100.0 / entered);
  if (pct < GP_QLEAK_MIN_DROP_PCT)
    return;
  title = g_strdup_printf ("%s threw away %" G_GUINT64_FORMAT " of %"
      G_GUINT64_FORMAT " buffers (%.1f%%): leaky=%s, full", qs->name,
      qs->dropped, entered, pct, qs->leaky);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, qs->name);
  f->rank_value = pct;
  gp_finding_set_string (f, "kind", "leaky");
  gp_finding_set_int (f, "lost", (gint64) qs->dropped);
  gp_finding_set_int (f, "entered", (gint64) entered);
  gp_finding_set_double (f, "lost_pct", pct);
  gp_finding_set_string (f, "leaky", qs->leaky);
  g_free (f->why);
  f->why = g_strdup ("A leaky queue drops when it is full, and it is full "
      "because what drains it is slower than what fills it: the dropped "
      "buffers never reach the output (fewer frames a second, holes in "
      "audio). Meant when only the freshest frames matter; this says how "
      "many it costs.");
  g_free (f->fix);
  f->fix = g_strdup_printf ("Make what drains %s keep up (QLEAK names the "
      "element that limits it), or lower the rate before it; a larger "
      "queue only delays the drops.", qs->name);
}

/* A videorate whose input and output caps ask for the same rate repeats
 * frames only where its input misses them: from this share of its output
 * (a camera in low light, a capture dropping frames), the picture visibly
 * stutters... */
#define GP_LOSS_REPEAT_PCT 10.0
/* ... over at least this many frames out; high from this share: a
 * quarter of the picture is copies. */
#define GP_LOSS_REPEAT_MIN_OUT 30
#define GP_LOSS_REPEAT_HIGH_PCT 25.0

/* A loss of @kind at @target, @pct of what should have come: medium, high
 * from GP_LOSS_HIGH_PCT, ranked by the share × 10; @title is taken. */
static GpFinding *
gp_loss_add (GpSession * s, const GpRule * rule, const gchar * kind,
    const gchar * target, gchar * title, gdouble pct)
{
  GpFinding *f = gp_rule_add_finding (s, rule, pct >= GP_LOSS_HIGH_PCT ?
      GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM, title);

  g_free (title);
  gp_finding_add_target (f, target);
  f->rank_value = MIN (100.0, pct * 10.0);
  gp_finding_set_string (f, "kind", kind);
  return f;
}

/* What a videorate or an audiorate fills in before its first buffer, in
 * its units a second (@per_s: frames or samples): without skip-to-first it
 * fills from the segment's start up to it (a camera that takes a second to
 * give its first frame), which is no loss; 0 with it. */
static gdouble
gp_loss_startup_fill (GpSession * s, GpElement * e, GpLink * in,
    gdouble per_s)
{
  GpLinkSummary *ls = in ? gp_session_find_link_summary (s, in->id) : NULL;
  gboolean skip = FALSE;

  if (gp_element_get_prop_bool (e, "skip-to-first", &skip) && skip)
    return 0;
  return ls && ls->first_s > 0 ? ls->first_s * per_s : 0;
}

/* A videorate's own count (its "duplicate", "out" properties, as the graph
 * read them at the end); -1 when not recorded. */
static gint64
gp_loss_prop_count (GpElement * e, const gchar * prop)
{
  gint64 v;

  return gp_element_get_prop_int (e, prop, &v) ? v : -1;
}

/* Frames a source never delivered, hidden by a videorate that repeats the
 * last one where the next is missing: its input's caps say the same rate
 * as its output's, so its repeats are not a rate conversion. */
static void
gp_loss_repeats (GpSession * s, const GpRule * rule, GpElement * vr)
{
  GpLink *in = gp_session_link_into (s, vr->name);
  GpLink *out = gp_session_link_out_of (s, vr->name);
  gdouble fin = in ? gp_caps_framerate (in->caps) : -1;
  gdouble fout = out ? gp_caps_framerate (out->caps) : -1;
  gint64 dup = gp_loss_prop_count (vr, "duplicate");
  gint64 n = gp_loss_prop_count (vr, "out");
  GpLinkSummary *ls = in ? gp_session_find_link_summary (s, in->id) : NULL;
  gchar *from, *title;
  gdouble pct;
  GpFinding *f;

  if (fin <= 0 || fout <= 0 || fabs (fin - fout) > 0.01 * fout || dup <= 0 ||
      n < GP_LOSS_REPEAT_MIN_OUT)
    return;
  dup -= (gint64) gp_loss_startup_fill (s, vr, in, fout);
  if (dup <= 0)
    return;
  pct = 100.0 * dup / n;
  if (pct < GP_LOSS_REPEAT_PCT)
    return;
  from = gp_pad_element (in->src);
  title = g_strdup_printf ("%s repeats %" G_GINT64_FORMAT " of its %"
      G_GINT64_FORMAT " frames (%.0f%%): the frames %s should bring at %.0f "
      "fps are missing", vr->name, dup, n, pct, from, fin);
  f = gp_rule_add_finding (s, rule, pct >= GP_LOSS_REPEAT_HIGH_PCT ?
      GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, vr->name);
  f->rank_value = MIN (100.0, pct);
  gp_finding_set_string (f, "kind", "repeats");
  gp_finding_set_string (f, "videorate", vr->name);
  gp_finding_set_int (f, "repeated", dup);
  gp_finding_set_int (f, "out", n);
  gp_finding_set_double (f, "repeated_pct", pct);
  gp_finding_set_double (f, "caps_fps", fin);
  if (ls && ls->fps > 0)
    gp_finding_set_double (f, "input_fps", ls->fps);
  g_free (f->why);
  f->why = g_strdup_printf ("%s's input and output both say %.0f frames a "
      "second, so it repeats a frame only where the next never came: %.0f%% "
      "of what it shows is a copy of the frame before (the picture "
      "stutters), and the missing frames were lost before it.", vr->name,
      fin, pct);
  g_free (f->fix);
  f->fix = g_strdup_printf ("The repeats hide the source's shortfall; look "
      "at %s and what comes before %s: a camera that lowers its rate in low "
      "light (its exposure), a capture or a network that drops frames, an "
      "element dropping them. Where the source cannot keep %.0f fps, ask it "
      "for the rate it keeps, so nothing is repeated.", from, vr->name, fin);
  g_free (from);
}

/* An audiorate that filled this share (%) of the run with silence, and
 * at least this many ms: the audio its input should bring never came (a
 * capture that drops buffers, a network that loses them); a click or a
 * gap every few seconds is already heard. */
#define GP_LOSS_SILENCE_PCT 1.0
#define GP_LOSS_SILENCE_MIN_MS 100.0

/* Audio a source never delivered, filled with silence by an audiorate
 * (its own "add" count of samples, read with the graph at the end). */
static void
gp_loss_silence (GpSession * s, const GpRule * rule, GpElement * ar)
{
  GpLink *out = gp_session_link_out_of (s, ar->name);
  gchar *rate_s = out ? gp_caps_field (out->caps, "rate") : NULL;
  gint rate = rate_s ? atoi (rate_s) : 0;
  gint64 added = gp_loss_prop_count (ar, "add");
  gdouble ms, pct;
  gchar *from, *title;
  GpLink *in;
  GpFinding *f;

  g_free (rate_s);
  if (rate <= 0 || added <= 0 || s->duration_s <= 0)
    return;
  added -= (gint64) gp_loss_startup_fill (s, ar, gp_session_link_into (s,
          ar->name), rate);
  if (added <= 0)
    return;
  ms = 1000.0 * added / rate;
  pct = ms / (10.0 * s->duration_s);
  if (ms < GP_LOSS_SILENCE_MIN_MS || pct < GP_LOSS_SILENCE_PCT)
    return;
  in = gp_session_link_into (s, ar->name);
  from = in ? gp_pad_element (in->src) : g_strdup ("its input");
  title = g_strdup_printf ("%s filled %.0f ms of the run with silence "
      "(%.1f%%): audio %s should bring never came", ar->name, ms, pct, from);
  f = gp_loss_add (s, rule, "silence", ar->name, title, pct);
  gp_finding_set_string (f, "audiorate", ar->name);
  gp_finding_set_int (f, "added_samples", added);
  gp_finding_set_double (f, "added_ms", ms);
  gp_finding_set_double (f, "added_pct", pct);
  g_free (f->why);
  f->why = g_strdup_printf ("%s keeps the audio continuous: where its input "
      "leaves a gap it inserts silence. %.0f ms of it over %.1f s is what "
      "went missing before it: the listener hears the drop-outs.", ar->name,
      ms, s->duration_s);
  g_free (f->fix);
  f->fix = g_strdup_printf ("The silence covers the loss; look at %s and "
      "what comes before %s: a capture that overruns (a larger buffer-time, "
      "a thread that keeps up), a network that loses packets (LOSS on its "
      "RTP link), an element dropping buffers.", from, ar->name);
  g_free (from);
}

/* Frames an element threw away, not for lateness: a video decoder that
 * cannot decode a frame drops it and posts QoS with the frame early
 * (GstVideoDecoder's drop on a decode error; the decode error itself
 * reaches only the debug log below max-errors, which is -1 by default).
 * At least this many, and this share of what it handled (LATE's). */
#define GP_LOSS_DROP_MIN 3
#define GP_LOSS_DROP_MIN_PCT 1.0

static void
gp_loss_not_late (GpSession * s, const GpRule * rule, const GpQosCount * c)
{
  guint64 handled = gp_rules_qos_handled (s, c);
  gdouble pct;
  gchar *title;
  GpFinding *f;

  if (c->not_late < GP_LOSS_DROP_MIN || handled == 0)
    return;
  pct = 100.0 * c->not_late / handled;
  if (pct < GP_LOSS_DROP_MIN_PCT)
    return;
  title = g_strdup_printf ("%s threw away %" G_GUINT64_FORMAT " of %"
      G_GUINT64_FORMAT " frames (%.1f%%), not for lateness: data it could "
      "not use", c->source, c->not_late, handled, pct);
  f = gp_loss_add (s, rule, "dropped", c->source, title, pct);
  gp_finding_set_string (f, "element", c->source);
  gp_finding_set_int (f, "dropped", (gint64) c->not_late);
  gp_finding_set_int (f, "handled", (gint64) handled);
  gp_finding_set_double (f, "dropped_pct", pct);
  g_free (f->why);
  f->why = g_strdup_printf ("%s dropped these frames on its own and said "
      "so in QoS messages whose frames were not late: not a sink's "
      "lateness but data it could not use. A video decoder does this for "
      "a frame it cannot decode (damaged data: packets lost on a network, "
      "a file cut or corrupted, a stream that starts without a "
      "keyframe); GStreamer writes the decode error itself only to the "
      "debug log (GST_DEBUG=videodecoder:2 shows it).", c->source);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Look at the data reaching %s: run with "
      "GST_DEBUG=videodecoder:2 to see each error, check the source for "
      "loss (LOSS on an RTP link says how much) or the file for damage; "
      "a decoder's max-errors turns errors into a stop instead.",
      c->source);
}

void
gp_rule_loss (GpSession * s, const GpRule * rule)
{
  GPtrArray *qos = gp_rules_qos_collect (s);
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);

    if (ls && ls->rtp)
      gp_loss_rtp_link (s, rule, l, ls);
  }
  for (i = 0; s->queue_summaries && i < s->queue_summaries->len; i++)
    gp_loss_leaky (s, rule, g_ptr_array_index (s->queue_summaries, i));
  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (g_strcmp0 (e->factory, "videorate") == 0)
      gp_loss_repeats (s, rule, e);
    else if (g_strcmp0 (e->factory, "audiorate") == 0)
      gp_loss_silence (s, rule, e);
  }
  for (i = 0; i < qos->len; i++)
    gp_loss_not_late (s, rule, g_ptr_array_index (qos, i));
  g_ptr_array_unref (qos);
}
