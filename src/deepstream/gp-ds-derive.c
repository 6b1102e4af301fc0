/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-derive.c: R1-R7, DeepStream's knobs from the plateau batch, the
 * streams, the source and the model (docs/tuning.md, "Derive: R1-R7"),
 * and the keys they set in deepstream-app and nvinfer configurations.
 */
#include "gp-ds-derive.h"
#include "gp-ds-config.h"
#include "gp-ds-rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* R7 memory: surfaces a decoder may hold per stream, the largest decoded
 * picture buffer of H.264 and H.265 (16), so the estimate is an upper
 * bound and the stream count a safe one. */
#define GP_DS_DECODE_SURFACES 16
/* R7 memory: nvstreammux's buffer-pool-size default: batches in flight. */
#define GP_DS_MUX_POOL 4

/* parsing the command line's sizes */

static gboolean
gp_ds_derive_uint (const gchar * text, gchar ** end, guint * out)
{
  guint64 v;

  if (!g_ascii_isdigit (*text))
    return FALSE;
  v = g_ascii_strtoull (text, end, 10);
  if (v == 0 || v > 1000000)
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

gboolean
gp_ds_derive_parse_source (const gchar * text, guint * w, guint * h,
    gdouble * fps)
{
  gchar *end = NULL;
  guint num, den = 1;

  if (!text || !gp_ds_derive_uint (text, &end, w) || *end != 'x'
      || !gp_ds_derive_uint (end + 1, &end, h) || *end != '@'
      || !gp_ds_derive_uint (end + 1, &end, &num))
    return FALSE;
  if (*end == '/' && !gp_ds_derive_uint (end + 1, &end, &den))
    return FALSE;
  if (*end != '\0')
    return FALSE;
  *fps = (gdouble) num / den;
  return TRUE;
}

gboolean
gp_ds_derive_parse_model (const gchar * text, guint * c, guint * h,
    guint * w)
{
  gchar *end = NULL;

  return text && gp_ds_derive_uint (text, &end, c) && *end == 'x'
      && gp_ds_derive_uint (end + 1, &end, h) && *end == 'x'
      && gp_ds_derive_uint (end + 1, &end, w) && *end == '\0';
}

/* the rules */

static void
gp_ds_derive_add (GpDsDerivation * d, const gchar * rule, GpDsElem elem,
    const gchar * key, gchar * value, gchar * reason)
{
  GpDsValue *v = g_new0 (GpDsValue, 1);

  v->rule = rule;
  v->elem = elem;
  v->key = g_strdup (key);
  v->value = value;
  v->reason = reason;
  g_ptr_array_add (d->values, v);
}

#define ADD(d, r, e, k, val, ...) \
  gp_ds_derive_add (d, r, e, k, val, g_strdup_printf (__VA_ARGS__))

/* R1: the muxer's output size.  The model's input, never scaled up past
 * the source: when the source is smaller on an axis, the largest box of
 * the model's aspect inside both (docs/tuning.md: not min per axis, which
 * distorts). */
static void
gp_ds_derive_mux_size (const GpDsDeriveInput * in, guint * w, guint * h)
{
  gdouble f = MIN (1.0, MIN ((gdouble) in->src_w / in->model_w,
          (gdouble) in->src_h / in->model_h));

  /* down to even (NV12), past a rounding error of the division */
  *w = MAX (2, ((guint) floor (in->model_w * f + 1e-6)) & ~1u);
  *h = MAX (2, ((guint) floor (in->model_h * f + 1e-6)) & ~1u);
}

static void
gp_ds_derive_r1 (GpDsDerivation * d, const GpDsDeriveInput * in,
    guint mw, guint mh)
{
  guint b = d->final_batch;
  gboolean fits = mw == in->model_w && mh == in->model_h;

  ADD (d, "R1", GP_DS_ELEM_MUX, "batch-size", g_strdup_printf ("%u", b),
      "the final batch, min(plateau %u, streams %u)", in->plateau,
      in->streams);
  if (in->new_mux) {
    /* the new muxer has no size, memory type, padding or live-source:
     * its config file sets the output (research notes 6.1) */
    ADD (d, "R1", GP_DS_ELEM_MUX, "batched-push-timeout",
        g_strdup_printf ("%.0f", round (1e6 / in->src_fps)),
        "one frame interval at %.4g fps, in us (the new nvstreammux: no "
        "width, height, memory type or live-source to set)", in->src_fps);
    return;
  }
  ADD (d, "R1", GP_DS_ELEM_MUX, "width", g_strdup_printf ("%u", mw),
      fits ? "the model's input width: nvinfer scales no further" :
      "the model's aspect inside the %ux%u source: no upscale, no "
      "distortion", in->src_w, in->src_h);
  ADD (d, "R1", GP_DS_ELEM_MUX, "height", g_strdup_printf ("%u", mh),
      fits ? "the model's input height: nvinfer scales no further" :
      "the model's aspect inside the %ux%u source: no upscale, no "
      "distortion", in->src_w, in->src_h);
  ADD (d, "R1", GP_DS_ELEM_MUX, "batched-push-timeout",
      g_strdup_printf ("%.0f", round (1e6 / in->src_fps)),
      "one frame interval at %.4g fps, in us: a late stream delays a batch "
      "by at most one frame", in->src_fps);
  ADD (d, "R1", GP_DS_ELEM_MUX, "live-source",
      g_strdup (in->live ? "1" : "0"), in->live ?
      "RTSP or camera sources: batch on arrival time" :
      "file sources: no live timing");
  ADD (d, "R1", GP_DS_ELEM_MUX, "nvbuf-memory-type", g_strdup ("0"),
      "the platform's default device memory: no copy between types");
  ADD (d, "R1", GP_DS_ELEM_MUX, "enable-padding", g_strdup ("0"),
      "no padding: the whole surface is picture");
}

static void
gp_ds_derive_r2 (GpDsDerivation * d, const GpDsDeriveInput * in)
{
  gboolean int8 = in->int8_calib && in->int8_calib_exists;

  ADD (d, "R2", GP_DS_ELEM_PGIE, "batch-size",
      g_strdup_printf ("%u", d->final_batch),
      "equal to the muxer's: a smaller one silently caps the frame rate");
  if (int8)
    ADD (d, "R2", GP_DS_ELEM_PGIE, "network-mode", g_strdup ("1"),
        "INT8: a calibration file is given (%s)", in->int8_calib);
  else
    ADD (d, "R2", GP_DS_ELEM_PGIE, "network-mode", g_strdup ("2"),
        "FP16: %s%s%s; never FP32", in->int8_calib ?
        "no INT8 calibration at " : "no INT8 calibration file given",
        in->int8_calib ? in->int8_calib : "", in->int8_calib ? "" : "");
  if (int8)
    ADD (d, "R2", GP_DS_ELEM_PGIE, "int8-calib-file",
        g_strdup (in->int8_calib), "the calibration INT8 needs");
  ADD (d, "R2", GP_DS_ELEM_PGIE, "infer-dims",
      g_strdup_printf ("%u;%u;%u", in->model_c, in->model_h, in->model_w),
      "the model's input, C;H;W");
  /* R4a */
  if (in->tracker)
    ADD (d, "R4a", GP_DS_ELEM_PGIE, "interval", g_strdup ("0"),
        "with a tracker, raise to 1 only once tracker IDs are kept >= 99%% "
        "frame to frame (measure, then step up)");
  else
    ADD (d, "R4a", GP_DS_ELEM_PGIE, "interval", g_strdup ("0"),
        "no tracker: a skipped frame would have no detections");
}

static void
gp_ds_derive_r3 (GpDsDerivation * d)
{
  guint b = d->final_batch;

  ADD (d, "R3", GP_DS_ELEM_DECODER, "num-extra-surfaces",
      g_strdup_printf ("%u", MIN (b, GP_DS_SURFACES_MAX)),
      "min(batch %u, %u): frames wait in the muxer for their batch", b,
      GP_DS_SURFACES_MAX);
  ADD (d, "R3", GP_DS_ELEM_DECODER, "cudadec-memtype", g_strdup ("0"),
      "device memory: the muxer reads it without a copy");
}

static void
gp_ds_derive_r4 (GpDsDerivation * d, const GpDsDeriveInput * in)
{
  gdouble want = (gdouble) GP_DS_TRACKER_WIDTH * in->src_h / in->src_w;
  /* up, never down: no vertical detail lost (16:9 gives 270 -> 288) */
  guint th = (guint) ceil (want / GP_DS_TRACKER_ALIGN) * GP_DS_TRACKER_ALIGN;

  th = MAX (th, GP_DS_TRACKER_ALIGN);
  ADD (d, "R4", GP_DS_ELEM_TRACKER, "tracker-width",
      g_strdup_printf ("%u", GP_DS_TRACKER_WIDTH),
      "NvDCF's max-perf width, a multiple of %u", GP_DS_TRACKER_ALIGN);
  ADD (d, "R4", GP_DS_ELEM_TRACKER, "tracker-height",
      g_strdup_printf ("%u", th),
      "the %ux%u source's aspect at width %u, up to a multiple of %u",
      in->src_w, in->src_h, GP_DS_TRACKER_WIDTH, GP_DS_TRACKER_ALIGN);
  ADD (d, "R4", GP_DS_ELEM_TRACKER, "ll-config-file",
      g_strdup (GP_DS_TRACKER_CONFIG), "NvDCF's max-perf preset");
  ADD (d, "R4", GP_DS_ELEM_TRACKER, "ll-lib-file",
      g_strdup (GP_DS_TRACKER_LIB), "the multi-object tracker library");
}

static void
gp_ds_derive_r5 (GpDsDerivation * d)
{
  guint b = d->final_batch;

  ADD (d, "R5", GP_DS_ELEM_QUEUE, "max-size-buffers",
      g_strdup_printf ("%u", b * GP_DS_QUEUE_BATCHES),
      "source to primary: batch %u x %u, one batch filling while one is "
      "inferred; deeper only adds latency", b, GP_DS_QUEUE_BATCHES);
  ADD (d, "R5", GP_DS_ELEM_QUEUE, "max-size-bytes", g_strdup ("0"),
      "bounded by buffers only");
  ADD (d, "R5", GP_DS_ELEM_QUEUE, "max-size-time", g_strdup ("0"),
      "bounded by buffers only");
  ADD (d, "R5", GP_DS_ELEM_QUEUE, "message-branch",
      g_strdup ("max-size-buffers=2 leaky=2"),
      "a slow broker drops old messages, never stalls the pipeline");
  ADD (d, "R5", GP_DS_ELEM_QUEUE, "file-branch",
      g_strdup_printf ("max-size-buffers=%u leaky=0", b),
      "a recording loses no frame");
}

/* R7: streams that fit, by ceiling; the bytes of one stream's decoder
 * surfaces and its share of the muxer's pool */
static void
gp_ds_derive_r7 (GpDsDerivation * d, const GpDsDeriveInput * in,
    guint mw, guint mh)
{
  guint extra = MIN (d->final_batch, GP_DS_SURFACES_MAX);
  gdouble nv12 = 1.5;
  gdouble per_stream = ((GP_DS_DECODE_SURFACES + extra) * nv12 *
      in->src_w * in->src_h + GP_DS_MUX_POOL * nv12 * mw * mh) /
      (1024.0 * 1024.0);
  guint best = G_MAXUINT;

  if (!isnan (in->plateau_fps)) {
    d->ceil_compute = (guint) floor (in->plateau_fps / in->src_fps);
    ADD (d, "R7", GP_DS_ELEM_CAPACITY, "compute",
        g_strdup_printf ("%u", d->ceil_compute),
        "%.4g fps at the plateau / %.4g fps a stream", in->plateau_fps,
        in->src_fps);
    best = d->ceil_compute;
    d->limit = "compute";
  }
  if (!isnan (in->decode_fps)) {
    d->ceil_decode = (guint) floor (in->decode_fps / in->src_fps);
    ADD (d, "R7", GP_DS_ELEM_CAPACITY, "decode",
        g_strdup_printf ("%u", d->ceil_decode),
        "%.4g fps of decoders at %ux%u / %.4g fps a stream", in->decode_fps,
        in->src_w, in->src_h, in->src_fps);
    if (d->ceil_decode < best) {
      best = d->ceil_decode;
      d->limit = "decode";
    }
  }
  if (!isnan (in->gpu_mem_mib)) {
    d->ceil_memory = (guint) floor (in->gpu_mem_mib / per_stream);
    ADD (d, "R7", GP_DS_ELEM_CAPACITY, "memory",
        g_strdup_printf ("%u", d->ceil_memory),
        "%.0f MiB / %.1f MiB a stream (%u decoder surfaces at %ux%u and %u "
        "muxer ones at %ux%u, NV12)", in->gpu_mem_mib, per_stream,
        GP_DS_DECODE_SURFACES + extra, in->src_w, in->src_h, GP_DS_MUX_POOL,
        mw, mh);
    if (d->ceil_memory < best) {
      best = d->ceil_memory;
      d->limit = "memory";
    }
  }
  d->max_streams = best == G_MAXUINT ? 0 : best;
  if (d->limit)
    ADD (d, "R7", GP_DS_ELEM_CAPACITY, "max-streams",
        g_strdup_printf ("%u", d->max_streams),
        "capped by %s; %u asked: %s", d->limit, in->streams,
        d->max_streams >= in->streams ? "they fit" : "they do not fit");
  else
    ADD (d, "R7", GP_DS_ELEM_CAPACITY, "max-streams", g_strdup ("?"),
        "no ceiling given (--plateau-fps, --decode-fps, --gpu-mem)");
}

GpDsDerivation *
gp_ds_derive (const GpDsDeriveInput * in)
{
  GpDsDerivation *d = g_new0 (GpDsDerivation, 1);
  guint mw, mh;

  d->values = g_ptr_array_new ();
  d->final_batch = MIN (in->plateau, in->streams);
  gp_ds_derive_mux_size (in, &mw, &mh);
  gp_ds_derive_r1 (d, in, mw, mh);
  gp_ds_derive_r2 (d, in);
  gp_ds_derive_r3 (d);
  if (in->tracker)
    gp_ds_derive_r4 (d, in);
  gp_ds_derive_r5 (d);
  gp_ds_derive_r7 (d, in, mw, mh);
  return d;
}

void
gp_ds_derivation_free (GpDsDerivation * d)
{
  guint i;

  if (!d)
    return;
  for (i = 0; i < d->values->len; i++) {
    GpDsValue *v = g_ptr_array_index (d->values, i);

    g_free (v->key);
    g_free (v->value);
    g_free (v->reason);
    g_free (v);
  }
  g_ptr_array_unref (d->values);
  g_free (d);
}

const GpDsValue *
gp_ds_derivation_find (const GpDsDerivation * d, GpDsElem elem,
    const gchar * key)
{
  guint i;

  for (i = 0; i < d->values->len; i++) {
    const GpDsValue *v = g_ptr_array_index (d->values, i);

    if (v->elem == elem && strcmp (v->key, key) == 0)
      return v;
  }
  return NULL;
}

/* the configuration files */

typedef struct
{
  gchar *path;
  GpDsConfigKind role;         /* never GP_DS_KIND_UNKNOWN */
  GpDsConfig *cfg;
} GpDsFile;

struct _GpDsConfigs
{
  GPtrArray *files;             /* GpDsFile* */
  gchar *calib;                 /* an nvinfer file's int8-calib-file */
};

static void
gp_ds_file_free (GpDsFile * f)
{
  g_free (f->path);
  if (f->cfg)
    gp_ds_config_free (f->cfg);
  g_free (f);
}

/* @key of @group, spaces at its ends taken off; NULL when absent */
static gchar *
gp_ds_file_get (GpDsFile * f, const gchar * group, const gchar * key)
{
  gchar *v = gp_ds_config_get (f->cfg, group, key);

  return v ? g_strstrip (v) : NULL;
}

static gboolean
gp_ds_file_role (GpDsFile * f, GError ** error)
{
  f->role = gp_ds_config_kind (f->cfg);
  if (f->role != GP_DS_KIND_UNKNOWN)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: neither a "
      "deepstream-app or test-app configuration (streammux, primary-gie) "
      "nor an nvinfer one (property) nor a tracker group", f->path);
  return FALSE;
}

GpDsConfigs *
gp_ds_configs_load (gchar ** paths, GError ** error)
{
  GpDsConfigs *c = g_new0 (GpDsConfigs, 1);
  guint i;

  c->files = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_ds_file_free);
  for (i = 0; paths && paths[i]; i++) {
    GpDsFile *f = g_new0 (GpDsFile, 1);

    f->path = g_strdup (paths[i]);
    g_ptr_array_add (c->files, f);
    f->cfg = gp_ds_config_load (paths[i], error);
    if (!f->cfg || !gp_ds_file_role (f, error)) {
      gp_ds_configs_free (c);
      return NULL;
    }
  }
  return c;
}

void
gp_ds_configs_free (GpDsConfigs * c)
{
  if (!c)
    return;
  g_ptr_array_unref (c->files);
  g_free (c->calib);
  g_free (c);
}

/* A group is on unless it says enable=0. */
static gboolean
gp_ds_group_enabled (GpDsFile * f, const gchar * group)
{
  gchar *v = gp_ds_file_get (f, group, "enable");
  gboolean on = !v || strcmp (v, "0") != 0;

  g_free (v);
  return on;
}

static gboolean
gp_ds_is_source_group (const gchar * g)
{
  const gchar *p;

  if (!g_str_has_prefix (g, "source") || !g[6])
    return FALSE;
  for (p = g + 6; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* The group a tracker's keys are in, NULL when none runs. */
static const gchar *
gp_ds_file_tracker (GpDsFile * f)
{
  if (f->role == GP_DS_KIND_INFER
      || !gp_ds_config_has_group (f->cfg, "tracker")
      || !gp_ds_group_enabled (f, "tracker"))
    return NULL;
  return "tracker";
}

void
gp_ds_derive_scan (GpDsConfigs * c, GpDsDeriveInput * in)
{
  guint i, j;

  for (i = 0; i < c->files->len; i++) {
    GpDsFile *f = g_ptr_array_index (c->files, i);
    gchar **groups;

    if (f->role == GP_DS_KIND_INFER && !in->int8_calib) {
      /* no --int8-calib: the one the nvinfer file names, if it is there */
      gchar *calib = gp_ds_file_get (f, "property", "int8-calib-file");

      if (calib) {
        g_free (c->calib);
        c->calib = calib;
        in->int8_calib = calib;
        in->int8_calib_exists = g_file_test (calib, G_FILE_TEST_IS_REGULAR);
      }
    }
    if (gp_ds_file_tracker (f))
      in->tracker = TRUE;
    if (f->role != GP_DS_KIND_APP)
      continue;
    groups = gp_ds_config_groups (f->cfg);
    for (j = 0; groups[j]; j++) {
      gchar *type;

      if (!gp_ds_is_source_group (groups[j])
          || !gp_ds_group_enabled (f, groups[j]))
        continue;
      /* 1 V4L2 camera, 4 RTSP, 5 CSI camera */
      type = gp_ds_file_get (f, groups[j], "type");
      if (type && (!strcmp (type, "1") || !strcmp (type, "4")
              || !strcmp (type, "5")))
        in->live = TRUE;
      g_free (type);
    }
    g_strfreev (groups);
  }
}

static void
gp_ds_change_add (GPtrArray * out, GpDsFile * f, const gchar * group,
    const gchar * key, const gchar * value, const gchar * reason,
    gboolean write)
{
  GpDsChange *ch = g_new0 (GpDsChange, 1);

  ch->file = g_strdup (f->path);
  ch->group = g_strdup (group);
  ch->key = g_strdup (key);
  ch->old = gp_ds_file_get (f, group, key);
  ch->value = g_strdup (value);
  ch->reason = reason;
  ch->write = write;
  g_ptr_array_add (out, ch);
}

/* Every value of @elem into @group of @f; @keys NULL: all of them. */
static void
gp_ds_changes_elem (GPtrArray * out, const GpDsDerivation * d, GpDsFile * f,
    const gchar * group, GpDsElem elem, const gchar * const *keys)
{
  guint i;

  for (i = 0; i < d->values->len; i++) {
    const GpDsValue *v = g_ptr_array_index (d->values, i);

    if (v->elem != elem || (keys && !g_strv_contains (keys, v->key)))
      continue;
    gp_ds_change_add (out, f, group, v->key, v->value, v->reason, TRUE);
  }
}

/* R4, section 0.5 of the research notes: nvtracker has no such property;
 * a config that holds it is told so and left as it is */
static void
gp_ds_changes_ignored (GPtrArray * out, GpDsFile * f, const gchar * group)
{
  gchar *old = gp_ds_file_get (f, group, "enable-batch-process");

  if (!old)
    return;
  gp_ds_change_add (out, f, group, "enable-batch-process", old,
      "not an nvtracker property (DeepStream 6 and later): ignored; left "
      "as it is", FALSE);
  g_free (old);
}

/* R2: the engine file a batch and precision need, by nvinfer's naming
 * (NAME_bBATCH_gpuID_PRECISION.engine); NULL when @old is not named so. */
static gchar *
gp_ds_derive_engine (const GpDsDerivation * d, const gchar * old)
{
  const GpDsValue *mode = gp_ds_derivation_find (d, GP_DS_ELEM_PGIE,
      "network-mode");
  GRegex *re = g_regex_new ("_b[0-9]+_gpu([0-9]+)_(fp16|int8|fp32)"
      "\\.engine$", 0, 0, NULL);
  GMatchInfo *m = NULL;
  gchar *out = NULL;

  if (g_regex_match (re, old, 0, &m)) {
    gint start, end;
    gchar *gpu = g_match_info_fetch (m, 1);
    gchar *head;

    g_match_info_fetch_pos (m, 0, &start, &end);
    head = g_strndup (old, start);
    out = g_strdup_printf ("%s_b%u_gpu%s_%s.engine", head, d->final_batch,
        gpu, strcmp (mode->value, "1") == 0 ? "int8" : "fp16");
    g_free (head);
    g_free (gpu);
  }
  g_match_info_free (m);
  g_regex_unref (re);
  return out;
}

/* R2: model-engine-file of @group, renamed for the batch and precision */
static void
gp_ds_changes_engine (GPtrArray * out, const GpDsDerivation * d,
    GpDsFile * f, const gchar * group)
{
  gchar *old = gp_ds_file_get (f, group, "model-engine-file");
  gchar *engine = old ? gp_ds_derive_engine (d, old) : NULL;

  if (engine)
    gp_ds_change_add (out, f, group, "model-engine-file", engine,
        "the engine for this batch and precision (nvinfer's naming; it "
        "builds it once when absent: prebuild before measuring)", TRUE);
  g_free (engine);
  g_free (old);
}

GPtrArray *
gp_ds_derive_changes (const GpDsDerivation * d, const GpDsConfigs * c)
{
  /* a [primary-gie] group's keys override its nvinfer file's */
  static const gchar *const app_pgie[] = { "batch-size", "interval", NULL };
  static const gchar *const infer_pgie[] = { "batch-size", "network-mode",
    "int8-calib-file", "infer-dims", "interval", NULL
  };
  GPtrArray *out = g_ptr_array_new ();
  guint i, j;

  for (i = 0; i < c->files->len; i++) {
    GpDsFile *f = g_ptr_array_index (c->files, i);
    const gchar *tracker = gp_ds_file_tracker (f);

    if (f->role == GP_DS_KIND_INFER) {
      gp_ds_changes_elem (out, d, f, "property", GP_DS_ELEM_PGIE,
          infer_pgie);
      gp_ds_changes_engine (out, d, f, "property");
      continue;
    }
    if (f->role == GP_DS_KIND_APP || f->role == GP_DS_KIND_TESTAPP)
      gp_ds_changes_elem (out, d, f, "streammux", GP_DS_ELEM_MUX, NULL);
    if (f->role == GP_DS_KIND_APP) {
      gchar **groups = gp_ds_config_groups (f->cfg);

      gp_ds_changes_elem (out, d, f, "primary-gie", GP_DS_ELEM_PGIE,
          app_pgie);
      gp_ds_changes_engine (out, d, f, "primary-gie");
      for (j = 0; groups[j]; j++)
        if (gp_ds_is_source_group (groups[j])
            && gp_ds_group_enabled (f, groups[j]))
          gp_ds_changes_elem (out, d, f, groups[j], GP_DS_ELEM_DECODER,
              NULL);
      g_strfreev (groups);
    }
    if (tracker) {
      gp_ds_changes_elem (out, d, f, tracker, GP_DS_ELEM_TRACKER, NULL);
      gp_ds_changes_ignored (out, f, tracker);
    }
  }
  return out;
}

gboolean
gp_ds_derive_write (GpDsConfigs * c, GPtrArray * changes, GPtrArray * wrote,
    GError ** error)
{
  guint i, j;

  for (i = 0; i < c->files->len; i++) {
    GpDsFile *f = g_ptr_array_index (c->files, i);
    gboolean did = FALSE;

    for (j = 0; j < changes->len; j++) {
      const GpDsChange *ch = g_ptr_array_index (changes, j);

      if (!ch->write || strcmp (ch->file, f->path) != 0
          || g_strcmp0 (ch->old, ch->value) == 0)
        continue;
      if (!gp_ds_config_set (f->cfg, ch->group, ch->key, ch->value, NULL,
              error))
        return FALSE;
    }
    if (!gp_ds_config_save (f->cfg, &did, error))
      return FALSE;
    if (did)
      g_ptr_array_add (wrote, f->path);
  }
  return TRUE;
}

void
gp_ds_change_free (GpDsChange * ch)
{
  g_free (ch->file);
  g_free (ch->group);
  g_free (ch->key);
  g_free (ch->old);
  g_free (ch->value);
  g_free (ch);
}
