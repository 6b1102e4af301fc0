/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-peaks: what an NVIDIA GPU can do at most, one table for every caller
 * (`gstprof roofline`, the verdict's Machine section, the DeepStream flow).
 *
 * A row holds what identifies the part (SM count, clocks, compute
 * capability, GeForce or not, memory clock and bus width); its FP32, FP16
 * (tensor, FP32 accumulate), INT8 (tensor) and memory-bandwidth peaks are
 * derived from them, never typed in:
 *
 *   ops/s   = SMs × clock × ops per clock per SM (gp_peaks_ops_per_clock,
 *             dense, an FMA counted as 2 ops; per compute capability)
 *   bytes/s = 2 × memory clock × bus width / 8 (the clock nvidia-smi's
 *             clocks.max.memory prints; 2: double data rate)
 *
 * The datasheet's own figures sit beside them, as printed, so the tests
 * hold every derived peak to its datasheet (gp_peaks_check). docs/roofline.md
 * lists the table and where each figure comes from.
 */
#ifndef __GP_PEAKS_H__
#define __GP_PEAKS_H__

#include <glib.h>

G_BEGIN_DECLS

#define GP_PEAKS_ERROR (gp_peaks_error_quark ())
GQuark gp_peaks_error_quark (void);

typedef enum
{
  GP_PEAKS_ERROR_UNKNOWN,       /* no row of that name */
  GP_PEAKS_ERROR_AMBIGUOUS,     /* several rows, nothing to choose by */
  GP_PEAKS_ERROR_MISSING,       /* not enough to derive a peak */
} GpPeaksError;

typedef enum
{
  GP_PEAKS_JETSON,              /* an integrated GPU: LPDDR shared with the
                                 * CPUs, EMC in tegrastats */
  GP_PEAKS_DGPU,                /* a discrete GPU: nvidia-smi */
} GpPeaksKind;

/* The figures of a row whose check against the datasheet is not
 * independent: the clock was worked back from that very figure (the
 * published sources give the figure, not the clock). */
typedef enum
{
  GP_PEAKS_CIRCULAR_TENSOR = 1 << 0,    /* tensor_mhz from the FP16 figure */
  GP_PEAKS_CIRCULAR_BW = 1 << 1,        /* mem_mhz from the bandwidth */
} GpPeaksCircular;

typedef struct
{
  const gchar *name;            /* "Jetson AGX Orin 64GB", "H100 SXM" */
  GpPeaksKind kind;
  guint cc_major, cc_minor;     /* compute capability */
  gboolean geforce;             /* GeForce: FP16 tensor with FP32 accumulate
                                 * at half rate on 8.6, 8.9 and 12.0 */
  guint sms;
  gdouble boost_mhz;            /* the clock of the datasheet's FP32 figure */
  gdouble tensor_mhz;           /* the clock of its tensor figures (Hopper's
                                 * are lower than its boost); 0: boost_mhz */
  gdouble mem_mhz;              /* clocks.max.memory, or the EMC's maximum:
                                 * half the data rate */
  guint bus_bits;
  guint mem_gib;                /* nominal memory size: what tells the
                                 * variants of one family apart */
  /* the names it answers to (normalised: gp_peaks_normalise), the family's
   * shared ones first ("agx orin"), NULL-terminated */
  const gchar *names[6];
  /* the datasheet, as printed (TFLOPS, TOPS, GB/s; "170 sparse" is a
   * sparse figure, twice the dense one); NULL: not published or not
   * known */
  const gchar *ds_fp32, *ds_fp16, *ds_int8, *ds_bw;
  guint circular;               /* GpPeaksCircular */
  const gchar *note;            /* where the figures come from */
} GpPeaksRow;

/* Per SM per clock, dense, FMA = 2 ops; NAN where the part has none (no
 * INT8 tensor cores before 7.2). */
typedef struct
{
  gdouble fp32, fp16, int8;
  const gchar *arch;            /* "Ampere (GA10x)" */
} GpPeaksOps;

/* What one GPU can do: ops/s and bytes/s, NAN unknown. */
typedef struct
{
  const GpPeaksRow *row;        /* NULL: derived without a row, or given */
  gchar *target;                /* what it is called in reports */
  gdouble fp32, fp16, int8;     /* ops/s */
  gdouble bw;                   /* bytes/s */
  gdouble sm_mhz, tensor_mhz, mem_mhz;  /* the clocks used; NAN none */
  gchar *how;                   /* one line: where the numbers come from */
} GpPeaks;

/* The table, in its order (Jetson first, then data-centre, then
 * workstation and GeForce parts). */
const GpPeaksRow *gp_peaks_rows (guint * n);

/* The ops per clock per SM of compute capability @major.@minor; FALSE
 * when the table does not know it. */
gboolean gp_peaks_ops_per_clock (guint major, guint minor, gboolean geforce,
    GpPeaksOps * out);
/* 2 × @mem_mhz × @bus_bits / 8, in bytes/s. */
gdouble gp_peaks_bandwidth (gdouble mem_mhz, guint bus_bits);

/* A name as the table keeps them: lower case, '-', '_', ',' and brackets
 * as spaces, runs of spaces as one, and the words that name no part
 * ("nvidia", "geforce", "tesla", "jetson", "developer", "kit", "module",
 * "engineering", "reference") left out. A new string. */
gchar *gp_peaks_normalise (const gchar * name);

/* The row called @name: a row's name ("AGX Orin 64GB"), nvidia-smi's
 * `name` ("NVIDIA H100 80GB HBM3", "Tesla T4", "NVIDIA GeForce RTX
 * 4090"), or a Jetson's /proc/device-tree/model ("NVIDIA Jetson AGX Orin
 * Developer Kit"). A family's name ("AGX Orin", "A100") is told apart by
 * @memory_mib (the board's total RAM, or the GPU's memory.total; < 0
 * unknown): the row whose nominal size is nearest. NULL with @error
 * (UNKNOWN, or AMBIGUOUS naming the candidates). */
const GpPeaksRow *gp_peaks_find (const gchar * name, gdouble memory_mib,
    GError ** error);

/* A Jetson told from what a tegrastats line shows (its CPU count and RAM
 * total), where that leaves one row; NULL with @error otherwise. */
const GpPeaksRow *gp_peaks_guess_jetson (guint n_cpus, gdouble ram_mib,
    GError ** error);

/* The peaks of @row. When the machine's own maximum clocks are known
 * (nvidia-smi's clocks.max.sm and clocks.max.memory, > 0), the SM clocks
 * are the lower of the row's and that (a power-limited variant runs
 * lower; a clocks.max.sm above the datasheet's boost is a short peak the
 * datasheet does not count: H100 1980 against 1830 MHz) and the memory
 * clock is the machine's. */
GpPeaks *gp_peaks_for_row (const GpPeaksRow * row, gdouble max_sm_mhz,
    gdouble max_mem_mhz);

/* Peaks from what nvidia-smi prints: its `name` and `memory.total` find
 * the row; for a name the table does not know, compute_cap ("8.9") and
 * clocks.max.sm give the compute peaks with @sms (nvidia-smi does not
 * print the SM count: 0 when not known), and clocks.max.memory the
 * bandwidth with @bus_bits (nor the bus width: 0 when not known). Then
 * clocks.max.sm is used as it is (it overshoots the datasheet by up to
 * 8 %, see gp_peaks_for_row). NULL with @error (MISSING, naming what is
 * needed) when neither gives any peak. */
GpPeaks *gp_peaks_from_nvsmi (const gchar * name, const gchar * compute_cap,
    gdouble max_sm_mhz, gdouble max_mem_mhz, gdouble memory_mib, guint sms,
    guint bus_bits, GError ** error);

/* Replaces the compute peaks (all three precisions: the user's figure is
 * the one that counts) and the bandwidth with the user's, where > 0. */
void gp_peaks_override (GpPeaks * p, gdouble ops_per_s, gdouble bytes_per_s);

/* The peak of @precision ("int8", "fp16", "fp32"), NAN unknown. */
gdouble gp_peaks_ops (const GpPeaks * p, const gchar * precision);

void gp_peaks_free (GpPeaks * p);

/* A datasheet figure of the table ("42.5", "170 sparse") in the figure's
 * unit, dense; NAN for NULL. @half_unit: half a unit of its last printed
 * digit (the rounding it was printed with), dense too. */
gdouble gp_peaks_datasheet (const gchar * figure, gdouble * half_unit);

/* Whether @derived (in the figure's unit) agrees with the datasheet
 * figure @figure: within GP_PEAKS_TOLERANCE of it, or within the rounding
 * it was printed with when that is wider. */
gboolean gp_peaks_check (gdouble derived, const gchar * figure);

/* Datasheets round their clocks and figures (L40S FP16: 362 printed,
 * 142 × 2520 MHz × 1024 = 366), nvidia-smi's memory clock is the rounded
 * up one (T4: 5001 MHz), sparse figures are rounded before halving (Orin
 * Nano 40 TOPS sparse against 20.5 dense): 3 % covers those and still
 * catches a wrong per-SM rate (the 2× errors of the DeepStream table). */
#define GP_PEAKS_TOLERANCE 0.03

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpPeaks, gp_peaks_free)

G_END_DECLS
#endif /* __GP_PEAKS_H__ */
