/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-telemetry: tegrastats and nvidia-smi samples into the machine's
 * vocabulary, and their saved outputs read as streams (gp-telemetry.h). */
#include "gp-telemetry.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/gp-json.h"
#include "core/gp-lines.h"

G_DEFINE_QUARK (gp-telemetry-error-quark, gp_telemetry_error);

/* A line longer than this is no tool's (a tegrastats line of every field
 * of a Thor is under 2 KiB, nvidia-smi's as gp-nvsmi bounds them):
 * skipped and counted. */
#define GP_TELEMETRY_MAX_LINE (64 << 10)
/* A saved log is read through a buffer of this size. */
#define GP_TELEMETRY_BLOCK (64 << 10)

/* tegrastats prints PMIC@100C or PMIC@50C on JetPack 4 boards whatever the
 * board's heat: a placeholder, not a sensor. */
#define GP_TELEMETRY_PLACEHOLDER_SENSOR "PMIC"
/* The rails that carry a Jetson board's whole input power, when it has
 * one (AGX Orin has none: its rails are summed). */
static const gchar *const gp_telemetry_input_rails[] = {
  "VDD_IN", "POM_5V_IN",
};

/* tegrastats' own names that are no engine */
static const gchar *const gp_telemetry_not_engines[] = {
  "EMC", "GR3D", "APE", "RAM", "SWAP", "IRAM", "MTS",
};

static void
gp_telemetry_put (GpMachine * m, const gchar * source, const gchar * q,
    const gchar * instance, const gchar * unit, gdouble t, gdouble v,
    gdouble limit)
{
  GpMachineSeries *s = gp_machine_series (m, q, instance, unit, source);

  if (isfinite (limit) && fabs (limit) <= GP_JSON_MAX_MAGNITUDE)
    s->limit = limit;
  gp_machine_series_append (m, s, t, v);
}

static gboolean
gp_telemetry_in (const gchar * name, const gchar * const *list, gsize n)
{
  gsize i;

  for (i = 0; i < n; i++)
    if (strcmp (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
gp_telemetry_input_rail (const gchar * rail)
{
  return gp_telemetry_in (rail, gp_telemetry_input_rails,
      G_N_ELEMENTS (gp_telemetry_input_rails));
}

/* ------------------------------------------------------------------ */
/* tegrastats                                                           */
/* ------------------------------------------------------------------ */

static void
gp_telemetry_tegra_cpus (GpMachine * m, const gchar * source, gdouble t,
    const GpTegraSample * sample)
{
  gdouble sum = 0;
  guint i, on = 0;

  for (i = 0; i < sample->n_cpus; i++) {
    gchar inst[16];
    gdouble load = NAN, freq = NAN;

    g_snprintf (inst, sizeof inst, "%u", i);
    if (gp_tegra_sample_cpu (sample, i, &load, &freq) && !isnan (load)) {
      sum += load;
      on++;
    }
    gp_telemetry_put (m, source, GP_MACHINE_CPU_LOAD, inst, GP_UNIT_PCT, t,
        load, NAN);
    gp_telemetry_put (m, source, GP_MACHINE_CPU_FREQ, inst, GP_UNIT_MHZ, t,
        freq, NAN);
  }
  if (sample->n_cpus > 0)
    gp_telemetry_put (m, source, GP_MACHINE_CPU_LOAD, "all", GP_UNIT_PCT, t,
        on ? sum / on : NAN, NAN);
}

/* Engines: every NAME.state field but the CPUs' and the non-engines. */
static void
gp_telemetry_tegra_engines (GpMachine * m, const gchar * source, gdouble t,
    const GpTegraSample * sample)
{
  guint i;

  for (i = 0; i < sample->fields->len; i++) {
    const GpTegraField *f = &g_array_index (sample->fields, GpTegraField, i);
    gchar *name;
    gdouble load, freq;
    GpTegraEngineState state;

    if (!g_str_has_suffix (f->name, ".state"))
      continue;
    name = g_strndup (f->name, strlen (f->name) - strlen (".state"));
    if (!(g_str_has_prefix (name, "CPU") && g_ascii_isdigit (name[3])) &&
        !gp_telemetry_in (name, gp_telemetry_not_engines,
            G_N_ELEMENTS (gp_telemetry_not_engines))) {
      state = gp_tegra_sample_engine (sample, name, &load, &freq);
      if (state == GP_TEGRA_ENGINE_OFF)
        load = freq = 0;
      gp_telemetry_put (m, source, GP_MACHINE_ENGINE_LOAD, name, GP_UNIT_PCT,
          t, load, NAN);
      gp_telemetry_put (m, source, GP_MACHINE_ENGINE_FREQ, name, GP_UNIT_MHZ,
          t, freq, NAN);
    }
    g_free (name);
  }
}

static void
gp_telemetry_tegra_temps_rails (GpMachine * m, const gchar * source,
    gdouble t, const GpTegraSample * sample)
{
  gdouble rails = 0, input = NAN;
  guint i, n_rails = 0;

  for (i = 0; i < sample->fields->len; i++) {
    const GpTegraField *f = &g_array_index (sample->fields, GpTegraField, i);

    if (g_str_has_prefix (f->name, "temp.")) {
      gchar *sensor = g_ascii_strdown (f->name + 5, -1);

      if (g_ascii_strcasecmp (f->name + 5,
              GP_TELEMETRY_PLACEHOLDER_SENSOR) != 0)
        gp_telemetry_put (m, source, GP_MACHINE_TEMP, sensor, GP_UNIT_C, t,
            f->value, NAN);
      g_free (sensor);
    } else if (g_str_has_prefix (f->name, "rail.")
        && g_str_has_suffix (f->name, ".cur")) {
      gchar *rail = g_strndup (f->name + 5, strlen (f->name) - 9);
      gdouble w = f->value / 1000.0;

      /* NC: a rail printed for a connector with nothing on it */
      if (strcmp (rail, "NC") != 0) {
        gp_telemetry_put (m, source, GP_MACHINE_POWER, rail, GP_UNIT_W, t, w,
            NAN);
        if (gp_telemetry_in (rail, gp_telemetry_input_rails,
                G_N_ELEMENTS (gp_telemetry_input_rails)))
          input = w;
        else if (!isnan (w)) {
          rails += w;
          n_rails++;
        }
      }
      g_free (rail);
    }
  }
  if (!isnan (input) || n_rails > 0)
    gp_telemetry_put (m, source, GP_MACHINE_POWER, "board", GP_UNIT_W, t,
        !isnan (input) ? input : rails, NAN);
}

void
gp_telemetry_add_tegra (GpMachine * m, const gchar * source, gdouble t,
    const GpTegraSample * sample)
{
  gdouble freq = NAN;

  gp_telemetry_put (m, source, GP_MACHINE_MEM_USED, "ram", GP_UNIT_MIB, t,
      gp_tegra_sample_value (sample, "RAM.used"),
      gp_tegra_sample_value (sample, "RAM.total"));
  if (gp_tegra_sample_field (sample, "SWAP.used") != NULL)
    gp_telemetry_put (m, source, GP_MACHINE_MEM_USED, "swap", GP_UNIT_MIB, t,
        gp_tegra_sample_value (sample, "SWAP.used"),
        gp_tegra_sample_value (sample, "SWAP.total"));
  gp_telemetry_tegra_cpus (m, source, t, sample);
  if (gp_tegra_sample_field (sample, "EMC.state") != NULL) {
    gp_telemetry_put (m, source, GP_MACHINE_MEMBW_LOAD, "emc", GP_UNIT_PCT, t,
        gp_tegra_sample_emc_load (sample), NAN);
    gp_telemetry_put (m, source, GP_MACHINE_MEM_FREQ, "emc", GP_UNIT_MHZ, t,
        gp_tegra_sample_value (sample, "EMC.freq"), NAN);
  }
  if (gp_tegra_sample_engine (sample, "GR3D", NULL, &freq) !=
      GP_TEGRA_ENGINE_ABSENT) {
    gp_telemetry_put (m, source, GP_MACHINE_GPU_LOAD, "0", GP_UNIT_PCT, t,
        gp_tegra_sample_gr3d_load (sample), NAN);
    gp_telemetry_put (m, source, GP_MACHINE_GPU_FREQ, "0", GP_UNIT_MHZ, t,
        freq, NAN);
  }
  gp_telemetry_tegra_engines (m, source, t, sample);
  gp_telemetry_tegra_temps_rails (m, source, t, sample);
}

/* ------------------------------------------------------------------ */
/* nvidia-smi                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  const gchar *column;          /* canonical field or dmon column */
  const gchar *quantity;
  const gchar *instance;        /* printf: the GPU's index */
  const gchar *unit;
  const gchar *limit;           /* the column of its limit, or NULL */
} GpTelemetryNvsmiMap;

static const GpTelemetryNvsmiMap gp_telemetry_nvsmi_map[] = {
  {"utilization.gpu", GP_MACHINE_GPU_LOAD, "%d", GP_UNIT_PCT, NULL},
  {"sm", GP_MACHINE_GPU_LOAD, "%d", GP_UNIT_PCT, NULL},
  {"utilization.memory", GP_MACHINE_MEMBW_LOAD, "%d", GP_UNIT_PCT, NULL},
  {"mem", GP_MACHINE_MEMBW_LOAD, "%d", GP_UNIT_PCT, NULL},
  {"clocks.sm", GP_MACHINE_GPU_FREQ, "%d", GP_UNIT_MHZ, "clocks.max.sm"},
  {"clocks.current.sm", GP_MACHINE_GPU_FREQ, "%d", GP_UNIT_MHZ,
      "clocks.max.sm"},
  {"pclk", GP_MACHINE_GPU_FREQ, "%d", GP_UNIT_MHZ, NULL},
  {"clocks.mem", GP_MACHINE_MEM_FREQ, "%d", GP_UNIT_MHZ, "clocks.max.memory"},
  {"clocks.current.memory", GP_MACHINE_MEM_FREQ, "%d", GP_UNIT_MHZ,
      "clocks.max.memory"},
  {"mclk", GP_MACHINE_MEM_FREQ, "%d", GP_UNIT_MHZ, NULL},
  {"memory.used", GP_MACHINE_GPU_MEM, "%d", GP_UNIT_MIB, "memory.total"},
  {"fb", GP_MACHINE_GPU_MEM, "%d", GP_UNIT_MIB, NULL},
  {"temperature.gpu", GP_MACHINE_TEMP, "gpu%d", GP_UNIT_C, NULL},
  {"gtemp", GP_MACHINE_TEMP, "gpu%d", GP_UNIT_C, NULL},
  {"temperature.memory", GP_MACHINE_TEMP, "mem%d", GP_UNIT_C, NULL},
  {"mtemp", GP_MACHINE_TEMP, "mem%d", GP_UNIT_C, NULL},
  {"power.draw", GP_MACHINE_POWER, "%d", GP_UNIT_W, "power.limit"},
  {"pwr", GP_MACHINE_POWER, "%d", GP_UNIT_W, NULL},
  {"utilization.encoder", GP_MACHINE_ENGINE_LOAD, "NVENC@gpu%d", GP_UNIT_PCT,
      NULL},
  {"enc", GP_MACHINE_ENGINE_LOAD, "NVENC@gpu%d", GP_UNIT_PCT, NULL},
  {"utilization.decoder", GP_MACHINE_ENGINE_LOAD, "NVDEC@gpu%d", GP_UNIT_PCT,
      NULL},
  {"dec", GP_MACHINE_ENGINE_LOAD, "NVDEC@gpu%d", GP_UNIT_PCT, NULL},
  {"jpg", GP_MACHINE_ENGINE_LOAD, "NVJPG@gpu%d", GP_UNIT_PCT, NULL},
  {"ofa", GP_MACHINE_ENGINE_LOAD, "OFA@gpu%d", GP_UNIT_PCT, NULL},
};

/* The identity kept as facts (gpuN.FIELD): what the peaks are looked up
 * by. */
static const gchar *const gp_telemetry_nvsmi_facts[] = {
  "name", "compute_cap", "clocks.max.sm", "clocks.max.memory",
  "memory.total", "power.limit", "pcie.link.gen.max", "pcie.link.width.max",
  "driver_version",
};

/* The throttle reasons, by what they say (the `clocks_event_reasons.`
 * part dropped; gp-nvsmi already maps the old spelling to this one). */
static const struct
{
  const gchar *reason;
  GpMachineThrottle bit;
} gp_telemetry_nvsmi_reasons[] = {
  {"hw_thermal_slowdown", GP_MACHINE_THROTTLE_THERMAL},
  {"sw_thermal_slowdown", GP_MACHINE_THROTTLE_THERMAL},
  {"sw_power_cap", GP_MACHINE_THROTTLE_POWER},
  {"hw_power_brake_slowdown", GP_MACHINE_THROTTLE_POWER},
  {"hw_slowdown", GP_MACHINE_THROTTLE_OTHER},
  {"sync_boost", GP_MACHINE_THROTTLE_OTHER},
};

#define GP_TELEMETRY_REASONS "clocks_event_reasons."

static gboolean
gp_telemetry_nvsmi_active (const gchar * text)
{
  return text != NULL && g_ascii_strcasecmp (text, "Active") == 0;
}

static void
gp_telemetry_nvsmi_throttle (GpMachine * m, const gchar * source, gdouble t,
    const GpNvsmiTable * table, guint row, gint gpu)
{
  gboolean any = FALSE;
  guint bits = 0, c, k;
  gchar inst[16];

  for (c = 0; c < table->n_columns; c++) {
    const gchar *name = table->columns[c].name;

    if (!g_str_has_prefix (name, GP_TELEMETRY_REASONS))
      continue;
    name += strlen (GP_TELEMETRY_REASONS);
    for (k = 0; k < G_N_ELEMENTS (gp_telemetry_nvsmi_reasons); k++)
      if (strcmp (name, gp_telemetry_nvsmi_reasons[k].reason) == 0) {
        const gchar *text = gp_nvsmi_table_text (table, row,
            table->columns[c].name);

        any = any || text != NULL;
        if (gp_telemetry_nvsmi_active (text))
          bits |= gp_telemetry_nvsmi_reasons[k].bit;
      }
  }
  if (!any)
    return;
  g_snprintf (inst, sizeof inst, "%d", gpu);
  gp_telemetry_put (m, source, GP_MACHINE_THROTTLE, inst, GP_UNIT_NONE, t,
      bits, NAN);
}

void
gp_telemetry_add_nvsmi (GpMachine * m, const gchar * source, gdouble t,
    const GpNvsmiTable * table, guint row)
{
  const GpNvsmiRow *r = g_ptr_array_index (table->rows, row);
  guint k;

  for (k = 0; k < G_N_ELEMENTS (gp_telemetry_nvsmi_map); k++) {
    const GpTelemetryNvsmiMap *map = &gp_telemetry_nvsmi_map[k];
    gdouble v = NAN, limit = NAN;
    gchar *inst;

    if (gp_nvsmi_table_column (table, map->column) < 0)
      continue;
    if (!gp_nvsmi_table_value (table, row, map->column, &v))
      v = NAN;
    if (map->limit == NULL
        || !gp_nvsmi_table_value (table, row, map->limit, &limit))
      limit = NAN;
    inst = g_strdup_printf (map->instance, r->gpu);
    gp_telemetry_put (m, source, map->quantity, inst, map->unit, t,
        v, limit);
    g_free (inst);
  }
  gp_telemetry_nvsmi_throttle (m, source, t, table, row, r->gpu);
  for (k = 0; k < G_N_ELEMENTS (gp_telemetry_nvsmi_facts); k++) {
    const gchar *text = gp_nvsmi_table_text (table, row,
        gp_telemetry_nvsmi_facts[k]);
    gchar *key;

    if (text == NULL)
      continue;
    key = g_strdup_printf ("gpu%d.%s", r->gpu, gp_telemetry_nvsmi_facts[k]);
    gp_machine_set_fact (m, key, text);
    g_free (key);
  }
}

/* ------------------------------------------------------------------ */
/* saved outputs                                                        */
/* ------------------------------------------------------------------ */

/* The line's own time, in s since some origin, or NAN: nvidia-smi's
 * `timestamp` (2017/03/20 19:58:43.613), dmon's `Time` (04:12:44) with
 * its `Date` (20240102) when printed. */
static gdouble
gp_telemetry_nvsmi_time (const GpNvsmiTable * table, guint row)
{
  const gchar *ts = gp_nvsmi_table_text (table, row, "timestamp");
  const gchar *tm = gp_nvsmi_table_text (table, row, "Time");
  const gchar *date = gp_nvsmi_table_text (table, row, "Date");
  gint y, mo, d, h, mi;
  gdouble sec;
  GDateTime *dt;
  gdouble res;

  if (ts != NULL && sscanf (ts, "%d/%d/%d %d:%d:%lf", &y, &mo, &d, &h, &mi,
          &sec) == 6) {
    dt = g_date_time_new_utc (y, mo, d, h, mi, sec);
    if (dt == NULL)
      return NAN;
    res = g_date_time_to_unix (dt) + (sec - floor (sec));
    g_date_time_unref (dt);
    return res;
  }
  if (tm != NULL && sscanf (tm, "%d:%d:%lf", &h, &mi, &sec) == 3 && h >= 0
      && h < 24 && mi >= 0 && mi < 60 && sec >= 0 && sec < 61) {
    res = h * 3600.0 + mi * 60.0 + sec;
    if (date != NULL && strlen (date) == 8 && sscanf (date, "%4d%2d%2d", &y,
            &mo, &d) == 3 && (dt = g_date_time_new_utc (y, mo, d, 0, 0, 0))) {
      res += g_date_time_to_unix (dt);
      g_date_time_unref (dt);
    }
    return res;
  }
  return NAN;
}

static gboolean
gp_telemetry_looks_tegrastats (const gchar * line)
{
  return strstr (line, "RAM ") != NULL && (strstr (line, "CPU [") != NULL
      || strstr (line, "cpu [") != NULL);
}

/* Field names nvidia-smi prints without a dot (its dotted ones, such as
 * utilization.gpu, tell themselves). */
static const gchar *const gp_telemetry_nvsmi_plain_fields[] = {
  "index", "name", "timestamp", "uuid", "pstate", "serial", "count",
  "driver_version", "compute_cap", "compute_mode", "vbios_version",
  "persistence_mode", "accounting.mode",
};

/* One header cell of a --query-gpu CSV: a field name ([a-z0-9_.]),
 * optionally its unit in brackets; @cut: the cell the peek cut, where a
 * prefix of that is enough. *@known: a name nvidia-smi prints. */
static gboolean
gp_telemetry_nvsmi_header_cell (const gchar * cell, gsize len,
    gboolean cut, gboolean * known)
{
  gsize i = 0, name_end;
  gboolean dotted = FALSE;

  while (i < len && g_ascii_isspace (cell[i]))
    i++;
  cell += i;
  len -= i;
  for (i = 0; i < len && (g_ascii_isalnum (cell[i]) || cell[i] == '_'
          || cell[i] == '.'); i++)
    dotted = dotted || cell[i] == '.';
  name_end = i;
  if (name_end == 0)
    return cut && len == 0;
  if (dotted)
    *known = TRUE;
  else {
    gchar *name = g_ascii_strdown (cell, name_end);

    *known = *known || gp_telemetry_in (name, gp_telemetry_nvsmi_plain_fields,
        G_N_ELEMENTS (gp_telemetry_nvsmi_plain_fields));
    g_free (name);
  }
  while (i < len && g_ascii_isspace (cell[i]))
    i++;
  if (i < len && cell[i] == '[') {
    const gchar *close = memchr (cell + i, ']', len - i);

    if (close == NULL)
      return cut;
    i = close - cell + 1;
    while (i < len && g_ascii_isspace (cell[i]))
      i++;
  }
  return i == len || (cut && cell[i] != ',');
}

static gboolean
gp_telemetry_nvsmi_header (const gchar * line, gsize len, gboolean cut)
{
  const gchar *p = line, *end = line + len;
  gboolean known = FALSE;

  if (memchr (line, ',', len) == NULL)
    return FALSE;
  while (p <= end) {
    const gchar *comma = memchr (p, ',', end - p);
    const gchar *cell_end = comma ? comma : end;

    if (!gp_telemetry_nvsmi_header_cell (p, cell_end - p, cut && !comma,
            &known))
      return FALSE;
    if (comma == NULL)
      break;
    p = comma + 1;
  }
  return known;
}

/* dmon's header: `# gpu ...` or `#Time gpu ...`, a word "gpu" in it. */
static gboolean
gp_telemetry_dmon_header (const gchar * line, gsize len)
{
  gchar *text = g_strndup (line + 1, len - 1);
  gchar **words = g_strsplit_set (text, " \t", -1);
  gboolean found = g_strv_contains ((const gchar * const *) words, "gpu");

  g_strfreev (words);
  g_free (text);
  return found;
}

GpTelemetryKind
gp_telemetry_sniff (const gchar * head, gsize len)
{
  const gchar *p = head, *end = head + len, *nl;
  GpTelemetryKind kind = GP_TELEMETRY_NONE;
  gchar *first;

  if (len == 0 || memchr (head, '\0', len) != NULL)
    return GP_TELEMETRY_NONE;
  while (p < end && g_ascii_isspace (*p))
    p++;
  nl = memchr (p, '\n', end - p);
  first = g_strndup (p, (nl ? nl : end) - p);
  g_strdelimit (first, "\r", ' ');
  if (*first == '#') {
    if (gp_telemetry_dmon_header (first, strlen (first)))
      kind = GP_TELEMETRY_NVSMI_DMON;
  } else if (gp_telemetry_looks_tegrastats (first))
    kind = GP_TELEMETRY_TEGRASTATS;
  else if (gp_telemetry_nvsmi_header (first, strlen (first), nl == NULL))
    kind = GP_TELEMETRY_NVSMI_QUERY;
  g_free (first);
  return kind;
}

const gchar *
gp_telemetry_kind_tool (GpTelemetryKind kind)
{
  switch (kind) {
    case GP_TELEMETRY_TEGRASTATS:
      return "tegrastats";
    case GP_TELEMETRY_NVSMI_DMON:
    case GP_TELEMETRY_NVSMI_QUERY:
      return "nvidia-smi";
    default:
      return NULL;
  }
}

/* ------------------------------------------------------------------ */
/* saved outputs, streamed                                              */
/* ------------------------------------------------------------------ */

struct _GpTelemetryReader
{
  GpTelemetryKind kind;
  gchar *origin;
  gdouble interval_s;
  const gchar *source;          /* "tegrastats", "nvidia-smi" */
  GpMachine *m;
  GpLines *lines;
  guint64 lineno;
  GpLinesSkips skips;
  gboolean cut_last;            /* the last line, cut short, left out */
  guint64 unknown;              /* tegrastats tokens no field took */
  /* the samples' times: the first line's own, the latest */
  gint64 ts0;
  gdouble t0;
  gdouble t;
  /* nvidia-smi: its table (the rows of one line at a time), the last
   * row's GPU and own time */
  GpNvsmiReader *nv;
  gint last_gpu;
  gdouble last_own;
  guint64 sample;
};

/* Every series of @m back under GP_TELEMETRY_SERIES_MAX samples. */
static void
gp_telemetry_bound (GpMachine * m)
{
  guint i;

  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (m->series, i);

    if (sr->t->len >= GP_TELEMETRY_SERIES_MAX)
      gp_machine_series_thin (sr);
  }
}

/* A tegrastats line into the machine; FALSE with the error when it is
 * none. */
static gboolean
gp_telemetry_read_tegra (GpTelemetryReader * r, gchar * line,
    GError ** error)
{
  GpMachineSource *src = gp_machine_source (r->m, r->source);
  GError *lerr = NULL;
  GpTegraSample *s = gp_tegrastats_parse_line (line, &lerr);

  if (s == NULL) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
        "%s:%" G_GUINT64_FORMAT ": %s", r->origin, r->lineno, lerr->message);
    g_error_free (lerr);
    return FALSE;
  }
  if (src->samples == 0)
    r->ts0 = s->timestamp_s;
  r->t = s->has_timestamp ? MAX ((gdouble) (s->timestamp_s - r->ts0), r->t)
      : src->samples * r->interval_s;
  r->unknown += s->n_unknown;
  gp_telemetry_add_tegra (r->m, r->source, r->t, s);
  src->samples++;
  gp_tegra_sample_free (s);
  return TRUE;
}

/* The row an nvidia-smi line added into the machine. */
static void
gp_telemetry_read_nvsmi_row (GpTelemetryReader * r, GpNvsmiTable * table)
{
  GpNvsmiRow *row = g_ptr_array_index (table->rows, 0);
  gdouble own = gp_telemetry_nvsmi_time (table, 0);
  gboolean indexed = gp_nvsmi_table_column (table, "index") >= 0 ||
      gp_nvsmi_table_column (table, "gpu") >= 0;

  /* Without an index column a row's GPU is its place among the rows of
   * the same time; with no time either, among all the rows. */
  if (!indexed && !isnan (own))
    row->gpu = own == r->last_own ? r->last_gpu + 1 : 0;
  r->last_own = own;
  /* a new sample starts when the GPU index does not grow */
  if (row->gpu <= r->last_gpu) {
    GpMachineSource *src = gp_machine_source (r->m, r->source);

    if (src->samples > 0)
      r->sample++;
    if (isnan (r->t0))
      r->t0 = own;
    r->t = !isnan (own) && !isnan (r->t0) ? MAX (own - r->t0, r->t) :
        r->sample * r->interval_s;
    src->samples++;
  }
  r->last_gpu = row->gpu;
  gp_telemetry_add_nvsmi (r->m, r->source, r->t, table, 0);
}

static gboolean
gp_telemetry_read_nvsmi (GpTelemetryReader * r, gchar * line,
    GError ** error)
{
  GpNvsmiTable *table;

  g_strdelimit (line, "\r", ' ');
  if (!gp_nvsmi_reader_line (r->nv, line, (guint) MIN (r->lineno,
              G_MAXUINT), error))
    return FALSE;
  table = gp_nvsmi_reader_table (r->nv);
  if (table != NULL && table->rows->len > 0) {
    gp_telemetry_read_nvsmi_row (r, table);
    gp_nvsmi_table_drop_rows (table);
  }
  return TRUE;
}

/* One line from the splitter: read, or counted and skipped. */
static gboolean
gp_telemetry_on_line (const gchar * text, gsize len, GpLineFlags flags,
    gpointer user_data)
{
  GpTelemetryReader *r = user_data;
  GError *lerr = NULL;
  gchar *line;
  gboolean ok;

  r->lineno++;
  if (flags & GP_LINE_LONG) {
    gchar *why = g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": longer than "
        "%u KiB", r->origin, r->lineno, GP_TELEMETRY_MAX_LINE >> 10);

    r->skips.lines++;
    gp_lines_skip (&r->skips, why);
    g_free (why);
    return TRUE;
  }
  line = g_strstrip (g_strndup (text, len));
  if (*line == '\0') {
    g_free (line);
    return TRUE;
  }
  r->skips.lines++;
  if (memchr (text, '\0', len) != NULL) {
    lerr = g_error_new (GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
        "%s:%" G_GUINT64_FORMAT ": binary data", r->origin, r->lineno);
    ok = FALSE;
  } else if (r->kind == GP_TELEMETRY_TEGRASTATS)
    ok = gp_telemetry_read_tegra (r, line, &lerr);
  else
    ok = gp_telemetry_read_nvsmi (r, line, &lerr);
  g_free (line);
  if (!ok && (flags & GP_LINE_CUT)) {
    /* a log still being written, or interrupted: not a damaged one */
    r->skips.lines--;
    r->cut_last = TRUE;
  } else if (!ok) {
    gp_lines_skip (&r->skips, lerr->message);
  }
  g_clear_error (&lerr);
  gp_telemetry_bound (r->m);
  return TRUE;
}

GpTelemetryReader *
gp_telemetry_reader_new (GpTelemetryKind kind, const gchar * origin,
    gdouble interval_s)
{
  GpTelemetryReader *r;

  g_return_val_if_fail (kind != GP_TELEMETRY_NONE, NULL);

  r = g_new0 (GpTelemetryReader, 1);
  r->kind = kind;
  r->origin = g_strdup (origin);
  r->interval_s = interval_s;
  r->source = gp_telemetry_kind_tool (kind);
  r->m = gp_machine_new ();
  gp_machine_source (r->m, r->source)->interval_s = interval_s;
  r->lines = gp_lines_new (GP_TELEMETRY_MAX_LINE, gp_telemetry_on_line, r);
  r->t0 = NAN;
  r->last_gpu = G_MAXINT;
  r->last_own = NAN;
  if (kind != GP_TELEMETRY_TEGRASTATS)
    r->nv = gp_nvsmi_reader_new (kind == GP_TELEMETRY_NVSMI_DMON ?
        GP_NVSMI_DMON : GP_NVSMI_QUERY, NULL, origin);
  return r;
}

void
gp_telemetry_reader_feed (GpTelemetryReader * r, const gchar * data,
    gsize len)
{
  gp_lines_feed (r->lines, data, len);
}

GpLines *
gp_telemetry_reader_lines (GpTelemetryReader * r)
{
  return r->lines;
}

void
gp_telemetry_reader_free (GpTelemetryReader * r)
{
  if (r == NULL)
    return;
  gp_lines_free (r->lines);
  gp_lines_skips_clear (&r->skips);
  gp_nvsmi_reader_free (r->nv);
  gp_machine_free (r->m);
  g_free (r->origin);
  g_free (r);
}

/* What the source's detail says of the file: the lines skipped, a last
 * line cut short, the tokens no field took. */
static void
gp_telemetry_reader_detail (GpTelemetryReader * r)
{
  GString *d = g_string_new (NULL);
  gchar *skipped = gp_lines_skips_text (&r->skips);

  if (skipped != NULL)
    g_string_append (d, skipped);
  if (r->cut_last)
    g_string_append_printf (d, "%sits last line is cut short: left out",
        d->len ? "; " : "");
  if (r->unknown > 0)
    g_string_append_printf (d, "%s%" G_GUINT64_FORMAT " tokens no field "
        "took", d->len ? "; " : "", r->unknown);
  if (d->len > 0)
    gp_machine_source_set (r->m, r->source, GP_MACHINE_SAMPLED, d->str);
  g_string_free (d, TRUE);
  g_free (skipped);
}

GpMachine *
gp_telemetry_reader_finish (GpTelemetryReader * r, GError ** error)
{
  GpMachine *m = NULL;
  GError *nerr = NULL;

  gp_lines_finish (r->lines);
  if (r->nv != NULL) {
    GpNvsmiTable *t = gp_nvsmi_reader_finish (g_steal_pointer (&r->nv),
        &nerr);

    gp_nvsmi_table_free (t);
  }
  if (gp_machine_source (r->m, r->source)->samples == 0) {
    /* nothing read: the first line skipped says why, else the tool's
     * reader, else there was no line */
    if (r->skips.first != NULL)
      g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
          "%s", r->skips.first);
    else if (nerr != NULL)
      g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
          "%s", nerr->message);
    else
      g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
          "%s: no %s line in it", r->origin, r->source);
  } else {
    gp_telemetry_reader_detail (r);
    m = g_steal_pointer (&r->m);
  }
  g_clear_error (&nerr);
  gp_telemetry_reader_free (r);
  return m;
}

/* The one-line refusal of a text that is none of the logs, naming its
 * first line. */
static void
gp_telemetry_refuse (const gchar * head, gsize len, const gchar * origin,
    GError ** error)
{
  const gchar *p = head, *end = head + len, *nl;
  gchar *first, *shown;

  if (memchr (head, '\0', len) != NULL) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
        "%s: binary, not a tegrastats log or nvidia-smi output", origin);
    return;
  }
  while (p < end && g_ascii_isspace (*p))
    p++;
  nl = memchr (p, '\n', end - p);
  first = g_strndup (p, (nl ? nl : end) - p);
  shown = gp_json_excerpt (first);
  g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
      "%s:1: not a tegrastats log or nvidia-smi output (\"%s\")", origin,
      shown);
  g_free (shown);
  g_free (first);
}

GpMachine *
gp_telemetry_load_data (const gchar * data, gsize len, const gchar * origin,
    gdouble interval_s, GError ** error)
{
  GpTelemetryKind kind = gp_telemetry_sniff (data, len);
  GpTelemetryReader *r;

  if (kind == GP_TELEMETRY_NONE || gp_lines_binary (data, len)) {
    gp_telemetry_refuse (data, len, origin, error);
    return NULL;
  }
  r = gp_telemetry_reader_new (kind, origin, interval_s);
  gp_telemetry_reader_feed (r, data, len);
  return gp_telemetry_reader_finish (r, error);
}

GpMachine *
gp_telemetry_load_file (const gchar * path, gdouble interval_s,
    GError ** error)
{
  gchar *buf;
  GpTelemetryReader *r = NULL;
  GpMachine *m = NULL;
  gssize n;
  gint fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_IO,
        "%s: %s", path, g_strerror (errno));
    return NULL;
  }
  buf = g_malloc (GP_TELEMETRY_BLOCK);
  while ((n = read (fd, buf, GP_TELEMETRY_BLOCK)) != 0) {
    GpTelemetryKind kind;

    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_IO,
          "%s: %s", path, g_strerror (errno));
      goto out;
    }
    if (r == NULL) {
      /* the kind, from the first block (a first line longer than a
       * block is no log's) */
      kind = gp_telemetry_sniff (buf, n);
      if (kind == GP_TELEMETRY_NONE || gp_lines_binary (buf, n)) {
        gp_telemetry_refuse (buf, n, path, error);
        goto out;
      }
      r = gp_telemetry_reader_new (kind, path, interval_s);
    }
    gp_telemetry_reader_feed (r, buf, n);
  }
  if (r == NULL)
    gp_telemetry_refuse ("", 0, path, error);
  else
    m = gp_telemetry_reader_finish (g_steal_pointer (&r), error);
out:
  gp_telemetry_reader_free (r);
  g_free (buf);
  close (fd);
  return m;
}

GpTelemetryKind
gp_telemetry_sniff_file (const gchar * path)
{
  gchar *buf = g_malloc (GP_TELEMETRY_BLOCK);
  GpTelemetryKind kind = GP_TELEMETRY_NONE;
  gssize n = -1;
  gint fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd >= 0) {
    do
      n = read (fd, buf, GP_TELEMETRY_BLOCK);
    while (n < 0 && errno == EINTR);
    close (fd);
  }
  if (n > 0 && !gp_lines_binary (buf, n))
    kind = gp_telemetry_sniff (buf, n);
  g_free (buf);
  return kind;
}

const gchar *
gp_telemetry_read_detail (const GpMachine * m)
{
  const gchar *tools[] = { "tegrastats", "nvidia-smi" };
  guint i;

  for (i = 0; m != NULL && i < G_N_ELEMENTS (tools); i++) {
    GpMachineSource *src = gp_machine_find_source (m, tools[i]);

    if (src != NULL && src->detail != NULL)
      return src->detail;
  }
  return NULL;
}
