/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-profile.h: the Markdown report of a DeepStream capture from its
 * nsys stats reports (and a gstprof session of the same pipeline): the
 * hardware, fps against the plateau, per-plugin time from NVTX and from
 * the tracer, memory copies, kernels, CUDA API, GPU metrics,
 * uninstrumented elements, and the bound with its evidence.
 *
 * The room, src/deepstream: DeepStream tuned from measured numbers
 * (`gstprof ds`, docs/tuning.md).
 * - gp-ds-perf: an application's **PERF and latency lines into fps per
 *   source and latency per component;
 * - gp-ds-sweep: each batch size of a template run under the tracer and the
 *   plateau found;
 * - gp-ds-hw: the GPUs and their ceilings: decode (NVDEC engines x
 *   per-engine rate), compute and bandwidth from the peaks table, PCIe
 *   copies at the link's maximum (one bounded nvidia-smi query with the
 *   refused-field retry, a Jetson's device-tree model, or a saved query or
 *   tegrastats log);
 * - gp-nsys: `nsys stats` reports in their csv, column and table forms into
 *   one table per report, NVTX names normalised (Frame=N, batch_num=N
 *   folded, domains holding ": " kept whole) and rows added up again;
 *   gp-nsys-metrics: GPU metrics per GPU and metric from an SQLite export
 *   (the reader gp-nsys-sqlite is its own library, gpnsysdb, so that only
 *   the gstprof binary and its tests link SQLite);
 * - gp-ds-coverage: NVTX coverage per element from DS 9's sources or a
 *   measured nvtx_sum, with the tracer's self time beside;
 * - gp-ds-profile (this header): the `ds profile` Markdown report and its
 *   bound; gp-ds-profile-capture: its capture recipe (nsys profile with the
 *   GPU metrics, again without them when the counters are refused, then
 *   nsys stats per report), the stats folder read back, the hardware and
 *   the gstprof session of the same pipeline added (built into gpnsysdb,
 *   since it reads the SQLite export);
 * - gp-ds-config: the line-preserving editor of deepstream-app and nvinfer
 *   INI (as GKeyFile reads it) and the YAML subset of the test apps, nvinfer
 *   and the tracker (set in place, add in its group, FILE.bak once, atomic,
 *   idempotent; refuses what it does not understand with FILE:LINE);
 * - gp-ds-preset: stage 0's presets on a config or a launch string, two
 *   variants when it shows or records;
 * - gp-ds-derive: R1-R7, every muxer, primary nvinfer, decoder, tracker,
 *   queue and capacity value from the plateau batch, the streams, the source
 *   and the model, each with its reason, and the keys that changes in
 *   deepstream-app, nvinfer and test-app files, read and with --write edited
 *   through gp-ds-config; gp-ds-rules.h the numbers stage 0 and R1-R7 share.
 *
 * May depend on: core, telemetry (peaks, nvidia-smi, tegrastats), capture
 * (the sweep's runs); SQLite (gpnsysdb only).
 */
#ifndef __GP_DS_PROFILE_H__
#define __GP_DS_PROFILE_H__

#include <glib.h>

#include "core/gp-session.h"
#include "gp-nsys.h"
#include "gp-nsys-metrics.h"
#include "telemetry/gp-peaks.h"

G_BEGIN_DECLS

/* the capture recipe's reports, in the order read */
extern const gchar *const gp_ds_profile_reports[];

/* a share of the capture's wall time spent in memory copies above which
 * the pipeline is copy-bound (the skill's boundedness rule 2) */
#define GP_DS_MEMCPY_BOUND_PCT 15.0
/* TensorRT GEMM kernels' share of kernel time above which compute is a
 * signal (rule 4) */
#define GP_DS_GEMM_PCT 50.0
/* cuModuleLoadData's share of the capture above which the numbers include
 * an engine build (rule 1) */
#define GP_DS_ENGINE_BUILD_PCT 10.0
/* NVTX time of streammux's batch collection above which the muxer waits
 * for its inputs: decode is a signal (rule 3) */
#define GP_DS_COLLECT_PCT 40.0
/* kernels busy under this share of the capture: the GPU waits, the CPU
 * side is a signal */
#define GP_DS_GPU_IDLE_PCT 30.0
/* a software element busy above this share: the CPU side is a signal */
#define GP_DS_CPU_BUSY_PCT 80.0
/* stream/event synchronisation above this share of CUDA API time */
#define GP_DS_SYNC_PCT 30.0
/* SM Active averaged above this: the SMs are kept busy, compute is a
 * signal (the skill's rule 4) */
#define GP_DS_SM_ACTIVE_PCT 70.0
/* DRAM read + write throughput averaged above this share of the peak, the
 * SMs under GP_DS_SM_ACTIVE_PCT: memory bandwidth is a signal (rule 5) */
#define GP_DS_DRAM_PCT 85.0

typedef struct
{
  GpNsysStats *stats;           /* the reports read (owned by the caller) */
  GpSession *session;           /* the tracer's session, or NULL */
  GPtrArray *elements;          /* GpDsElement*, or NULL: from the session */
  gchar *hardware;              /* the GPU and its ceilings as `ds hw`
                                 * prints them (gp_ds_hw_report), or NULL */
  gchar *hardware_why;          /* why not, when NULL; may be NULL */
  gdouble duration_s;           /* the capture's wall time, NAN unknown */
  gdouble fps, plateau;         /* NAN unknown */
  GpNsysMetrics *metrics;       /* the capture's GPU metrics, or NULL */
  gchar *metrics_why;           /* why not, when NULL; may be NULL */
  gchar *source;                /* what was read ("DIR", "nsys profile") */
} GpDsProfile;

gchar *gp_ds_profile_markdown (const GpDsProfile * p);

G_END_DECLS

#endif /* __GP_DS_PROFILE_H__ */
