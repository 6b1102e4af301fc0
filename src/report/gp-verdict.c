/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict.c: the verdict text, its parts in the order it prints
 * them (gp_verdict_format, at the end). Laid out for 80 columns; every
 * number that the session does not have is written as "not measured"
 * (or "-" in tables, with a legend), never as 0.
 *
 *   gp-verdict.c           the text helpers, the header and the pipeline
 *                          sections (latency, threads, where the time
 *                          goes, waiting, queues)
 *   gp-verdict-rate.c      the Rate section (per sink, per stream)
 *   gp-verdict-machine.c   the Machine section (session.machine)
 *   gp-verdict-findings.c  the findings, ranked, with their evidence
 */
#include "gp-verdict-private.h"
#include "rules/gp-rules.h"
#include "core/gp-caps.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

/* Elements listed in "Where the time goes" before the rest are summed up. */
#define GP_VERDICT_MAX_ROWS 15
/* A hop of a latency path is named when it holds buffers this long, and
 * this share of the path's mean or more; at most this many per path. */
#define GP_VERDICT_HOP_MIN_MS 1.0
#define GP_VERDICT_HOP_SHARE 0.10
#define GP_VERDICT_MAX_HOPS 3
/* A path's start-up, left out of its latencies, is said when its longest
 * passes the steady p99 by this much and this share: a first keyframe or
 * a jitter buffer filling, not a millisecond of first-buffer setup. */
#define GP_VERDICT_STARTUP_MIN_MS 5.0
#define GP_VERDICT_STARTUP_SHARE 0.20
/* Waits shorter than this per buffer (p95) are not listed: a fraction of
 * a millisecond in a sink or a mixer input is scheduling, not a finding. */
#define GP_VERDICT_WAIT_MIN_MS 1.0
#define GP_VERDICT_MAX_WAIT_ROWS 8
/* With --cpu, an element whose thread was on the CPU for less than this
 * share of its wall self time is said to wait there (a sleep, a lock, its
 * own worker threads); below the minimum its total is noise. */
#define GP_VERDICT_OFF_CPU_FRACTION 0.5
#define GP_VERDICT_OFF_CPU_MIN_MS 10.0
/* A streaming thread that waited for a core this share of its life (the
 * kernel's run-queue wait) is said to: every element's self time on it
 * holds a part of that wait. Below it, scheduling noise. */
#define GP_VERDICT_RUN_DELAY_PCT 10.0
/* The process is CPU-bound at this share of all the cores it may use. */
#define GP_VERDICT_CPU_BOUND_FRACTION 0.90
#define GP_VERDICT_MAX_WORKER_GROUPS 3
#define GP_VERDICT_WORKER_GROUP_MIN_PCT 5.0

/* ------------------------------------------------------------------ */
/* text helpers (gp-verdict-private.h: every part uses them)          */
/* ------------------------------------------------------------------ */

void
gp_verdict_styled (GpVerdictText * vt, const gchar * style, const gchar * text)
{
  if (vt->color)
    g_string_append_printf (vt->out, "%s%s%s", style, text,
        GP_VERDICT_STYLE_RESET);
  else
    g_string_append (vt->out, text);
}

void
gp_verdict_heading (GpVerdictText * vt, const gchar * text)
{
  g_string_append_c (vt->out, '\n');
  gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, text);
  g_string_append_c (vt->out, '\n');
}

/* Appends @text padded (or cut, ending in "~") to @width display columns;
 * for figures, which fit by design: a name goes in gp_verdict_name_cell.
 * Count characters, not bytes. */
void
gp_verdict_cell (GString * out, const gchar * text, guint width, gboolean right)
{
  glong len = g_utf8_strlen (text, -1);
  guint i;

  if ((guint) len > width) {
    const gchar *end = g_utf8_offset_to_pointer (text, width - 1);

    g_string_append_len (out, text, end - text);
    g_string_append_c (out, '~');
    return;
  }
  if (right)
    for (i = len; i < width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (i = len; i < width; i++)
      g_string_append_c (out, ' ');
}

/* Appends @name padded to @width display columns, after a row's two-blank
 * indent. A longer name is never cut (it is what the user looks for): it
 * is written whole and the row's other columns go on the next line, under
 * their headings. */
void
gp_verdict_name_cell (GString * out, const gchar * name, guint width)
{
  guint i;

  if ((guint) g_utf8_strlen (name, -1) <= width) {
    gp_verdict_cell (out, name, width, FALSE);
    return;
  }
  g_string_append (out, name);
  g_string_append (out, "\n  ");
  for (i = 0; i < width; i++)
    g_string_append_c (out, ' ');
}

/* Word-wraps @text to the width: @first before the first line, @indent
 * before the others. */
void
gp_verdict_wrap (GString * out, const gchar * first, const gchar * indent,
    const gchar * text)
{
  gchar **words = g_strsplit_set (text ? text : "", " \n", -1);
  glong col;
  gboolean line_empty = TRUE;
  guint i;

  g_string_append (out, first);
  col = g_utf8_strlen (first, -1);
  for (i = 0; words[i]; i++) {
    glong wl = g_utf8_strlen (words[i], -1);

    if (wl == 0)
      continue;
    if (!line_empty && col + 1 + wl > GP_VERDICT_WIDTH) {
      g_string_append_c (out, '\n');
      g_string_append (out, indent);
      col = g_utf8_strlen (indent, -1);
      line_empty = TRUE;
    }
    if (!line_empty) {
      g_string_append_c (out, ' ');
      col++;
    }
    g_string_append (out, words[i]);
    col += wl;
    line_empty = FALSE;
  }
  g_string_append_c (out, '\n');
  g_strfreev (words);
}

/* Milliseconds with the precision the measurement supports. */
const gchar *
gp_verdict_ms (gchar buf[32], gdouble v)
{
  if (v < 0 || isnan (v))
    return "-";
  if (v < 10)
    g_snprintf (buf, 32, "%.2f", v);
  else if (v < 100)
    g_snprintf (buf, 32, "%.1f", v);
  else
    g_snprintf (buf, 32, "%.0f", v);
  return buf;
}

const gchar *
gp_verdict_pct (gchar buf[32], gdouble v)
{
  if (v < 0 || isnan (v))
    return "-";
  if (v > 0 && v < 9.95)
    g_snprintf (buf, 32, "%.1f%%", v);
  else
    g_snprintf (buf, 32, "%.0f%%", v);
  return buf;
}

/* ------------------------------------------------------------------ */
/* the header: the run, its errors and how it ended                   */
/* ------------------------------------------------------------------ */

static const gchar *
gp_verdict_data_string (const GpEvent * ev, const gchar * key)
{
  JsonNode *n = ev->data ? json_object_get_member (ev->data, key) : NULL;

  return n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_STRING ?
      json_node_get_string (n) : NULL;
}

/* Under a not-negotiated error: the link whose caps could not meet. */
static void
gp_verdict_negotiation (GpVerdictText * vt, const GpEvent * ev)
{
  const gchar *link = gp_verdict_data_string (ev, "link");
  const gchar *peer = gp_verdict_data_string (ev, "peer");
  const gchar *caps = gp_verdict_data_string (ev, "caps");
  const gchar *accepts = gp_verdict_data_string (ev, "accepts");
  gchar *text;

  gchar *c, *a;

  if (!link || !peer)
    return;
  c = gp_caps_brief (caps);
  a = gp_caps_brief (accepts);
  text = g_strdup_printf ("at the link %s > %s: it offers %s; %s accepts "
      "%s", link, peer, caps ? c : "no caps", peer, accepts ? a :
      "nothing it was offered");
  gp_verdict_wrap (vt->out, "  ", "    ", text);
  g_free (text);
  g_free (c);
  g_free (a);
}

/* Whether the pipeline played, and how the run ended: the facts every
 * number below depends on. */
static void
gp_verdict_run_state (GpVerdictText * vt, GpSession * s)
{
  GString *line = g_string_new (NULL);
  const GpEvent *stopped = gp_session_find_event (s, "stopped");
  /* how the stop itself went, when it took long (capture's events) */
  const GpEvent *closing = gp_session_find_event (s, "stuck");

  if (closing == NULL)
    closing = gp_session_find_event (s, "slow-stop");

  /* (an error says why itself) */
  if (gp_session_never_played (s) && g_strcmp0 (s->end, "error") != 0) {
    const GpThreadSummary *blocked = NULL;
    guint i, n;

    g_string_append_printf (line, "NEVER PLAYED: it got to %s", s->reached);
    for (i = 0, n = 0; i < s->preroll->len; i++) {
      GpPrerollSink *p = g_ptr_array_index (s->preroll, i);

      if (!p->prerolled)
        g_string_append_printf (line, "%s%s", n++ ? ", " : "; never "
            "prerolled: ", p->name);
    }
    for (i = 0, n = 0; i < s->preroll->len; i++) {
      GpPrerollSink *p = g_ptr_array_index (s->preroll, i);

      if (p->prerolled)
        g_string_append_printf (line, "%s%s", n++ ? ", " : "; holding the "
            "only buffer (prerolled): ", p->name);
    }
    blocked = gp_session_blocked_thread (s);
    if (blocked)
      g_string_append_printf (line, ", which blocks thread %s", blocked->name);
    g_string_append (line, ". No rate, latency or stall is computed; see "
        "PREROLL.");
    gp_verdict_wrap (vt->out, "", "  ", line->str);
    g_string_truncate (line, 0);
  }
  if (g_strcmp0 (s->end, "eos") == 0)
    g_string_append (line, "ended: the stream's own end (EOS)");
  else if (g_strcmp0 (s->end, "duration") == 0)
    g_string_append_printf (line, "ended: --duration reached at %.1f s",
        s->stop_s);
  else if (g_strcmp0 (s->end, "interrupt") == 0)
    g_string_append_printf (line, "ended: stopped early (Ctrl-C) at %.1f s",
        s->stop_s);
  else if (g_strcmp0 (s->end, "error") == 0)
    g_string_append (line, "ended: on an error (below)");
  if (line->len > 0 && s->stop_s >= 0) {
    if (s->drain_s >= 0)
      g_string_append_printf (line, "; EOS drained in %.2f s", s->drain_s);
    else if (stopped)
      g_string_append_printf (line, "; %s", stopped->text);
    if (closing)
      g_string_append_printf (line, "; %s", closing->text);
  }
  if (line->len > 0)
    gp_verdict_wrap (vt->out, "", "  ", line->str);
  if (s->events_dropped > 0) {
    g_string_printf (line, "events: %" G_GUINT64_FORMAT " were dropped "
        "(too many at once, a QoS storm): the timeline has gaps",
        s->events_dropped);
    gp_verdict_wrap (vt->out, "", "  ", line->str);
  }
  g_string_free (line, TRUE);
}

static void
gp_verdict_header (GpVerdictText * vt, GpSession * s)
{
  GString *line = g_string_new (NULL);
  guint i;

  /* the fact every number depends on comes first */
  gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, gp_session_never_played (s) &&
      g_strcmp0 (s->end, "error") != 0 ?
      "gstprof verdict: the pipeline never reached PLAYING" :
      "gstprof verdict");
  g_string_append_c (vt->out, '\n');

  /* the records the tracer wrote by itself: not a gstprof command's run */
  g_string_append_printf (line, "%s", g_strcmp0 (s->mode, "records") == 0 ?
      "tracer records" : s->mode && *s->mode ? s->mode : "run");
  if (s->duration_s > 0)
    g_string_append_printf (line, " of %.1f s", s->duration_s);
  else
    g_string_append (line, ", duration not measured");
  g_string_append_printf (line, ", GStreamer %s, %s platform",
      s->gstreamer && *s->gstreamer ? s->gstreamer : "(version not recorded)",
      s->platform && *s->platform ? s->platform : "unknown");
  if (s->started && *s->started)
    g_string_append_printf (line, ", started %s", s->started);
  gp_verdict_wrap (vt->out, "", "  ", line->str);
  g_string_free (line, TRUE);
  if (s->launch && *s->launch)
    gp_verdict_wrap (vt->out, "pipeline: ", "  ", s->launch);
  if (s->exit_code == -1)
    gp_verdict_wrap (vt->out, "", "  ",
        "unfinished: the run was stopped before "
        "it could write its final session; this is its last checkpoint");
  gp_verdict_run_state (vt, s);

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    gchar *text, *when;

    /* A time before the session started says the time base is off: the
     * event is still worth showing, its time is not. */
    if (ev->t >= 0)
      when = g_strdup_printf ("%s at %.1f s: ", ev->type, ev->t);
    else
      when = g_strdup_printf ("%s: ", ev->type);
    if (g_strcmp0 (ev->type, "error") == 0)
      text = g_strdup_printf ("%s%s%s", ev->source && *ev->source ?
          ev->source : "", ev->source && *ev->source ? ": " : "",
          ev->text ? ev->text : "");
    else if (g_strcmp0 (ev->type, "warning") == 0 &&
        g_strcmp0 (ev->source, "gstprof") == 0) {
      /* what gstprof itself says of what it read (a records file cut by a
       * killed program) */
      g_free (when);
      when = g_strdup ("note: ");
      text = g_strdup (ev->text ? ev->text : "");
    } else {
      g_free (when);
      continue;
    }
    gp_verdict_wrap (vt->out, when, "  ", text);
    gp_verdict_negotiation (vt, ev);
    g_free (when);
    g_free (text);
  }
}

/* ------------------------------------------------------------------ */
/* Latency                                                            */
/* ------------------------------------------------------------------ */

static gint
gp_verdict_compare_hops (gconstpointer a, gconstpointer b)
{
  gdouble ha = (*(GpHop **) a)->hop_ms, hb = (*(GpHop **) b)->hop_ms;

  return ha > hb ? -1 : ha < hb ? 1 : 0;
}

/* Where the time of a path goes, element by element (gp_session_path_hops):
 * the elements that hold its buffers longest, work or waiting, and where
 * timestamps changed on the way. */
static void
gp_verdict_path_hops (GpVerdictText * vt, GpSession * s, GpPath * p)
{
  GPtrArray *hops = gp_session_path_hops (s, p);
  GPtrArray *big;
  GString *text;
  const gchar *changed = NULL;
  gdouble min_ms;
  guint i;

  if (hops == NULL || p->mean_ms <= 0) {
    if (hops)
      g_ptr_array_unref (hops);
    return;
  }
  min_ms = MAX (GP_VERDICT_HOP_MIN_MS, p->mean_ms * GP_VERDICT_HOP_SHARE);
  big = g_ptr_array_new ();
  for (i = 0; i < hops->len; i++) {
    GpHop *h = g_ptr_array_index (hops, i);

    if (h->hop_ms >= min_ms)
      g_ptr_array_add (big, h);
    if (!changed && i + 1 < hops->len &&
        !((GpHop *) g_ptr_array_index (hops, i + 1))->exact)
      changed = h->element;
  }
  g_ptr_array_sort (big, gp_verdict_compare_hops);
  text = g_string_new (NULL);
  for (i = 0; i < big->len && i < GP_VERDICT_MAX_HOPS; i++) {
    GpHop *h = g_ptr_array_index (big, i);
    gchar b[32];

    g_string_append_printf (text, "%s%s %s ms", i ? "; " : "held longest "
        "by ", h->element, gp_verdict_ms (b, h->hop_ms));
    if (h->queue)
      g_string_append (text, " (queued: waiting)");
    else if (h->work_ms >= 0 && h->work_ms < h->hop_ms * 0.5)
      g_string_append_printf (text, " (waiting: %s ms of it is work)",
          gp_verdict_ms (b, h->work_ms));
    else if (h->work_ms >= 0)
      g_string_append (text, " (working)");
  }
  if (text->len > 0)
    gp_verdict_wrap (vt->out, "    ", "      ", text->str);
  if (changed) {
    gchar *note = g_strdup_printf ("past %s, timestamps or buffer "
        "boundaries are not the source's: buffers matched by running-time "
        "slot", changed);

    gp_verdict_wrap (vt->out, "    ", "      ", note);
    g_free (note);
  }
  g_string_free (text, TRUE);
  g_ptr_array_unref (big);
  g_ptr_array_unref (hops);
}

/* Which span a path's latencies are over, when it is not the steady
 * state the heading says, or when the start-up left out was long. */
static void
gp_verdict_path_span (GpVerdictText * vt, GpSession * s, GpPath * p)
{
  gchar b[32], *note = NULL;

  if (p->latency_ms.p50 < 0)
    return;
  if (!p->steady)
    note = g_strdup (s->import_schema ? "over the whole run: an import "
        "does not tell its start-up apart" : "over the whole run: less "
        "than a second of steady state followed its start-up");
  else if (p->startup_max_ms > p->latency_ms.p99 + GP_VERDICT_STARTUP_MIN_MS
      && p->startup_max_ms > p->latency_ms.p99 * (1 + GP_VERDICT_STARTUP_SHARE))
    note = g_strdup_printf ("start-up, its first second, left out: up to "
        "%s ms", gp_verdict_ms (b, p->startup_max_ms));
  if (note)
    gp_verdict_wrap (vt->out, "    ", "      ", note);
  g_free (note);
}

static void
gp_verdict_latency (GpVerdictText * vt, GpSession * s)
{
  gchar b1[32], b2[32], b3[32];
  guint i;

  gp_verdict_heading (vt, "Latency, source to sink input, steady state "
      "(p50 / p95 / p99; p95 vs a frame)");
  if (gp_session_never_played (s)) {
    g_string_append (vt->out, "  not measured (the pipeline never played)\n");
    return;
  }
  if (s->paths == NULL || s->paths->len == 0) {
    g_string_append (vt->out, "  not measured (no buffer was matched from a "
        "source to a sink)\n");
    return;
  }
  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);
    GpSinkSummary *sk;
    gdouble target, period;
    gchar *name;
    GString *line;

    /* control traffic (RTCP, a bin's probe) is no stream's latency */
    if (gp_session_sink_is_control (s, p->sink, NULL))
      continue;
    sk = gp_session_find_sink (s, p->sink);
    target = gp_session_sink_target_fps (s, p->sink);
    /* a frame period only means something to a video sink */
    period = target > 0 ? 1000.0 / target :
        sk && gp_media_kind_from_name (sk->media) != GP_MEDIA_VIDEO &&
        gp_media_kind_from_name (sk->media) != GP_MEDIA_UNKNOWN ? -1 :
        s->frame_period_ms;
    name = g_strdup_printf ("%s > %s", p->source, p->sink);
    line = g_string_new ("  ");

    gp_verdict_name_cell (line, name, 32);
    if (p->latency_ms.p50 < 0)
      g_string_append (line, " not measured");
    else
      g_string_append_printf (line, " %s / %s / %s ms",
          gp_verdict_ms (b1, p->latency_ms.p50), gp_verdict_ms (b2,
              p->latency_ms.p95),
          gp_verdict_ms (b3, p->latency_ms.p99));
    if (p->latency_ms.p95 >= 0 && gp_session_read_ahead (s, p->sink))
      g_string_append (line, "  not live: read ahead of the clock");
    else if (period > 0 && p->latency_ms.p95 >= 0)
      g_string_append_printf (line, "  %s %.1f ms",
          p->latency_ms.p95 > period ? "over" : "within", period);
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
    gp_verdict_path_span (vt, s, p);
    gp_verdict_path_hops (vt, s, p);
    /* a buffer or two at the start or the end is noise */
    if (p->unmatched * 100 > p->matched + p->unmatched) {
      gchar *note = g_strdup_printf ("%" G_GUINT64_FORMAT " buffers matched, "
          "%" G_GUINT64_FORMAT " could not be matched (no source buffer "
          "covers their running time) and are not counted", p->matched,
          p->unmatched);

      gp_verdict_wrap (vt->out, "    ", "    ", note);
      g_free (note);
    }
    g_free (name);
  }
}

/* ------------------------------------------------------------------ */
/* Threads                                                            */
/* ------------------------------------------------------------------ */

static void
gp_verdict_thread_line (GpVerdictText * vt, GpSession * s, const gchar * label,
    GpThreadSummary * t)
{
  gdouble busy = gp_session_thread_busy_pct (s, t);
  gchar b1[32], b2[32], b3[32];
  gchar *text, *prefix;

  text = g_strdup_printf ("%s: busy %s of the run, CPU %s of a core "
      "(peak %s)", t->name && *t->name ? t->name : "(unnamed)",
      busy >= 0 ? gp_verdict_pct (b1, busy) : "not measured",
      t->cpu_pct_mean >= 0 ? gp_verdict_pct (b2,
          t->cpu_pct_mean) : "not measured",
      t->cpu_pct_max >= 0 ? gp_verdict_pct (b3,
          t->cpu_pct_max) : "not measured");
  prefix = g_strdup_printf ("  %s ", label);
  gp_verdict_wrap (vt->out, prefix, "      ", text);
  g_free (text);
  g_free (prefix);
  if (t->elements && t->elements->len > 0) {
    gchar *list;

    g_ptr_array_add (t->elements, NULL);
    list = g_strjoinv (", ", (gchar **) t->elements->pdata);
    g_ptr_array_remove_index (t->elements, t->elements->len - 1);
    gp_verdict_wrap (vt->out, "      runs ", "        ", list);
    g_free (list);
  }
}

/* Worker threads (never seen in a hook) of one kind: their names without
 * the "/tid" that made them unique and without a trailing number, so
 * "pool-3" and "pool-12" go together. */
typedef struct
{
  gchar *key;
  guint n;
  gdouble cpu_pct;
} GpVerdictWorkers;

static void
gp_verdict_workers_free (gpointer p)
{
  GpVerdictWorkers *g = p;

  g_free (g->key);
  g_free (g);
}

static gchar *
gp_verdict_worker_key (const gchar * name)
{
  gchar *key = g_strdup (name && *name ? name : "(unnamed)");
  gchar *slash = strrchr (key, '/');
  gsize len;

  if (slash && slash != key && slash[1] &&
      strspn (slash + 1, "0123456789") == strlen (slash + 1))
    *slash = '\0';
  len = strlen (key);
  while (len > 1 && g_ascii_isdigit (key[len - 1]))
    len--;
  while (len > 1 && strchr ("-_:#. ", key[len - 1]))
    len--;
  key[len] = '\0';
  return key;
}

static gint
gp_verdict_workers_cmp (gconstpointer a, gconstpointer b)
{
  const GpVerdictWorkers *ga = *(GpVerdictWorkers * const *) a;
  const GpVerdictWorkers *gb = *(GpVerdictWorkers * const *) b;

  if (ga->cpu_pct != gb->cpu_pct)
    return ga->cpu_pct > gb->cpu_pct ? -1 : 1;
  return g_strcmp0 (ga->key, gb->key);
}

/* The streaming thread whose name a group of workers carries: threads
 * inherit their creator's name, so an encoder's workers started from a
 * streaming thread are named after it. */
static GpThreadSummary *
gp_verdict_creator (GpSession * s, const gchar * key)
{
  guint i;

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gchar *tkey;
    gboolean same;

    if (t->worker || t->elements->len == 0)
      continue;
    /* keyed the same way: the streaming thread may be the one that got
     * the "/tid" suffix */
    tkey = gp_verdict_worker_key (t->name);
    same = g_str_equal (tkey, key);
    g_free (tkey);
    if (same)
      return t;
  }
  return NULL;
}

/* Worker threads' CPU (each over its own life, % of one core), grouped
 * by kind, busiest first; @total receives the sum. */
static GPtrArray *
gp_verdict_worker_groups (GpSession * s, gdouble * total, guint * n_threads)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func (gp_verdict_workers_free);
  guint i, j;

  *total = 0;
  *n_threads = 0;
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    GpVerdictWorkers *g = NULL;
    gchar *key;

    if (!t->worker || t->cpu_pct_mean < 0)
      continue;
    key = gp_verdict_worker_key (t->name);
    for (j = 0; j < groups->len && g == NULL; j++)
      if (g_str_equal (((GpVerdictWorkers *) groups->pdata[j])->key, key))
        g = groups->pdata[j];
    if (g == NULL) {
      g = g_new0 (GpVerdictWorkers, 1);
      g->key = key;
      g_ptr_array_add (groups, g);
    } else {
      g_free (key);
    }
    g->n++;
    g->cpu_pct += t->cpu_pct_mean;
    *total += t->cpu_pct_mean;
    (*n_threads)++;
  }
  g_ptr_array_sort (groups, gp_verdict_workers_cmp);
  return groups;
}

/* "process: 190% CPU of 200% available (2 cores), peak 199%; RSS ..." */
static void
gp_verdict_process (GpVerdictText * vt, GpSession * s)
{
  GpProcessSummary *p = &s->process;
  GString *line = g_string_new (NULL);
  gchar b1[32];

  if (p->cpu_pct_mean >= 0) {
    g_string_append_printf (line, "%s CPU", gp_verdict_pct (b1,
        p->cpu_pct_mean));
    if (p->n_cpus > 0)
      g_string_append_printf (line, " of %d%% available (%d core%s)",
          p->n_cpus * 100, p->n_cpus, p->n_cpus == 1 ? "" : "s");
    if (p->cpu_pct_max >= 0)
      g_string_append_printf (line, ", peak %s",
          gp_verdict_pct (b1, p->cpu_pct_max));
  } else {
    g_string_append (line, "CPU not measured");
  }
  if (p->rss_mb_max >= 0)
    g_string_append_printf (line, "; RSS %.0f MiB at start, %.0f MiB at "
        "the end (max %.0f MiB)", p->rss_mb_start, p->rss_mb_end,
        p->rss_mb_max);
  gp_verdict_wrap (vt->out, "  process: ", "    ", line->str);
  g_string_free (line, TRUE);
}

/* The process uses (nearly) every core it may run on. */
static gboolean
gp_verdict_cpu_bound (GpSession * s)
{
  GpProcessSummary *p = &s->process;

  return p->measured && p->n_cpus > 0 && p->cpu_pct_mean >= 0 &&
      p->cpu_pct_mean >= GP_VERDICT_CPU_BOUND_FRACTION * p->n_cpus * 100.0;
}

static void
gp_verdict_workers (GpVerdictText * vt, GpSession * s, gdouble total,
    guint n_threads,
    GPtrArray * groups)
{
  gchar b1[32];
  gchar *text;
  guint i, shown = 0;
  gdouble rest = 0;
  guint n_rest = 0;

  text = g_strdup_printf ("%u thread%s outside GStreamer's streaming "
      "threads, %s CPU of a core together", n_threads,
      n_threads == 1 ? "" : "s", gp_verdict_pct (b1, total));
  gp_verdict_wrap (vt->out, "  worker threads: ", "    ", text);
  g_free (text);
  for (i = 0; i < groups->len; i++) {
    GpVerdictWorkers *g = groups->pdata[i];
    GpThreadSummary *creator;
    GString *line;

    if (shown >= GP_VERDICT_MAX_WORKER_GROUPS ||
        g->cpu_pct < GP_VERDICT_WORKER_GROUP_MIN_PCT) {
      rest += g->cpu_pct;
      n_rest += g->n;
      continue;
    }
    shown++;
    line = g_string_new (NULL);
    g_string_append_printf (line, "%s: %u thread%s, %s CPU", g->key, g->n,
        g->n == 1 ? "" : "s", gp_verdict_pct (b1, g->cpu_pct));
    creator = gp_verdict_creator (s, g->key);
    if (creator) {
      GpElementSummary *hot = gp_session_hottest_on_thread (s, creator);

      g_string_append_printf (line, "; named after the streaming thread "
          "that started them");
      if (hot)
        g_string_append_printf (line, ", whose heaviest element is %s",
            hot->name);
    }
    gp_verdict_wrap (vt->out, "    ", "      ", line->str);
    g_string_free (line, TRUE);
  }
  if (n_rest > 0)
    g_string_append_printf (vt->out, "    %u more thread%s, %s CPU\n",
        n_rest, n_rest == 1 ? "" : "s", gp_verdict_pct (b1, rest));
}

/* In a pipeline that never played: the threads blocked in an element
 * (a sink holding its preroll, a full queue) and for how long. */
static void
gp_verdict_blocked_threads (GpVerdictText * vt, GpSession * s)
{
  guint i, n = 0;

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gchar *text;

    if (!t->blocked_in)
      continue;
    text = g_strdup_printf ("%s: in %s for %.1f s", t->name, t->blocked_in,
        t->blocked_ms / 1000.0);
    gp_verdict_wrap (vt->out, "  blocked: ", "      ", text);
    g_free (text);
    n++;
  }
  if (n == 0)
    g_string_append (vt->out, "  no streaming thread was blocked in an "
        "element at the end\n");
}

static void
gp_verdict_threads (GpVerdictText * vt, GpSession * s)
{
  GpThreadSummary *lim = NULL, *cpu = NULL;
  GHashTable *only = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *groups;
  gdouble worker_pct;
  guint i, j, n_workers;
  gboolean bound;

  gp_verdict_heading (vt, "Threads");
  /* Only streaming threads run elements, so only they can be the limiting
   * thread; worker threads are shown apart. */
  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    for (j = 0; !t->worker && j < t->elements->len; j++)
      g_hash_table_add (only, t->elements->pdata[j]);
  }
  if (g_hash_table_size (only) > 0)
    lim = gp_session_limiting_thread (s, only);
  for (i = 0; lim == NULL && s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (!t->worker)
      lim = t;
  }
  g_hash_table_unref (only);

  if (s->process.measured)
    gp_verdict_process (vt, s);
  else if (lim == NULL) {
    g_string_append (vt->out, "  not measured\n");
    return;
  }

  groups = gp_verdict_worker_groups (s, &worker_pct, &n_workers);
  bound = gp_verdict_cpu_bound (s);
  if (bound) {
    gchar b1[32], b2[32];
    gchar *text;

    /* A streaming thread waiting for its element's workers looks busy,
     * but with every core taken it is the CPU that sets the rate. */
    text = g_strdup_printf ("all %d cores are busy (%s of %d%%)%s%s%s: no "
        "single streaming thread limits the rate, less work per frame or "
        "more cores does.", s->process.n_cpus,
        gp_verdict_pct (b1, s->process.cpu_pct_mean), s->process.n_cpus * 100,
        worker_pct >= GP_VERDICT_WORKER_MIN_PCT ? ", " : "",
        worker_pct >= GP_VERDICT_WORKER_MIN_PCT ? gp_verdict_pct (b2,
            worker_pct) : "",
        worker_pct >= GP_VERDICT_WORKER_MIN_PCT ? " of it on worker threads" :
        "");
    gp_verdict_wrap (vt->out, "  CPU-bound: ", "    ", text);
    g_free (text);
  }
  if (worker_pct >= GP_VERDICT_WORKER_MIN_PCT)
    gp_verdict_workers (vt, s, worker_pct, n_workers, groups);
  g_ptr_array_unref (groups);

  if (lim == NULL)
    return;
  /* nothing flowed, so nothing limits a rate: what holds each thread */
  if (gp_session_never_played (s)) {
    gp_verdict_blocked_threads (vt, s);
    return;
  }
  gp_verdict_thread_line (vt, s, bound ? "busiest streaming:" : "limiting:",
      lim);
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (!t->worker && (cpu == NULL || t->cpu_pct_mean > cpu->cpu_pct_mean))
      cpu = t;
  }
  /* The limiting thread is chosen by wall busy share (it may be blocked,
   * not computing); the one burning most CPU is shown too when it differs. */
  if (cpu && cpu != lim)
    gp_verdict_thread_line (vt, s, "most CPU:", cpu);
}

/* ------------------------------------------------------------------ */
/* Where the time goes                                                */
/* ------------------------------------------------------------------ */

static gdouble
gp_verdict_elem_work (GpSession * s, GpElementSummary * es)
{
  return gp_session_work_ms (s, es);
}

static gint
gp_verdict_compare_work (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GpSession *s = user_data;
  gdouble wa = gp_verdict_elem_work (s, *(GpElementSummary **) a);
  gdouble wb = gp_verdict_elem_work (s, *(GpElementSummary **) b);

  if (wa != wb)
    return wa > wb ? -1 : 1;
  return g_strcmp0 ((*(GpElementSummary **) a)->name,
      (*(GpElementSummary **) b)->name);
}

/* The streaming thread of @es that waited for a core the longest share
 * of its life, when one did for GP_VERDICT_RUN_DELAY_PCT or more. */
static GpThreadSummary *
gp_verdict_elem_run_delay (GpSession * s, const GpElementSummary * es)
{
  GpThreadSummary *worst = NULL;
  guint i, j;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    for (j = 0; t->elements && j < t->elements->len; j++)
      if (g_strcmp0 (g_ptr_array_index (t->elements, j), es->name) == 0 &&
          t->run_delay_pct >= GP_VERDICT_RUN_DELAY_PCT &&
          (worst == NULL || t->run_delay_pct > worst->run_delay_pct))
        worst = t;
  }
  return worst;
}

/* Whether the elements' CPU time was measured (--cpu). */
static gboolean
gp_verdict_has_element_cpu (GpSession * s)
{
  guint i;

  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++)
    if (((GpElementSummary *) g_ptr_array_index (s->elem_summaries,
                i))->cpu_ms >= 0)
      return TRUE;
  return FALSE;
}

/* Streaming threads that waited for a core (the kernel's run-queue wait):
 * the self times on them hold that wait wherever it fell. */
static void
gp_verdict_run_delay_notes (GpVerdictText * vt, GpSession * s)
{
  gboolean cpu = gp_verdict_has_element_cpu (s);
  gchar b[32];
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gchar *note;

    if (t->worker || t->run_delay_pct < GP_VERDICT_RUN_DELAY_PCT ||
        t->elements == NULL || t->elements->len == 0)
      continue;
    note = g_strdup_printf ("%s waited for a CPU %s of its time: ready to "
        "run while other processes or threads had the cores (the kernel's "
        "run queue). The self times of the elements on it hold that wait "
        "wherever it fell, %s", t->name,
        gp_verdict_pct (b, t->run_delay_pct), cpu ? "and their CPU time "
        "(--cpu) leaves it out." : "and it is not their work: --cpu tells "
        "their work apart.");
    gp_verdict_wrap (vt->out, "  ", "  ", note);
    g_free (note);
  }
}

static void
gp_verdict_where (GpVerdictText * vt, GpSession * s)
{
  GPtrArray *rows = g_ptr_array_new ();
  GPtrArray *waiting = g_ptr_array_new ();
  gdouble total = gp_session_total_work_ms (s), rest_share = 0;
  guint i, n_rest = 0;
  gchar b[32], *heading = g_strdup_printf ("Where the time goes (%s)",
      gp_session_element_time_words (s));

  gp_verdict_heading (vt, heading);
  g_free (heading);
  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    GpElement *e = gp_session_find_element (s, es->name);

    if ((e && e->is_bin) || gp_session_is_queue (s, es->name))
      continue;
    g_ptr_array_add (rows, es);
    /* a sink whose wait was not measured apart (imports) */
    if (es->cpu_buffers == 0 && es->buffers > 0 &&
        gp_session_sink_waits_on_clock (s, es->name))
      g_ptr_array_add (waiting, es->name);
  }
  if (rows->len == 0) {
    g_string_append (vt->out, "  not measured (no element processed a "
        "buffer)\n");
    goto done;
  }
  g_ptr_array_sort_with_data (rows, gp_verdict_compare_work, s);

  g_string_append (vt->out, "  element                share   p50 ms   "
      "p95 ms   buffers  thread\n");
  for (i = 0; i < rows->len; i++) {
    GpElementSummary *es = g_ptr_array_index (rows, i);
    gdouble w = gp_verdict_elem_work (s, es);
    /* Nothing measured is not 0 %: a live source's clock waits are not
     * self time, so it may have no samples at all. */
    gdouble share = total > 0 && w >= 0 && es->buffers > 0 ?
        w / total * 100.0 : -1;
    GString *line;
    gchar *thr;

    if (i >= GP_VERDICT_MAX_ROWS && share >= 0) {
      rest_share += share;
      n_rest++;
      continue;
    }
    line = g_string_new ("  ");
    gp_verdict_name_cell (line, es->name, 21);
    gp_verdict_cell (line, gp_verdict_pct (b, share), 7, TRUE);
    gp_verdict_cell (line, gp_verdict_ms (b, es->self_ms.p50), 9, TRUE);
    gp_verdict_cell (line, gp_verdict_ms (b, es->self_ms.p95), 9, TRUE);
    g_snprintf (b, sizeof b, "%" G_GUINT64_FORMAT, es->buffers);
    gp_verdict_cell (line, b, 10, TRUE);
    g_string_append (line, "  ");
    if (es->threads == NULL || es->threads->len == 0)
      thr = g_strdup ("-");
    else if (es->threads->len == 1)
      thr = g_strdup (g_ptr_array_index (es->threads, 0));
    else
      thr = g_strdup_printf ("%s +%u", (gchar *) g_ptr_array_index
          (es->threads, 0), es->threads->len - 1);
    /* the last column: a thread's name whole, however long */
    g_string_append (line, thr);
    g_free (thr);
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
    if (share < 0 || es->self_ms.p50 < 0 || es->self_ms.p95 < 0)
      vt->dash_used = TRUE;
  }
  if (n_rest > 0)
    g_string_append_printf (vt->out, "  ... %u more elements, %s together\n",
        n_rest, gp_verdict_pct (b, rest_share));
  if (total > 0)
    g_string_append (vt->out, "  share: of all elements' self time, queues "
        "left out\n");
  for (i = 0; i < rows->len; i++) {
    GpElementSummary *es = g_ptr_array_index (rows, i);
    gchar *note;

    /* (split elements have their wait apart already) */
    if (es->cpu_buffers > 0 || es->cpu_ms < 0 ||
        es->self_total_ms < GP_VERDICT_OFF_CPU_MIN_MS ||
        es->cpu_ms >= GP_VERDICT_OFF_CPU_FRACTION * es->self_total_ms)
      continue;
    note = g_strdup_printf ("%s was on the CPU for %s of its self time "
        "(--cpu): the rest it spent off it, sleeping, on a lock, on I/O, "
        "waiting for its own worker threads%s.", es->name,
        gp_verdict_pct (b, es->cpu_ms / es->self_total_ms * 100.0),
        gp_verdict_elem_run_delay (s, es) != NULL ? " or for a core (its thread "
        "waited on the run queue, below)" : "");
    gp_verdict_wrap (vt->out, "  ", "  ", note);
    g_free (note);
  }
  gp_verdict_run_delay_notes (vt, s);
  for (i = 0; i < waiting->len; i++) {
    gchar *note = g_strdup_printf ("%s waits for the clock (sync): its wall "
        "time is mostly waiting, so only its CPU time, when measured "
        "(--cpu), counts in the shares.", (gchar *) g_ptr_array_index
        (waiting, i));

    gp_verdict_wrap (vt->out, "  ", "  ", note);
    g_free (note);
  }

done:
  g_ptr_array_unref (rows);
  g_ptr_array_unref (waiting);
}

/* ------------------------------------------------------------------ */
/* Waiting                                                            */
/* ------------------------------------------------------------------ */

/* Why @es waits, for the table below. */
static const gchar *
gp_verdict_wait_reason (GpSession * s, GpElementSummary * es)
{
  GpElement *e = gp_session_find_element (s, es->name);
  const gchar *kind = e ? e->kind : NULL;
  gboolean sync = FALSE;

  if (e && g_strcmp0 (e->factory, "appsink") == 0)
    return "in the application (its callback, or a full appsink waiting "
        "for a pull) and for its clock (sync): not told apart";
  if (g_strcmp0 (kind, "sink") == 0)
    return gp_session_sink_waits_on_clock (s, es->name) ?
        "for its clock (sync) and preroll" :
        "in its render (a write or send that blocks) and preroll";
  if (g_strcmp0 (kind, "mux") == 0)
    return "inputs wait for its output or the other inputs";
  if (g_strcmp0 (kind, "source") == 0)
    return gp_session_is_live_source (s, es->name) ?
        "between buffers: clock, network or device" :
        "between buffers: for data";
  if (e && gp_element_get_prop_bool (e, "sync", &sync) && sync)
    return "for its clock (sync)";
  return "between buffers: for input";
}

static gint
gp_verdict_compare_wait (gconstpointer a, gconstpointer b)
{
  gdouble wa = (*(GpElementSummary **) a)->wait_total_ms;
  gdouble wb = (*(GpElementSummary **) b)->wait_total_ms;

  return wa > wb ? -1 : wa < wb ? 1 : 0;
}

/* Where threads sat in an element without working: measured as the wall
 * time of its buffers less their CPU time.  Only the ones that matter:
 * a wait of GP_VERDICT_WAIT_MIN_MS per buffer or more. */
static void
gp_verdict_waiting (GpVerdictText * vt, GpSession * s)
{
  GPtrArray *rows = g_ptr_array_new ();
  gchar b[32];
  guint i;

  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (es->cpu_buffers > 0 && es->wait_total_ms > 0 &&
        es->wait_ms.p95 >= GP_VERDICT_WAIT_MIN_MS)
      g_ptr_array_add (rows, es);
  }
  if (rows->len > 0) {
    g_ptr_array_sort (rows, gp_verdict_compare_wait);
    gp_verdict_heading (vt,
        "Waiting (wall time in an element that was not work)");
    g_string_append (vt->out, "  element              p50 ms   p95 ms  "
        "waits\n");
    for (i = 0; i < rows->len && i < GP_VERDICT_MAX_WAIT_ROWS; i++) {
      GpElementSummary *es = g_ptr_array_index (rows, i);
      GString *line = g_string_new ("  ");

      gp_verdict_name_cell (line, es->name, 19);
      gp_verdict_cell (line, gp_verdict_ms (b, es->wait_ms.p50), 9, TRUE);
      gp_verdict_cell (line, gp_verdict_ms (b, es->wait_ms.p95), 9, TRUE);
      g_string_append (line, "  ");
      g_string_append (line, gp_verdict_wait_reason (s, es));
      g_string_append_c (line, '\n');
      g_string_append (vt->out, line->str);
      g_string_free (line, TRUE);
    }
  }
  g_ptr_array_unref (rows);
}

/* ------------------------------------------------------------------ */
/* Queues                                                             */
/* ------------------------------------------------------------------ */

static void
gp_verdict_queues (GpVerdictText * vt, GpSession * s)
{
  gchar b[32], b2[32];
  guint i;

  if (s->queue_summaries == NULL || s->queue_summaries->len == 0)
    return;
  gp_verdict_heading (vt, "Queues (residence is waiting, not processing)");
  g_string_append (vt->out, "  queue                 wait p50  wait p95  "
      "level mean/max   dropped  blocked ms\n");
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);
    GString *line = g_string_new ("  ");
    gchar *level;

    gp_verdict_name_cell (line, q->name, 20);
    gp_verdict_cell (line, gp_verdict_ms (b, q->residence_ms.p50), 10, TRUE);
    gp_verdict_cell (line, gp_verdict_ms (b, q->residence_ms.p95), 10, TRUE);
    if (gp_session_queue_unbounded (s, q->name))
      level = g_strdup_printf ("no limit, max %" G_GUINT64_FORMAT,
          q->level_buffers_max);
    else
      level = g_strdup_printf ("%s / %s", gp_verdict_pct (b,
              q->level_pct_mean), gp_verdict_pct (b2, q->level_pct_max));
    gp_verdict_cell (line, level, 17, TRUE);
    g_free (level);
    /* an import without drops counts none: unknown, not 0 */
    if (s->import_missing & (GP_IMPORT_MISSING_QUEUE_LEVELS |
            GP_IMPORT_MISSING_QUEUE_FLOW))
      g_strlcpy (b, "-", sizeof b);
    else
      g_snprintf (b, sizeof b, "%" G_GUINT64_FORMAT, q->dropped);
    gp_verdict_cell (line, b, 10, TRUE);
    gp_verdict_cell (line, gp_verdict_ms (b, q->blocked_ms), 11, TRUE);
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
    if (q->residence_ms.p50 < 0 || q->level_pct_mean < 0 ||
        q->blocked_ms < 0 || b[0] == '-')
      vt->dash_used = TRUE;
  }
  g_string_append (vt->out, "  wait in ms; level as % of the queue's "
      "limit (none: the most buffers held)\n");
}

/* ------------------------------------------------------------------ */
/* the whole verdict, part by part                                    */
/* ------------------------------------------------------------------ */

gchar *
gp_verdict_format (GpSession * s, const gchar * note, GpVerdictFlags flags)
{
  GpVerdictText vt = { g_string_new (NULL), (flags & GP_VERDICT_COLOR) != 0,
      FALSE };
  gchar *findings;

  g_return_val_if_fail (s != NULL, NULL);

  gp_verdict_header (&vt, s);
  /* at the end of the header, where the reader learns what was measured,
   * before any number */
  if (note != NULL)
    g_string_append (vt.out, note);
  if (!gp_verdict_machine_only (s)) {
    gp_verdict_rate (&vt, s);
    gp_verdict_latency (&vt, s);
    gp_verdict_threads (&vt, s);
    gp_verdict_where (&vt, s);
    gp_verdict_waiting (&vt, s);
    gp_verdict_queues (&vt, s);
  }
  gp_verdict_machine (&vt, s);
  if (vt.dash_used)
    g_string_append (vt.out, "  (- : not measured)\n");
  g_string_append_c (vt.out, '\n');
  findings = gp_verdict_format_findings (s, flags);
  g_string_append (vt.out, findings);
  g_free (findings);
  return g_string_free (vt.out, FALSE);
}

gboolean
gp_verdict_want_color (gint fd)
{
  const gchar *no_color = g_getenv ("NO_COLOR");

  if (no_color && *no_color)
    return FALSE;
  if (g_strcmp0 (g_getenv ("TERM"), "dumb") == 0)
    return FALSE;
  return isatty (fd);
}
