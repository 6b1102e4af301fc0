/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-telemetry.h: the vendors' tools' samples into the machine's vocabulary
 * (core/gp-machine.h), and their saved outputs read whole.
 *
 * A tegrastats line becomes (instance names as in gp-machine.h):
 * cpu.load/N and cpu.freq/N per CPU (an `off` CPU missing) and cpu.load/all
 * (the mean of the CPUs that are on: tegrastats' load is relative to each
 * core's current clock), mem.used/ram and /swap (limit: the total),
 * membw.load/emc and mem.freq/emc, gpu.load/0 and gpu.freq/0 (GR3D: the
 * highest of its GPCs' clocks), engine.load/NAME and engine.freq/NAME
 * (NVENC, NVDEC1, VIC...: `off` is 0 %, a clock alone leaves the load
 * missing), temp/NAME in lower case (PMIC, a fixed placeholder on JetPack
 * 4 boards, left out), power/RAIL in W and power/board (the input rail,
 * else the rails' sum).
 *
 * An nvidia-smi row of GPU N becomes gpu.load/N, membw.load/N, gpu.freq/N
 * and mem.freq/N (limit: clocks.max.*), gpu.mem/N (limit: memory.total),
 * temp/gpuN and temp/memN, power/N (limit: power.limit), engine.load/
 * NVENC@gpuN, NVDEC@gpuN, NVJPG@gpuN and OFA@gpuN, and throttle/N from the
 * throttle (event) reasons; its identity (name, compute_cap, clocks.max.*,
 * memory.total, pcie.link.*.max) goes to the facts as gpuN.FIELD.
 *
 * The room, src/telemetry: the machine under the pipeline.
 * - gp-tegrastats: one tegrastats line into named, unit-normalised fields
 *   (every board from TX1 to Thor, with and without the leading timestamp;
 *   RAM, SWAP, IRAM, per-CPU load and clock, EMC, GR3D with a clock per GPC,
 *   engines with a clock alone or `off`, temperatures with -256C as
 *   missing, rails as cur/avg[/max] with or without mW; every token parsed
 *   or counted unknown);
 * - gp-nvsmi: nvidia-smi's --query-gpu CSV (header or the caller's field
 *   list, units in the header, the cells or neither) and dmon tables (its
 *   `#` header and units rows, -o DT columns, every group and GPM metric) as
 *   one table by column name, one row per GPU per sample, in MiB, MHz, W, %,
 *   C, with [N/A], [Not Supported], N/A and - missing rather than zero,
 *   clocks_throttle_reasons.* read as clocks_event_reasons.*, and the field
 *   the driver refused dropped for the retry;
 * - gp-telemetry (this header): both into the machine's vocabulary, and
 *   their saved outputs read as streams, told by content
 *   (gp_telemetry_sniff, the one question src/ingest asks too), with the
 *   lines' own times or the interval's, a damaged line skipped and
 *   counted, the series bounded;
 * - the roofline: its model (gp-roofline: compute roofs, the memory roof,
 *   the ridge, workload points with their bound and its reason, classified
 *   against GP_ROOFLINE_NEAR); the one peaks table of NVIDIA parts
 *   (gp-peaks: SMs, clocks, compute capability, GeForce or not, memory clock
 *   and bus per row; FP32, FP16, INT8 and bandwidth derived by formula, the
 *   datasheet figures beside them; lookups by nvidia-smi name, Jetson
 *   device-tree model, memory size, CPU count; derivation from nvidia-smi's
 *   identity and clocks); the known networks' work per frame (gp-models:
 *   FLOPs, and bytes as a named estimate); this machine's memory bandwidth
 *   (gp-membw: STREAM copy and triad, one thread and all, cached per boot in
 *   $XDG_CACHE_HOME/gstprof); the rooflines built from them
 *   (gp-roofline-build: a session's software elements at their busy-time
 *   bandwidth against one thread's copy; an accelerator's workload at its
 *   telemetry's bandwidth), and `gstprof roofline`'s choice of peaks
 *   (--target, the log's GPU, --peak-ops, --peak-bw) and workload (--model,
 *   or --ops and --bytes, at --fps) (gp-roofline-choose; docs/roofline.md);
 * - the machine sampled live while a capture runs (gp-sampler: a thread of
 *   its own, one tick a window on the session's clock, never the
 *   pipeline's; gp-sampler-sys the kernel's files under $GP_PROC_ROOT and
 *   $GP_SYSFS_ROOT: /proc/stat per core, the profiled process's threads
 *   (schedstat, at most 64) and RSS, /proc/meminfo, thermal zones with their
 *   lowest passive or hot trip, cpufreq against cpuinfo_max_freq with
 *   throttle/cpu, a Jetson's devfreq GPU and EMC, INA3221 rails by hwmon or
 *   iio; gp-sampler-tools one tegrastats and one nvidia-smi query loop as
 *   children in a process group of their own, read line by line, a field
 *   the driver refuses dropped and the query asked again, stopped with
 *   SIGTERM then SIGKILL and reaped, their CPU time counted in the cost; a
 *   tegrastats quantity the kernel's readers give is left to them; gp-procfs
 *   the kernel texts taken apart, fuzzed).
 *
 * May depend on: core (GLib only; the CPU roofline reads the session model;
 * the samplers: POSIX, /proc, sysfs, child processes).
 */
#ifndef __GP_TELEMETRY_H__
#define __GP_TELEMETRY_H__

#include "core/gp-lines.h"
#include "core/gp-machine.h"
#include "gp-nvsmi.h"
#include "gp-tegrastats.h"

G_BEGIN_DECLS

#define GP_TELEMETRY_ERROR (gp_telemetry_error_quark ())
GQuark gp_telemetry_error_quark (void);

typedef enum
{
  GP_TELEMETRY_ERROR_IO,
  GP_TELEMETRY_ERROR_PARSE,     /* not a log gstprof reads, or a line of
                                 * it damaged */
} GpTelemetryError;

/* Samples kept per series of a saved log: past it neighbours merge
 * pairwise (gp_machine_series_thin: means, maxima and minima kept), so a
 * log of any length is read in bounded memory; a picture a few thousand
 * pixels wide needs no more, and 8192 are 2 h 16 min of tegrastats at
 * 1 s unmerged. */
#define GP_TELEMETRY_SERIES_MAX 8192

/* Whether @rail (a tegrastats rail or an INA3221 channel's label) carries
 * the board's whole input power (VDD_IN, POM_5V_IN): power/board is that
 * rail where the board has one, else the rails' sum. */
gboolean gp_telemetry_input_rail (const gchar * rail);

/* One tegrastats sample at @t (s from the start) into @m, its series
 * filled by @source. */
void gp_telemetry_add_tegra (GpMachine * m, const gchar * source, gdouble t,
    const GpTegraSample * sample);
/* Row @row of @table at @t into @m. */
void gp_telemetry_add_nvsmi (GpMachine * m, const gchar * source, gdouble t,
    const GpNvsmiTable * table, guint row);

/* What a saved file holds, told from its first bytes (a head that may
 * cut its first line): a tegrastats log (its first line has `RAM` and a
 * `CPU [` list), `nvidia-smi dmon` (a `#` header naming the `gpu`
 * column), a `--query-gpu` CSV with its header (comma-separated
 * nvidia-smi field names, at least one of them one nvidia-smi prints:
 * dotted, or index, name, timestamp, uuid, pstate...), or none of them.
 * gp_telemetry_load_data () and the readers that pick a file by its
 * content (src/ingest) ask this one question. */
typedef enum
{
  GP_TELEMETRY_NONE,
  GP_TELEMETRY_TEGRASTATS,
  GP_TELEMETRY_NVSMI_DMON,
  GP_TELEMETRY_NVSMI_QUERY,
} GpTelemetryKind;

GpTelemetryKind gp_telemetry_sniff (const gchar * head, gsize len);
/* The tool a kind comes from ("tegrastats", "nvidia-smi"); NULL for
 * none. Static. */
const gchar *gp_telemetry_kind_tool (GpTelemetryKind kind);

/* A saved tegrastats log (`tegrastats --logfile`, or its stdout) or
 * nvidia-smi output (`--query-gpu --format=csv` with its header, or
 * `dmon`), told by its content, read as a stream (a fixed buffer, the
 * series bounded by GP_TELEMETRY_SERIES_MAX: no size limit). Times: the
 * lines' own timestamps when they have them, else the sample's place ×
 * @interval_s (tegrastats and dmon print one sample a second unless asked
 * otherwise: pass 1). The source is named after the tool. The log is read
 * as far as it is valid: a line that does not parse (or is longer than
 * 64 KiB) is skipped and counted, and the source's detail says "N of M
 * lines skipped, first at FILE:LINE: why"; a last line cut short (a log
 * still being written, or interrupted) is left out and said apart. A log
 * with no line read is an error naming the file and the first line
 * skipped. */
GpMachine *gp_telemetry_load_file (const gchar * path, gdouble interval_s,
    GError ** error);
GpMachine *gp_telemetry_load_data (const gchar * data, gsize len,
    const gchar * origin, gdouble interval_s, GError ** error);
/* The kind of the file at @path, told from its first block
 * (GP_TELEMETRY_NONE when it cannot be read). */
GpTelemetryKind gp_telemetry_sniff_file (const gchar * path);

/* The same reading fed in blocks of any size (the readers of a
 * compressed stream): @kind as gp_telemetry_sniff () told it from the
 * text's start. _finish () gives the machine, or NULL and the error
 * when no line was read; it frees @r. */
typedef struct _GpTelemetryReader GpTelemetryReader;

GpTelemetryReader *gp_telemetry_reader_new (GpTelemetryKind kind,
    const gchar * origin, gdouble interval_s);
void gp_telemetry_reader_feed (GpTelemetryReader * r, const gchar * data,
    gsize len);
/* The splitter _feed () feeds, for a reader of its own streams
 * (gp_lines_feed, gp_lines_finish): borrowed. */
GpLines *gp_telemetry_reader_lines (GpTelemetryReader * r);
GpMachine *gp_telemetry_reader_finish (GpTelemetryReader * r,
    GError ** error);
void gp_telemetry_reader_free (GpTelemetryReader * r);

/* What reading a saved log said of it (lines skipped, a last line cut
 * short, tokens no field took: the log's source's detail), for the
 * commands to print beside their output; NULL when nothing. */
const gchar *gp_telemetry_read_detail (const GpMachine * m);

G_END_DECLS
#endif /* __GP_TELEMETRY_H__ */
