/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-tegrastats.h: one line of NVIDIA Jetson's tegrastats read into named,
 * unit-normalised fields, for every board and release seen (TX1 to Thor,
 * L4T 28 to R38): tokens are found by name and by the shape of their
 * value, never by position, and every token of the line is either parsed
 * into a field or counted as unknown.
 *
 * Field names (values in the unit given beside each):
 *   RAM.used RAM.total RAM.lfb.size (MiB), RAM.lfb.blocks (count)
 *   SWAP.used SWAP.total SWAP.cached (MiB)
 *   IRAM.used IRAM.total IRAM.lfb (MiB; tegrastats prints kB)
 *   CPU<i>.state (1 on, 0 off), CPU<i>.load (%), CPU<i>.freq (MHz)
 *   <ENGINE>.state, <ENGINE>.load (%), <ENGINE>.freq (MHz): EMC, GR3D,
 *     VIC, NVENC, NVDEC0, APE, ... (the `_FREQ` suffix dropped);
 *     GR3D.gpc<i>.freq per GPC when printed as `@[f0,f1]`, GR3D.freq
 *     then the highest of them
 *   MTS.fg MTS.bg (%)
 *   temp.<sensor> (°C, sensor named as printed: `tj`, `CPU`, `soc012`)
 *   rail.<NAME>.cur rail.<NAME>.avg rail.<NAME>.max (mW); a name printed
 *     twice (AGX Orin's `NC`) is `NC#2` the second time
 * A missing value (`-256C`, an `off` CPU's or engine's load and clock) is
 * NAN; a field never printed is absent.
 */
#ifndef __GP_TEGRASTATS_H__
#define __GP_TEGRASTATS_H__

#include <glib.h>

G_BEGIN_DECLS

#define GP_TEGRASTATS_ERROR (gp_tegrastats_error_quark ())
GQuark gp_tegrastats_error_quark (void);

typedef enum
{
  /* the line is not a tegrastats line, or one of its fields is cut or
   * malformed */
  GP_TEGRASTATS_ERROR_PARSE
} GpTegrastatsError;

typedef struct
{
  gchar *name;
  gdouble value;                /* NAN: printed but missing */
  const gchar *unit;            /* "MiB", "%", "MHz", "C", "mW", "" */
} GpTegraField;

typedef struct
{
  /* the leading `MM-DD-YYYY HH:MM:SS` (JetPack 5 and later), as printed
   * (board local time, no zone): seconds since 1970 read as UTC */
  gboolean has_timestamp;
  gint64 timestamp_s;

  GArray *fields;               /* of GpTegraField, in the line's order */
  guint n_cpus;                 /* entries of the CPU list, off ones too */

  guint n_tokens;               /* whitespace-separated tokens of the line */
  guint n_unknown;              /* of those, the ones no field took */
  GPtrArray *unknown;           /* their text (gchar *) */
} GpTegraSample;

typedef enum
{
  GP_TEGRA_ENGINE_ABSENT,       /* not printed (JetPack 4: idle) */
  GP_TEGRA_ENGINE_OFF,
  GP_TEGRA_ENGINE_ON
} GpTegraEngineState;

/* Reads one line (without or with its newline). NULL and one line of
 * @error naming the problem when the line is no tegrastats line (no RAM
 * field) or a field it names is cut or malformed. */
GpTegraSample *gp_tegrastats_parse_line (const gchar * line,
    GError ** error);
void gp_tegra_sample_free (GpTegraSample * s);

/* The field @name (exact), or NULL. */
const GpTegraField *gp_tegra_sample_field (const GpTegraSample * s,
    const gchar * name);
/* The value of field @name, NAN when absent or missing. */
gdouble gp_tegra_sample_value (const GpTegraSample * s, const gchar * name);

/* What the roofline reads: GPU busy % (GR3D), EMC busy %, NAN when not
 * printed (Thor prints no GR3D %). */
gdouble gp_tegra_sample_gr3d_load (const GpTegraSample * s);
gdouble gp_tegra_sample_emc_load (const GpTegraSample * s);
/* CPU @i: FALSE when off or beyond the list; @load and @freq may be NULL,
 * @freq NAN when the line has no clock for it. */
gboolean gp_tegra_sample_cpu (const GpTegraSample * s, guint i,
    gdouble * load, gdouble * freq);
/* Engine @name as normalised (`NVENC`, `NVDEC1`, `VIC`, `GR3D`): its
 * state, @load and @freq NAN where not printed. */
GpTegraEngineState gp_tegra_sample_engine (const GpTegraSample * s,
    const gchar * name, gdouble * load, gdouble * freq);
/* Sensor @sensor, matched without case (`tj`, `gpu`): °C, NAN when absent
 * or printed as missing (-256C). */
gdouble gp_tegra_sample_temp (const GpTegraSample * s, const gchar * sensor);
/* Rail @name: FALSE when absent; @avg and @max NAN where not printed. */
gboolean gp_tegra_sample_rail (const GpTegraSample * s, const gchar * name,
    gdouble * cur, gdouble * avg, gdouble * max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpTegraSample, gp_tegra_sample_free)

G_END_DECLS
#endif /* __GP_TEGRASTATS_H__ */
