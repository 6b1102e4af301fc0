/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-machine.c: the machine rules, which wall the work hits, read
 * from the machine's series alone (session.machine, core/gp-machine.h)
 * over the PLAYING span (the whole log for a telemetry log alone):
 *
 * - HW: an engine (the GPU, NVENC, NVDEC, VIC, NVJPG, a DLA) busy nearly
 *   all the time, the GPU at its top clock;
 * - MEMBW: the memory bus busy nearly all the time while the GPU is not
 *   (below HW's threshold, or busy at a clock held down);
 * - THERMAL: a zone past (or near, with clocks cut) its trip point, clocks
 *   cut under load as the board heats, the driver's thermal or power
 *   throttle reasons, power pinned at its cap;
 * - CPUIO: the GPU idles or works in bursts while a CPU core (or the
 *   pipeline's streaming thread) is saturated feeding it, no wall above
 *   hit and the rate not met.
 *
 * A series that is absent says nothing: no rule guesses a value it was
 * not given. Thresholds and their reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-caps.h"

#include <math.h>
#include <string.h>

/* (gp-rules.h) */
#define GP_MACHINE_MIN_SAMPLES GP_RULES_MACHINE_MIN_SAMPLES
/* Samples of two series this far apart in time or closer are the same
 * moment (a tegrastats line, one nvidia-smi query, or two samplers ticking
 * apart within their one-second default interval). */
#define GP_MACHINE_ALIGN_S 1.0

/* HW: an engine at this load has no room left for a burst (its queue
 * grows) ... */
#define GP_HW_BUSY_PCT 95.0
/* ... for this share of the span: most of it, so a start-up burst or one
 * busy stretch is not the steady state; */
#define GP_HW_SHARE 0.6
/* a GPU counts as at its top clock within this fraction of its maximum
 * (GPU Boost runs a loaded dGPU a few bins under its top clock, a Jetson's
 * governor at its top); lower, its load is relative to a clock held down
 * by heat or power (THERMAL), not the compute wall. */
#define GP_HW_CLOCK_FRACTION 0.85

/* MEMBW: the bus is saturated at this share of its bandwidth (EMC% on a
 * Jetson, dmon `mem`): past 80-85 % DRAM latency climbs steeply with the
 * queueing, and the bus gives no more (roofline reference, 5.5) ... */
#define GP_MEMBW_BUSY_PCT 80.0
/* ... for most of the span, as HW. */
#define GP_MEMBW_SHARE 0.6

/* THERMAL: a zone this close to its trip point is where the governor
 * starts to cut clocks (passive trips are a few degrees apart); */
#define GP_THERMAL_NEAR_C 5.0
/* an engine this busy gets its top clock from its governor, so a clock
 * held lower under such load is held by something else; */
#define GP_THERMAL_LOADED_PCT 80.0
/* a clock below this fraction of its reference is cut (several DVFS steps
 * down, not one), */
#define GP_THERMAL_CUT_FRACTION 0.85
/* for this share of the loaded samples or more; */
#define GP_THERMAL_CUT_SHARE 0.25
/* the board at least this much hotter while cut than while not says the
 * cut follows the heat (without a trip point known); */
#define GP_THERMAL_HOTTER_C 5.0
/* the driver's throttle reasons set in this share of the samples or more
 * (a reason set now and then is the boost algorithm at work); */
#define GP_THERMAL_REASON_SHARE 0.1
/* power within this fraction of its cap is pinned there (the controller
 * holds the draw a few % under the limit), */
#define GP_THERMAL_CAP_FRACTION 0.95
/* for half the span or more. */
#define GP_THERMAL_CAP_SHARE 0.5

/* CPUIO: a GPU whose mean load is below this is not part of the work (a
 * compositor's blips): its idling is nobody's bound; */
#define GP_CPUIO_USED_PCT 5.0
/* at or below this mean it idles: fed steadily it could take twice the
 * work; */
#define GP_CPUIO_IDLE_PCT 50.0
/* its load's standard deviation over its mean at this or more is bursts
 * and waits: it waits for its input; */
#define GP_CPUIO_JITTER_CV 0.5
/* a core at this load is saturated (tegrastats' 100 % core, a thread
 * using a whole core) ... */
#define GP_CPUIO_CORE_PCT 95.0
/* ... for half the span or more; */
#define GP_CPUIO_CORE_SHARE 0.5
/* or all the cores together this busy on average; */
#define GP_CPUIO_ALL_PCT 85.0
/* or a streaming thread of the pipeline at this share of a core (the CPU
 * rule's saturation); */
#define GP_CPUIO_THREAD_PCT 90.0
/* a sink at this share of its target rate meets it: the source paces the
 * pipeline, an idle GPU then is headroom, not a bound. */
#define GP_CPUIO_RATE_MET 0.95

/* ------------------------------------------------------------------ */
/* series over the span                                                 */
/* ------------------------------------------------------------------ */

static gboolean
gp_rule_machine_in (const GpPlayingSpan * span, gdouble t)
{
  return (isnan (span->t0) || t >= span->t0) && (isnan (span->t1)
      || t <= span->t1);
}

/* The value of @s nearest to @t within GP_MACHINE_ALIGN_S, or NAN. */
static gdouble
gp_rule_machine_at (const GpMachineSeries * s, gdouble t)
{
  guint lo = 0, hi, n;
  gdouble best = NAN, best_dt = GP_MACHINE_ALIGN_S;

  if (s == NULL || (n = gp_machine_series_len (s)) == 0)
    return NAN;
  hi = n;
  /* the first sample at or after t */
  while (lo < hi) {
    guint mid = (lo + hi) / 2;

    if (gp_machine_series_t (s, mid) < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < n && fabs (gp_machine_series_t (s, lo) - t) <= best_dt) {
    best_dt = fabs (gp_machine_series_t (s, lo) - t);
    best = gp_machine_series_v (s, lo);
  }
  if (lo > 0 && fabs (gp_machine_series_t (s, lo - 1) - t) < best_dt)
    best = gp_machine_series_v (s, lo - 1);
  return best;
}

/* The clock @freq is held against: its limit (its maximum, as the sampler
 * read it), else the highest it ran at over the span (a log has no
 * maximum: the mode's top clock is the highest it reached). */
static gdouble
gp_rule_machine_clock_ref (const GpMachineSeries * freq,
    const GpPlayingSpan * span)
{
  if (freq == NULL)
    return NAN;
  if (isfinite (freq->limit) && freq->limit > 0)
    return freq->limit;
  return gp_machine_series_max (freq, span->t0, span->t1);
}

/* The standard deviation of @s over its mean, over the span; NAN when its
 * mean is 0 or it has no samples. */
static gdouble
gp_rule_machine_cv (const GpMachineSeries * s, const GpPlayingSpan * span)
{
  gdouble mean = gp_machine_series_mean (s, span->t0, span->t1), sum = 0;
  guint i, n = 0;

  if (!(mean > 0))
    return NAN;
  for (i = 0; i < gp_machine_series_len (s); i++) {
    gdouble v = gp_machine_series_v (s, i);

    if (isnan (v) || !gp_rule_machine_in (span, gp_machine_series_t (s, i)))
      continue;
    sum += (v - mean) * (v - mean);
    n++;
  }
  return n > 1 ? sqrt (sum / n) / mean : NAN;
}

/* Evidence, only when known (a NAN is no JSON number). */
static void
gp_rule_machine_set (GpFinding * f, const gchar * key, gdouble v)
{
  if (isfinite (v))
    gp_finding_set_double (f, key, v);
}

/* The GPU instance a memory series goes with: the EMC with the Jetson's
 * GPU, a dGPU's memory with its own. */
static const gchar *
gp_rule_machine_gpu_of (const GpMachineSeries * membw)
{
  const gchar *inst = gp_machine_series_instance (membw);

  return strcmp (inst, "emc") == 0 ? "0" : inst;
}

/* Whether the session's video sinks meet their target rate: 1 all of
 * them, 0 one of them is below, -1 none has a target (a log alone). */
static gint
gp_rule_machine_rate_met (GpSession * s)
{
  guint i, judged = 0;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    gdouble target = gp_session_sink_target_fps (s, sk->name);

    if (gp_media_kind_from_name (sk->media) != GP_MEDIA_VIDEO || target <= 0
        || sk->fps < 0)
      continue;
    if (sk->fps < target * GP_CPUIO_RATE_MET)
      return 0;
    judged++;
  }
  return judged > 0 ? 1 : -1;
}

/* A finding's strength: @base, or high when the session's rate is
 * missed (the wall costs frames now). */
static const gchar *
gp_rule_machine_severity (GpSession * s, const gchar * base)
{
  return gp_rule_machine_rate_met (s) == 0 ? GP_SEVERITY_HIGH : base;
}

/* ------------------------------------------------------------------ */
/* HW                                                                   */
/* ------------------------------------------------------------------ */

/* How busy the GPU @inst was at its top clock: the share of its samples
 * at GP_HW_BUSY_PCT or more that ran at its top clock (no thermal or power
 * reason set where the driver says, else within GP_HW_CLOCK_FRACTION of
 * its reference clock; unknown clocks count as top). NAN without enough
 * samples. */
static gdouble
gp_rule_machine_gpu_busy_share (GpMachine * m, const gchar * inst,
    const GpPlayingSpan * span, gdouble * clock_share)
{
  GpMachineSeries *load = gp_machine_find (m, GP_MACHINE_GPU_LOAD, inst);
  GpMachineSeries *freq = gp_machine_find (m, GP_MACHINE_GPU_FREQ, inst);
  GpMachineSeries *thr = gp_machine_find (m, GP_MACHINE_THROTTLE, inst);
  gdouble ref = gp_rule_machine_clock_ref (freq, span);
  guint i, n = 0, busy = 0, busy_top = 0;

  if (load == NULL)
    return NAN;
  for (i = 0; i < gp_machine_series_len (load); i++) {
    gdouble t = gp_machine_series_t (load, i);
    gdouble v = gp_machine_series_v (load, i), bits, f;
    gboolean top = TRUE;

    if (isnan (v) || !gp_rule_machine_in (span, t))
      continue;
    n++;
    if (v < GP_HW_BUSY_PCT)
      continue;
    busy++;
    bits = gp_rule_machine_at (thr, t);
    f = gp_rule_machine_at (freq, t);
    if (!isnan (bits))
      top = ((guint) bits & (GP_MACHINE_THROTTLE_THERMAL |
              GP_MACHINE_THROTTLE_POWER)) == 0;
    else if (!isnan (f) && ref > 0)
      top = f >= ref * GP_HW_CLOCK_FRACTION;
    busy_top += top;
  }
  if (clock_share)
    *clock_share = busy ? (gdouble) busy_top / busy : NAN;
  return n >= GP_MACHINE_MIN_SAMPLES ? (gdouble) busy_top / n : NAN;
}

typedef struct
{
  const gchar *prefix;          /* the engine's name starts with it */
  const gchar *what;            /* for people */
  const gchar *fix;
  const gchar *const *factories;        /* the elements that drive it */
} GpRuleEngine;

static const gchar *const gp_rule_machine_gpu_factories[] = {
  "nvinfer", "nvinferserver", "nvtracker", "nvdsosd", "nvdspreprocess",
  "nvsegvisual", "cudaupload", "cudaconvert", "cudascale",
  "cudaconvertscale", "glcolorconvert", "glupload", NULL
};
static const gchar *const gp_rule_machine_enc_factories[] = {
  "nvv4l2h264enc", "nvv4l2h265enc", "nvv4l2av1enc", "nvh264enc",
  "nvh265enc", "nvav1enc", "nvcudah264enc", "nvcudah265enc",
  "nvautogpuh264enc", "nvautogpuh265enc", "omxh264enc", "omxh265enc", NULL
};
static const gchar *const gp_rule_machine_dec_factories[] = {
  "nvv4l2decoder", "nvh264dec", "nvh265dec", "nvav1dec", "nvvp9dec",
  "nvjpegdec", "nvh264sldec", "nvh265sldec", "omxh264dec", "omxh265dec",
  NULL
};
static const gchar *const gp_rule_machine_vic_factories[] = {
  "nvvidconv", "nvvideoconvert", "nvcompositor", "nvstreammux",
  "nvmultistreamtiler", NULL
};
static const gchar *const gp_rule_machine_jpg_factories[] = {
  "nvjpegdec", "nvjpegenc", "nvv4l2decoder", NULL
};
static const gchar *const gp_rule_machine_dla_factories[] = {
  "nvinfer", "nvinferserver", NULL
};

static const GpRuleEngine gp_rule_machine_engines[] = {
  {"NVENC", "the video encoder", "Encode less: a lower resolution or frame "
        "rate, a faster preset (preset-level / preset); where the board has "
        "a second encoder (NVENC1), split the streams over both.",
      gp_rule_machine_enc_factories},
  {"MSENC", "the video encoder", "Encode less: a lower resolution or frame "
        "rate, a faster preset.", gp_rule_machine_enc_factories},
  {"NVDEC", "the video decoder", "Decode less: fewer or smaller streams per "
        "decoder, only the frames needed (drop-frame-interval, "
        "skip-frames=key), or the board's second decoder (NVDEC1).",
      gp_rule_machine_dec_factories},
  {"VIC", "the video image compositor (scaling and format conversion)",
        "Convert and scale once: one nvvidconv / nvvideoconvert where "
        "several follow each other, the scaling done where the frame is "
        "smallest, or the conversion moved to the GPU (nvvideoconvert "
        "compute-hw=1).", gp_rule_machine_vic_factories},
  {"NVJPG", "the JPEG engine", "Fewer or smaller images per second, or "
        "the board's second JPEG engine (NVJPG1).",
      gp_rule_machine_jpg_factories},
  {"NVDLA", "a deep-learning accelerator", "The DLA is full: run part of "
        "the network on the GPU (TensorRT's GPU fallback, enable-dla on "
        "fewer models), INT8 on the DLA, or infer on every Nth frame "
        "(nvinfer interval).", gp_rule_machine_dla_factories},
  {"DLA", "a deep-learning accelerator", "The DLA is full: run part of the "
        "network on the GPU, INT8 on the DLA, or infer on every Nth frame "
        "(nvinfer interval).", gp_rule_machine_dla_factories},
  {"OFA", "the optical-flow accelerator", "A coarser flow grid or a "
        "smaller input.", NULL},
  {"PVA", "the programmable vision accelerator", "Give it less work per "
        "frame.", NULL},
};

static const GpRuleEngine gp_rule_machine_gpu = {
  "GPU", "the GPU", "Give it less work per frame: a smaller network input "
      "or model, FP16 or INT8 (TensorRT's network-mode), inference on every "
      "Nth frame (nvinfer interval), scaling and conversion moved to the "
      "VIC (nvvidconv) or a DLA. Batching helps only while the GPU has idle "
      "gaps; here it has none.", gp_rule_machine_gpu_factories
};

static const GpRuleEngine *
gp_rule_machine_engine (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_rule_machine_engines); i++)
    if (g_str_has_prefix (name, gp_rule_machine_engines[i].prefix))
      return &gp_rule_machine_engines[i];
  return NULL;
}

/* The session's elements that drive @engine, comma-separated; NULL when
 * none (or no pipeline). */
static gchar *
gp_rule_machine_elements (GpSession * s, const GpRuleEngine * engine)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; engine && engine->factories && s->elements
      && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (e->factory && g_strv_contains (engine->factories, e->factory))
      g_string_append_printf (out, "%s%s", out->len ? ", " : "", e->name);
  }
  return g_string_free (out, out->len == 0);
}

static void
gp_rule_machine_hw_finding (GpSession * s, const GpRule * rule,
    GpMachineSeries * load, const GpRuleEngine * engine, gdouble share,
    const GpPlayingSpan * span)
{
  GpMachine *m = s->machine;
  const gchar *inst = gp_machine_series_instance (load);
  gboolean gpu = engine == &gp_rule_machine_gpu;
  GpMachineSeries *freq = gpu ? gp_machine_find (m, GP_MACHINE_GPU_FREQ,
      inst) : gp_machine_find (m, GP_MACHINE_ENGINE_FREQ, inst);
  GpMachineSeries *mem = NULL;
  gchar *title, *elements, *why;
  GpFinding *f;
  guint i;

  if (gpu) {
    GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_MEMBW_LOAD);

    for (i = 0; i < all->len && mem == NULL; i++)
      if (strcmp (gp_rule_machine_gpu_of (g_ptr_array_index (all, i)),
              inst) == 0)
        mem = g_ptr_array_index (all, i);
    g_ptr_array_unref (all);
  }
  title = g_strdup_printf ("%s%s busy >= %.0f%% for %.0f%% of the run%s: "
      "the work is at %s's wall", gpu ? "GPU " : "", inst, GP_HW_BUSY_PCT,
      share * 100, gpu ? " at its top clock" : "", engine->what);
  f = gp_rule_add_finding (s, rule, gp_rule_machine_severity (s,
          GP_SEVERITY_MEDIUM), title);
  g_free (title);
  gp_finding_add_target (f, load->name);
  gp_finding_set_string (f, "series", load->name);
  gp_rule_machine_set (f, "busy_share_pct", share * 100);
  gp_rule_machine_set (f, "load_mean_pct", gp_machine_series_mean (load,
          span->t0, span->t1));
  gp_rule_machine_set (f, "load_min_pct", gp_machine_series_min (load,
          span->t0, span->t1));
  if (freq) {
    gp_rule_machine_set (f, "clock_mean_mhz", gp_machine_series_mean (freq,
            span->t0, span->t1));
    gp_rule_machine_set (f, "clock_top_mhz", gp_rule_machine_clock_ref (freq,
            span));
  }
  if (mem)
    gp_rule_machine_set (f, "memory_load_mean_pct",
        gp_machine_series_mean (mem, span->t0, span->t1));
  gp_finding_set_int (f, "samples", gp_machine_series_count (load, span->t0,
          span->t1));
  elements = gp_rule_machine_elements (s, engine);
  if (elements)
    gp_finding_set_string (f, "elements", elements);
  g_free (elements);
  f->rank_value = share * 100;
  why = g_strdup_printf ("An engine busy all the time takes no more work: "
      "whatever else is tuned, the rate stays where %s puts it.%s",
      engine->what, gpu ? " GR3D (and nvidia-smi's utilization) counts a "
      "GPU stalled on memory as busy: with the memory bus busy too "
      "(memory_load_mean) the wall may be the memory's, which the model's "
      "bytes per frame on a roofline tell." : "");
  g_free (f->why);
  f->why = why;
  g_free (f->fix);
  f->fix = g_strdup (engine->fix);
}

void
gp_rule_hw (GpSession * s, const GpRule * rule)
{
  GPtrArray *all;
  GpPlayingSpan span;
  guint i;

  if (s->machine == NULL)
    return;
  gp_session_machine_span (s, &span);
  all = gp_machine_find_all (s->machine, GP_MACHINE_GPU_LOAD);
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *load = g_ptr_array_index (all, i);
    gdouble share = gp_rule_machine_gpu_busy_share (s->machine,
        gp_machine_series_instance (load), &span, NULL);

    if (share >= GP_HW_SHARE)
      gp_rule_machine_hw_finding (s, rule, load, &gp_rule_machine_gpu, share,
          &span);
  }
  g_ptr_array_unref (all);
  all = gp_machine_find_all (s->machine, GP_MACHINE_ENGINE_LOAD);
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *load = g_ptr_array_index (all, i);
    const gchar *inst = gp_machine_series_instance (load);
    const GpRuleEngine *engine = gp_rule_machine_engine (inst);
    GpRuleEngine other = { "", "this engine", "Give it less work per frame.",
      NULL
    };
    gdouble share = gp_machine_series_share_above (load, GP_HW_BUSY_PCT,
        span.t0, span.t1);

    if (gp_machine_series_count (load, span.t0, span.t1) <
        GP_MACHINE_MIN_SAMPLES || !(share >= GP_HW_SHARE))
      continue;
    gp_rule_machine_hw_finding (s, rule, load, engine ? engine : &other,
        share, &span);
  }
  g_ptr_array_unref (all);
}

/* ------------------------------------------------------------------ */
/* MEMBW                                                                */
/* ------------------------------------------------------------------ */

/* The share of @mem's samples at GP_MEMBW_BUSY_PCT or more with the
 * memory's clock at its top (unknown: counted as top); NAN without enough
 * samples. */
static gdouble
gp_rule_machine_membw_share (GpMachine * m, GpMachineSeries * mem,
    const GpPlayingSpan * span)
{
  GpMachineSeries *freq = gp_machine_find (m, GP_MACHINE_MEM_FREQ,
      gp_machine_series_instance (mem));
  gdouble ref = gp_rule_machine_clock_ref (freq, span);
  guint i, n = 0, busy = 0;

  for (i = 0; i < gp_machine_series_len (mem); i++) {
    gdouble t = gp_machine_series_t (mem, i), v = gp_machine_series_v (mem,
        i), f;

    if (isnan (v) || !gp_rule_machine_in (span, t))
      continue;
    n++;
    f = gp_rule_machine_at (freq, t);
    if (v >= GP_MEMBW_BUSY_PCT && (isnan (f) || !(ref > 0) ||
            f >= ref * GP_HW_CLOCK_FRACTION))
      busy++;
  }
  return n >= GP_MACHINE_MIN_SAMPLES ? (gdouble) busy / n : NAN;
}

void
gp_rule_membw (GpSession * s, const GpRule * rule)
{
  GPtrArray *all;
  GpPlayingSpan span;
  guint i;

  if (s->machine == NULL)
    return;
  gp_session_machine_span (s, &span);
  all = gp_machine_find_all (s->machine, GP_MACHINE_MEMBW_LOAD);
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *mem = g_ptr_array_index (all, i);
    const gchar *gpu = gp_rule_machine_gpu_of (mem);
    GpMachineSeries *load = gp_machine_find (s->machine,
        GP_MACHINE_GPU_LOAD, gpu);
    GpMachineSeries *freq = gp_machine_find (s->machine,
        GP_MACHINE_GPU_FREQ, gpu);
    GpMachineSeries *mfreq = gp_machine_find (s->machine,
        GP_MACHINE_MEM_FREQ, gp_machine_series_instance (mem));
    gdouble share = gp_rule_machine_membw_share (s->machine, mem, &span);
    gdouble gpu_share = gp_rule_machine_gpu_busy_share (s->machine, gpu,
        &span, NULL);
    gchar *title;
    GpFinding *f;

    /* the GPU at its own wall: HW says so, with the memory's load */
    if (!(share >= GP_MEMBW_SHARE) || gpu_share >= GP_HW_SHARE)
      continue;
    title = g_strdup_printf ("the memory bus (%s) busy >= %.0f%% for %.0f%% "
        "of the run while the GPU is not at its wall: the work is "
        "memory-bound", mem->name, GP_MEMBW_BUSY_PCT, share * 100);
    f = gp_rule_add_finding (s, rule, gp_rule_machine_severity (s,
            GP_SEVERITY_MEDIUM), title);
    g_free (title);
    gp_finding_add_target (f, mem->name);
    gp_finding_set_string (f, "series", mem->name);
    gp_rule_machine_set (f, "busy_share_pct", share * 100);
    gp_rule_machine_set (f, "load_mean_pct", gp_machine_series_mean (mem,
            span.t0, span.t1));
    gp_rule_machine_set (f, "load_max_pct", gp_machine_series_max (mem,
            span.t0, span.t1));
    if (mfreq) {
      gp_rule_machine_set (f, "clock_mean_mhz",
          gp_machine_series_mean (mfreq, span.t0, span.t1));
      gp_rule_machine_set (f, "clock_top_mhz",
          gp_rule_machine_clock_ref (mfreq, &span));
    }
    if (load) {
      gp_rule_machine_set (f, "gpu_load_mean_pct",
          gp_machine_series_mean (load, span.t0, span.t1));
      gp_rule_machine_set (f, "gpu_busy_at_top_clock_pct", gpu_share * 100);
    }
    if (freq) {
      gp_rule_machine_set (f, "gpu_clock_mean_mhz",
          gp_machine_series_mean (freq, span.t0, span.t1));
      gp_rule_machine_set (f, "gpu_clock_top_mhz",
          gp_rule_machine_clock_ref (freq, &span));
    }
    gp_finding_set_int (f, "samples", gp_machine_series_count (mem, span.t0,
            span.t1));
    f->rank_value = share * 100;
    g_free (f->why);
    f->why = g_strdup ("Each frame moves more bytes than the bus carries in "
        "its time: a faster GPU clock or more cores do not help. The GPU's "
        "load reads higher than its compute: GR3D and nvidia-smi count the "
        "time it stalls waiting for memory as busy.");
    g_free (f->fix);
    f->fix = g_strdup ("Move fewer bytes per frame: a smaller resolution, a "
        "compact format (NV12 rather than RGBA), FP16 or INT8 tensors, no "
        "copies between system and device memory (see ZC), conversions "
        "fused or done once. On a Jetson, an nvpmodel mode with a faster "
        "EMC clock raises the bus's bandwidth (sudo nvpmodel -q shows the "
        "mode).");
  }
  g_ptr_array_unref (all);
}

/* ------------------------------------------------------------------ */
/* THERMAL                                                              */
/* ------------------------------------------------------------------ */

/* The hottest zone over the span: with a trip point when any has one
 * (the one closest to, or furthest past, its trip), else the hottest. */
static GpMachineSeries *
gp_rule_machine_hottest (GpMachine * m, const GpPlayingSpan * span,
    gboolean with_trip)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_TEMP);
  GpMachineSeries *best = NULL;
  gdouble best_v = -INFINITY;
  guint i;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *t = g_ptr_array_index (all, i);
    gdouble max = gp_machine_series_max (t, span->t0, span->t1), v;

    if (isnan (max) || (with_trip && !isfinite (t->limit)))
      continue;
    v = with_trip ? max - t->limit : max;
    if (v > best_v) {
      best_v = v;
      best = t;
    }
  }
  g_ptr_array_unref (all);
  return best;
}

/* The share of samples of every throttle series with @bit set; NAN
 * without enough samples. *@which: the series with the most. */
static gdouble
gp_rule_machine_reason_share (GpMachine * m, guint bit,
    const GpPlayingSpan * span, GpMachineSeries ** which)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_THROTTLE);
  gdouble best = NAN;
  guint i, j;

  *which = NULL;
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *thr = g_ptr_array_index (all, i);
    guint n = 0, set = 0;

    for (j = 0; j < gp_machine_series_len (thr); j++) {
      gdouble v = gp_machine_series_v (thr, j);

      if (isnan (v) || !gp_rule_machine_in (span, gp_machine_series_t (thr,
                  j)))
        continue;
      n++;
      set += ((guint) v & bit) != 0;
    }
    if (n >= GP_MACHINE_MIN_SAMPLES && (isnan (best)
            || (gdouble) set / n > best)) {
      best = (gdouble) set / n;
      *which = thr;
    }
  }
  g_ptr_array_unref (all);
  return best;
}

/* A clock cut under load: over the samples of @load at
 * GP_THERMAL_LOADED_PCT or more, the share with @freq below
 * GP_THERMAL_CUT_FRACTION of its reference, the lowest it went, and the
 * mean of @temp (may be NULL) in the cut and in the other loaded
 * samples. NAN without enough loaded samples. */
typedef struct
{
  gdouble share, ref, lowest, temp_cut, temp_full;
} GpRuleCut;

static GpRuleCut
gp_rule_machine_cut (GpMachineSeries * load, GpMachineSeries * freq,
    GpMachineSeries * temp, const GpPlayingSpan * span)
{
  GpRuleCut c = { NAN, NAN, NAN, NAN, NAN };
  gdouble sum_cut = 0, sum_full = 0;
  guint i, loaded = 0, cut = 0, n_cut = 0, n_full = 0;

  if (load == NULL || freq == NULL)
    return c;
  c.ref = gp_rule_machine_clock_ref (freq, span);
  if (!(c.ref > 0))
    return c;
  for (i = 0; i < gp_machine_series_len (load); i++) {
    gdouble t = gp_machine_series_t (load, i);
    gdouble v = gp_machine_series_v (load, i);
    gdouble f = gp_rule_machine_at (freq, t);
    gdouble tc = gp_rule_machine_at (temp, t);

    if (isnan (v) || isnan (f) || v < GP_THERMAL_LOADED_PCT
        || !gp_rule_machine_in (span, t))
      continue;
    loaded++;
    if (f < c.ref * GP_THERMAL_CUT_FRACTION) {
      cut++;
      c.lowest = isnan (c.lowest) ? f : MIN (c.lowest, f);
      if (!isnan (tc)) {
        sum_cut += tc;
        n_cut++;
      }
    } else if (!isnan (tc)) {
      sum_full += tc;
      n_full++;
    }
  }
  if (loaded < GP_MACHINE_MIN_SAMPLES)
    return c;
  c.share = (gdouble) cut / loaded;
  c.temp_cut = n_cut ? sum_cut / n_cut : NAN;
  c.temp_full = n_full ? sum_full / n_full : NAN;
  return c;
}

/* The deepest cut among the GPUs (and, with @cpus, the CPU cores whose
 * maximum clock is known: a CPU's turbo runs loaded cores below their
 * single-core top clock, which is no cut). */
static GpRuleCut
gp_rule_machine_worst_cut (GpMachine * m, GpMachineSeries * temp,
    const GpPlayingSpan * span, gboolean cpus, GpMachineSeries ** which)
{
  GpRuleCut best = { NAN, NAN, NAN, NAN, NAN };
  const gchar *const quantities[][2] = {
    {GP_MACHINE_GPU_LOAD, GP_MACHINE_GPU_FREQ},
    {GP_MACHINE_CPU_LOAD, GP_MACHINE_CPU_FREQ},
  };
  guint q, i;

  *which = NULL;
  for (q = 0; q < (cpus ? 2u : 1u); q++) {
    GPtrArray *all = gp_machine_find_all (m, quantities[q][0]);

    for (i = 0; i < all->len; i++) {
      GpMachineSeries *load = g_ptr_array_index (all, i);
      GpMachineSeries *freq = gp_machine_find (m, quantities[q][1],
          gp_machine_series_instance (load));
      GpRuleCut c;

      if (freq == NULL || (q == 1 && !isfinite (freq->limit)))
        continue;
      c = gp_rule_machine_cut (load, freq, temp, span);
      if (c.share >= GP_THERMAL_CUT_SHARE && (isnan (best.share)
              || c.share > best.share)) {
        best = c;
        *which = freq;
      }
    }
    g_ptr_array_unref (all);
  }
  return best;
}

static void
gp_rule_machine_cut_evidence (GpFinding * f, GpMachineSeries * freq,
    const GpRuleCut * c)
{
  if (freq == NULL)
    return;
  gp_finding_set_string (f, "clock", freq->name);
  gp_rule_machine_set (f, "clock_top_mhz", c->ref);
  gp_rule_machine_set (f, "clock_lowest_mhz", c->lowest);
  gp_rule_machine_set (f, "cut_share_pct", c->share * 100);
  gp_rule_machine_set (f, "temp_when_cut_c", c->temp_cut);
  gp_rule_machine_set (f, "temp_when_not_c", c->temp_full);
}

static const gchar gp_rule_machine_thermal_why[] = "Hot, the board lowers "
    "its clocks to cool down: the same work takes longer, and more so as "
    "the room warms. A profile taken cold does not hold once it is warm.";
static const gchar gp_rule_machine_thermal_fix[] = "Cool it: a fan or a "
    "larger heatsink, airflow (on a Jetson, `sudo jetson_clocks --fan` runs "
    "the fan at full speed). Or give it less work per frame; a lower "
    "nvpmodel mode runs cooler at a steady clock, `jetson_clocks` pins the "
    "top clocks (and heats more). Measure again once it is warm.";

/* Heat: past or near a trip point, a clock cut as it heats, the driver's
 * thermal reason. */
static void
gp_rule_machine_thermal_heat (GpSession * s, const GpRule * rule,
    const GpPlayingSpan * span)
{
  GpMachine *m = s->machine;
  GpMachineSeries *zone = gp_rule_machine_hottest (m, span, TRUE);
  GpMachineSeries *hottest = zone ? zone : gp_rule_machine_hottest (m, span,
      FALSE);
  GpMachineSeries *reason = NULL, *cut_clock = NULL, *thr_gpu;
  gdouble zmax = zone ? gp_machine_series_max (zone, span->t0, span->t1) :
      NAN;
  gdouble past_share = zone ? gp_machine_series_share_above (zone,
      zone->limit, span->t0, span->t1) : NAN;
  gboolean past = zone && zmax >= zone->limit;
  gboolean near = zone && zmax >= zone->limit - GP_THERMAL_NEAR_C;
  gdouble reason_share = gp_rule_machine_reason_share (m,
      GP_MACHINE_THROTTLE_THERMAL, span, &reason);
  GpRuleCut cut = gp_rule_machine_worst_cut (m, hottest, span, near,
      &cut_clock);
  gboolean hotter, bits;
  const gchar *severity;
  GString *title;
  GpFinding *f;
  gdouble rank;

  bits = reason_share >= GP_THERMAL_REASON_SHARE;
  /* a cut that follows the heat, where no driver said why: a GPU with
   * throttle reasons of its own is judged by them */
  thr_gpu = cut_clock ? gp_machine_find (m, GP_MACHINE_THROTTLE,
      gp_machine_series_instance (cut_clock)) : NULL;
  hotter = cut_clock && thr_gpu == NULL && cut.temp_cut >=
      cut.temp_full + GP_THERMAL_HOTTER_C;
  if (!past && !bits && !(near && cut_clock) && !hotter)
    return;

  title = g_string_new (NULL);
  if (past)
    g_string_printf (title, "%s reached %.1f C, past its trip point of "
        "%.1f C", gp_machine_series_instance (zone), zmax, zone->limit);
  else if (bits)
    g_string_printf (title, "the driver held the clocks down for heat in "
        "%.0f%% of the samples", reason_share * 100);
  else if (near)
    g_string_printf (title, "%s at %.1f C, %.1f C from its trip point, "
        "with clocks cut under load", gp_machine_series_instance (zone),
        zmax, zone->limit - zmax);
  else
    g_string_printf (title, "%s %s's clock cut to %.0f of %.0f MHz under "
        "load as the board heated", g_str_has_prefix (cut_clock->name,
            GP_MACHINE_GPU_FREQ) ? "GPU" : "CPU",
        gp_machine_series_instance (cut_clock), cut.lowest, cut.ref);
  g_string_append (title, ": the board throttles on heat");
  severity = past || bits ? GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM;
  f = gp_rule_add_finding (s, rule, gp_rule_machine_severity (s, severity),
      title->str);
  g_string_free (title, TRUE);
  gp_finding_add_target (f, zone ? zone->name : reason ? reason->name :
      cut_clock->name);
  if (hottest) {
    gp_finding_set_string (f, "zone", hottest->name);
    gp_rule_machine_set (f, "temp_max_c", gp_machine_series_max (hottest,
            span->t0, span->t1));
    gp_rule_machine_set (f, "trip_c", hottest->limit);
    if (past)
      gp_rule_machine_set (f, "past_trip_pct", past_share * 100);
  }
  if (reason) {
    gp_finding_set_string (f, "reasons", reason->name);
    gp_rule_machine_set (f, "thermal_reason_pct", reason_share * 100);
  }
  gp_rule_machine_cut_evidence (f, cut_clock, &cut);
  rank = past ? past_share : bits ? reason_share : cut.share;
  f->rank_value = CLAMP (rank * 100, 0, 100);
  g_free (f->why);
  f->why = g_strdup (gp_rule_machine_thermal_why);
  g_free (f->fix);
  f->fix = g_strdup (gp_rule_machine_thermal_fix);
}

/* The power series most pinned at its cap: the share of its samples
 * within GP_THERMAL_CAP_FRACTION of it; NAN when none has a cap. */
static gdouble
gp_rule_machine_at_cap (GpMachine * m, const GpPlayingSpan * span,
    GpMachineSeries ** which)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_POWER);
  gdouble best = NAN;
  guint i;

  *which = NULL;
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *p = g_ptr_array_index (all, i);
    gdouble share;

    if (!(p->limit > 0) || gp_machine_series_count (p, span->t0,
            span->t1) < GP_MACHINE_MIN_SAMPLES)
      continue;
    share = gp_machine_series_share_above (p,
        p->limit * GP_THERMAL_CAP_FRACTION, span->t0, span->t1);
    if (isnan (best) || share > best) {
      best = share;
      *which = p;
    }
  }
  g_ptr_array_unref (all);
  return best;
}

/* Power: the draw pinned at its cap, or the driver's power reason. */
static void
gp_rule_machine_thermal_power (GpSession * s, const GpRule * rule,
    const GpPlayingSpan * span)
{
  GpMachine *m = s->machine;
  GpMachineSeries *power = NULL, *reason = NULL;
  gdouble cap_share = gp_rule_machine_at_cap (m, span, &power);
  gdouble reason_share = gp_rule_machine_reason_share (m,
      GP_MACHINE_THROTTLE_POWER, span, &reason);
  gboolean capped = cap_share >= GP_THERMAL_CAP_SHARE;
  gboolean bits = reason_share >= GP_THERMAL_REASON_SHARE;
  gchar *title;
  GpFinding *f;

  if (!capped && !bits)
    return;
  if (capped)
    title = g_strdup_printf ("%s drew within %.0f%% of its %.0f W cap for "
        "%.0f%% of the run: the board is power-capped", power->name,
        (1 - GP_THERMAL_CAP_FRACTION) * 100, power->limit, cap_share * 100);
  else
    title = g_strdup_printf ("the driver held the clocks down for power in "
        "%.0f%% of the samples: the board is power-capped",
        reason_share * 100);
  f = gp_rule_add_finding (s, rule, gp_rule_machine_severity (s,
          GP_SEVERITY_MEDIUM), title);
  g_free (title);
  gp_finding_add_target (f, capped ? power->name : reason->name);
  if (power) {
    gp_finding_set_string (f, "power", power->name);
    gp_rule_machine_set (f, "power_mean_w", gp_machine_series_mean (power,
            span->t0, span->t1));
    gp_rule_machine_set (f, "power_cap_w", power->limit);
    gp_rule_machine_set (f, "at_cap_pct", cap_share * 100);
  }
  if (reason) {
    gp_finding_set_string (f, "reasons", reason->name);
    gp_rule_machine_set (f, "power_reason_pct", reason_share * 100);
  }
  f->rank_value = CLAMP ((capped ? cap_share : reason_share) * 100, 0, 100);
  g_free (f->why);
  f->why = g_strdup ("The board holds its power at its budget by lowering "
      "its clocks: the work runs at the clock the budget allows, not at the "
      "top clock, whatever the temperature.");
  g_free (f->fix);
  f->fix = g_strdup ("A larger budget: on a Jetson a higher nvpmodel mode "
      "(sudo nvpmodel -m 0 is MAXN on most boards), on a dGPU a higher "
      "power limit (sudo nvidia-smi -pl WATTS, up to power.max_limit). Else "
      "less work per frame: a smaller input, FP16 or INT8.");
}

void
gp_rule_thermal (GpSession * s, const GpRule * rule)
{
  GpPlayingSpan span;

  if (s->machine == NULL)
    return;
  gp_session_machine_span (s, &span);
  gp_rule_machine_thermal_heat (s, rule, &span);
  gp_rule_machine_thermal_power (s, rule, &span);
}

/* ------------------------------------------------------------------ */
/* CPUIO                                                                */
/* ------------------------------------------------------------------ */

/* What feeds the GPU: the busiest core (its share of samples at
 * GP_CPUIO_CORE_PCT or more), all the cores' mean, the pipeline's busiest
 * streaming thread. */
typedef struct
{
  GpMachineSeries *core;
  gdouble core_share;
  gdouble all_mean;
  GpThreadSummary *thread;
  GpMachineSeries *process_thread;
  gdouble process_thread_share;
} GpRuleFeeder;

static GpMachineSeries *
gp_rule_machine_busiest (GpMachine * m, const gchar * quantity,
    const GpPlayingSpan * span, gdouble * share)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);
  GpMachineSeries *best = NULL;
  guint i;

  *share = NAN;
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *c = g_ptr_array_index (all, i);
    gdouble sh;

    if (strcmp (gp_machine_series_instance (c), "all") == 0 ||
        gp_machine_series_count (c, span->t0, span->t1) <
        GP_MACHINE_MIN_SAMPLES)
      continue;
    sh = gp_machine_series_share_above (c, GP_CPUIO_CORE_PCT, span->t0,
        span->t1);
    if (best == NULL || sh > *share) {
      best = c;
      *share = sh;
    }
  }
  g_ptr_array_unref (all);
  return best;
}

static gboolean
gp_rule_machine_feeder (GpSession * s, const GpPlayingSpan * span,
    GpRuleFeeder * fd)
{
  GpMachineSeries *all = gp_machine_find (s->machine, GP_MACHINE_CPU_LOAD,
      "all");
  gboolean busy = FALSE;
  guint i;

  memset (fd, 0, sizeof *fd);
  fd->core = gp_rule_machine_busiest (s->machine, GP_MACHINE_CPU_LOAD, span,
      &fd->core_share);
  fd->process_thread = gp_rule_machine_busiest (s->machine,
      GP_MACHINE_THREAD_CPU, span, &fd->process_thread_share);
  fd->all_mean = all && gp_machine_series_count (all, span->t0, span->t1) >=
      GP_MACHINE_MIN_SAMPLES ? gp_machine_series_mean (all, span->t0,
      span->t1) : NAN;
  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (t->worker || t->elements == NULL || t->elements->len == 0)
      continue;
    if (t->cpu_pct_mean >= GP_CPUIO_THREAD_PCT && (fd->thread == NULL ||
            t->cpu_pct_mean > fd->thread->cpu_pct_mean))
      fd->thread = t;
  }
  busy = fd->core_share >= GP_CPUIO_CORE_SHARE ||
      fd->process_thread_share >= GP_CPUIO_CORE_SHARE ||
      fd->all_mean >= GP_CPUIO_ALL_PCT || fd->thread != NULL;
  return busy;
}

void
gp_rule_cpuio (GpSession * s, const GpRule * rule)
{
  GPtrArray *all;
  GpPlayingSpan span;
  GpRuleFeeder fd;
  guint i;

  if (s->machine == NULL)
    return;
  /* a wall above was hit (the rules before this one in the table): the
   * rate is that wall's, not the feeding's */
  if (gp_session_find_finding (s, "HW", NULL) ||
      gp_session_find_finding (s, "MEMBW", NULL) ||
      gp_session_find_finding (s, "THERMAL", NULL))
    return;
  /* the rate is met: the source paces the pipeline */
  if (gp_rule_machine_rate_met (s) == 1)
    return;
  gp_session_machine_span (s, &span);
  if (!gp_rule_machine_feeder (s, &span, &fd))
    return;
  all = gp_machine_find_all (s->machine, GP_MACHINE_GPU_LOAD);
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *load = g_ptr_array_index (all, i);
    gdouble mean = gp_machine_series_mean (load, span.t0, span.t1);
    gdouble cv = gp_rule_machine_cv (load, &span);
    gboolean idle, jitter;
    GString *title;
    GpFinding *f;

    if (gp_machine_series_count (load, span.t0, span.t1) <
        GP_MACHINE_MIN_SAMPLES || !(mean >= GP_CPUIO_USED_PCT))
      continue;
    idle = mean <= GP_CPUIO_IDLE_PCT;
    jitter = cv >= GP_CPUIO_JITTER_CV;
    if (!idle && !jitter)
      continue;
    title = g_string_new (NULL);
    g_string_printf (title, "GPU %s %s (mean %.0f%%) while ",
        gp_machine_series_instance (load), idle && jitter ? "idles in "
        "bursts" : idle ? "mostly idles" : "works in bursts", mean);
    if (fd.thread)
      g_string_append_printf (title, "streaming thread %s uses %.0f%% of a "
          "core", fd.thread->name, fd.thread->cpu_pct_mean);
    else if (fd.core_share >= GP_CPUIO_CORE_SHARE)
      g_string_append_printf (title, "CPU core %s is saturated",
          gp_machine_series_instance (fd.core));
    else if (fd.process_thread_share >= GP_CPUIO_CORE_SHARE)
      g_string_append_printf (title, "thread %s is saturated",
          gp_machine_series_instance (fd.process_thread));
    else
      g_string_append_printf (title, "the CPUs are %.0f%% busy",
          fd.all_mean);
    g_string_append (title, ": the GPU waits for the CPU feeding it");
    f = gp_rule_add_finding (s, rule, gp_rule_machine_severity (s,
            GP_SEVERITY_MEDIUM), title->str);
    g_string_free (title, TRUE);
    gp_finding_add_target (f, fd.thread ? fd.thread->name : load->name);
    gp_finding_set_string (f, "series", load->name);
    gp_rule_machine_set (f, "gpu_load_mean_pct", mean);
    gp_rule_machine_set (f, "gpu_load_max_pct", gp_machine_series_max (load,
            span.t0, span.t1));
    gp_rule_machine_set (f, "gpu_load_variation", cv);
    if (fd.core) {
      gp_finding_set_string (f, "busiest_core", fd.core->name);
      gp_rule_machine_set (f, "core_saturated_pct", fd.core_share * 100);
    }
    gp_rule_machine_set (f, "cpu_all_mean_pct", fd.all_mean);
    if (fd.thread) {
      gp_finding_set_string (f, "thread", fd.thread->name);
      gp_rule_machine_set (f, "thread_cpu_pct", fd.thread->cpu_pct_mean);
    }
    gp_finding_set_int (f, "samples", gp_machine_series_count (load, span.t0,
            span.t1));
    f->rank_value = CLAMP (100 - mean, 0, 100);
    g_free (f->why);
    f->why = g_strdup ("The GPU is not the limit: it waits for frames that "
        "a saturated CPU core prepares (decoding, converting, copying, an "
        "application's probes). No engine, memory bus or clock limit was "
        "reached, so the rate is that core's.");
    g_free (f->fix);
    f->fix = g_strdup ("Take work off that core: hardware decoding and "
        "conversion (nvv4l2decoder, nvvidconv / nvvideoconvert) rather "
        "than software, frames kept in device memory (NVMM, CUDA) so "
        "nothing copies them, a queue between the CPU stage and the GPU "
        "stage so that they overlap, and batches (nvstreammux batch-size) "
        "so that each GPU submission carries more frames; in an "
        "application, light pad probes.");
  }
  g_ptr_array_unref (all);
}
