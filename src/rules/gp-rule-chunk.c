/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-chunk.c: CHUNK, the size of a live audio source's buffers.  A
 * live source hands a buffer on once it is full: a sample waits in it for
 * the rest, so buffers of half a second put half a second of latency
 * before anything leaves the source (a symptom: a live call or stream that
 * lags what it hears), however fast everything after it is.  Buffers far
 * smaller than the stream needs cost the other way: every element pays its
 * per-buffer work thousands of times a second (a cause, at info, with the
 * saving it can be at most).  Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-caps.h"

#include <math.h>
#include <stdlib.h>

/* Live audio in buffers of this many ms or more: that much latency before
 * the first sample leaves (the latency query of a 500 ms source says 540
 * ms); 10-20 ms is what capture and codecs work in. */
#define GP_CHUNK_BIG_MS 100.0
/* Buffers of this many ms or less, this many a second or more: each
 * element's per-buffer work dominates (0.5 ms buffers took 6.4 times the
 * CPU of 20 ms ones through a converter, a volume and a resampler). */
#define GP_CHUNK_TINY_MS 2.0
#define GP_CHUNK_TINY_PER_S 500.0
/* What the fix asks for: 20 ms, an Opus frame, a common capture period. */
#define GP_CHUNK_GOOD_MS 20.0

/* The property that sets @factory's buffer size, and its value for
 * GP_CHUNK_GOOD_MS at @rate Hz; FALSE when not known. */
static gboolean
gp_chunk_prop (const gchar * factory, gint rate, const gchar ** prop,
    gint64 * value)
{
  if (g_strcmp0 (factory, "audiotestsrc") == 0 && rate > 0) {
    *prop = "samplesperbuffer";
    *value = (gint64) (rate * GP_CHUNK_GOOD_MS / 1000.0);
    return TRUE;
  }
  if (g_strcmp0 (factory, "alsasrc") == 0 ||
      g_strcmp0 (factory, "pulsesrc") == 0 ||
      g_strcmp0 (factory, "jackaudiosrc") == 0 ||
      g_strcmp0 (factory, "osssrc") == 0) {
    /* audiobasesrc: the size of a segment, in microseconds */
    *prop = "latency-time";
    *value = (gint64) (GP_CHUNK_GOOD_MS * 1000);
    return TRUE;
  }
  return FALSE;
}

/* The fix: the source's buffer size at GP_CHUNK_GOOD_MS, as a patch
 * where the source's factory says how. */
static void
gp_chunk_fix (GpSession * s, GpFinding * f, GpElement * src, gint rate)
{
  const gchar *prop;
  gint64 value;
  gchar *name;

  if (!gp_chunk_prop (src->factory, rate, &prop, &value)) {
    f->fix = g_strdup_printf ("Make %s's buffers %.0f ms long (the "
        "property of its kind that sets its period or buffer size).",
        src->name, GP_CHUNK_GOOD_MS);
    return;
  }
  f->fix = g_strdup_printf ("Make %s's buffers %.0f ms long: %s=%"
      G_GINT64_FORMAT ".", src->name, GP_CHUNK_GOOD_MS, prop, value);
  name = gp_session_launch_name (s, src->name);
  if (name) {
    GPtrArray *patch = gp_launch_patch_new ();

    g_ptr_array_add (patch, gp_launch_op_set_int (name, prop, value));
    gp_rules_attach_patch (s, f, patch);
    g_free (name);
  }
}

static void
gp_chunk_link (GpSession * s, const GpRule * rule, GpLink * l,
    GpElement * src)
{
  GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
  gchar *rate_s = gp_caps_field (l->caps, "rate");
  gint rate = rate_s ? atoi (rate_s) : 0;
  gdouble ms;
  gchar *title;
  GpFinding *f;

  g_free (rate_s);
  if (ls == NULL || ls->fps <= 0 || ls->media_per_s <= 0)
    return;
  ms = ls->media_per_s / ls->fps * 1000.0;
  if (ms >= GP_CHUNK_BIG_MS && !gp_session_recording_only (s, src->name)) {
    title = g_strdup_printf ("%s makes its live audio in %.0f ms buffers: "
        "each sample waits up to that long before it leaves", src->name, ms);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, src->name);
    f->rank_value = MIN (100.0, ms / 10.0);
    gp_finding_set_string (f, "source", src->name);
    gp_finding_set_string (f, "link", l->id);
    gp_finding_set_double (f, "buffer_ms", ms);
    gp_finding_set_double (f, "buffers_per_s", ls->fps);
    g_free (f->why);
    f->why = g_strdup_printf ("A live source hands a buffer on once it is "
        "full: the first sample of each waits %.0f ms for the rest, so "
        "everything after %s is at least that late, however fast it is. A "
        "call, a monitor or a live stream hears it that much after it "
        "happened.", ms, src->name);
    g_free (f->fix);
    gp_chunk_fix (s, f, src, rate);
    return;
  }
  if (ms <= GP_CHUNK_TINY_MS && ls->fps >= GP_CHUNK_TINY_PER_S) {
    gdouble fewer = GP_CHUNK_GOOD_MS / ms;
    gdouble cpu = s->process.measured ? s->process.cpu_pct_mean : -1;
    gchar *cpu_s = NULL;

    title = g_strdup_printf ("%s makes %.0f buffers a second of %.2f ms of "
        "audio: every element pays its per-buffer work that often", src->name,
        ls->fps, ms);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_INFO, title);
    g_free (title);
    gp_finding_add_target (f, src->name);
    f->rank_value = MIN (100.0, ls->fps / 100.0);
    gp_finding_set_string (f, "source", src->name);
    gp_finding_set_string (f, "link", l->id);
    gp_finding_set_double (f, "buffer_ms", ms);
    gp_finding_set_double (f, "buffers_per_s", ls->fps);
    gp_finding_set_double (f, "fewer_x", fewer);
    if (cpu >= 0) {
      gp_finding_set_double (f, "process_cpu_pct", cpu);
      /* all of it per buffer: the most a bigger buffer can save */
      gp_finding_set_double (f, "saving_at_most_pct", 100.0 * (1.0 - 1.0 /
              fewer));
    }
    g_free (f->why);
    f->why = g_strdup_printf ("Each push, each element's chain call, each "
        "timestamp and allocation is paid per buffer; in %.2f ms buffers "
        "that is %.0f times a second. At %.0f ms there are %.0f times fewer, "
        "and the per-buffer part of the process's CPU (%s of a core here) "
        "shrinks as much: at most %.0f%% of it goes, when all of it is per "
        "buffer.", ms, ls->fps, GP_CHUNK_GOOD_MS, fewer, cpu >= 0 ?
        (cpu_s = g_strdup_printf ("%.0f%%", cpu)) : "not measured",
        100.0 * (1.0 - 1.0 / fewer));
    g_free (cpu_s);
    g_free (f->fix);
    gp_chunk_fix (s, f, src, rate);
  }
}

void
gp_rule_chunk (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *name = gp_pad_element (l->src);
    GpElement *src = gp_session_find_element (s, name);

    if (src && g_strcmp0 (src->kind, "source") == 0 &&
        gp_session_is_live_source (s, src->name) &&
        gp_caps_media_kind (l->caps) == GP_MEDIA_AUDIO)
      gp_chunk_link (s, rule, l, src);
    g_free (name);
  }
}
