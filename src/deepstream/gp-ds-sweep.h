/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-sweep.h: the batch sweep of `gstprof ds sweep` (docs/tuning.md):
 * a launch string with {batch} (and {streams}) run once per batch size
 * under the gstprof tracer, its aggregate frame rate measured in steady
 * state, and the plateau: the smallest batch B whose next one (2B) gains
 * under GP_DS_SWEEP_GAIN.
 */
#ifndef __GP_DS_SWEEP_H__
#define __GP_DS_SWEEP_H__

#include <glib.h>

G_BEGIN_DECLS

/* The plateau's threshold: NVIDIA's own (DeepStream's profiling skill,
 * Stage 3): doubling the batch for under 5 % more frames is not worth the
 * latency and memory it costs. */
#define GP_DS_SWEEP_GAIN 0.05
/* The share of a GPU's memory a batch may be expected to use before the
 * sweep skips it: the rest is headroom for the allocator and the
 * estimate's error (it extrapolates two measured batches). */
#define GP_DS_SWEEP_MEM_SHARE 0.9

typedef enum
{
  GP_DS_SWEEP_RAN,              /* measured */
  GP_DS_SWEEP_FAILED,           /* the pipeline failed (@why) */
  GP_DS_SWEEP_SKIPPED,          /* not run (@why: above --streams, after an
                                 * out-of-memory failure) */
} GpDsSweepState;

typedef struct
{
  guint batch;
  GpDsSweepState state;
  gdouble aggregate_fps;        /* frames/s through the sinks: their
                                 * steady buffers/s × batch; NAN unless RAN */
  gdouble per_stream_fps;       /* aggregate / streams */
  gchar *why;                   /* FAILED, SKIPPED: one line; else NULL */
  /* the GPU memory its run used at most, and the GPU's total (MiB), from
   * the machine's sampled gpu.mem series (nvidia-smi); NAN unknown */
  gdouble gpu_mem_mib, gpu_mem_total_mib;
} GpDsSweepRow;

/* @template with every {batch} replaced by @batch and {streams} by
 * @streams; NULL with @error when it has no {batch}. */
gchar *gp_ds_sweep_substitute (const gchar * template_, guint batch,
    guint streams, GError ** error);

/* "1,2,4,8": the batch sizes, each 1 to 4096, strictly increasing; NULL
 * with a one-line @error otherwise. */
GArray *gp_ds_sweep_parse_batches (const gchar * text, GError ** error);

/* Whether a failure's text says the device or the host ran out of memory
 * (CUDA's and TensorRT's words, GLib's, the kernel's). */
gboolean gp_ds_sweep_oom_text (const gchar * text);

/* The index in @rows of the plateau: the first measured row whose next
 * measured row gains under @gain (its aggregate fps / this one's - 1);
 * -1 when the rate still rises at the last one, or fewer than two ran. */
gint gp_ds_sweep_plateau (const GpDsSweepRow * rows, guint n, gdouble gain);

/* Whether @batch is expected to fit the GPU's memory after the @n rows
 * run before it: the used memory extrapolated along the line through the
 * last two measured batches, against GP_DS_SWEEP_MEM_SHARE of the total.
 * TRUE (and nothing said) without two measured batches; FALSE with @why
 * (a new one-line string) when it would not fit. */
gboolean gp_ds_sweep_memory_fits (const GpDsSweepRow * rows, guint n,
    guint batch, gchar ** why);

/* Runs the sweep: @template per batch of @batches, each for
 * @duration_s, in this process (gp_capture; GStreamer initialised with the
 * tracer, as gp_capture_run does). Batches above @streams (> 0) are
 * skipped; so are those gp_ds_sweep_memory_fits () expects not to fit
 * the GPU (the machine is sampled during each run); after a failure whose
 * text says out of memory, every later one.
 * Each row as it is done goes to @progress (may be NULL). FALSE with
 * @error only when a launch string does not parse (nothing to sweep). */
typedef void (*GpDsSweepProgress) (const GpDsSweepRow * row,
    gpointer user_data);
GArray *gp_ds_sweep_run (const gchar * template_, const GArray * batches,
    guint streams, gdouble duration_s, GpDsSweepProgress progress,
    gpointer user_data, GError ** error);
void gp_ds_sweep_rows_free (GArray * rows);

/* The table `gstprof ds sweep` prints, the plateau marked. */
gchar *gp_ds_sweep_table (const GpDsSweepRow * rows, guint n, guint streams);

G_END_DECLS
#endif /* __GP_DS_SWEEP_H__ */
