/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-ds-hw: the hardware under a DeepStream pipeline and its ceilings
 * (`gstprof ds hw`, stage 2 of the tuning flow: docs/tuning.md).
 *
 * A GPU is read from one nvidia-smi query (GP_DS_HW_FIELDS, the fields
 * the driver refuses dropped and the query asked again), or from a saved
 * one; a Jetson from its board's row of the peaks table. Its ceilings:
 * - compute at FP16 and INT8, memory bandwidth: the peaks table
 *   (telemetry/gp-peaks), the one the roofline uses;
 * - decode: NVDEC engines × frames a second per engine. The engine counts
 *   are NVIDIA's support matrix's (AGX Orin: one engine, as tegrastats and
 *   its datasheet show, not the skill's two). Per engine, a Jetson's
 *   datasheet figure (H.265 1080p30 streams) where it is published; for a
 *   discrete GPU the skill's informal midpoints (not NVIDIA's: real work
 *   reaches 50–70 % of them; `gstprof ds sweep` measures). Other
 *   resolutions scale by their pixels;
 * - PCIe copies: the link's per-lane rate × its width, per direction, at
 *   its maximum generation and width (a link trains down to Gen1 or Gen2
 *   at idle: the current generation is printed, not used).
 */
#ifndef __GP_DS_HW_H__
#define __GP_DS_HW_H__

#include "telemetry/gp-nvsmi.h"
#include "telemetry/gp-peaks.h"

#define GP_DS_HW_ERROR (gp_ds_hw_error_quark ())
GQuark gp_ds_hw_error_quark (void);

typedef enum
{
  GP_DS_HW_ERROR_NONE,          /* no NVIDIA GPU found */
  GP_DS_HW_ERROR_TOOL,          /* nvidia-smi failed */
  GP_DS_HW_ERROR_INPUT,         /* a saved file that does not read */
} GpDsHwError;

G_BEGIN_DECLS

/* What `ds hw` asks nvidia-smi. */
#define GP_DS_HW_FIELDS "index,name,compute_cap,driver_version,memory.total," \
  "clocks.max.sm,clocks.max.memory,pcie.link.gen.current," \
  "pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max"

typedef enum
{
  GP_DS_CODEC_H264,
  GP_DS_CODEC_H265,
  GP_DS_N_CODECS
} GpDsCodec;

typedef struct
{
  gint index;
  gchar *name;
  gchar *compute_cap;           /* NULL: not printed */
  gchar *driver;
  gdouble memory_mib;           /* NAN: unknown */
  gdouble max_sm_mhz, max_mem_mhz;
  gint pcie_gen, pcie_gen_max;  /* -1: unknown (a Jetson has none) */
  gint pcie_width, pcie_width_max;
  GpPeaks *peaks;               /* NULL: peaks_error says why */
  gchar *peaks_error;
  guint sms;                    /* its row's; 0 unknown */
  guint nvdec;                  /* engines; 0 unknown */
  gboolean jetson;
} GpDsGpu;

void gp_ds_gpu_free (GpDsGpu * g);

/* One GpDsGpu per row of @table (a `--query-gpu` with a header). */
GPtrArray *gp_ds_hw_from_nvsmi (const GpNvsmiTable * table);
/* A Jetson of @row (GP_PEAKS_JETSON). */
GpDsGpu *gp_ds_hw_jetson (const GpPeaksRow * row);

/* NVDEC engines of the peaks row named @row_name: 0 when not known. */
guint gp_ds_hw_nvdec_count (const gchar * row_name);
/* Frames a second @g's decoders take of @codec at @width x @height; NAN
 * when not known. @how (may be NULL) gets where the figure comes from. */
gdouble gp_ds_hw_decode_fps (const GpDsGpu * g, GpDsCodec codec,
    guint width, guint height, const gchar ** how);
/* PCIe GB/s per direction of generation @gen × @width lanes; NAN unknown. */
gdouble gp_ds_hw_pcie_gbps (gint gen, gint width);

/* This machine's GPUs: one nvidia-smi query when it is in PATH (a field
 * the driver refuses dropped and the query asked again), else a Jetson
 * named by $GP_PROC_ROOT/proc/device-tree/model (root "/" by default) with
 * its RAM; NULL with one line in @error when there is neither, or the
 * query failed. */
GPtrArray *gp_ds_hw_probe (GError ** error);
/* A saved nvidia-smi `--query-gpu` output with its header (at most
 * 16 MiB), or a tegrastats log (streamed, its board told as the roofline
 * tells it; @note, when not NULL, what the reading left out, or NULL).
 * NULL with @error naming the file. */
GPtrArray *gp_ds_hw_load (const gchar * path, gchar ** note,
    GError ** error);

/* The report `ds hw` prints: one section per GPU. */
gchar *gp_ds_hw_report (GPtrArray * gpus);

G_END_DECLS
#endif /* __GP_DS_HW_H__ */
