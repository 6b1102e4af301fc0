/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-telemetry: tegrastats and nvidia-smi samples into the machine's
 * vocabulary, and their saved outputs read whole (gp-telemetry.h). */
#include "gp-telemetry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/gp-file.h"
#include "core/gp-json.h"

G_DEFINE_QUARK (gp-telemetry-error-quark, gp_telemetry_error);

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

static GpMachine *
gp_telemetry_load_nvsmi (const gchar * data, gsize len, const gchar * origin,
    gboolean dmon, gdouble interval_s, GError ** error)
{
  GpNvsmiTable *table = dmon ? gp_nvsmi_parse_dmon (data, len, origin,
      error) : gp_nvsmi_parse_query (data, len, NULL, origin, error);
  GpMachine *m;
  gdouble t0 = NAN, t = 0;
  gint last_gpu = G_MAXINT;
  guint row, sample = 0;

  if (table == NULL)
    return NULL;
  gboolean indexed = gp_nvsmi_table_column (table, "index") >= 0 ||
      gp_nvsmi_table_column (table, "gpu") >= 0;
  gdouble last_own = NAN;

  m = gp_machine_new ();
  gp_machine_source (m, "nvidia-smi")->interval_s = interval_s;
  for (row = 0; row < table->rows->len; row++) {
    GpNvsmiRow *r = g_ptr_array_index (table->rows, row);
    gdouble own = gp_telemetry_nvsmi_time (table, row);

    /* Without an index column a row's GPU is its place among the rows of
     * the same time; with no time either, among all the rows. */
    if (!indexed && !isnan (own))
      r->gpu = own == last_own ? last_gpu + 1 : 0;
    last_own = own;
    /* a new sample starts when the GPU index does not grow */
    if (r->gpu <= last_gpu) {
      if (row > 0)
        sample++;
      if (isnan (t0))
        t0 = own;
      t = !isnan (own) && !isnan (t0) ? MAX (own - t0, t) :
          sample * interval_s;
      gp_machine_source (m, "nvidia-smi")->samples++;
    }
    last_gpu = r->gpu;
    gp_telemetry_add_nvsmi (m, "nvidia-smi", t, table, row);
  }
  gp_nvsmi_table_free (table);
  return m;
}

static gboolean
gp_telemetry_looks_tegrastats (const gchar * line)
{
  return strstr (line, "RAM ") != NULL && (strstr (line, "CPU [") != NULL
      || strstr (line, "cpu [") != NULL);
}

static GpMachine *
gp_telemetry_load_tegrastats (const gchar * data, gsize len,
    const gchar * origin, gdouble interval_s, GError ** error)
{
  GpMachine *m = gp_machine_new ();
  GpMachineSource *src = gp_machine_source (m, "tegrastats");
  gchar **lines = g_strsplit (data, "\n", -1);
  gboolean cut = len > 0 && data[len - 1] != '\n';
  guint i, n = g_strv_length (lines), unknown = 0;
  gint64 ts0 = 0;
  gdouble t = 0;

  src->interval_s = interval_s;
  for (i = 0; i < n; i++) {
    GError *lerr = NULL;
    GpTegraSample *s;
    gchar *line = g_strstrip (lines[i]);

    if (*line == '\0')
      continue;
    s = gp_tegrastats_parse_line (line, &lerr);
    if (s == NULL) {
      if (cut && i + 1 == n) {
        gp_machine_source_set (m, "tegrastats", GP_MACHINE_SAMPLED,
            "its last line is cut short: left out");
        g_clear_error (&lerr);
        break;
      }
      g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
          "%s:%u: %s", origin, i + 1, lerr->message);
      g_clear_error (&lerr);
      g_strfreev (lines);
      gp_machine_free (m);
      return NULL;
    }
    if (src->samples == 0)
      ts0 = s->timestamp_s;
    t = s->has_timestamp ? MAX ((gdouble) (s->timestamp_s - ts0), t) :
        src->samples * interval_s;
    unknown += s->n_unknown;
    gp_telemetry_add_tegra (m, "tegrastats", t, s);
    src->samples++;
    gp_tegra_sample_free (s);
  }
  g_strfreev (lines);
  if (src->samples == 0) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
        "%s: no tegrastats line in it", origin);
    gp_machine_free (m);
    return NULL;
  }
  if (unknown > 0 && src->detail == NULL) {
    gchar *d = g_strdup_printf ("%u tokens no field took", unknown);

    gp_machine_source_set (m, "tegrastats", GP_MACHINE_SAMPLED, d);
    g_free (d);
  }
  return m;
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

GpMachine *
gp_telemetry_load_data (const gchar * data, gsize len, const gchar * origin,
    gdouble interval_s, GError ** error)
{
  const gchar *p = data, *end = data + len, *nl;
  gchar *first, *shown, *text;
  GpMachine *m;

  if (memchr (data, '\0', len) != NULL) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE,
        "%s: binary, not a tegrastats log or nvidia-smi output", origin);
    return NULL;
  }
  switch (gp_telemetry_sniff (data, len)) {
    case GP_TELEMETRY_NVSMI_DMON:
      return gp_telemetry_load_nvsmi (data, len, origin, TRUE, interval_s,
          error);
    case GP_TELEMETRY_NVSMI_QUERY:
      return gp_telemetry_load_nvsmi (data, len, origin, FALSE, interval_s,
          error);
    case GP_TELEMETRY_TEGRASTATS:
      text = g_strndup (data, len);
      m = gp_telemetry_load_tegrastats (text, len, origin, interval_s, error);
      g_free (text);
      return m;
    default:
      break;
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
  return NULL;
}

GpMachine *
gp_telemetry_load_file (const gchar * path, gdouble interval_s,
    GError ** error)
{
  gchar *data;
  gsize len;
  GError *ioerr = NULL;
  GpMachine *m;

  data = gp_file_read_capped (path, GP_TELEMETRY_MAX_FILE_BYTES,
      "a telemetry log", &len, &ioerr);
  if (data == NULL) {
    g_set_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_IO, "%s",
        ioerr->message);
    g_clear_error (&ioerr);
    return NULL;
  }
  m = gp_telemetry_load_data (data, len, path, interval_s, error);
  g_free (data);
  return m;
}
