/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-compare.c: two sessions side by side (gp-compare.h). Reads only the
 * two sessions: their summaries for the values, their series for the
 * run-to-run variation that decides what is noise.
 */
#include "gp-compare.h"
#include "core/gp-caps.h"
#include "core/gp-series.h"
#include "core/gp-session-query.h"
#include "core/gp-session-streams.h"
#include "core/gp-stats.h"
#include "rules/gp-rules.h"

#include <math.h>
#include <string.h>

/* Windows needed on each side to estimate a spread at all. */
#define GP_COMPARE_MIN_WINDOWS 3
/* From this many windows on, the first (start-up, prerolling) and the
 * last (cut by EOS, the final flush) are left out of the spread. */
#define GP_COMPARE_TRIM_WINDOWS 5
/* The smallest change, in % of the value, that is ever called a change. */
#define GP_COMPARE_MIN_CHANGE_PCT 2.0

/* ------------------------------------------------------------------ */
/* per-window values                                                   */

/* series[].<section>[.<key>].<field> of every window that has it as a
 * number >= 0 (-1 means "no sample in this window"). @key NULL reads
 * series[].<section>.<field> (the process). */
static GArray *
gp_compare_series_values (GpSession * s, const gchar * section,
    const gchar * key,
    const gchar * field)
{
  GArray *v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint i;

  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble x = gp_session_window_value (s, i, section, key, field);

    if (x >= 0)
      g_array_append_val (v, x);
  }
  return v;
}

/* Sample standard deviation of the windows, -1 when there are too few. */
static gdouble
gp_compare_windows_spread (GArray * v)
{
  guint first = 0, n = v->len, i;
  gdouble mean = 0, ss = 0;

  if (n >= GP_COMPARE_TRIM_WINDOWS) {
    first = 1;
    n -= 2;
  }
  if (n < GP_COMPARE_MIN_WINDOWS)
    return -1;
  for (i = first; i < first + n; i++)
    mean += g_array_index (v, gdouble, i);
  mean /= n;
  for (i = first; i < first + n; i++) {
    gdouble d = g_array_index (v, gdouble, i) - mean;

    ss += d * d;
  }
  return sqrt (ss / (n - 1));
}

gdouble
gp_compare_machine_reference (GpSession * s)
{
  GpMachineSeries *ms = s->machine ? gp_machine_find (s->machine,
      GP_MACHINE_CPU_REF, "xorshift") : NULL;
  GArray *v;
  GpSummary sum;
  guint i;

  if (ms == NULL)
    return NAN;
  v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  for (i = 0; i < ms->v->len; i++)
    if (!isnan (g_array_index (ms->v, gdouble, i)))
      g_array_append_val (v, g_array_index (ms->v, gdouble, i));
  gp_summary_of (v, &sum);
  g_array_unref (v);
  return sum.p50;
}

/* How much faster or slower the machine was in @b than in @a: the change
 * of the reference work's median time, as a fraction; NAN when a session
 * has no reference. */
static gdouble
gp_compare_drift (GpSession * a, GpSession * b)
{
  gdouble ra = gp_compare_machine_reference (a), rb =
      gp_compare_machine_reference (b);

  return ra > 0 && rb > 0 ? fabs (rb / ra - 1.0) : NAN;
}

/* Fills @v's spread and noise from the two sides' windows, and for a
 * quantity the machine's speed moves (@drifts: work, rates and latencies,
 * not memory) from the machine's drift between the runs. */
static void
gp_compare_value_set_spread (GpCompareValue * v, GpSession * a, GpSession * b,
    const gchar * section, const gchar * key_a, const gchar * key_b,
    const gchar * field, gdouble floor)
{
  gboolean drifts = g_strcmp0 (field, GP_SPR_RSS_MB) != 0;
  gdouble drift = drifts ? gp_compare_drift (a, b) : NAN;
  GArray *wa = gp_compare_series_values (a, section, key_a, field);
  GArray *wb = gp_compare_series_values (b, section, key_b, field);
  gdouble sa = gp_compare_windows_spread (wa),
      sb = gp_compare_windows_spread (wb);

  /* both sides must show their variation: a steady "after" says nothing
   * about how much the "before" wobbled */
  v->spread = sa >= 0 && sb >= 0 ? MAX (sa, sb) : -1;
  /* A quantity steady within each run (memory, a fixed sleep) still moves
   * between runs: never claim less than the measurement's resolution
   * (@floor) or GP_COMPARE_MIN_CHANGE_PCT of the value. */
  if (v->spread >= 0)
    v->spread = MAX (v->spread, MAX (floor, GP_COMPARE_MIN_CHANGE_PCT / 100.0
            * MAX (fabs (v->a), fabs (v->b))));
  if (v->spread >= 0 && !isnan (drift))
    v->spread = MAX (v->spread, drift * MAX (fabs (v->a), fabs (v->b)));
  v->noise = v->spread >= 0 && v->a >= 0 && v->b >= 0 &&
      fabs (v->b - v->a) <= v->spread;
  g_array_unref (wa);
  g_array_unref (wb);
}

/* The id of the link into @sink (its first one), or NULL. */
static const gchar *
gp_compare_sink_link_id (GpSession * s, const gchar * sink)
{
  guint i;

  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *el = gp_pad_element (l->sink);
    gboolean match = g_strcmp0 (el, sink) == 0;

    g_free (el);
    if (match)
      return l->id;
  }
  return NULL;
}

gboolean
gp_compare_sink_fps (GpSession * a, GpSession * b, const gchar * sink,
    GpCompareValue * v)
{
  GpSinkSummary *sa = gp_session_find_sink (a, sink);
  GpSinkSummary *sb = gp_session_find_sink (b, sink);

  v->a = v->b = v->spread = -1;
  v->noise = FALSE;
  if (sa == NULL || sb == NULL)
    return FALSE;
  v->a = sa->fps;
  v->b = sb->fps;
  /* the rate into the sink per window is that of its input link */
  gp_compare_value_set_spread (v, a, b, GP_SERIES_LINKS,
      gp_compare_sink_link_id (a, sink), gp_compare_sink_link_id (b, sink),
      GP_SL_FPS, 0.0);
  return TRUE;
}

/* How a sink's rate reads in its own media: a video sink (or one whose
 * media is unknown) in frames per second, an audio sink in media time per
 * second, a muxed or RTP output in kbit/s. */
typedef enum
{
  GP_COMPARE_RATE_FPS,
  GP_COMPARE_RATE_REAL_TIME,
  GP_COMPARE_RATE_KBIT,
} GpCompareRate;

static GpCompareRate
gp_compare_rate_kind (GpSinkSummary * sa, GpSinkSummary * sb)
{
  GpMediaKind kind = gp_media_kind_from_name (sa->media);

  if (kind == GP_MEDIA_AUDIO && sa->media_per_s >= 0 && sb->media_per_s >= 0
      && sa->fps > 0 && sb->fps > 0)
    return GP_COMPARE_RATE_REAL_TIME;
  if (kind == GP_MEDIA_RTP || kind == GP_MEDIA_MUXED)
    return GP_COMPARE_RATE_KBIT;
  return GP_COMPARE_RATE_FPS;
}

/* @v, filled in buffers a second, made media time a second (@media_a and
 * @media_b over @fps_a and @fps_b buffers): its spread is the windows'
 * buffers a second at the run's media time per buffer. */
static void
gp_compare_value_real_time (GpCompareValue * v, gdouble fps_a,
    gdouble media_a, gdouble fps_b, gdouble media_b)
{
  gdouble scale = MAX (media_a / fps_a, media_b / fps_b);

  v->a = media_a;
  v->b = media_b;
  if (v->spread >= 0)
    v->spread = MAX (v->spread * scale, GP_COMPARE_MIN_CHANGE_PCT / 100.0
        * MAX (v->a, v->b));
}

/* Fills @v for a sink's rate in its own media (@kind); FALSE when either
 * session lacks the sink. The spread of media time per second is the
 * windows' buffers per second at the run's media time per buffer. */
static gboolean
gp_compare_sink_rate (GpSession * a, GpSession * b, const gchar * sink,
    GpCompareValue * v, GpCompareRate * kind)
{
  GpSinkSummary *sa = gp_session_find_sink (a, sink);
  GpSinkSummary *sb = gp_session_find_sink (b, sink);

  if (!gp_compare_sink_fps (a, b, sink, v))
    return FALSE;
  *kind = gp_compare_rate_kind (sa, sb);
  if (*kind == GP_COMPARE_RATE_REAL_TIME) {
    gp_compare_value_real_time (v, sa->fps, sa->media_per_s, sb->fps,
        sb->media_per_s);
  } else if (*kind == GP_COMPARE_RATE_KBIT) {
    v->a = sa->bytes_per_s * 8 / 1000.0;
    v->b = sb->bytes_per_s * 8 / 1000.0;
    gp_compare_value_set_spread (v, a, b, GP_SERIES_LINKS,
        gp_compare_sink_link_id (a, sink), gp_compare_sink_link_id (b, sink),
        GP_SL_BYTES_PER_S, 0.0);
    if (v->spread >= 0)
      v->spread *= 8 / 1000.0;
  }
  v->noise = v->spread >= 0 && v->a >= 0 && v->b >= 0 &&
      fabs (v->b - v->a) <= v->spread;
  return TRUE;
}

/* A path's key in the series, "SOURCE->SINK". */
static gchar *
gp_compare_path_key (const GpPath * p)
{
  return g_strdup_printf ("%s->%s", p->source, p->sink);
}

/* The stream of @streams that enters its muxer or payloader by the pad
 * @st enters by ("matroskamux0.video_0"): what is upstream of it may have
 * been renamed or renumbered by the fix; NULL when none. */
static GpStream *
gp_compare_find_stream (GArray * streams, const GpStream * st)
{
  guint i;

  for (i = 0; i < streams->len; i++) {
    GpStream *other = &g_array_index (streams, GpStream, i);

    if (g_strcmp0 (other->link->sink, st->link->sink) == 0)
      return other;
  }
  return NULL;
}

/* Fills @v for the elementary stream @sa of @a and its partner in @b (the
 * stream into the same pad of the same muxer or payloader):
 * video in fps, audio in media time a second (@unit); FALSE when @b has
 * none or the rate is not known. */
static gboolean
gp_compare_stream_rate (GpSession * a, GpSession * b, GpStream * sa,
    GArray * streams_b, GpCompareValue * v, const gchar ** unit)
{
  GpStream *sb = gp_compare_find_stream (streams_b, sa);

  v->a = v->b = v->spread = -1;
  v->noise = FALSE;
  if (sb == NULL || sa->fps < 0 || sb->fps < 0)
    return FALSE;
  v->a = sa->fps;
  v->b = sb->fps;
  gp_compare_value_set_spread (v, a, b, GP_SERIES_LINKS, sa->link->id,
      sb->link->id, GP_SL_FPS, 0.0);
  *unit = "fps";
  if (sa->kind == GP_MEDIA_AUDIO && sa->media_per_s > 0 &&
      sb->media_per_s > 0 && sa->fps > 0 && sb->fps > 0) {
    gp_compare_value_real_time (v, sa->fps, sa->media_per_s, sb->fps,
        sb->media_per_s);
    v->noise = v->spread >= 0 && fabs (v->b - v->a) <= v->spread;
    *unit = "x real time";
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* worse                                                               */

/* @v, when it moved the wrong way beyond a known noise (@higher_worse: up
 * is worse), as a line into @out. */
static void
gp_compare_say_worse (GString * out, const gchar * what,
    const GpCompareValue * v, const gchar * unit, gboolean higher_worse)
{
  gdouble d;

  if (v->a < 0 || v->b < 0 || v->spread < 0 || v->noise)
    return;
  d = v->b - v->a;
  if (higher_worse ? d <= 0 : d >= 0)
    return;
  g_string_append_printf (out, "  %s: %.1f -> %.1f %s", what, v->a, v->b,
      unit);
  if (v->a > 0)
    g_string_append_printf (out, " (%+.0f %%)", 100.0 * d / v->a);
  g_string_append_printf (out, ", beyond noise (±%.1f)\n", v->spread);
}

static const gchar *const gp_compare_rate_units[] = {
  "fps", "x real time", "kbit/s"
};

gchar *
gp_compare_worse (GpSession * a, GpSession * b, guint measures)
{
  GString *out = g_string_new (NULL);
  GpCompareValue v;
  guint i;

  for (i = 0; a->sinks && i < a->sinks->len; i++) {
    GpSinkSummary *sa = g_ptr_array_index (a->sinks, i);
    GpCompareRate kind;

    if (!gp_compare_sink_rate (a, b, sa->name, &v, &kind))
      continue;
    /* a muxed or RTP output by its streams: its bits a second are the
     * encoder's business, its frames a second the viewer's */
    if (kind == GP_COMPARE_RATE_KBIT) {
      GArray *streams_a = gp_session_streams_of (a, sa->name);
      GArray *streams_b = gp_session_streams_of (b, sa->name);
      GpCompareValue sv;
      guint k, matched = 0;

      for (k = 0; k < streams_a->len; k++) {
        GpStream *st = &g_array_index (streams_a, GpStream, k);
        const gchar *unit;
        gchar *what;

        if (!gp_compare_stream_rate (a, b, st, streams_b, &sv, &unit))
          continue;
        matched++;
        what = g_strdup_printf ("%s into %s", st->kind == GP_MEDIA_VIDEO ?
            "video" : "audio", st->into);
        gp_compare_say_worse (out, what, &sv, unit, FALSE);
        g_free (what);
      }
      /* no stream to judge it by (an RTP relay, a muxer's input renamed):
       * its own bits a second */
      if (matched == 0)
        gp_compare_say_worse (out, sa->name, &v, gp_compare_rate_units[kind],
            FALSE);
      g_array_unref (streams_a);
      g_array_unref (streams_b);
    } else {
      gp_compare_say_worse (out, sa->name, &v, gp_compare_rate_units[kind],
          FALSE);
    }
  }
  for (i = 0; (measures & GP_RULE_MEASURE_LATENCY) && a->paths &&
      i < a->paths->len; i++) {
    GpPath *pa = g_ptr_array_index (a->paths, i);
    GpPath *pb = gp_session_find_path (b, pa->source, pa->sink);
    gchar *key = gp_compare_path_key (pa), *what;

    if (pb != NULL) {
      v.a = pa->latency_ms.p50;
      v.b = pb->latency_ms.p50;
      gp_compare_value_set_spread (&v, a, b, GP_SERIES_PATHS, key, key,
          GP_SP_LATENCY_MS_P50, 0.05);
      what = g_strdup_printf ("latency p50 %s", key);
      gp_compare_say_worse (out, what, &v, "ms", TRUE);
      g_free (what);
    }
    g_free (key);
  }
  if ((measures & GP_RULE_MEASURE_CPU) && a->process.measured &&
      b->process.measured) {
    v.a = a->process.cpu_pct_mean;
    v.b = b->process.cpu_pct_mean;
    gp_compare_value_set_spread (&v, a, b, GP_SERIES_PROCESS, NULL, NULL,
        GP_SPR_CPU_PCT, 0.5);
    gp_compare_say_worse (out, "process CPU", &v, "% of a core", TRUE);
  }
  if ((measures & GP_RULE_MEASURE_MEMORY) && a->process.measured &&
      b->process.measured && a->process.rss_mb_max >= 0 &&
      b->process.rss_mb_max >= 0) {
    v.a = a->process.rss_mb_max;
    v.b = b->process.rss_mb_max;
    gp_compare_value_set_spread (&v, a, b, GP_SERIES_PROCESS, NULL, NULL,
        GP_SPR_RSS_MB, 1.0);
    gp_compare_say_worse (out, "process RSS, max", &v, "MiB", TRUE);
  }
  if (out->len == 0) {
    g_string_free (out, TRUE);
    return NULL;
  }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* the table                                                           */

typedef struct
{
  gchar *cells[5];              /* label, a, b, change, note; NULL = "" */
} GpCompareRow;

static void
gp_compare_row_free (gpointer p)
{
  GpCompareRow *r = p;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (r->cells); i++)
    g_free (r->cells[i]);
  g_free (r);
}

static gchar *
gp_compare_fmt_value (gdouble x)
{
  return x < 0 ? g_strdup ("-") : g_strdup_printf ("%.1f", x);
}

static void
gp_compare_add_row (GPtrArray * rows, const gchar * label,
    const GpCompareValue * v)
{
  GpCompareRow *r = g_new0 (GpCompareRow, 1);

  r->cells[0] = g_strdup (label);
  r->cells[1] = gp_compare_fmt_value (v->a);
  r->cells[2] = gp_compare_fmt_value (v->b);
  if (v->a >= 0 && v->b >= 0) {
    gdouble d = v->b - v->a;

    r->cells[3] = v->a > 0 ?
        g_strdup_printf ("%+.1f (%+.0f%%)", d, 100.0 * d / v->a) :
        g_strdup_printf ("%+.1f", d);
    if (v->spread < 0)
      r->cells[4] = g_strdup ("noise? (too few windows)");
    else if (v->noise)
      r->cells[4] = g_strdup_printf ("noise (within ±%.1f)", v->spread);
    else
      r->cells[4] = g_strdup_printf ("beyond noise (±%.1f)", v->spread);
  }
  g_ptr_array_add (rows, r);
}

static void
gp_compare_add_note_row (GPtrArray * rows, const gchar * label,
    const gchar * note)
{
  GpCompareRow *r = g_new0 (GpCompareRow, 1);

  r->cells[0] = g_strdup (label);
  r->cells[4] = g_strdup (note);
  g_ptr_array_add (rows, r);
}

/* Rows aligned in columns (labels left, numbers right), under a heading
 * and the column titles; nothing when there are no rows. */
static void
gp_compare_flush_rows (GString * out, const gchar * heading, GPtrArray * rows,
    const gchar * label_a, const gchar * label_b)
{
  gsize w[5] = { 0, 0, 0, 0, 0 };
  guint i, c;

  if (rows->len == 0)
    return;
  w[1] = strlen (label_a);
  w[2] = strlen (label_b);
  w[3] = strlen ("change");
  for (i = 0; i < rows->len; i++) {
    GpCompareRow *r = g_ptr_array_index (rows, i);

    for (c = 0; c < 4; c++)
      if (r->cells[c] != NULL)
        w[c] = MAX (w[c], (gsize) g_utf8_strlen (r->cells[c], -1));
  }
  g_string_append_printf (out, "%s\n  %-*s  %*s  %*s  %*s\n", heading,
      (int) w[0], "", (int) w[1], label_a, (int) w[2], label_b, (int) w[3],
      "change");
  for (i = 0; i < rows->len; i++) {
    GpCompareRow *r = g_ptr_array_index (rows, i);
    GString *line = g_string_new ("  ");

    g_string_append_printf (line, "%-*s", (int) w[0], r->cells[0]);
    for (c = 1; c < 4; c++)
      g_string_append_printf (line, "  %*s", (int) w[c],
          r->cells[c] ? r->cells[c] : "");
    if (r->cells[4] != NULL)
      g_string_append_printf (line, "  %s", r->cells[4]);
    while (line->len > 0 && line->str[line->len - 1] == ' ')
      g_string_truncate (line, line->len - 1);
    g_string_append_printf (out, "%s\n", line->str);
    g_string_free (line, TRUE);
  }
  g_string_append_c (out, '\n');
  g_ptr_array_set_size (rows, 0);
}

/* A row for each stream into @sink's muxer or payloader. */
static void
gp_compare_stream_rows (GPtrArray * rows, GpSession * a, GpSession * b,
    const gchar * sink)
{
  GArray *streams_a = gp_session_streams_of (a, sink);
  GArray *streams_b = gp_session_streams_of (b, sink);
  GpCompareValue v;
  guint k;

  for (k = 0; k < streams_a->len; k++) {
    GpStream *st = &g_array_index (streams_a, GpStream, k);
    const gchar *unit;
    gchar *label;

    if (g_strcmp0 (st->into, sink) == 0 ||
        !gp_compare_stream_rate (a, b, st, streams_b, &v, &unit))
      continue;
    label = g_strdup_printf ("  %s into %s (%s)", st->kind ==
        GP_MEDIA_VIDEO ? "video" : "audio", st->into, unit);
    gp_compare_add_row (rows, label, &v);
    g_free (label);
  }
  g_array_unref (streams_a);
  g_array_unref (streams_b);
}

static void
gp_compare_sinks (GString * out, GPtrArray * rows, GpSession * a, GpSession * b,
    const gchar * la, const gchar * lb)
{
  guint i;

  for (i = 0; i < a->sinks->len; i++) {
    GpSinkSummary *sa = g_ptr_array_index (a->sinks, i);
    GpCompareRate kind;
    GpCompareValue v;

    if (gp_compare_sink_rate (a, b, sa->name, &v, &kind)) {
      gchar *label = g_strdup_printf ("%s (%s)", sa->name,
          gp_compare_rate_units[kind]);

      gp_compare_add_row (rows, label, &v);
      g_free (label);
      /* under a muxed or RTP output, each stream into it: an encoder from
       * 6.5 to 16.2 fps read "+64 % kbit/s, noise" */
      if (kind == GP_COMPARE_RATE_KBIT)
        gp_compare_stream_rows (rows, a, b, sa->name);
    } else {
      gchar *note = g_strdup_printf ("only in %s (%.1f buffers/s)", la,
          sa->fps);

      gp_compare_add_note_row (rows, sa->name, note);
      g_free (note);
    }
  }
  for (i = 0; i < b->sinks->len; i++) {
    GpSinkSummary *sb = g_ptr_array_index (b->sinks, i);

    if (gp_session_find_sink (a, sb->name) == NULL) {
      gchar *note = g_strdup_printf ("only in %s (%.1f buffers/s)", lb,
          sb->fps);

      gp_compare_add_note_row (rows, sb->name, note);
      g_free (note);
    }
  }
  gp_compare_flush_rows (out, "Rate (per sink, in its own media)", rows, la,
      lb);
}

static void
gp_compare_paths (GString * out, GPtrArray * rows, GpSession * a, GpSession * b,
    const gchar * la, const gchar * lb)
{
  guint i;

  for (i = 0; i < a->paths->len; i++) {
    GpPath *pa = g_ptr_array_index (a->paths, i);
    GpPath *pb = gp_session_find_path (b, pa->source, pa->sink);
    gchar *key = gp_compare_path_key (pa), *label;

    if (pb == NULL) {
      gchar *note = g_strdup_printf ("only in %s", la);

      gp_compare_add_note_row (rows, key, note);
      g_free (note);
    } else {
      GpCompareValue v;

      v.a = pa->latency_ms.p50;
      v.b = pb->latency_ms.p50;
      gp_compare_value_set_spread (&v, a, b, GP_SERIES_PATHS, key, key,
          GP_SP_LATENCY_MS_P50, 0.05);
      label = g_strdup_printf ("p50 %s", key);
      gp_compare_add_row (rows, label, &v);
      g_free (label);
      v.a = pa->latency_ms.p95;
      v.b = pb->latency_ms.p95;
      gp_compare_value_set_spread (&v, a, b, GP_SERIES_PATHS, key, key,
          GP_SP_LATENCY_MS_P95, 0.05);
      label = g_strdup_printf ("p95 %s", key);
      gp_compare_add_row (rows, label, &v);
      g_free (label);
    }
    g_free (key);
  }
  for (i = 0; i < b->paths->len; i++) {
    GpPath *pb = g_ptr_array_index (b->paths, i);

    if (gp_session_find_path (a, pb->source, pb->sink) == NULL) {
      gchar *key = gp_compare_path_key (pb),
          *note = g_strdup_printf ("only in %s", lb);

      gp_compare_add_note_row (rows, key, note);
      g_free (key);
      g_free (note);
    }
  }
  gp_compare_flush_rows (out, "Latency (ms, per path to a sink)", rows, la, lb);
}

/* Threads that matter for the comparison: those that ran elements, and
 * any other that burnt at least 1 % of a core (gstprof's own idle helper
 * threads are named after the command and would only add noise). */
static gboolean
gp_compare_thread_shown (const GpThreadSummary * t)
{
  return t != NULL && ((t->elements != NULL && t->elements->len > 0) ||
      t->cpu_pct_mean >= 1.0);
}

/* The thread of @b that is @ta of @a: the same identity (renumbered
 * elements and workers' thread ids aside), the first one not yet taken. */
static GpThreadSummary *
gp_compare_find_thread (GpSession * a, const GpThreadSummary * ta,
    GpSession * b,
    GHashTable * taken)
{
  gchar *ida = gp_session_target_identity (a, ta->name);
  GpThreadSummary *found = NULL;
  guint i;

  for (i = 0; i < b->threads->len && found == NULL; i++) {
    GpThreadSummary *t = g_ptr_array_index (b->threads, i);
    gchar *idb;

    if (taken && g_hash_table_contains (taken, t))
      continue;
    idb = gp_session_target_identity (b, t->name);
    if (g_strcmp0 (ida, idb) == 0)
      found = t;
    g_free (idb);
  }
  g_free (ida);
  return found;
}

static void
gp_compare_cpu (GString * out, GPtrArray * rows, GpSession * a, GpSession * b,
    const gchar * la, const gchar * lb)
{
  GpCompareValue v;
  GHashTable *taken = g_hash_table_new (NULL, NULL);
  guint i;

  if (a->process.measured || b->process.measured) {
    v.a = a->process.measured ? a->process.cpu_pct_mean : -1;
    v.b = b->process.measured ? b->process.cpu_pct_mean : -1;
    gp_compare_value_set_spread (&v, a, b, GP_SERIES_PROCESS, NULL, NULL,
        GP_SPR_CPU_PCT, 0.5);
    gp_compare_add_row (rows, "process", &v);
  }
  for (i = 0; i < a->threads->len; i++) {
    GpThreadSummary *ta = g_ptr_array_index (a->threads, i);
    GpThreadSummary *tb = gp_compare_find_thread (a, ta, b, taken);
    gchar *label;

    if (tb)
      g_hash_table_add (taken, tb);
    if (!gp_compare_thread_shown (ta) && !gp_compare_thread_shown (tb))
      continue;
    label = g_strdup_printf ("thread %s", ta->name);
    if (tb == NULL) {
      gchar *note = g_strdup_printf ("only in %s (%.1f %%)", la,
          ta->cpu_pct_mean);

      gp_compare_add_note_row (rows, label, note);
      g_free (note);
    } else {
      v.a = ta->cpu_pct_mean;
      v.b = tb->cpu_pct_mean;
      gp_compare_value_set_spread (&v, a, b, GP_SERIES_THREADS, ta->name,
          tb->name, GP_ST_CPU_PCT, 0.5);
      gp_compare_add_row (rows, label, &v);
    }
    g_free (label);
  }
  for (i = 0; i < b->threads->len; i++) {
    GpThreadSummary *tb = g_ptr_array_index (b->threads, i);

    if (gp_compare_thread_shown (tb) && !g_hash_table_contains (taken, tb)) {
      gchar *label = g_strdup_printf ("thread %s", tb->name);
      gchar *note = g_strdup_printf ("only in %s (%.1f %%)", lb,
          tb->cpu_pct_mean);

      gp_compare_add_note_row (rows, label, note);
      g_free (label);
      g_free (note);
    }
  }
  gp_compare_flush_rows (out, "CPU (% of one core, mean over the run)", rows,
      la, lb);
  g_hash_table_unref (taken);

  if (a->process.measured && b->process.measured &&
      a->process.rss_mb_max >= 0 && b->process.rss_mb_max >= 0) {
    v.a = a->process.rss_mb_max;
    v.b = b->process.rss_mb_max;
    gp_compare_value_set_spread (&v, a, b, GP_SERIES_PROCESS, NULL, NULL,
        GP_SPR_RSS_MB, 1.0);
    gp_compare_add_row (rows, "process RSS, max", &v);
    gp_compare_flush_rows (out, "Memory (MiB)", rows, la, lb);
  }
}

/* The keys of @s's findings: which finding of one run is which of the
 * other is the rules' to say (gp_rules_finding_key ()). */
static GHashTable *
gp_compare_finding_keys (GpSession * s)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint i;

  for (i = 0; i < s->findings->len; i++)
    g_hash_table_add (h, gp_rules_finding_key (s,
            g_ptr_array_index (s->findings, i)));
  return h;
}

static void
gp_compare_list_findings (GString * out, GpSession * s, GHashTable * other,
    gboolean in_other, const gchar * what)
{
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    gchar *k = gp_rules_finding_key (s, f);

    if (g_hash_table_contains (other, k) == in_other)
      g_string_append_printf (out, "  %-9s %-7s %-6s %s\n", what, f->rule,
          f->severity, f->title);
    g_free (k);
  }
}

static guint
gp_compare_count_findings (GpSession * s, GHashTable * other, gboolean in_other)
{
  guint i, n = 0;

  for (i = 0; i < s->findings->len; i++) {
    gchar *k = gp_rules_finding_key (s, g_ptr_array_index (s->findings, i));

    n += g_hash_table_contains (other, k) == in_other;
    g_free (k);
  }
  return n;
}

static void
gp_compare_findings (GString * out, GpSession * a, GpSession * b)
{
  GHashTable *ka = gp_compare_finding_keys (a),
      *kb = gp_compare_finding_keys (b);

  g_string_append_printf (out, "Findings: %u cleared, %u remaining, %u new\n",
      gp_compare_count_findings (a, kb, FALSE), gp_compare_count_findings (b,
          ka, TRUE),
      gp_compare_count_findings (b, ka, FALSE));
  gp_compare_list_findings (out, a, kb, FALSE, "cleared");
  gp_compare_list_findings (out, b, ka, TRUE, "remaining");
  gp_compare_list_findings (out, b, ka, FALSE, "new");
  g_hash_table_unref (ka);
  g_hash_table_unref (kb);
}

/* How many elements of @a, by identity, @b has too (bins and the
 * elements a fix adds or removes left out). */
static guint
gp_compare_shared_elements (GpSession * a, GpSession * b, guint * n_a)
{
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint i, shared = 0;

  *n_a = 0;
  for (i = 0; b->elements && i < b->elements->len; i++) {
    GpElement *e = g_ptr_array_index (b->elements, i);

    if (!e->is_bin)
      g_hash_table_add (ids, gp_session_element_identity (b, e->name));
  }
  for (i = 0; a->elements && i < a->elements->len; i++) {
    GpElement *e = g_ptr_array_index (a->elements, i);
    gchar *id;

    if (e->is_bin || gp_session_is_queue (a, e->name) ||
        g_strcmp0 (e->factory, "capsfilter") == 0)
      continue;
    (*n_a)++;
    id = gp_session_element_identity (a, e->name);
    shared += g_hash_table_contains (ids, id);
    g_free (id);
  }
  g_hash_table_unref (ids);
  return shared;
}

/* What the noise model used for the machine: the reference work's time in
 * each run and the drift counted in the bands, or that it was not
 * measured. */
static void
gp_compare_say_drift (GString * out, GpSession * a, GpSession * b,
    const gchar * la, const gchar * lb)
{
  gdouble ra = gp_compare_machine_reference (a), rb =
      gp_compare_machine_reference (b);

  if (ra > 0 && rb > 0)
    g_string_append_printf (out, "So is the machine's drift between the "
        "runs: a fixed piece of work took\n%.2f ns a round of CPU in %s and "
        "%.2f ns in %s (%+.0f %%): a change of work, rate\nor latency within "
        "%.0f %% is noise.\n", ra, la, rb, lb, (rb / ra - 1.0) * 100.0,
        fabs (rb / ra - 1.0) * 100.0);
  else
    g_string_append_printf (out, "The machine's drift between the runs is "
        "not known (%s has no reference work:\na session from an earlier "
        "gstprof, or a run with --no-machine).\n", ra > 0 ? lb : la);
}

gchar *
gp_compare_format (GpSession * a, GpSession * b, const gchar * label_a,
    const gchar * label_b)
{
  GString *out = g_string_new (NULL);
  GPtrArray *rows = g_ptr_array_new_with_free_func (gp_compare_row_free);
  gboolean sinks_match = FALSE;
  int width;
  guint i, n_a;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  width = (int) MAX (strlen (label_a), strlen (label_b));
  /* first of all: whether this compares a pipeline with itself */
  if (gp_compare_shared_elements (a, b, &n_a) == 0 && n_a > 0)
    g_string_append_printf (out, "%s and %s profile different pipelines: no "
        "element of one is in the other, so nothing below compares like "
        "with like.\n\n", label_a, label_b);
  g_string_append_printf (out, "%s:%*s %s\n", label_a,
      width - (int) strlen (label_a), "", a->launch ? a->launch :
      "(no launch string)");
  g_string_append_printf (out, "%s:%*s %s\n", label_b,
      width - (int) strlen (label_b), "", b->launch ? b->launch :
      "(no launch string)");
  g_string_append_printf (out, "duration %.1f s / %.1f s, window %.0f ms / "
      "%.0f ms\n", a->duration_s, b->duration_s, a->window_s * 1000.0,
      b->window_s * 1000.0);
  g_string_append (out, "A change within the per-window spread of either "
      "run is marked noise.\n");
  gp_compare_say_drift (out, a, b, label_a, label_b);
  g_string_append_c (out, '\n');

  for (i = 0; i < a->sinks->len && !sinks_match; i++)
    sinks_match = gp_session_find_sink (b,
        ((GpSinkSummary *) g_ptr_array_index (a->sinks, i))->name) != NULL;
  if (!sinks_match && (a->sinks->len > 0 || b->sinks->len > 0))
    g_string_append (out, "The two sessions have no sink of the same name: "
        "nothing below compares like with like.\n\n");

  gp_compare_sinks (out, rows, a, b, label_a, label_b);
  gp_compare_paths (out, rows, a, b, label_a, label_b);
  gp_compare_cpu (out, rows, a, b, label_a, label_b);
  gp_compare_findings (out, a, b);
  g_ptr_array_unref (rows);
  return g_string_free (out, FALSE);
}
