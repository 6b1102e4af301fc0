/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-telemetry: the vendors' tools' samples into the machine's vocabulary
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
 */
#ifndef __GP_TELEMETRY_H__
#define __GP_TELEMETRY_H__

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
 * `dmon`), told by its content. Times: the lines' own timestamps when they
 * have them, else the sample's place × @interval_s (tegrastats and dmon
 * print one sample a second unless asked otherwise: pass 1). The source is
 * named after the tool. A line that does not parse is an error naming the
 * file and the line, except a last line cut short (a log still being
 * written, or interrupted), which is left out and said in the source's
 * detail. */
GpMachine *gp_telemetry_load_file (const gchar * path, gdouble interval_s,
    GError ** error);
GpMachine *gp_telemetry_load_data (const gchar * data, gsize len,
    const gchar * origin, gdouble interval_s, GError ** error);

G_END_DECLS
#endif /* __GP_TELEMETRY_H__ */
