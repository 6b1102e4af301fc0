/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-ds-hw: the hardware under a DeepStream pipeline and its ceilings
 * (gp-ds-hw.h). */
#include "gp-ds-hw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gp-file.h"
#include "core/gp-platform.h"
#include "telemetry/gp-roofline-build.h"
#include "telemetry/gp-telemetry.h"

/* A saved --query-gpu of a machine's GPUs is a few KiB (every field of
 * eight GPUs under 64 KiB); a longer one is a log of queries, which plot
 * reads. */
#define GP_DS_HW_MAX_QUERY_BYTES (16 * 1024 * 1024)

G_DEFINE_QUARK (gp-ds-hw-error-quark, gp_ds_hw_error);

/* Fields one query may drop before gstprof stops asking again (a driver
 * that refuses everything). */
#define GP_DS_HW_MAX_RETRIES 8

/* The pixels of 1080p and 4K, the resolutions the decode figures are
 * given at. */
#define GP_DS_HW_PIXELS_1080P (1920.0 * 1080.0)
#define GP_DS_HW_PIXELS_4K (3840.0 * 2160.0)
/* A frame of more than twice 1080p's pixels scales from the 4K figure,
 * the nearer of the two. */
#define GP_DS_HW_NEAR_4K (2 * GP_DS_HW_PIXELS_1080P)
/* The skill's copy efficiency of a PCIe link (~80 % of its theoretical
 * rate for large cudaMemcpy transfers). */
#define GP_DS_HW_PCIE_EFFICIENCY 0.8

/* NVDEC engines per part, by the peaks table's row name (NVIDIA's video
 * codec support matrix as the reference lists it; AGX Orin one engine:
 * docs/tuning.md). Parts not listed are unknown, never guessed. */
static const struct
{
  const gchar *row;
  guint nvdec;
  /* a Jetson's datasheet decode capacity, H.265 1080p30 streams over all
   * its engines; 0: not published (a discrete GPU: per engine below) */
  guint h265_1080p30_streams;
} gp_ds_hw_decoders[] = {
  {"Jetson Nano", 1, 8},
  {"Jetson TX2", 1, 14},
  {"Jetson AGX Xavier", 2, 52},
  {"Jetson Xavier NX", 2, 44},
  {"Jetson Orin Nano 4GB", 1, 11},
  {"Jetson Orin Nano 8GB", 1, 11},
  {"Jetson Orin Nano 4GB Super", 1, 11},
  {"Jetson Orin Nano 8GB Super", 1, 11},
  {"Jetson Orin NX 8GB", 1, 12},
  {"Jetson Orin NX 16GB", 1, 18},
  {"Jetson AGX Orin 32GB", 1, 18},
  {"Jetson AGX Orin 64GB", 1, 22},
  {"Jetson AGX Thor", 2, 0},
  {"T4", 2, 0},
  {"A10", 2, 0},
  {"A100 40GB", 5, 0},
  {"A100 80GB", 5, 0},
  {"L4", 4, 0},
  {"L40S", 3, 0},
  {"H100 SXM", 7, 0},
  {"H100 PCIe", 7, 0},
  {"H200", 7, 0},
  {"RTX 3090", 1, 0},
  {"RTX 4090", 1, 0},
};

/* Frames a second per NVDEC of a discrete GPU: the skill's "conservative
 * midpoints from informal benchmarks", not NVIDIA's, by compute
 * capability major below 8 or not; [codec][0: 1080p, 1: 4K]. */
static const gdouble gp_ds_hw_per_nvdec_old[GP_DS_N_CODECS][2] = {
  {1000, 250}, {900, 220},
};
static const gdouble gp_ds_hw_per_nvdec_new[GP_DS_N_CODECS][2] = {
  {1400, 350}, {1300, 340},
};

/* PCIe GB/s per lane per direction, Gen1 to Gen5 (after line coding). */
static const gdouble gp_ds_hw_pcie_lane[] = { 0.25, 0.5, 0.985, 1.97, 3.94 };

void
gp_ds_gpu_free (GpDsGpu * g)
{
  if (g == NULL)
    return;
  g_free (g->name);
  g_free (g->compute_cap);
  g_free (g->driver);
  gp_peaks_free (g->peaks);
  g_free (g->peaks_error);
  g_free (g);
}

guint
gp_ds_hw_nvdec_count (const gchar * row_name)
{
  guint i;

  for (i = 0; row_name != NULL && i < G_N_ELEMENTS (gp_ds_hw_decoders); i++)
    if (strcmp (gp_ds_hw_decoders[i].row, row_name) == 0)
      return gp_ds_hw_decoders[i].nvdec;
  return 0;
}

static guint
gp_ds_hw_jetson_streams (const gchar * row_name)
{
  guint i;

  for (i = 0; row_name != NULL && i < G_N_ELEMENTS (gp_ds_hw_decoders); i++)
    if (strcmp (gp_ds_hw_decoders[i].row, row_name) == 0)
      return gp_ds_hw_decoders[i].h265_1080p30_streams;
  return 0;
}

gdouble
gp_ds_hw_pcie_gbps (gint gen, gint width)
{
  if (gen < 1 || gen > (gint) G_N_ELEMENTS (gp_ds_hw_pcie_lane) || width < 1)
    return NAN;
  return gp_ds_hw_pcie_lane[gen - 1] * width;
}

gdouble
gp_ds_hw_decode_fps (const GpDsGpu * g, GpDsCodec codec, guint width,
    guint height, const gchar ** how)
{
  const gchar *row = g->peaks && g->peaks->row ? g->peaks->row->name : NULL;
  gdouble pixels = (gdouble) width * height;
  guint streams;

  if (how)
    *how = NULL;
  if (g->nvdec == 0 || pixels <= 0)
    return NAN;
  if (g->jetson) {
    streams = gp_ds_hw_jetson_streams (row);
    if (codec != GP_DS_CODEC_H265 || streams == 0)
      return NAN;
    if (how)
      *how = "the board's datasheet (H.265 1080p30 streams), by pixels";
    return streams * 30.0 * GP_DS_HW_PIXELS_1080P / pixels;
  } else {
    guint major = g->peaks && g->peaks->row ? g->peaks->row->cc_major :
        g->compute_cap ? (guint) atoi (g->compute_cap) : 0;
    const gdouble (*per)[2] = major >= 8 ? gp_ds_hw_per_nvdec_new :
        gp_ds_hw_per_nvdec_old;
    gboolean big = pixels > GP_DS_HW_NEAR_4K;

    if (how)
      *how = "the skill's per-NVDEC midpoints (not NVIDIA's; real work "
          "50-70 %), by pixels";
    return g->nvdec * per[codec][big] * (big ? GP_DS_HW_PIXELS_4K :
        GP_DS_HW_PIXELS_1080P) / pixels;
  }
}

static gint
gp_ds_hw_int (const GpNvsmiTable * t, guint row, const gchar * field)
{
  gdouble v;

  return gp_nvsmi_table_value (t, row, field, &v) && v >= 0 && v < 1e6 ?
      (gint) v : -1;
}

static gdouble
gp_ds_hw_double (const GpNvsmiTable * t, guint row, const gchar * field)
{
  gdouble v;

  return gp_nvsmi_table_value (t, row, field, &v) ? v : NAN;
}

GPtrArray *
gp_ds_hw_from_nvsmi (const GpNvsmiTable * table)
{
  GPtrArray *gpus = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_ds_gpu_free);
  guint row;

  for (row = 0; row < table->rows->len; row++) {
    const GpNvsmiRow *r = g_ptr_array_index (table->rows, row);
    GpDsGpu *g = g_new0 (GpDsGpu, 1);
    GError *error = NULL;

    g->index = r->gpu;
    g->name = g_strdup (gp_nvsmi_table_text (table, row, "name"));
    g->compute_cap = g_strdup (gp_nvsmi_table_text (table, row,
            "compute_cap"));
    g->driver = g_strdup (gp_nvsmi_table_text (table, row,
            "driver_version"));
    g->memory_mib = gp_ds_hw_double (table, row, "memory.total");
    g->max_sm_mhz = gp_ds_hw_double (table, row, "clocks.max.sm");
    g->max_mem_mhz = gp_ds_hw_double (table, row, "clocks.max.memory");
    g->pcie_gen = gp_ds_hw_int (table, row, "pcie.link.gen.current");
    g->pcie_gen_max = gp_ds_hw_int (table, row, "pcie.link.gen.max");
    g->pcie_width = gp_ds_hw_int (table, row, "pcie.link.width.current");
    g->pcie_width_max = gp_ds_hw_int (table, row, "pcie.link.width.max");
    if (g->name != NULL)
      g->peaks = gp_peaks_from_nvsmi (g->name, g->compute_cap, g->max_sm_mhz,
          g->max_mem_mhz, g->memory_mib, 0, 0, &error);
    else
      g_set_error (&error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING,
          "nvidia-smi printed no name for GPU %d", g->index);
    if (g->peaks == NULL) {
      g->peaks_error = g_strdup (error->message);
      g_clear_error (&error);
    }
    if (g->peaks && g->peaks->row) {
      g->sms = g->peaks->row->sms;
      g->nvdec = gp_ds_hw_nvdec_count (g->peaks->row->name);
    }
    g_ptr_array_add (gpus, g);
  }
  return gpus;
}

GpDsGpu *
gp_ds_hw_jetson (const GpPeaksRow * row)
{
  GpDsGpu *g = g_new0 (GpDsGpu, 1);

  g->jetson = TRUE;
  g->name = g_strdup (row->name);
  g->compute_cap = g_strdup_printf ("%u.%u", row->cc_major, row->cc_minor);
  g->memory_mib = row->mem_gib * 1024.0;
  g->max_sm_mhz = row->boost_mhz;
  g->max_mem_mhz = row->mem_mhz;
  g->pcie_gen = g->pcie_gen_max = g->pcie_width = g->pcie_width_max = -1;
  g->peaks = gp_peaks_for_row (row, NAN, NAN);
  g->sms = row->sms;
  g->nvdec = gp_ds_hw_nvdec_count (row->name);
  return g;
}

/* ------------------------------------------------------------------ */
/* the report                                                           */
/* ------------------------------------------------------------------ */

static void
gp_ds_hw_report_decode (GString * out, const GpDsGpu * g)
{
  static const struct
  {
    const gchar *name;
    GpDsCodec codec;
    guint w, h;
  } cases[] = {
    {"H.264 1080p", GP_DS_CODEC_H264, 1920, 1080},
    {"H.265 1080p", GP_DS_CODEC_H265, 1920, 1080},
    {"H.264 4K", GP_DS_CODEC_H264, 3840, 2160},
    {"H.265 4K", GP_DS_CODEC_H265, 3840, 2160},
  };
  const gchar *how = NULL;
  guint i;

  if (g->nvdec == 0) {
    g_string_append (out, "  decode:   NVDEC count not in gstprof's table "
        "(gstprof ds sweep measures the decoder)\n");
    return;
  }
  gp_ds_hw_decode_fps (g, GP_DS_CODEC_H265, 1920, 1080, &how);
  g_string_append_printf (out, "  decode:   %u NVDEC (%s)\n", g->nvdec,
      how ? how : "no published figure");
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gdouble fps = gp_ds_hw_decode_fps (g, cases[i].codec, cases[i].w,
        cases[i].h, NULL);

    if (!isnan (fps))
      g_string_append_printf (out, "            %-12s %5.0f fps, %.0f "
          "streams at 30 fps\n", cases[i].name, fps, floor (fps / 30));
  }
}

static void
gp_ds_hw_report_pcie (GString * out, const GpDsGpu * g)
{
  gdouble max = gp_ds_hw_pcie_gbps (g->pcie_gen_max, g->pcie_width_max);

  if (g->jetson) {
    g_string_append (out, "  PCIe:     none: the GPU shares the board's "
        "memory (no copies over a bus)\n");
    return;
  }
  if (isnan (max)) {
    g_string_append (out, "  PCIe:     not printed\n");
    return;
  }
  g_string_append_printf (out, "  PCIe:     Gen%d x%d: %.1f GB/s each way, "
      "about %.1f in copies", g->pcie_gen_max, g->pcie_width_max, max,
      max * GP_DS_HW_PCIE_EFFICIENCY);
  if (g->pcie_gen >= 0 && (g->pcie_gen < g->pcie_gen_max
          || g->pcie_width < g->pcie_width_max))
    g_string_append_printf (out, "; now Gen%d x%d (a link trains down at "
        "idle: the maximum is what a busy copy gets)", g->pcie_gen,
        g->pcie_width);
  g_string_append_c (out, '\n');
}

gchar *
gp_ds_hw_report (GPtrArray * gpus)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; i < gpus->len; i++) {
    const GpDsGpu *g = g_ptr_array_index (gpus, i);

    if (i > 0)
      g_string_append_c (out, '\n');
    g_string_append_printf (out, "GPU %d: %s", g->index, g->name ? g->name :
        "(no name)");
    if (g->compute_cap)
      g_string_append_printf (out, " (cc %s)", g->compute_cap);
    if (g->driver)
      g_string_append_printf (out, ", driver %s", g->driver);
    g_string_append_c (out, '\n');
    g_string_append (out, "  identity: ");
    if (g->sms)
      g_string_append_printf (out, "%u SMs, ", g->sms);
    if (!isnan (g->max_sm_mhz))
      g_string_append_printf (out, "SM clock max %.0f MHz, ", g->max_sm_mhz);
    if (!isnan (g->max_mem_mhz))
      g_string_append_printf (out, "memory clock max %.0f MHz, ",
          g->max_mem_mhz);
    if (!isnan (g->memory_mib))
      g_string_append_printf (out, "memory %.0f MiB", g->memory_mib);
    g_string_append_c (out, '\n');
    if (g->peaks) {
      gchar *f16 = gp_roofline_format (g->peaks->fp16, "op/s");
      gchar *i8 = isnan (g->peaks->int8) ? g_strdup ("none") :
          gp_roofline_format (g->peaks->int8, "op/s");
      gchar *bw = gp_roofline_format (g->peaks->bw, "B/s");

      g_string_append_printf (out, "  compute:  FP16 %s, INT8 %s (dense; "
          "real networks reach 30-60 %%)\n  memory:   %s\n  peaks:    %s\n",
          f16, i8, bw, g->peaks->how);
      g_free (f16);
      g_free (i8);
      g_free (bw);
    } else
      g_string_append_printf (out, "  peaks:    %s\n", g->peaks_error);
    gp_ds_hw_report_decode (out, g);
    gp_ds_hw_report_pcie (out, g);
  }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* where the GPUs are read from                                         */
/* ------------------------------------------------------------------ */

static GPtrArray *
gp_ds_hw_query (const gchar * tool, GError ** error)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  gchar **names = g_strsplit (GP_DS_HW_FIELDS, ",", -1);
  GPtrArray *gpus = NULL;
  guint i, tries;

  for (i = 0; names[i]; i++)
    g_ptr_array_add (fields, g_strdup (names[i]));
  g_strfreev (names);
  for (tries = 0; gpus == NULL && tries <= GP_DS_HW_MAX_RETRIES; tries++) {
    gchar *query, *out = NULL, *gone = NULL, **joined;
    const gchar *argv[4];
    gint status = -1;

    g_ptr_array_add (fields, NULL);
    joined = (gchar **) fields->pdata;
    query = g_strjoinv (",", joined);
    g_ptr_array_remove_index (fields, fields->len - 1);
    argv[0] = tool;
    argv[1] = g_strconcat ("--query-gpu=", query, NULL);
    argv[2] = "--format=csv,nounits";
    argv[3] = NULL;
    if (!gp_platform_ask (argv, &out, &status)) {
      g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_TOOL,
          "%s did not answer within its bound", tool);
    } else if (status == 0) {
      GpNvsmiTable *t = gp_nvsmi_parse_query (out, strlen (out), NULL,
          "nvidia-smi", error);

      if (t != NULL) {
        gpus = gp_ds_hw_from_nvsmi (t);
        gp_nvsmi_table_free (t);
      }
    } else if (gp_nvsmi_drop_unknown_field (fields, out ? out : "", &gone,
            NULL)) {
      /* asked again without it: the report shows what is missing */
      g_free (gone);
    } else {
      gchar *first = g_strdup (out ? out : "");

      g_strdelimit (first, "\n", '\0');
      g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_TOOL,
          "%s exited %d: %s", tool, status, *first ? first : "(nothing)");
      g_free (first);
    }
    g_free ((gchar *) argv[1]);
    g_free (query);
    g_free (out);
    if (gpus == NULL && error && *error)
      break;
  }
  g_ptr_array_unref (fields);
  return gpus;
}

static GPtrArray *
gp_ds_hw_one (GpDsGpu * g)
{
  GPtrArray *gpus = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_ds_gpu_free);

  g_ptr_array_add (gpus, g);
  return gpus;
}

/* The board's RAM in MiB from meminfo's MemTotal; NAN unknown. */
static gdouble
gp_ds_hw_ram_mib (const gchar * meminfo)
{
  const gchar *line = meminfo ? strstr (meminfo, "MemTotal:") : NULL;

  return line ? g_ascii_strtod (line + strlen ("MemTotal:"), NULL) / 1024 :
      NAN;
}

GPtrArray *
gp_ds_hw_probe (GError ** error)
{
  const gchar *root = g_getenv ("GP_PROC_ROOT");
  gchar *tool = g_find_program_in_path ("nvidia-smi");
  gchar *path, *model = NULL, *meminfo = NULL;
  const GpPeaksRow *row;
  GPtrArray *gpus = NULL;

  if (tool != NULL) {
    gpus = gp_ds_hw_query (tool, error);
    g_free (tool);
    return gpus;
  }
  path = g_build_filename (root ? root : "/", "proc", "device-tree", "model",
      NULL);
  g_file_get_contents (path, &model, NULL, NULL);
  g_free (path);
  path = g_build_filename (root ? root : "/", "proc", "meminfo", NULL);
  g_file_get_contents (path, &meminfo, NULL, NULL);
  g_free (path);
  /* the device-tree model is NUL-terminated */
  row = model ? gp_peaks_find (g_strstrip (model), gp_ds_hw_ram_mib (meminfo),
      NULL) : NULL;
  if (row != NULL && row->kind == GP_PEAKS_JETSON)
    gpus = gp_ds_hw_one (gp_ds_hw_jetson (row));
  else
    g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_NONE, "no NVIDIA GPU "
        "here: no nvidia-smi in PATH, and no Jetson in "
        "/proc/device-tree/model (--from FILE reads a saved query)");
  g_free (model);
  g_free (meminfo);
  return gpus;
}

GPtrArray *
gp_ds_hw_load (const gchar * path, gchar ** note, GError ** error)
{
  GpTelemetryKind kind = gp_telemetry_sniff_file (path);
  GPtrArray *gpus = NULL;

  if (note)
    *note = NULL;
  if (kind == GP_TELEMETRY_NVSMI_QUERY) {
    GError *ioerr = NULL;
    gsize len;
    gchar *data = gp_file_read_capped (path, GP_DS_HW_MAX_QUERY_BYTES,
        "a saved GPU query", &len, &ioerr);
    GpNvsmiTable *t;

    if (data == NULL) {
      g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_INPUT, "%s",
          ioerr->message);
      g_error_free (ioerr);
      return NULL;
    }
    t = gp_nvsmi_parse_query (data, len, NULL, path, error);
    if (t != NULL) {
      gpus = gp_ds_hw_from_nvsmi (t);
      gp_nvsmi_table_free (t);
    }
    g_free (data);
  } else if (kind == GP_TELEMETRY_TEGRASTATS) {
    GpMachine *m = gp_telemetry_load_file (path, 1.0, error);
    GpPeaks *p = m ? gp_roofline_machine_peaks (m, 0, 0, error) : NULL;

    if (p != NULL && p->row != NULL)
      gpus = gp_ds_hw_one (gp_ds_hw_jetson (p->row));
    else if (p != NULL)
      g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_INPUT,
          "%s: the board is not one of the peaks table's", path);
    if (gpus != NULL && note != NULL && gp_telemetry_read_detail (m))
      *note = g_strdup (gp_telemetry_read_detail (m));
    gp_peaks_free (p);
    gp_machine_free (m);
  } else if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)) {
    g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_INPUT, "%s: no such "
        "file", path);
  } else {
    g_set_error (error, GP_DS_HW_ERROR, GP_DS_HW_ERROR_INPUT, "%s: not an "
        "nvidia-smi --query-gpu output with its header, nor a tegrastats "
        "log", path);
  }
  return gpus;
}
