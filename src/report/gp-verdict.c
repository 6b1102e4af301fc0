/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict.c: the verdict text. Laid out for 80 columns; every number
 * that the session does not have is written as "not measured" (or "-" in
 * tables, with a legend), never as 0.
 */
#include "gp-verdict.h"
#include "rules/gp-rules.h"
#include "core/gp-caps.h"
#include "core/gp-session-query.h"
#include "telemetry/gp-roofline-build.h"

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
/* Waits shorter than this per buffer (p95) are not listed: a fraction of
 * a millisecond in a sink or a mixer input is scheduling, not a finding. */
#define GP_VERDICT_WAIT_MIN_MS 1.0
#define GP_VERDICT_MAX_WAIT_ROWS 8
/* With --cpu, an element whose thread was on the CPU for less than this
 * share of its wall self time is said to wait there (a sleep, a lock, its
 * own worker threads); below the minimum its total is noise. */
#define GP_VERDICT_OFF_CPU_FRACTION 0.5
#define GP_VERDICT_OFF_CPU_MIN_MS 10.0
/* The process is CPU-bound at this share of all the cores it may use. */
#define GP_VERDICT_CPU_BOUND_FRACTION 0.90
#define GP_VERDICT_MAX_WORKER_GROUPS 3
#define GP_VERDICT_WORKER_GROUP_MIN_PCT 5.0

/* The Machine section lists at most this many GPUs, memories and engines
 * each (a node of eight GPUs is summed up past them), and the facts up to
 * this many. */
#define GP_VERDICT_MACHINE_MAX_ROWS 4
#define GP_VERDICT_MACHINE_MAX_FACTS 6
/* The machine rules, whose findings say which wall the work hits. */
static const gchar *const gp_verdict_machine_rules[] = {
  "HW", "MEMBW", "THERMAL", "CPUIO", NULL
};

/* The verdict being written: its text so far and how it is styled. */
typedef struct
{
  GString *out;
  gboolean color;
  gboolean dash_used;           /* a table printed "-" for "not measured" */
} GpVerdictText;

/* ANSI styles, used only when colour is on. */
#define GP_VERDICT_STYLE_BOLD "\033[1m"
#define GP_VERDICT_STYLE_RED "\033[31m"
#define GP_VERDICT_STYLE_YELLOW "\033[33m"
#define GP_VERDICT_STYLE_CYAN "\033[36m"
#define GP_VERDICT_STYLE_RESET "\033[0m"

/* text helpers */

static void
gp_verdict_styled (GpVerdictText * vt, const gchar * style, const gchar * text)
{
  if (vt->color)
    g_string_append_printf (vt->out, "%s%s%s", style, text,
        GP_VERDICT_STYLE_RESET);
  else
    g_string_append (vt->out, text);
}

static void
gp_verdict_heading (GpVerdictText * vt, const gchar * text)
{
  g_string_append_c (vt->out, '\n');
  gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, text);
  g_string_append_c (vt->out, '\n');
}

/* Appends @text padded (or cut, ending in "~") to @width display columns;
 * element names are ASCII in practice, but count characters, not bytes. */
static void
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

/* Word-wraps @text to the width: @first before the first line, @indent
 * before the others. */
static void
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
static const gchar *
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

static const gchar *
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

/* Session facts */

static gdouble
gp_verdict_elem_work (GpSession * s, GpElementSummary * es)
{
  return gp_session_work_ms (s, es);
}

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

/* The first event of @type, or NULL. */
static const GpEvent *
gp_verdict_event (GpSession * s, const gchar * type)
{
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, type) == 0)
      return ev;
  }
  return NULL;
}

/* Whether the pipeline played, and how the run ended: the facts every
 * number below depends on. */
static void
gp_verdict_run_state (GpVerdictText * vt, GpSession * s)
{
  GString *line = g_string_new (NULL);
  const GpEvent *stopped = gp_verdict_event (s, "stopped");

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

  g_string_append_printf (line, "%s", s->mode && *s->mode ? s->mode : "run");
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

/* "412 kbit/s" */
static const gchar *
gp_verdict_bitrate (gchar buf[32], gdouble bytes_per_s)
{
  gdouble bits = bytes_per_s * 8;

  if (bytes_per_s < 0)
    g_snprintf (buf, 32, "-");
  else if (bits >= 1e6)
    g_snprintf (buf, 32, "%.1f Mbit/s", bits / 1e6);
  else
    g_snprintf (buf, 32, "%.0f kbit/s", bits / 1e3);
  return buf;
}

/* How far @got falls short of @target, as the line's verdict. */
static void
gp_verdict_rate_judge (GString * line, gdouble got, gdouble target)
{
  if (got < 0 || target <= 0)
    return;
  if (got < target * 0.95)
    g_string_append_printf (line, "  %.0f%% below", (target - got) / target *
        100.0);
  else if (got > target * 1.05)
    g_string_append (line, "  faster (not paced)");
  else
    g_string_append (line, "  ok");
}

/* Each sink in its own media (gp-session.h, GpSinkSummary). */
static void
gp_verdict_rate (GpVerdictText * vt, GpSession * s)
{
  gchar b[32];
  guint i;

  gp_verdict_heading (vt, "Rate (steady state at each sink, in its own media)");
  if (gp_session_never_played (s)) {
    g_string_append (vt->out, "  not measured (the pipeline never played)\n");
    return;
  }
  if (s->sinks == NULL || s->sinks->len == 0) {
    g_string_append (vt->out, "  not measured (no sink received a buffer)\n");
    return;
  }
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GpMediaKind kind = gp_media_kind_from_name (sk->media);
    GString *line = g_string_new ("  ");

    gp_verdict_cell (line, sk->name, 22, FALSE);
    if (sk->fps < 0) {
      g_string_append (line, "  rate not measured");
    } else if (kind == GP_MEDIA_AUDIO) {
      gdouble target = gp_session_sink_target_media_rate (s, sk->name);

      if (sk->media_per_s >= 0)
        g_string_append_printf (line, "%5.2fx real time (audio)",
            sk->media_per_s);
      else
        g_string_append_printf (line, "%7.1f buffers/s (audio, no "
            "durations)", sk->fps);
      gp_verdict_rate_judge (line, sk->media_per_s, target);
    } else if (kind == GP_MEDIA_RTP || kind == GP_MEDIA_MUXED
        || kind == GP_MEDIA_OTHER) {
      g_string_append_printf (line, "%s, %.1f %s/s (%s)",
          gp_verdict_bitrate (b, sk->bytes_per_s), sk->fps,
          kind == GP_MEDIA_RTP ? "packets" : "buffers", sk->media);
    } else {
      gdouble target = gp_session_sink_target_fps (s, sk->name);

      g_string_append_printf (line, "%7.1f fps", sk->fps);
      if (target <= 0)
        g_string_append (line, ", target not known (no framerate in caps)");
      else
        g_string_append_printf (line, " of %.1f fps (caps)", target);
      gp_verdict_rate_judge (line, sk->fps, target);
    }
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
    /* a receiver that waited for its first keyframe, a branch that opened
     * late: its rate is the steady state after its start-up */
    if (sk->first_s > 2 * s->window_s && s->window_s > 0) {
      gchar *note = g_strdup_printf ("first buffer after %.1f s; the rate "
          "is the steady state after it", sk->first_s);

      gp_verdict_wrap (vt->out, "    ", "    ", note);
      g_free (note);
    }
  }
}

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

static void
gp_verdict_latency (GpVerdictText * vt, GpSession * s)
{
  gchar b1[32], b2[32], b3[32];
  guint i;

  gp_verdict_heading (vt, "Latency, source to sink input (p50 / p95 / p99; p95 "
      "against the frame period)");
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
    GpSinkSummary *sk = gp_session_find_sink (s, p->sink);
    gdouble target = gp_session_sink_target_fps (s, p->sink);
    /* a frame period only means something to a video sink */
    gdouble period = target > 0 ? 1000.0 / target :
        sk && gp_media_kind_from_name (sk->media) != GP_MEDIA_VIDEO &&
        gp_media_kind_from_name (sk->media) != GP_MEDIA_UNKNOWN ? -1 :
        s->frame_period_ms;
    gchar *name = g_strdup_printf ("%s > %s", p->source, p->sink);
    GString *line = g_string_new ("  ");

    gp_verdict_cell (line, name, 32, FALSE);
    if (p->latency_ms.p50 < 0)
      g_string_append (line, " not measured");
    else
      g_string_append_printf (line, " %s / %s / %s ms",
          gp_verdict_ms (b1, p->latency_ms.p50), gp_verdict_ms (b2,
              p->latency_ms.p95),
          gp_verdict_ms (b3, p->latency_ms.p99));
    if (period > 0 && p->latency_ms.p95 >= 0)
      g_string_append_printf (line, "  %s %.1f ms",
          p->latency_ms.p95 > period ? "over" : "within", period);
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
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
    gp_verdict_cell (line, es->name, 21, FALSE);
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
    gp_verdict_cell (line, thr, GP_VERDICT_WIDTH - 2 - 21 - 7 - 9 - 9 - 10 - 2,
        FALSE);
    g_free (thr);
    /* No trailing blanks from the padding of the last column. */
    while (line->len > 0 && line->str[line->len - 1] == ' ')
      g_string_truncate (line, line->len - 1);
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
        "(--cpu): the rest it spent off it, sleeping, on a lock, on I/O or "
        "waiting for its own worker threads.", es->name,
        gp_verdict_pct (b, es->cpu_ms / es->self_total_ms * 100.0));
    gp_verdict_wrap (vt->out, "  ", "  ", note);
    g_free (note);
  }
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

/* Why @es waits, for the table below. */
static const gchar *
gp_verdict_wait_reason (GpSession * s, GpElementSummary * es)
{
  GpElement *e = gp_session_find_element (s, es->name);
  const gchar *kind = e ? e->kind : NULL;
  gboolean sync = FALSE;

  if (g_strcmp0 (kind, "sink") == 0)
    return gp_session_sink_waits_on_clock (s, es->name) ?
        "for its clock (sync) and preroll" : "for preroll";
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

      gp_verdict_cell (line, es->name, 19, FALSE);
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

    gp_verdict_cell (line, q->name, 20, FALSE);
    gp_verdict_cell (line, gp_verdict_ms (b, q->residence_ms.p50), 10, TRUE);
    gp_verdict_cell (line, gp_verdict_ms (b, q->residence_ms.p95), 10, TRUE);
    level = g_strdup_printf ("%s / %s", gp_verdict_pct (b, q->level_pct_mean),
        gp_verdict_pct (b2, q->level_pct_max));
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
      "limit\n");
}

/* Machine */

/* "mean 98%, max 99%" of @sr over the span; FALSE when it has no value
 * there. */
static gboolean
gp_verdict_machine_mean_max (GString * line, const GpMachineSeries * sr,
    const GpPlayingSpan * span, const gchar * unit)
{
  gdouble mean, max;
  gchar b[32], c[32];

  if (sr == NULL)
    return FALSE;
  mean = gp_machine_series_mean (sr, span->t0, span->t1);
  max = gp_machine_series_max (sr, span->t0, span->t1);
  if (isnan (mean))
    return FALSE;
  if (g_strcmp0 (unit, "%") == 0)
    g_string_append_printf (line, "mean %s, max %s", gp_verdict_pct (b, mean),
        gp_verdict_pct (c, max));
  else
    g_string_append_printf (line, "mean %.*f %s, max %.*f %s",
        unit[0] == 'W' ? 1 : 0, mean, unit, unit[0] == 'W' ? 1 : 0, max, unit);
  return TRUE;
}

/* "; clock mean 1300 of 1300 MHz (its max)" */
static void
gp_verdict_machine_clock (GString * line, const GpMachineSeries * freq,
    const GpPlayingSpan * span)
{
  gdouble mean;

  if (freq == NULL || isnan (mean = gp_machine_series_mean (freq, span->t0,
              span->t1)))
    return;
  if (isfinite (freq->limit) && freq->limit > 0)
    g_string_append_printf (line, "; clock mean %.0f of %.0f MHz (its max)",
        mean, freq->limit);
  else
    g_string_append_printf (line, "; clock mean %.0f MHz, top %.0f MHz",
        mean, gp_machine_series_max (freq, span->t0, span->t1));
}

static void
gp_verdict_machine_row (GpVerdictText * vt, const gchar * label,
    const gchar * text)
{
  gchar *first = g_strdup_printf ("  %-12s", label);

  gp_verdict_wrap (vt->out, first, "                ", text);
  g_free (first);
}

/* What was sampled, and what was not and why. */
static void
gp_verdict_machine_sources (GpVerdictText * vt, GpMachine * m)
{
  GString *on = g_string_new (NULL), *off = g_string_new (NULL);
  guint i;

  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);

    if (g_strcmp0 (src->state, GP_MACHINE_ABSENT) == 0 ||
        g_strcmp0 (src->state, GP_MACHINE_FAILED) == 0) {
      gboolean failed = g_strcmp0 (src->state, GP_MACHINE_FAILED) == 0;

      /* an absent source's detail says what was looked for */
      g_string_append_printf (off, "%s%s (%s%s)", off->len ? "; " : "",
          src->name, failed ? "failed: " : "",
          src->detail ? src->detail : (failed ? "" : "not here"));
      continue;
    }
    g_string_append_printf (on, "%s%s (%" G_GUINT64_FORMAT " sample%s",
        on->len ? "; " : "", src->name, src->samples,
        src->samples == 1 ? "" : "s");
    if (src->interval_s > 0)
      g_string_append_printf (on, " every %.2g s", src->interval_s);
    if (src->detail)
      g_string_append_printf (on, "; %s", src->detail);
    g_string_append_c (on, ')');
  }
  gp_verdict_machine_row (vt, "sampled:", on->len ? on->str : "nothing");
  if (off->len)
    gp_verdict_machine_row (vt, "unsampled:", off->str);
  g_string_free (on, TRUE);
  g_string_free (off, TRUE);
}

/* One row per series of @quantity (GPUs, memories), with its clock. */
static void
gp_verdict_machine_loads (GpVerdictText * vt, GpMachine * m,
    const gchar * quantity, const gchar * freq_quantity, const gchar * what,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);
  guint i, shown = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    const gchar *inst = gp_machine_series_instance (sr);
    GString *line = g_string_new ("load ");
    gchar *label;

    if (shown == GP_VERDICT_MACHINE_MAX_ROWS) {
      g_string_printf (line, "%u more not shown (session.machine has them)",
          all->len - i);
      gp_verdict_machine_row (vt, "", line->str);
      g_string_free (line, TRUE);
      break;
    }
    if (gp_verdict_machine_mean_max (line, sr, span, "%")) {
      gp_verdict_machine_clock (line, gp_machine_find (m, freq_quantity,
              inst), span);
      label = g_strdup_printf ("%s %s:", what, inst);
      gp_verdict_machine_row (vt, label, line->str);
      g_free (label);
      shown++;
    }
    g_string_free (line, TRUE);
  }
  g_ptr_array_unref (all);
}

/* The CPUs: all of them, and the busiest core. */
static void
gp_verdict_machine_cpus (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_CPU_LOAD);
  GpMachineSeries *busiest = NULL;
  GString *line = g_string_new (NULL);
  gdouble best = -1;
  guint i, cores = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble mean = gp_machine_series_mean (sr, span->t0, span->t1);

    if (strcmp (gp_machine_series_instance (sr), "all") == 0 || isnan (mean))
      continue;
    cores++;
    if (mean > best) {
      best = mean;
      busiest = sr;
    }
  }
  g_string_printf (line, "all %u ", cores);
  if (!gp_verdict_machine_mean_max (line, gp_machine_find (m,
              GP_MACHINE_CPU_LOAD, "all"), span, "%"))
    g_string_truncate (line, 0);
  if (busiest) {
    g_string_append_printf (line, "%sbusiest core %s ",
        line->len ? "; " : "", gp_machine_series_instance (busiest));
    gp_verdict_machine_mean_max (line, busiest, span, "%");
  }
  if (line->len)
    gp_verdict_machine_row (vt, "CPU:", line->str);
  g_string_free (line, TRUE);
  g_ptr_array_unref (all);
}

/* The engines that did any work. */
static void
gp_verdict_machine_engines (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_ENGINE_LOAD);
  GString *line = g_string_new (NULL);
  gchar b[32], c[32];
  guint i, idle = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble mean = gp_machine_series_mean (sr, span->t0, span->t1);
    gdouble max = gp_machine_series_max (sr, span->t0, span->t1);

    if (isnan (max))
      continue;
    if (max <= 0) {
      idle++;
      continue;
    }
    g_string_append_printf (line, "%s%s mean %s, max %s", line->len ? "; " :
        "", gp_machine_series_instance (sr), gp_verdict_pct (b, mean),
        gp_verdict_pct (c, max));
  }
  if (idle)
    g_string_append_printf (line, "%s%u idle", line->len ? "; " : "", idle);
  if (line->len)
    gp_verdict_machine_row (vt, "engines:", line->str);
  g_string_free (line, TRUE);
  g_ptr_array_unref (all);
}

/* The hottest zone against its trip point, and the board's power. */
static void
gp_verdict_machine_heat_power (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_TEMP);
  GpMachineSeries *hot = NULL, *tripped = NULL, *power;
  gdouble best = -INFINITY, best_margin = -INFINITY;
  GString *line = g_string_new (NULL);
  guint i;

  /* the zone closest to its trip point where any has one, else the
   * hottest */
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble max = gp_machine_series_max (sr, span->t0, span->t1);

    if (isnan (max))
      continue;
    /* tj, the junction, is what a Jetson throttles on */
    if (max > best || (max == best && g_strcmp0 (gp_machine_series_instance
                (sr), "tj") == 0)) {
      best = max;
      hot = sr;
    }
    if (isfinite (sr->limit) && max - sr->limit > best_margin) {
      best_margin = max - sr->limit;
      tripped = sr;
    }
  }
  g_ptr_array_unref (all);
  if (tripped)
    hot = tripped;
  if (hot) {
    g_string_append_printf (line, "%s max %.1f C", gp_machine_series_instance
        (hot), gp_machine_series_max (hot, span->t0, span->t1));
    if (isfinite (hot->limit))
      g_string_append_printf (line, ", its trip point %.1f C", hot->limit);
    else
      g_string_append (line, ", no trip point known");
    gp_verdict_machine_row (vt, "hottest:", line->str);
  }
  power = gp_machine_find (m, GP_MACHINE_POWER, "board");
  if (power == NULL)
    power = gp_machine_find (m, GP_MACHINE_POWER, "0");
  if (power)
    g_string_printf (line, "%s%s ", g_ascii_isdigit
        (*gp_machine_series_instance (power)) ? "GPU " : "",
        gp_machine_series_instance (power));
  if (gp_verdict_machine_mean_max (line, power, span, "W")) {
    if (power->limit > 0)
      g_string_append_printf (line, ", its cap %.1f W", power->limit);
    gp_verdict_machine_row (vt, "power:", line->str);
  }
  g_string_free (line, TRUE);
}

/* The facts, briefly. */
static void
gp_verdict_machine_facts (GpVerdictText * vt, GpMachine * m)
{
  GString *line = g_string_new (NULL);
  guint i;

  for (i = 0; i + 1 < m->facts->len; i += 2) {
    if (i / 2 == GP_VERDICT_MACHINE_MAX_FACTS) {
      g_string_append_printf (line, "; %u more", (m->facts->len - i) / 2);
      break;
    }
    g_string_append_printf (line, "%s%s %s", line->len ? "; " : "",
        (const gchar *) g_ptr_array_index (m->facts, i),
        (const gchar *) g_ptr_array_index (m->facts, i + 1));
  }
  if (line->len)
    gp_verdict_machine_row (vt, "facts:", line->str);
  g_string_free (line, TRUE);
}

/* The accelerator's peaks (telemetry/gp-peaks, the one table), when the
 * machine has one: a GPU that nvidia-smi named, or a Jetson's EMC. */
static void
gp_verdict_machine_peaks (GpVerdictText * vt, GpMachine * m)
{
  GError *error = NULL;
  GpPeaks *p;
  gchar *line, *i8, *f16, *f32, *bw;

  if (gp_machine_fact (m, "gpu0.name") == NULL
      && gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, "emc") == NULL)
    return;
  p = gp_roofline_machine_peaks (m, 0, 0, &error);
  if (p == NULL) {
    gp_verdict_machine_row (vt, "peaks:", error->message);
    g_error_free (error);
    return;
  }
  i8 = isnan (p->int8) ? g_strdup ("none") : gp_roofline_format (p->int8,
      "op/s");
  f16 = gp_roofline_format (p->fp16, "op/s");
  f32 = gp_roofline_format (p->fp32, "op/s");
  bw = gp_roofline_format (p->bw, "B/s");
  line = g_strdup_printf ("%s: INT8 %s, FP16 %s, FP32 %s, memory %s "
      "(gstprof roofline places a network on them)", p->target, i8, f16,
      f32, bw);
  gp_verdict_machine_row (vt, "peaks:", line);
  g_free (line);
  g_free (i8);
  g_free (f16);
  g_free (f32);
  g_free (bw);
  gp_peaks_free (p);
}

/* The most samples any load series has over the span. */
static guint
gp_verdict_machine_samples (GpSession * s)
{
  GpPlayingSpan span;
  guint i, most = 0;

  gp_session_machine_span (s, &span);
  for (i = 0; i < s->machine->series->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (s->machine->series, i);

    if (strstr (sr->name, ".load/") != NULL)
      most = MAX (most, gp_machine_series_count (sr, span.t0, span.t1));
  }
  return most;
}

/* Which wall the work hits: the machine rules' findings, or none. */
static void
gp_verdict_machine_bound (GpVerdictText * vt, GpSession * s)
{
  GString *line = g_string_new (NULL);
  guint i;

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (g_strv_contains (gp_verdict_machine_rules, f->rule))
      g_string_append_printf (line, "%s%s: %s", line->len ? "; " : "",
          f->rule, f->title);
  }
  if (line->len == 0 && gp_verdict_machine_samples (s) == 0)
    g_string_assign (line, "not judged: no load was sampled");
  else if (line->len == 0 && gp_verdict_machine_samples (s) <
      GP_RULES_MACHINE_MIN_SAMPLES)
    g_string_printf (line, "not judged: %u sample%s, fewer than the %u of "
        "a steady state", gp_verdict_machine_samples (s),
        gp_verdict_machine_samples (s) == 1 ? "" : "s",
        GP_RULES_MACHINE_MIN_SAMPLES);
  else if (line->len == 0)
    g_string_assign (line, "no wall hit: no engine >= 95% busy, no memory "
        "bus >= 80%, no trip point passed, no clock cut or power cap, no GPU "
        "starved by a saturated core (what was not sampled is not judged)");
  else
    g_string_append (line, " (findings below)");
  gp_verdict_machine_row (vt, "bound:", line->str);
  g_string_free (line, TRUE);
}

/* What the machine did under the pipeline (session.machine). */
static void
gp_verdict_machine (GpVerdictText * vt, GpSession * s)
{
  GpMachine *m = s->machine;
  GpPlayingSpan span;
  gchar *head;

  if (m == NULL)
    return;
  gp_session_machine_span (s, &span);
  if (!isnan (span.t0) && !isnan (span.t1))
    head = g_strdup_printf ("Machine (over the PLAYING span, %.1f-%.1f s)",
        span.t0, span.t1);
  else
    head = g_strdup ("Machine (over the whole log)");
  gp_verdict_heading (vt, head);
  g_free (head);
  gp_verdict_machine_sources (vt, m);
  gp_verdict_machine_loads (vt, m, GP_MACHINE_GPU_LOAD, GP_MACHINE_GPU_FREQ,
      "GPU", &span);
  gp_verdict_machine_loads (vt, m, GP_MACHINE_MEMBW_LOAD,
      GP_MACHINE_MEM_FREQ, "memory", &span);
  gp_verdict_machine_cpus (vt, m, &span);
  gp_verdict_machine_engines (vt, m, &span);
  gp_verdict_machine_heat_power (vt, m, &span);
  if (m->cost_pct >= 0) {
    gchar *cost = g_strdup_printf ("%.2g%% of one core", m->cost_pct);

    gp_verdict_machine_row (vt, "cost:", cost);
    g_free (cost);
  }
  gp_verdict_machine_facts (vt, m);
  gp_verdict_machine_peaks (vt, m);
  gp_verdict_machine_bound (vt, s);
}

/* A session of the machine alone (a telemetry log): no pipeline section
 * has anything to say. */
static gboolean
gp_verdict_machine_only (GpSession * s)
{
  return s->machine != NULL && (s->elements == NULL || s->elements->len == 0)
      && gp_session_n_windows (s) == 0 && (s->sinks == NULL
      || s->sinks->len == 0);
}

/* Findings */

static gboolean
gp_verdict_strip_suffix (const gchar * key, const gchar * suffix,
    gchar ** label)
{
  if (!g_str_has_suffix (key, suffix))
    return FALSE;
  *label = g_strndup (key, strlen (key) - strlen (suffix));
  return TRUE;
}

/* One evidence member as "label value unit": the unit comes from the name's
 * suffix (see gp-rules.h), so new rules need nothing here. */
static gchar *
gp_verdict_evidence_item (const gchar * key, JsonNode * node)
{
  gchar *label = NULL, *value, *item;
  gchar b[32];
  const gchar *unit = "";
  GType vtype;

  if (gp_verdict_strip_suffix (key, "_ms", &label))
    unit = " ms";
  else if (gp_verdict_strip_suffix (key, "_pct", &label))
    unit = "%";
  else if (gp_verdict_strip_suffix (key, "_fps", &label))
    unit = " fps";
  else if (gp_verdict_strip_suffix (key, "_s", &label))
    unit = " s";
  else if (gp_verdict_strip_suffix (key, "_mhz", &label))
    unit = " MHz";
  else if (gp_verdict_strip_suffix (key, "_c", &label))
    unit = " C";
  else if (gp_verdict_strip_suffix (key, "_w", &label))
    unit = " W";
  else
    label = g_strdup (key);
  g_strdelimit (label, "_", ' ');

  if (JSON_NODE_HOLDS_NULL (node)) {
    value = g_strdup ("not measured");
    unit = "";
  } else if (JSON_NODE_HOLDS_VALUE (node)) {
    vtype = json_node_get_value_type (node);
    if (vtype == G_TYPE_STRING)
      value = g_strdup (json_node_get_string (node));
    else if (vtype == G_TYPE_BOOLEAN)
      value = g_strdup (json_node_get_boolean (node) ? "yes" : "no");
    else {
      gdouble v = json_node_get_double (node);

      if (v < 0 && *unit) {
        value = g_strdup ("not measured");
        unit = "";
      } else if (g_str_equal (unit, " ms"))
        value = g_strdup (gp_verdict_ms (b, v));
      else if (g_str_equal (unit, "%")) {
        value = g_strdup (gp_verdict_pct (b, v));
        unit = "";
      } else if (g_str_equal (unit, " MHz"))
        value = g_strdup_printf ("%.0f", v);
      else if (*unit)
        value = g_strdup_printf ("%.1f", v);
      else if (v == floor (v) && fabs (v) < 1e15)
        value = g_strdup_printf ("%.0f", v);
      else
        value = g_strdup_printf ("%.3g", v);
    }
  } else {
    value = json_to_string (node, FALSE);
  }
  item = g_strdup_printf ("%s %s%s", label, value, unit);
  g_free (label);
  g_free (value);
  return item;
}

static void
gp_verdict_finding (GpVerdictText * vt, guint rank, GpFinding * f)
{
  const gchar *style;
  gchar *head, *sev;

  switch (gp_severity_weight (f->severity)) {
    case 3:
      style = GP_VERDICT_STYLE_RED GP_VERDICT_STYLE_BOLD;
      break;
    case 2:
      style = GP_VERDICT_STYLE_YELLOW GP_VERDICT_STYLE_BOLD;
      break;
    default:
      style = GP_VERDICT_STYLE_CYAN;
      break;
  }
  head = g_strdup_printf ("%2u. ", rank);
  g_string_append (vt->out, head);
  sev = g_strdup_printf ("[%s]", f->severity ? f->severity : "?");
  gp_verdict_styled (vt, style, sev);
  /* The title wraps under itself; the prefix is measured without colour
   * codes so the layout is the same with and without them. */
  {
    GString *tmp = g_string_new (NULL);
    gchar *title = g_strdup_printf ("%s: %s", f->rule ? f->rule : "?",
        f->title ? f->title : "");
    gchar *plain_prefix = g_strdup_printf ("%s%s ", head, sev);
    gchar *indent = g_strnfill (strlen (head) + 1, ' ');

    gp_verdict_wrap (tmp, plain_prefix, indent, title);
    g_string_append (vt->out, tmp->str + strlen (plain_prefix) - 1);
    g_string_free (tmp, TRUE);
    g_free (title);
    g_free (plain_prefix);
    g_free (indent);
  }
  g_free (head);
  g_free (sev);

  if (f->evidence && json_object_get_size (f->evidence) > 0) {
    GList *members = json_object_get_members (f->evidence), *l;
    GString *ev = g_string_new (NULL);

    for (l = members; l; l = l->next) {
      gchar *item = gp_verdict_evidence_item (l->data,
          json_object_get_member (f->evidence, l->data));

      g_string_append_printf (ev, "%s%s", ev->len ? ", " : "", item);
      g_free (item);
    }
    gp_verdict_wrap (vt->out, "    evidence: ", "      ", ev->str);
    g_string_free (ev, TRUE);
    g_list_free (members);
  }
  if (f->why && *f->why)
    gp_verdict_wrap (vt->out, "    why: ", "      ", f->why);
  if (f->fix && *f->fix)
    gp_verdict_wrap (vt->out, "    fix: ", "      ", f->fix);
  if (f->verified_on && *f->verified_on) {
    gchar *v = g_strdup_printf ("verified on %s", f->verified_on);

    gp_verdict_wrap (vt->out, "    ", "      ", v);
    g_free (v);
  } else if (f->heuristic)
    g_string_append (vt->out, "    heuristic: not yet verified on a bench "
        "pair\n");
}

static void
gp_verdict_findings (GpVerdictText * vt, GpSession * s)
{
  guint i, n = s->findings ? s->findings->len : 0;
  gchar *head;

  if (n == 0) {
    const GpRule *rules;
    guint n_rules, j;
    GString *ids = g_string_new (NULL);

    rules = gp_rules_get (&n_rules);
    for (j = 0; j < n_rules; j++)
      g_string_append_printf (ids, "%s%s", j ? ", " : "", rules[j].id);
    gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, GP_VERDICT_FINDINGS_HEADING);
    g_string_append (vt->out, ": none\n");
    gp_verdict_wrap (vt->out, "  rules run: ", "    ", ids->str);
    g_string_free (ids, TRUE);
    return;
  }
  head = g_strdup_printf ("%s (%u), strongest first",
      GP_VERDICT_FINDINGS_HEADING, n);
  gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, head);
  g_string_append_c (vt->out, '\n');
  g_free (head);
  for (i = 0; i < n; i++)
    gp_verdict_finding (vt, i + 1, g_ptr_array_index (s->findings, i));
}

/* public */

gchar *
gp_verdict_format_findings (GpSession * s, GpVerdictFlags flags)
{
  GpVerdictText vt = { g_string_new (NULL), (flags & GP_VERDICT_COLOR) != 0,
      FALSE };

  g_return_val_if_fail (s != NULL, NULL);
  gp_verdict_findings (&vt, s);
  return g_string_free (vt.out, FALSE);
}

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
