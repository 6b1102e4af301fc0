/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules.c: the rule registry: the table of rules, running them over a
 * session, ranking the findings, and the exit code they imply.
 */
#include "gp-rules-private.h"

#include <math.h>
#include <string.h>

/* Where and when the bench pairs that verified the rules ran, as `make
 * pairs` wrote it in bench/pairs/results.json: a verified rule's
 * verified_on is this and its pair. */
#define GP_RULES_BENCH "2-core x86_64 (Intel(R) Xeon(R) Processor), " \
    "Debian 12, GStreamer 1.22.0, 2026-12-01, "
#define GP_RULES_VERIFIED_ON(pair) GP_RULES_BENCH "bench/pairs/" pair ".pair"
/* ... and those verified on the next machine they ran on */
#define GP_RULES_BENCH_EPYC "2-core x86_64 (AMD EPYC), Debian 12, " \
    "GStreamer 1.22.0, 2026-12-02, "
#define GP_RULES_VERIFIED_ON_EPYC(pair) GP_RULES_BENCH_EPYC "bench/pairs/" \
    pair ".pair"

/* The rules, in evaluation order, one entry each. verified_on stays NULL
 * until a bench pair on named hardware shows the rule firing on the bad
 * pipeline and silent on its good twin; until then the rule can only say
 * "info". */
static const GpRule gp_rules_table[] = {
  {"PREROLL", "the pipeline never reached PLAYING: a sink never prerolled",
      gp_rule_preroll, NULL,
      "tests/corpus/test-corpus.c /corpus/preroll-stuck and "
        "tests/corpus/test-advice.c /advice/remux-interleave, "
        "/advice/valve-preroll: the pipeline's own state, and its fix run "
        "again to its EOS"},
  /* the symptoms first: the causes below rank under them, and may step
   * aside for them (a stopped sink's rate is not a throughput) */
  {"BUFFERING", "playback paused to refill a buffering element (queue2, "
        "playbin's over a network) after its first fill", gp_rule_buffering,
      NULL,
      "tests/corpus/test-advice.c /advice/http-buffering: the time the "
        "test's own clock saw the playback take past the clip's length"},
  {"STOPPED", "a sink gets nothing for a second or more while PLAYING: "
        "the stream stopped", gp_rule_stopped, NULL,
      "tests/corpus/test-advice.c /advice/tee-appsink-full: the frames "
        "the sinks can hold by their own limits"},
  {"SLOW", "a sink that plays to the clock without a live source gets its "
        "media slower than real time", gp_rule_slow, NULL,
      "tests/corpus/test-advice.c /advice/slow-playback: a planted sleep "
        "a frame"},
  {"PACE", "an offline job (no live source, a file or application sink) "
        "held to real time by sync=true", gp_rule_pace, NULL,
      "tests/corpus/test-advice.c /advice/offline-paced: the same job run "
        "again with sync=false"},
  {"LOSS", "data lost on the way: RTP packets that never came, buffers a "
        "leaky queue threw away", gp_rule_loss, NULL,
      "tests/corpus/test-advice.c /advice/rtp-loss: the packets the sender "
        "left out; /advice/leaky-loss: the frames a file received"},
  {"CUT", "a recording stopped without EOS: a muxer that writes its index "
        "at the end (mp4mux's moov) never got it, and the file does not "
        "play", gp_rule_cut, NULL,
      "tests/corpus/test-advice.c /advice/cut-recording: the file's own "
        "boxes (no moov) and whether qtdemux reads it"},
  {"CHUNK", "a live audio source's buffers: so long that each sample "
        "waits for the rest (latency), or so short that per-buffer work "
        "dominates", gp_rule_chunk, NULL,
      "tests/corpus/test-advice.c /advice/audio-big-buffers: GStreamer's "
        "latency query of the same pipeline; /advice/audio-tiny-buffers: "
        "the CPU the fix saves, by getrusage"},
  {"HOT", "one element takes most of the self time", gp_rule_hot, NULL},
  {"TWICE", "the same work done more than once: sources with the same "
        "settings feeding the same chain of elements", gp_rule_twice, NULL,
      "tests/corpus/test-advice.c /advice/work-twice: the CPU the shared "
        "pipeline saves, by getrusage"},
  {"BUDGET", "throughput below the target rate, or latency above the frame "
        "period on a live path", gp_rule_budget, NULL},
  {"BEHIND", "a live pipeline falls behind real time: a stream below its "
        "source's rate before its muxer, payloader or sink, or a lag against "
        "the clock that grows", gp_rule_behind,
      GP_RULES_VERIFIED_ON_EPYC ("behind")},
  {"CROWD", "the machine's CPUs full, other processes holding a quarter "
        "of them or more", gp_rule_crowd, NULL,
      "tests/corpus/test-advice.c /advice/crowded: the CPU time of the "
        "processes the test starts, from /proc"},
  {"SYNC", "a sink synchronised to the clock on a live path", gp_rule_sync,
      "2-core x86_64 (AMD EPYC), Debian 12, GStreamer 1.22.0, 2026-12-07, "
        "bench/pairs/sync.pair", NULL, GP_RULE_MEASURE_LATENCY},
  {"LATE", "buffers dropped late on QoS, with counts", gp_rule_late,
      GP_RULES_VERIFIED_ON ("late")},
  {"ENC", "encoder settings hostile to a live or joined stream", gp_rule_enc,
      GP_RULES_VERIFIED_ON ("enc"), NULL, GP_RULE_MEASURE_LATENCY},
  {"MEM", "process memory growing through the run", gp_rule_mem, NULL,
      "tests/corpus/test-advice.c /advice/mem-unbounded: the frames an "
        "unbounded queue gains a second, times their size",
      GP_RULE_MEASURE_MEMORY},
  {"ZC", "a stretch in system memory between two links in device memory",
      gp_rule_zc, GP_RULES_VERIFIED_ON ("zc"), NULL, GP_RULE_MEASURE_CPU},
  {"SW", "a software element where a registered hardware element does the "
        "job", gp_rule_sw, NULL, NULL, GP_RULE_MEASURE_CPU},
  {"CAPS", "a converter in passthrough, or two converters back to back",
      gp_rule_caps, GP_RULES_VERIFIED_ON ("caps"), NULL,
      GP_RULE_MEASURE_CPU},
  {"FORMAT", "an encoder or a heavy raw-video element works on a "
        "high-bit-depth or 4:4:4 format that nothing asked for",
      gp_rule_format,
      /* and bench/pairs/format.pair on the first machine: results.json
       * names the first of a rule's pairs */
      GP_RULES_VERIFIED_ON_EPYC ("format-overlay"), NULL,
      GP_RULE_MEASURE_CPU},
  {"WASTE", "frames worked on and then dropped (a videorate after the "
        "work)", gp_rule_waste,
      GP_RULES_VERIFIED_ON ("waste"), NULL, GP_RULE_MEASURE_CPU},
  {"UNUSED", "a decodebin decodes a stream nothing is linked to",
      gp_rule_unused, NULL},
  {"QUEUE", "an expensive element shares its streaming thread with a live "
        "source or another expensive element", gp_rule_queue,
      GP_RULES_VERIFIED_ON ("queue")},
  {"CPU", "a streaming thread uses >= 90% of a core", gp_rule_cpu, NULL},
  {"STALL", "a link carries nothing for several frame periods while "
        "PLAYING", gp_rule_stall, NULL},
  {"QLEAK", "a leaky queue drops buffers", gp_rule_qleak, NULL},
  {"QFULL", "a queue persistently full, or empty upstream of a starved "
        "sink", gp_rule_qfull, NULL},
  /* the machine's walls; CPUIO last: it speaks only when none of the
   * others found a wall */
  {"HW", "an engine (GPU, NVENC, NVDEC, VIC, DLA) busy >= 95% most of the "
        "run", gp_rule_hw, NULL},
  {"MEMBW", "the memory bus busy >= 80% most of the run while the GPU is "
        "not at its wall", gp_rule_membw, NULL},
  {"THERMAL", "a zone past its trip point, clocks cut as it heats, or "
        "power pinned at its cap", gp_rule_thermal, NULL},
  {"CPUIO", "the GPU idles or works in bursts while a CPU core feeding it "
        "is saturated", gp_rule_cpuio, NULL},
};

gchar *
gp_rules_measures_text (void)
{
  static const struct
  {
    GpRuleMeasure measure;
    const gchar *word;
  } measures[] = {
    {GP_RULE_MEASURE_LATENCY, "latency"},
    {GP_RULE_MEASURE_CPU, "CPU"},
    {GP_RULE_MEASURE_MEMORY, "memory"},
  };
  GString *out = g_string_new (NULL);
  guint m, i, n, k;

  for (m = 0; m < G_N_ELEMENTS (measures); m++) {
    for (i = 0, n = 0; i < G_N_ELEMENTS (gp_rules_table); i++)
      n += (gp_rules_table[i].measure & measures[m].measure) != 0;
    if (n == 0)
      continue;
    g_string_append_printf (out, "%s%s for ", out->len ? "; " : "",
        measures[m].word);
    for (i = 0, k = 0; i < G_N_ELEMENTS (gp_rules_table); i++) {
      if (!(gp_rules_table[i].measure & measures[m].measure))
        continue;
      g_string_append_printf (out, "%s%s", k == 0 ? "" : k + 1 == n ?
          " and " : ", ", gp_rules_table[i].id);
      k++;
    }
  }
  return g_string_free (out, FALSE);
}

const GpRule *
gp_rules_get (guint * n_rules)
{
  if (n_rules)
    *n_rules = G_N_ELEMENTS (gp_rules_table);
  return gp_rules_table;
}

const GpRule *
gp_rules_find (const gchar * id)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_rules_table); i++)
    if (g_strcmp0 (gp_rules_table[i].id, id) == 0)
      return &gp_rules_table[i];
  return NULL;
}

gint
gp_severity_weight (const gchar * severity)
{
  if (g_strcmp0 (severity, GP_SEVERITY_HIGH) == 0)
    return 3;
  if (g_strcmp0 (severity, GP_SEVERITY_MEDIUM) == 0)
    return 2;
  if (g_strcmp0 (severity, GP_SEVERITY_INFO) == 0)
    return 1;
  return 0;
}

/* The rule ranked before every other but the symptoms, whatever their
 * severities: a live pipeline that cannot keep up makes every other number
 * moot. */
#define GP_RULES_HEADLINE "BEHIND"

/* What the verdict says first: the symptoms (GpRule.measured_by) past
 * their medium threshold, then the headline, then the rest (a symptom at
 * info among them: memory that may still level off, CPUs crowded while
 * every stream kept up). */
static gint
gp_rules_tier (const GpFinding * f)
{
  const GpRule *r = gp_rules_find (f->rule);

  if (r != NULL && r->measured_by != NULL &&
      gp_severity_weight (f->severity) >=
      gp_severity_weight (GP_SEVERITY_MEDIUM))
    return 2;
  return g_strcmp0 (f->rule, GP_RULES_HEADLINE) == 0 ? 1 : 0;
}

static gint
gp_rules_compare (gconstpointer a, gconstpointer b)
{
  const GpFinding *fa = *(const GpFinding * const *) a;
  const GpFinding *fb = *(const GpFinding * const *) b;
  gint wa = gp_severity_weight (fa->severity);
  gint wb = gp_severity_weight (fb->severity);
  gint ta = gp_rules_tier (fa), tb = gp_rules_tier (fb);
  gint c;

  if (ta != tb)
    return tb - ta;
  if (wa != wb)
    return wb - wa;
  if (fa->rank_value != fb->rank_value)
    return fa->rank_value > fb->rank_value ? -1 : 1;
  /* Equal rank: fall back to names so a saved session ranks the same way
   * as the live run, whatever order the findings were stored in. */
  c = g_strcmp0 (fa->rule, fb->rule);
  if (c != 0)
    return c;
  return g_strcmp0 (fa->title, fb->title);
}

void
gp_rules_rank (GpSession * s)
{
  g_return_if_fail (s != NULL);

  if (s->findings)
    g_ptr_array_sort (s->findings, gp_rules_compare);
}

/* The user's bin that made @name at run time (the outermost one), or
 * NULL when @name is the user's own or no bin of theirs made it. */
static GpElement *
gp_rules_maker_bin (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name), *bin = NULL;
  guint depth;

  if (e == NULL || gp_session_is_users (s, name))
    return NULL;
  for (depth = 0; e && depth < 64; depth++) {
    e = e->parent && *e->parent ? gp_session_find_element (s, e->parent) :
        NULL;
    if (e && e->is_bin && e->parent && *e->parent &&
        gp_session_is_users (s, e->name))
      bin = e;
  }
  return bin;
}

/* A finding about an element a bin made (decodebin's decoder, playbin's
 * sink, the one autovideosink picked) has no launch-string edit: the fix
 * says so, and how the user can reach it. */
static void
gp_rules_explain_made_by_bins (GpSession * s)
{
  guint i;

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    const gchar *target = f->targets && f->targets->len > 0 ?
        g_ptr_array_index (f->targets, 0) : NULL;
    GpElement *bin = target ? gp_rules_maker_bin (s, target) : NULL;
    GpElement *e;
    const gchar *how;
    gchar *fix;

    if (bin == NULL || f->fix_patch != NULL)
      continue;
    e = gp_session_find_element (s, target);
    if (g_str_has_prefix (bin->factory, "playbin"))
      how = "give playbin that element yourself (its video-sink, "
          "audio-sink, video-filter or audio-filter property) and set it "
          "there";
    else if (g_str_has_prefix (bin->factory, "auto"))
      how = "write the element it picked in its place";
    else
      how = "write that part of the pipeline yourself (the demuxer, "
          "parser and decoder) to set it";
    fix = g_strdup_printf ("%s%s%s (%s) is made by %s at run time, so no "
        "edit of the launch string reaches it: %s.", f->fix ? f->fix : "",
        f->fix ? " " : "", target, e && e->factory ? e->factory : "?",
        bin->name, how);
    g_free (f->fix);
    f->fix = fix;
  }
}

void
gp_rules_run (GpSession * s)
{
  guint i;

  g_return_if_fail (s != NULL);

  /* Findings stored in a loaded session are never trusted: the verdict is
   * always recomputed from the measurements, so an old session read by a
   * newer gstprof gets the newer rules. */
  if (s->findings)
    g_ptr_array_set_size (s->findings, 0);

  for (i = 0; i < G_N_ELEMENTS (gp_rules_table); i++) {
    /* a pipeline that never played has no rate, latency, stall or share
     * worth a finding: only why it never played (a preroll, or a first
     * fill that never came) */
    if (gp_session_never_played (s) && gp_rules_table[i].func !=
        gp_rule_preroll && gp_rules_table[i].func != gp_rule_buffering)
      continue;
    gp_rules_table[i].func (s, &gp_rules_table[i]);
  }

  gp_rules_explain_made_by_bins (s);
  gp_rules_rank (s);
}

gint
gp_rules_exit_code (GpSession * s)
{
  guint i;

  g_return_val_if_fail (s != NULL, 0);

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (gp_severity_weight (f->severity) >= 2)
      return 1;
  }
  return 0;
}

/* helpers for rules */

GpFinding *
gp_rule_add_finding (GpSession * s, const GpRule * rule,
    const gchar * severity, const gchar * title)
{
  GpFinding *f;
  gboolean verified = rule->verified_on != NULL || rule->measured_by != NULL;

  /* An unverified rule cannot raise the exit code: its strength is capped
   * at info, whatever the rule itself thinks. A symptom stands on its
   * measurement (GpRule.measured_by). */
  if (!verified)
    severity = GP_SEVERITY_INFO;

  f = gp_session_add_finding (s, rule->id, severity, title);
  if (f->targets == NULL)
    f->targets = g_ptr_array_new_with_free_func (g_free);
  if (f->evidence == NULL)
    f->evidence = json_object_new ();
  f->heuristic = !verified;
  g_free (f->verified_on);
  f->verified_on = g_strdup (rule->verified_on);
  return f;
}

void
gp_finding_mark_unverified (GpFinding * f)
{
  g_free (f->severity);
  f->severity = g_strdup (GP_SEVERITY_INFO);
  f->heuristic = TRUE;
  g_clear_pointer (&f->verified_on, g_free);
}

static JsonObject *
gp_finding_evidence (GpFinding * f)
{
  if (f->evidence == NULL)
    f->evidence = json_object_new ();
  return f->evidence;
}

void
gp_finding_set_double (GpFinding * f, const gchar * key, gdouble v)
{
  /* Three decimals are more than any measurement here supports, and round
   * numbers keep session.json readable and the verdict stable. */
  json_object_set_double_member (gp_finding_evidence (f), key,
      round (v * 1000.0) / 1000.0);
}

void
gp_finding_set_int (GpFinding * f, const gchar * key, gint64 v)
{
  json_object_set_int_member (gp_finding_evidence (f), key, v);
}

void
gp_finding_set_string (GpFinding * f, const gchar * key, const gchar * v)
{
  json_object_set_string_member (gp_finding_evidence (f), key, v ? v : "");
}

void
gp_finding_set_formats (GpFinding * f, GpLink * in, GpLink * out,
    gchar ** fin, gchar ** fout)
{
  *fin = in ? gp_caps_format (in->caps) : NULL;
  *fout = out ? gp_caps_format (out->caps) : NULL;
  if (*fin)
    gp_finding_set_string (f, "format_in", *fin);
  if (*fout)
    gp_finding_set_string (f, "format_out", *fout);
}
