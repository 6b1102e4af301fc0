/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-preset.c: stage 0's presets (gp-ds-preset.h) on DeepStream's
 * configs, edited through gp-ds-config, and on launch strings, edited
 * through core/gp-launch's patches. Where each value comes from is in
 * docs/tuning.md, "Stage 0 presets".
 */
#include "gp-ds-preset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp-ds-config.h"
#include "gp-ds-rules.h"
#include "core/gp-launch.h"
#include "core/gp-platform.h"

/* R5: a message-broker branch keeps 2 buffers and drops the oldest */
#define GP_DS_PRESET_BROKER_BUFFERS 2
/* the skill's rate when the sources' is not known */
#define GP_DS_PRESET_FPS_ASSUMED 30.0

typedef struct
{
  const GpDsPresetOptions *o;
  GString *out;
  guint n_sources;
  gboolean sources_counted;     /* FALSE: --streams */
  guint batch;
  gdouble fps;
  gboolean fps_assumed;
  guint mh, mw;                 /* the model's input, 0 unknown */
  const gchar *dims_from;
} GpDsPreset;

void
gp_ds_preset_options_init (GpDsPresetOptions * o)
{
  gchar *platform = gp_platform_detect (NULL);

  memset (o, 0, sizeof (*o));
  o->streams = -1;
  o->precision = "auto";
  o->jetson = g_strcmp0 (platform, "jetson") == 0;
  o->new_mux = g_strcmp0 (g_getenv ("USE_NEW_NVSTREAMMUX"), "yes") == 0;
  g_free (platform);
}

/* ------------------------------------------------------------------------ */
/* the shared figures                                                        */

static void
gp_ds_preset_counts (GpDsPreset * p, guint counted)
{
  p->n_sources = p->o->streams > 0 ? (guint) p->o->streams : MAX (counted,
      1);
  p->sources_counted = p->o->streams <= 0;
  p->batch = MIN (p->n_sources, GP_DS_BATCH_MAX);
  p->fps = p->o->fps > 0 ? p->o->fps : GP_DS_PRESET_FPS_ASSUMED;
  p->fps_assumed = p->o->fps <= 0;
  if (p->o->model_h > 0 && p->o->model_w > 0) {
    p->mh = p->o->model_h;
    p->mw = p->o->model_w;
    p->dims_from = "--model";
  }
}

static gchar *
gp_ds_preset_batch_reason (GpDsPreset * p)
{
  return g_strdup_printf ("min(%u %s, %d) until the sweep measures the "
      "plateau", p->n_sources, p->sources_counted ? "sources" :
      "streams (--streams)", GP_DS_BATCH_MAX);
}

static gchar *
gp_ds_preset_timeout (GpDsPreset * p, gchar ** reason)
{
  *reason = g_strdup_printf ("one frame time, 1e6 / %g fps%s", p->fps,
      p->fps_assumed ? " (rate assumed: --fps)" : "");
  return g_strdup_printf ("%ld", lround (1e6 / p->fps));
}

/* "C;H;W" into the model's input */
static gboolean
gp_ds_preset_dims (const gchar * text, guint * h, guint * w)
{
  gchar **v = g_strsplit (text, ";", -1);
  gboolean ok = g_strv_length (v) >= 3 && atoi (v[1]) > 0 && atoi (v[2]) > 0;

  if (ok) {
    *h = (guint) atoi (v[1]);
    *w = (guint) atoi (v[2]);
  }
  g_strfreev (v);
  return ok;
}

static gchar *
gp_ds_preset_resolve (const gchar * base_file, const gchar * path)
{
  gchar *dir, *full;

  if (g_path_is_absolute (path))
    return g_strdup (path);
  dir = g_path_get_dirname (base_file);
  full = g_build_filename (dir, path, NULL);
  g_free (dir);
  return full;
}

/* ------------------------------------------------------------------------ */
/* config edits, each said with its reason                                   */

static void
gp_ds_preset_set (GpDsPreset * p, GpDsConfig * c, const gchar * group,
    const gchar * key, const gchar * value, const gchar * reason)
{
  guint was = gp_ds_config_line (c, group, key), now;
  gchar *old = was ? gp_ds_config_line_text (c, was) : NULL, *line;
  gboolean changed;
  GError *err = NULL;

  if (!gp_ds_config_set (c, group, key, value, &changed, &err)) {
    g_string_append_printf (p->out, "! %s\n", err->message);
    g_error_free (err);
    g_free (old);
    return;
  }
  now = gp_ds_config_line (c, group, key);
  if (!changed) {
    g_string_append_printf (p->out, "= %s:%u [%s] %s: %s (already)\n",
        gp_ds_config_origin (c), now, group, key, reason);
    g_free (old);
    return;
  }
  line = gp_ds_config_line_text (c, now);
  g_string_append_printf (p->out, "@@ %s:%u [%s] %s: %s\n",
      gp_ds_config_origin (c), now, group, key, reason);
  if (old != NULL)
    g_string_append_printf (p->out, "-%s\n", old);
  g_string_append_printf (p->out, "+%s\n", line);
  g_free (old);
  g_free (line);
}

static void
gp_ds_preset_note (GpDsPreset * p, const gchar * format, ...)
    G_GNUC_PRINTF (2, 3);

static void
gp_ds_preset_note (GpDsPreset * p, const gchar * format, ...)
{
  va_list ap;

  g_string_append (p->out, "note: ");
  va_start (ap, format);
  g_string_append_vprintf (p->out, format, ap);
  va_end (ap);
  g_string_append_c (p->out, '\n');
}

static gint
gp_ds_preset_int (GpDsConfig * c, const gchar * group, const gchar * key,
    gint fallback)
{
  gchar *v = gp_ds_config_get (c, group, key);
  gint n = v != NULL && *v ? atoi (v) : fallback;

  g_free (v);
  return n;
}

/* ------------------------------------------------------------------------ */
/* nvinfer's config: [property] or property:                                 */

static const gchar *const gp_ds_preset_model_keys[] = {
  "onnx-file", "tlt-encoded-model", "model-file", "uff-file", NULL
};

static void
gp_ds_preset_nvinfer (GpDsPreset * p, GpDsConfig * c, gboolean batch_known)
{
  const gchar *g = "property", *origin = gp_ds_config_origin (c);
  const gchar *mode, *prec, *why;
  gchar *dims, *calib, *calib_path = NULL, *model = NULL, *gpu, *reason;
  gboolean calib_ok;
  guint b, k;

  /* the model's input */
  dims = gp_ds_config_get (c, g, "infer-dims");
  if (dims != NULL && p->mh == 0 && gp_ds_preset_dims (dims, &p->mh,
          &p->mw))
    p->dims_from = "infer-dims";
  if (dims == NULL && p->mh > 0) {
    gchar *v = g_strdup_printf ("3;%u;%u", p->mh, p->mw);

    reason = g_strdup_printf ("the model's input (%s)", p->dims_from);
    gp_ds_preset_set (p, c, g, "infer-dims", v, reason);
    g_free (reason);
    g_free (v);
  } else if (dims == NULL) {
    gp_ds_preset_note (p, "%s: the model's input is not known (no "
        "infer-dims): pass --model HxW to set it and size the muxer", origin);
  }
  g_free (dims);

  /* precision */
  calib = gp_ds_config_get (c, g, "int8-calib-file");
  if (calib != NULL && *calib)
    calib_path = gp_ds_preset_resolve (origin, calib);
  calib_ok = calib_path != NULL && g_file_test (calib_path,
      G_FILE_TEST_IS_REGULAR);
  if (strcmp (p->o->precision, "fp32") == 0) {
    mode = "0", prec = "fp32", why = "FP32 as asked (--precision fp32)";
  } else if (strcmp (p->o->precision, "fp16") == 0) {
    mode = "2", prec = "fp16", why = "FP16 as asked (--precision fp16)";
  } else if (calib_ok) {
    mode = "1", prec = "int8", why = "INT8: its calibration file is there";
  } else {
    mode = "2", prec = "fp16", why = calib_path != NULL ?
        "FP16: the int8-calib-file is not there" :
        "FP16: no int8-calib-file for INT8";
    if (strcmp (p->o->precision, "int8") == 0)
      gp_ds_preset_note (p, "%s: INT8 asked but no calibration file "
          "(%s): FP16 instead", origin, calib_path ? calib_path : "none set");
  }
  reason = calib_path != NULL && !calib_ok ? g_strdup_printf ("%s (%s)",
      why, calib_path) : g_strdup (why);
  gp_ds_preset_set (p, c, g, "network-mode", mode, reason);
  g_free (reason);
  g_free (calib);
  g_free (calib_path);

  if (batch_known) {
    gchar *v = g_strdup_printf ("%u", p->batch);

    gp_ds_preset_set (p, c, g, "batch-size", v,
        "the muxer's batch: a mismatch caps fps silently");
    g_free (v);
  }

  /* the prebuilt engine, named as DeepStream's samples name theirs */
  for (k = 0; gp_ds_preset_model_keys[k] != NULL && model == NULL; k++)
    model = gp_ds_config_get (c, g, gp_ds_preset_model_keys[k]);
  if (model == NULL || !*model) {
    gp_ds_preset_note (p, "%s: no model file key: model-engine-file left "
        "as it is", origin);
    g_free (model);
    return;
  }
  gpu = gp_ds_config_get (c, g, "gpu-id");
  b = batch_known ? p->batch : (guint) MAX (gp_ds_preset_int (c, g,
          "batch-size", 1), 1);
  {
    gchar *full = gp_ds_preset_resolve (origin, model);
    gchar *engine = g_strdup_printf ("%s_b%u_gpu%s_%s.engine", full, b,
        gpu && *gpu ? gpu : "0", prec);

    if (g_file_test (engine, G_FILE_TEST_IS_REGULAR)) {
      reason = g_strdup_printf ("the prebuilt engine for batch %u %s: no "
          "build at start", b, prec);
      gp_ds_preset_set (p, c, g, "model-engine-file", engine, reason);
      g_free (reason);
    } else {
      gp_ds_preset_note (p, "%s: no prebuilt engine %s: nvinfer builds one "
          "at start (trtBuilder in the profile); build it once before "
          "measuring", origin, engine);
    }
    g_free (full);
    g_free (engine);
  }
  g_free (gpu);
  g_free (model);
}

/* ------------------------------------------------------------------------ */
/* deepstream-app's INI                                                      */

/* sink types (deepstream-app): 2 EGL / nv3dsink, 3 file, 4 RTSP/UDP,
 * 5 DRM: a display or a recording */
static gboolean
gp_ds_preset_app_shows (GpDsConfig * c)
{
  gchar **groups = gp_ds_config_groups (c);
  gboolean shows = FALSE;
  guint i;

  for (i = 0; groups[i] != NULL; i++) {
    gint type;

    if (!g_str_has_prefix (groups[i], "sink") ||
        gp_ds_preset_int (c, groups[i], "enable", 1) == 0)
      continue;
    type = gp_ds_preset_int (c, groups[i], "type", 1);
    shows |= type >= 2 && type <= 5;
  }
  g_strfreev (groups);
  return shows;
}

static guint
gp_ds_preset_app_sources (GpDsConfig * c)
{
  gchar **groups = gp_ds_config_groups (c);
  guint i, n = 0;

  for (i = 0; groups[i] != NULL; i++) {
    if (strcmp (groups[i], "source-list") == 0) {
      gchar *list = gp_ds_config_get (c, groups[i], "list");
      gchar **uris = g_strsplit (list ? list : "", ";", -1);
      guint k;

      for (k = 0; uris[k] != NULL; k++)
        n += *g_strstrip (uris[k]) != '\0';
      g_strfreev (uris);
      g_free (list);
    } else if (g_str_has_prefix (groups[i], "source") &&
        g_ascii_isdigit (groups[i][6]) &&
        gp_ds_preset_int (c, groups[i], "enable", 0) == 1) {
      n += gp_ds_preset_int (c, groups[i], "type", 0) == 3 ?
          (guint) MAX (gp_ds_preset_int (c, groups[i], "num-sources", 1), 1)
          : 1;
    }
  }
  g_strfreev (groups);
  return n;
}

static void
gp_ds_preset_mux (GpDsPreset * p, GpDsConfig * c, const gchar * g,
    gboolean ini)
{
  gchar *v = g_strdup_printf ("%u", p->batch), *reason;

  reason = gp_ds_preset_batch_reason (p);
  gp_ds_preset_set (p, c, g, "batch-size", v, reason);
  g_free (reason);
  g_free (v);
  v = gp_ds_preset_timeout (p, &reason);
  gp_ds_preset_set (p, c, g, "batched-push-timeout", v, reason);
  g_free (reason);
  g_free (v);
  if (p->o->new_mux) {
    gp_ds_preset_note (p, "the new nvstreammux (USE_NEW_NVSTREAMMUX=yes) "
        "has no width, height or nvbuf-memory-type: left as they are");
    return;
  }
  if (p->mh > 0) {
    reason = g_strdup_printf ("the model's input (%s)", p->dims_from);
    v = g_strdup_printf ("%u", p->mw);
    gp_ds_preset_set (p, c, g, "width", v, reason);
    g_free (v);
    v = g_strdup_printf ("%u", p->mh);
    gp_ds_preset_set (p, c, g, "height", v, reason);
    g_free (v);
    g_free (reason);
  }
  if (ini)
    gp_ds_preset_set (p, c, g, "nvbuf-memory-type", "0",
        "0: the platform's default (CUDA device on dGPU, surface array on "
        "Jetson)");
}

static void
gp_ds_preset_tracker (GpDsPreset * p, GpDsConfig * c, const gchar * g)
{
  gchar *v;

  v = g_strdup_printf ("%d", GP_DS_TRACKER_WIDTH);
  gp_ds_preset_set (p, c, g, "tracker-width", v,
      "max-perf working width (a multiple of 32)");
  g_free (v);
  v = g_strdup_printf ("%d", GP_DS_TRACKER_HEIGHT);
  gp_ds_preset_set (p, c, g, "tracker-height", v,
      "max-perf working height (a multiple of 32)");
  g_free (v);
  gp_ds_preset_set (p, c, g, "ll-config-file", GP_DS_TRACKER_CONFIG,
      "NvDCF's max-perf preset");
  v = gp_ds_config_get (c, g, "enable-batch-process");
  if (v != NULL)
    gp_ds_preset_note (p, "%s:%u: enable-batch-process is not an nvtracker "
        "property (DeepStream 6 and later): left as it is, never written",
        gp_ds_config_origin (c), gp_ds_config_line (c, g,
            "enable-batch-process"));
  g_free (v);
}

static void
gp_ds_preset_app (GpDsPreset * p, GpDsConfig * c, gboolean benchmark)
{
  gchar **groups = gp_ds_config_groups (c);
  gchar *v, *reason;
  guint i;

  if (gp_ds_config_has_group (c, "streammux"))
    gp_ds_preset_mux (p, c, "streammux", TRUE);
  if (gp_ds_config_has_group (c, "primary-gie")) {
    v = g_strdup_printf ("%u", p->batch);
    gp_ds_preset_set (p, c, "primary-gie", "batch-size", v,
        "the muxer's batch: a mismatch caps fps silently");
    g_free (v);
  }
  for (i = 0; groups[i] != NULL; i++) {
    const gchar *g = groups[i];
    gint type = gp_ds_preset_int (c, g, "type", 0);

    if (g_str_has_prefix (g, "source") && g_ascii_isdigit (g[6]) &&
        gp_ds_preset_int (c, g, "enable", 0) == 1 && type >= 2 && type <= 4) {
      v = g_strdup_printf ("%u", MIN (p->batch, GP_DS_SURFACES_MAX));
      reason = g_strdup_printf ("min(batch %u, %d)", p->batch,
          GP_DS_SURFACES_MAX);
      gp_ds_preset_set (p, c, g, "num-extra-surfaces", v, reason);
      g_free (reason);
      g_free (v);
      if (p->o->jetson)
        gp_ds_preset_note (p, "[%s]: Jetson's decoder has no "
            "cudadec-memtype: not set", g);
      else
        gp_ds_preset_set (p, c, g, "cudadec-memtype", "0",
            "0: decoded frames in device memory");
      gp_ds_preset_set (p, c, g, "nvbuf-memory-type", "0",
          "0: the platform's default memory");
    } else if (g_str_has_prefix (g, "sink") && benchmark &&
        gp_ds_preset_int (c, g, "enable", 1) == 1) {
      if (type == 6) {
        gp_ds_preset_note (p, "[%s]: a message broker; deepstream-app has "
            "no queue key for its branch: left as it is", g);
        continue;
      }
      gp_ds_preset_set (p, c, g, "type", "1",
          "benchmark: fakesink, no display or recording");
      gp_ds_preset_set (p, c, g, "sync", "0",
          "benchmark: as fast as the pipeline goes, not the clock");
    }
  }
  if (gp_ds_config_has_group (c, "tracker") &&
      gp_ds_preset_int (c, "tracker", "enable", 0) == 1)
    gp_ds_preset_tracker (p, c, "tracker");
  if (benchmark && gp_ds_config_has_group (c, "osd"))
    gp_ds_preset_set (p, c, "osd", "enable", "0", "benchmark: no OSD");
  if (benchmark && gp_ds_config_has_group (c, "tiled-display"))
    gp_ds_preset_set (p, c, "tiled-display", "enable", "0",
        "benchmark: no tiler");
  g_strfreev (groups);
}

/* the test apps' YAML (deepstream-test1/3): their OSD, tiler and sink are
 * made in code */
static void
gp_ds_preset_testapp (GpDsPreset * p, GpDsConfig * c)
{
  if (gp_ds_config_has_group (c, "streammux"))
    gp_ds_preset_mux (p, c, "streammux", FALSE);
  if (gp_ds_config_has_group (c, "tracker"))
    gp_ds_preset_tracker (p, c, "tracker");
  if (gp_ds_config_has_group (c, "osd") ||
      gp_ds_config_has_group (c, "tiler") || gp_ds_config_has_group (c,
          "sink"))
    gp_ds_preset_note (p, "%s: the test app makes its OSD, tiler and sink in "
        "code: no YAML key drops them; benchmark with a fakesink build",
        gp_ds_config_origin (c));
}

static guint
gp_ds_preset_testapp_sources (GpDsConfig * c)
{
  gchar **sources = gp_ds_config_testapp_sources (c);
  guint n = g_strv_length (sources);

  g_strfreev (sources);
  return n == 0 && gp_ds_config_has_group (c, "source") ? 1 : n;
}

/* ------------------------------------------------------------------------ */
/* files                                                                     */

static gchar *
gp_ds_preset_benchmark_path (const gchar * path)
{
  const gchar *dot = strrchr (path, '.'), *slash = strrchr (path, '/');

  if (dot == NULL || (slash != NULL && dot < slash))
    return g_strconcat (path, ".benchmark", NULL);
  return g_strdup_printf ("%.*s.benchmark%s", (gint) (dot - path), path, dot);
}

static gboolean
gp_ds_preset_save (GpDsPreset * p, GpDsConfig * c, GError ** error)
{
  gboolean wrote;

  if (!gp_ds_config_save (c, &wrote, error))
    return FALSE;
  g_string_append_printf (p->out, "%s %s%s\n", wrote ? "wrote" :
      "unchanged:", gp_ds_config_origin (c), wrote ? " (backup: .bak)" : "");
  return TRUE;
}

/* A file without a single group (empty, comments only) is no config:
 * presetting it would invent a pipeline of one source. */
static gboolean
gp_ds_preset_has_groups (GpDsConfig * c, GError ** error)
{
  gchar **groups = gp_ds_config_groups (c);
  gboolean any = groups[0] != NULL;

  g_strfreev (groups);
  if (!any)
    g_set_error (error, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_PARSE,
        "%s: no group in it (empty?): not a DeepStream config",
        gp_ds_config_origin (c));
  return any;
}

gboolean
gp_ds_preset_file (const gchar * path, const GpDsPresetOptions * o,
    gboolean write, gchar ** report, GError ** error)
{
  GpDsPreset p = { o, g_string_new (NULL) };
  GpDsConfig *c, *bench = NULL, *infer = NULL;
  GpDsConfigKind kind;
  gchar *infer_path = NULL;
  gboolean shows = FALSE, ok = TRUE;

  *report = NULL;
  if ((c = gp_ds_config_load (path, error)) == NULL) {
    g_string_free (p.out, TRUE);
    return FALSE;
  }
  if (!gp_ds_preset_has_groups (c, error)) {
    gp_ds_config_free (c);
    g_string_free (p.out, TRUE);
    return FALSE;
  }
  /* any other INI as deepstream-app's, any other YAML as a test app's */
  kind = gp_ds_config_kind (c);
  if (kind != GP_DS_KIND_INFER)
    kind = gp_ds_config_get_format (c) == GP_DS_CONFIG_INI ?
        GP_DS_KIND_APP : GP_DS_KIND_TESTAPP;

  if (kind != GP_DS_KIND_INFER) {
    gchar *rel = gp_ds_config_get (c, "primary-gie", kind == GP_DS_KIND_APP ?
        "config-file" : "config-file-path");

    gp_ds_preset_counts (&p, kind == GP_DS_KIND_APP ?
        gp_ds_preset_app_sources (c) : gp_ds_preset_testapp_sources (c));
    if (rel != NULL && *rel) {
      GError *err = NULL;

      infer_path = gp_ds_preset_resolve (path, rel);
      if (!g_file_test (infer_path, G_FILE_TEST_EXISTS)) {
        gp_ds_preset_note (&p, "[primary-gie] names %s, not there: its "
            "presets (precision, infer-dims, engine) not applied",
            infer_path);
      } else if ((infer = gp_ds_config_load (infer_path, &err)) == NULL) {
        g_propagate_error (error, err);
        ok = FALSE;
      }
    }
    g_free (rel);
    shows = kind == GP_DS_KIND_APP && gp_ds_preset_app_shows (c);
  } else {
    gp_ds_preset_counts (&p, 1);
  }
  if (ok) {
    GString *head = g_string_new (NULL);

    g_string_append_printf (head, "%s: %s", path, kind == GP_DS_KIND_INFER
        ? "nvinfer config" : kind == GP_DS_KIND_APP ? "deepstream-app config"
        : "test-app config");
    if (kind != GP_DS_KIND_INFER)
      g_string_append_printf (head, ", %u %s, batch %u, %g fps%s",
          p.n_sources, p.sources_counted ? "sources" : "streams", p.batch,
          p.fps, p.fps_assumed ? " assumed" : "");
    g_string_append_printf (head, "%s\n", shows ? "; display or recording:"
        " two variants (visible, benchmark)" : "");
    g_string_prepend (p.out, head->str);
    g_string_free (head, TRUE);
  }
  if (ok && infer != NULL) {
    g_string_append_printf (p.out, "\n# %s (both variants)\n", infer_path);
    gp_ds_preset_nvinfer (&p, infer, TRUE);
  }
  if (ok && kind == GP_DS_KIND_INFER) {
    g_string_append_printf (p.out, "\n# %s\n", path);
    gp_ds_preset_nvinfer (&p, c, FALSE);
  } else if (ok && kind == GP_DS_KIND_TESTAPP) {
    g_string_append_printf (p.out, "\n# %s\n", path);
    gp_ds_preset_testapp (&p, c);
  } else if (ok) {
    if (shows) {
      gsize len;
      const gchar *text = gp_ds_config_text (c, &len);

      bench = gp_ds_config_parse (path, text, len, GP_DS_CONFIG_INI, NULL);
      g_string_append_printf (p.out, "\n# %s, variant visible (keeps its "
          "display and recording)\n", path);
      gp_ds_preset_app (&p, c, FALSE);
      g_string_append_printf (p.out, "\n# %s, variant benchmark\n", path);
      gp_ds_preset_app (&p, bench, TRUE);
    } else {
      g_string_append_printf (p.out, "\n# %s, variant benchmark\n", path);
      gp_ds_preset_app (&p, c, TRUE);
    }
  }
  if (ok && write) {
    g_string_append_c (p.out, '\n');
    ok = (infer == NULL || gp_ds_preset_save (&p, infer, error)) &&
        gp_ds_preset_save (&p, c, error);
    if (ok && bench != NULL) {
      gchar *to = gp_ds_preset_benchmark_path (path);

      ok = gp_ds_config_save_as (bench, to, error);
      if (ok)
        g_string_append_printf (p.out, "wrote %s (variant benchmark)\n", to);
      g_free (to);
    }
  }
  gp_ds_config_free (c);
  gp_ds_config_free (bench);
  gp_ds_config_free (infer);
  g_free (infer_path);
  if (!ok) {
    g_string_free (p.out, TRUE);
    return FALSE;
  }
  *report = g_string_free (p.out, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* launch strings                                                            */

static const gchar *const gp_ds_preset_sources[] = {
  "filesrc", "uridecodebin", "uridecodebin3", "nvurisrcbin", "rtspsrc",
  "v4l2src", "nvarguscamerasrc", "nvv4l2camerasrc", "videotestsrc",
  "urisourcebin", "multifilesrc", "souphttpsrc", "appsrc", NULL
};

static const gchar *const gp_ds_preset_displays[] = {
  "nveglglessink", "nv3dsink", "nvdrmvideosink", "autovideosink",
  "xvimagesink", "ximagesink", "glimagesink", "waylandsink", "kmssink",
  "fpsdisplaysink", "nvoverlaysink", NULL
};

static const gchar *const gp_ds_preset_recorders[] = {
  "filesink", "splitmuxsink", "multifilesink", "rtspclientsink", "udpsink",
  NULL
};

static gboolean
gp_ds_preset_in (const gchar * factory, const gchar * const *set)
{
  return factory != NULL && g_strv_contains (set, factory);
}

/* the element each element links into ("a ! b": b), caps skipped;
 * -1 when none or a reference */
static gint *
gp_ds_preset_next (const GpLaunch * l)
{
  guint n = gp_launch_get_n_elements (l), i;
  gint *next = g_new (gint, n + 1), cur = -1;
  gboolean link = FALSE;

  for (i = 0; i < n; i++)
    next[i] = -1;
  for (i = 0; i < gp_launch_get_n_segments (l); i++) {
    const GpLaunchSegment *s = gp_launch_get_segment (l, i);

    switch (s->kind) {
      case GP_LAUNCH_SEG_LINK:
        link = cur >= 0;
        break;
      case GP_LAUNCH_SEG_FACTORY:
      case GP_LAUNCH_SEG_CAPS:
      case GP_LAUNCH_SEG_URL:
        if (s->element < 0 || s->element == cur)
          break;
        if (link)
          next[cur] = s->element;
        cur = s->element;
        link = FALSE;
        break;
      case GP_LAUNCH_SEG_REF:
      case GP_LAUNCH_SEG_PADREF:
      case GP_LAUNCH_SEG_BIN_OPEN:
      case GP_LAUNCH_SEG_BIN_CLOSE:
        cur = -1;
        link = FALSE;
        break;
      default:
        break;
    }
  }
  for (i = 0; i < n; i++)
    while (next[i] >= 0 &&
        gp_launch_get_element (l, next[i])->kind == GP_LAUNCH_CAPS)
      next[i] = next[next[i]];
  return next;
}

typedef struct
{
  GpDsPreset *p;
  const GpLaunch *l;
  GPtrArray *ops;                /* GpLaunchOp* */
  GString *why;
} GpDsLaunchEdit;

static void
gp_ds_preset_lset (GpDsLaunchEdit * e, gint el, const gchar * key,
    const gchar * value, const gchar * reason)
{
  const GpLaunchElement *x = gp_launch_get_element (e->l, el);
  JsonObject *props = gp_launch_element_props (e->l, el);
  const gchar *name = x->name ? x->name : x->factory;
  gchar *have = NULL;

  if (json_object_has_member (props, key))
    have = gp_launch_value_text (json_object_get_member (props, key));
  json_object_unref (props);
  if (g_strcmp0 (have, value) == 0) {
    g_string_append_printf (e->why, "= %s %s=%s: %s (already)\n", name, key,
        value, reason);
    g_free (have);
    return;
  }
  g_free (have);
  g_ptr_array_add (e->ops, gp_launch_op_set_string (name, key, value));
  g_string_append_printf (e->why, "+ %s %s=%s: %s\n", name, key, value,
      reason);
}

/* @remove: the element goes; else a fakesink sync=false takes its place */
static void
gp_ds_preset_lop (GpDsLaunchEdit * e, gint el, gboolean remove,
    const gchar * reason)
{
  const GpLaunchElement *x = gp_launch_get_element (e->l, el);
  const gchar *name = x->name ? x->name : x->factory;
  GpLaunchOp *op = remove ? gp_launch_op_remove (name) :
      gp_launch_op_replace (name, "fakesink", FALSE);

  if (!remove)
    gp_launch_op_add_prop_bool (op, "sync", FALSE);
  g_ptr_array_add (e->ops, op);
  g_string_append_printf (e->why, "%s %s (%s): %s\n",
      remove ? "- removed" : "~ fakesink sync=false for",
      name, x->factory, reason);
}

/* an encoder, parser, muxer or payloader on its way to a recording */
static gboolean
gp_ds_preset_records (const GpLaunch * l, const gint * next, gint el)
{
  const gchar *f = gp_launch_get_element (l, el)->factory;
  gint k, hops = 0;

  if (f == NULL || !(strstr (f, "enc") || g_str_has_suffix (f, "parse") ||
          g_str_has_suffix (f, "mux") || g_str_has_suffix (f, "pay")))
    return FALSE;
  for (k = next[el]; k >= 0 && hops < 64; k = next[k], hops++)
    if (gp_ds_preset_in (gp_launch_get_element (l, k)->factory,
            gp_ds_preset_recorders))
      return TRUE;
  return FALSE;
}

static gchar *
gp_ds_preset_launch_variant (GpDsPreset * p, const gchar * launch,
    gboolean benchmark, GError ** error)
{
  GpLaunch *l = gp_launch_parse (launch, error);
  GpDsLaunchEdit e;
  gint *next, n, i, pgie = -1;
  gchar *v, *reason, *after, *diff;

  if (l == NULL)
    return NULL;
  e.p = p;
  e.l = l;
  e.ops = gp_launch_patch_new ();
  e.why = g_string_new (NULL);
  next = gp_ds_preset_next (l);
  n = (gint) gp_launch_get_n_elements (l);
  for (i = 0; i < n; i++) {
    const GpLaunchElement *x = gp_launch_get_element (l, i);
    const gchar *f = x->factory ? x->factory : "";

    if (x->kind == GP_LAUNCH_CAPS || x->name == NULL)
      continue;
    if (strcmp (f, "nvstreammux") == 0) {
      v = g_strdup_printf ("%u", p->batch);
      reason = gp_ds_preset_batch_reason (p);
      gp_ds_preset_lset (&e, i, "batch-size", v, reason);
      g_free (v);
      g_free (reason);
      v = gp_ds_preset_timeout (p, &reason);
      gp_ds_preset_lset (&e, i, "batched-push-timeout", v, reason);
      g_free (v);
      g_free (reason);
      if (!p->o->new_mux) {
        if (p->mh > 0) {
          reason = g_strdup_printf ("the model's input (%s)", p->dims_from);
          v = g_strdup_printf ("%u", p->mw);
          gp_ds_preset_lset (&e, i, "width", v, reason);
          g_free (v);
          v = g_strdup_printf ("%u", p->mh);
          gp_ds_preset_lset (&e, i, "height", v, reason);
          g_free (v);
          g_free (reason);
        }
        gp_ds_preset_lset (&e, i, "nvbuf-memory-type", "0",
            "0: the platform's default memory");
      }
    } else if (strcmp (f, "nvinfer") == 0) {
      JsonObject *props = gp_launch_element_props (l, i);

      if (pgie < 0)
        pgie = i;
      if (json_object_has_member (props, "batch-size")) {
        v = g_strdup_printf ("%u", p->batch);
        gp_ds_preset_lset (&e, i, "batch-size", v,
            "the muxer's batch: a mismatch caps fps silently");
        g_free (v);
      }
      json_object_unref (props);
    } else if (strcmp (f, "nvv4l2decoder") == 0 ||
        strcmp (f, "nvurisrcbin") == 0) {
      v = g_strdup_printf ("%u", MIN (p->batch, GP_DS_SURFACES_MAX));
      reason = g_strdup_printf ("min(batch %u, %d)", p->batch,
          GP_DS_SURFACES_MAX);
      gp_ds_preset_lset (&e, i, "num-extra-surfaces", v, reason);
      g_free (v);
      g_free (reason);
      if (!p->o->jetson)
        gp_ds_preset_lset (&e, i, "cudadec-memtype", "0",
            "0: decoded frames in device memory");
    } else if (strcmp (f, "nvtracker") == 0) {
      v = g_strdup_printf ("%d", GP_DS_TRACKER_WIDTH);
      gp_ds_preset_lset (&e, i, "tracker-width", v, "max-perf working width");
      g_free (v);
      v = g_strdup_printf ("%d", GP_DS_TRACKER_HEIGHT);
      gp_ds_preset_lset (&e, i, "tracker-height", v,
          "max-perf working height");
      g_free (v);
      gp_ds_preset_lset (&e, i, "ll-config-file", GP_DS_TRACKER_CONFIG,
          "NvDCF's max-perf preset");
      {
        JsonObject *props = gp_launch_element_props (l, i);

        if (json_object_has_member (props, "enable-batch-process"))
          g_string_append_printf (e.why, "! %s enable-batch-process: not an "
              "nvtracker property (DeepStream 6 and later): GStreamer "
              "refuses the string; take it out\n", x->name);
        json_object_unref (props);
      }
    } else if (benchmark && (strcmp (f, "nvdsosd") == 0 ||
            strcmp (f, "nvmultistreamtiler") == 0 ||
            strcmp (f, "nvegltransform") == 0)) {
      gp_ds_preset_lop (&e, i, TRUE, "benchmark: no OSD, tiler or "
          "display transform");
    } else if (benchmark && gp_ds_preset_records (l, next, i)) {
      gp_ds_preset_lop (&e, i, TRUE, "benchmark: no recording");
    } else if (benchmark && (gp_ds_preset_in (f, gp_ds_preset_displays) ||
            gp_ds_preset_in (f, gp_ds_preset_recorders))) {
      gp_ds_preset_lop (&e, i, FALSE, "benchmark: no display or "
          "recording, not held to the clock");
    } else if (strcmp (f, "fakesink") == 0) {
      gp_ds_preset_lset (&e, i, "sync", "false",
          "as fast as the pipeline goes, not the clock");
    }
  }
  /* the queues: into the primary inference, into a message broker */
  for (i = 0; i < n; i++) {
    const GpLaunchElement *x = gp_launch_get_element (l, i);
    const gchar *down;

    if (g_strcmp0 (x->factory, "queue") != 0 || x->name == NULL ||
        next[i] < 0)
      continue;
    down = gp_launch_get_element (l, next[i])->factory;
    if (next[i] == pgie) {
      v = g_strdup_printf ("%u", p->batch * GP_DS_QUEUE_BATCHES);
      reason = g_strdup_printf ("into the primary inference: batch %u x %d",
          p->batch, GP_DS_QUEUE_BATCHES);
      gp_ds_preset_lset (&e, i, "max-size-buffers", v, reason);
      gp_ds_preset_lset (&e, i, "max-size-bytes", "0", "buffers bound it");
      gp_ds_preset_lset (&e, i, "max-size-time", "0", "buffers bound it");
      g_free (v);
      g_free (reason);
    } else if (g_strcmp0 (down, "nvmsgconv") == 0 ||
        g_strcmp0 (down, "nvmsgbroker") == 0) {
      v = g_strdup_printf ("%d", GP_DS_PRESET_BROKER_BUFFERS);
      gp_ds_preset_lset (&e, i, "max-size-buffers", v,
          "a message-broker branch never holds the pipeline back");
      gp_ds_preset_lset (&e, i, "leaky", "2", "drops the oldest (downstream)");
      g_free (v);
    }
  }
  g_free (next);
  if (!gp_launch_apply_patch (l, e.ops, error)) {
    g_ptr_array_unref (e.ops);
    g_string_free (e.why, TRUE);
    gp_launch_free (l);
    return NULL;
  }
  g_ptr_array_unref (e.ops);
  after = gp_launch_to_string (l);
  diff = gp_launch_diff (launch, after);
  g_string_append_printf (p->out, "%s%s%s", e.why->str, diff,
      *diff ? "" : "(no change)\n");
  g_free (diff);
  g_string_free (e.why, TRUE);
  gp_launch_free (l);
  return after;
}

gboolean
gp_ds_preset_launch (const gchar * launch, const GpDsPresetOptions * o,
    gboolean write, gchar ** report, GError ** error)
{
  GpDsPreset p = { o, g_string_new (NULL) };
  GpLaunch *l = gp_launch_parse (launch, error);
  GPtrArray *infers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_ds_config_free);
  guint i, counted = 0;
  gboolean shows = FALSE, ok = TRUE;
  gchar *bench, *visible = NULL;

  *report = NULL;
  if (l == NULL) {
    g_string_free (p.out, TRUE);
    g_ptr_array_unref (infers);
    return FALSE;
  }
  for (i = 0; i < gp_launch_get_n_elements (l); i++) {
    const GpLaunchElement *x = gp_launch_get_element (l, i);
    JsonObject *props = gp_launch_element_props (l, (gint) i);

    if (gp_ds_preset_in (x->factory, gp_ds_preset_sources))
      counted++;
    if (g_strcmp0 (x->factory, "nvmultiurisrcbin") == 0 &&
        json_object_has_member (props, "uri-list")) {
      gchar **uris = g_strsplit (json_object_get_string_member (props,
              "uri-list"), ",", -1);

      counted += g_strv_length (uris);
      g_strfreev (uris);
    }
    shows |= gp_ds_preset_in (x->factory, gp_ds_preset_displays) ||
        gp_ds_preset_in (x->factory, gp_ds_preset_recorders);
    if (g_strcmp0 (x->factory, "nvinfer") == 0 &&
        json_object_has_member (props, "config-file-path")) {
      const gchar *cf = json_object_get_string_member (props,
          "config-file-path");
      GpDsConfig *c;
      GError *err = NULL;

      if (!g_file_test (cf, G_FILE_TEST_EXISTS))
        gp_ds_preset_note (&p, "%s names %s, not there: its presets not "
            "applied", x->name ? x->name : "nvinfer", cf);
      else if ((c = gp_ds_config_load (cf, &err)) != NULL)
        g_ptr_array_add (infers, c);
      else {
        g_propagate_error (error, err);
        ok = FALSE;
      }
    }
    json_object_unref (props);
  }
  gp_launch_free (l);
  gp_ds_preset_counts (&p, counted);
  if (ok) {
    GString *head = g_string_new (NULL);

    g_string_append_printf (head, "launch string: %u %s, batch %u, %g fps%s"
        "%s\n", p.n_sources, p.sources_counted ? "sources" : "streams",
        p.batch, p.fps, p.fps_assumed ? " assumed" : "", shows ?
        "; display or recording: two variants (visible, benchmark)" : "");
    g_string_prepend (p.out, head->str);
    g_string_free (head, TRUE);
    /* the first config of a primary inference sizes the muxer */
    for (i = 0; i < infers->len; i++) {
      g_string_append_printf (p.out, "\n# %s\n",
          gp_ds_config_origin (g_ptr_array_index (infers, i)));
      gp_ds_preset_nvinfer (&p, g_ptr_array_index (infers, i), i == 0);
    }
    if (shows) {
      g_string_append (p.out, "\n# variant visible (keeps its display and "
          "recording)\n");
      ok = (visible = gp_ds_preset_launch_variant (&p, launch, FALSE,
              error)) != NULL;
    }
  }
  if (ok) {
    g_string_append (p.out, "\n# variant benchmark\n");
    ok = (bench = gp_ds_preset_launch_variant (&p, launch, TRUE, error))
        != NULL;
    if (ok) {
      g_string_append (p.out, "\n");
      if (visible != NULL)
        g_string_append_printf (p.out, "visible: %s\n", visible);
      g_string_append_printf (p.out, "benchmark: %s\n", bench);
      g_free (bench);
    }
  }
  for (i = 0; ok && write && i < infers->len; i++)
    ok = gp_ds_preset_save (&p, g_ptr_array_index (infers, i), error);
  g_free (visible);
  g_ptr_array_unref (infers);
  if (!ok) {
    g_string_free (p.out, TRUE);
    return FALSE;
  }
  *report = g_string_free (p.out, FALSE);
  return TRUE;
}
