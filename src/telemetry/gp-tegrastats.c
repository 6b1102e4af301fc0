/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-tegrastats.c: one tegrastats line into named fields (see the header
 * for the names). The line is cut at whitespace (any run of it: R36 pads
 * with several spaces); each token is taken by its name (RAM, SWAP, IRAM,
 * CPU, MTS) or by the shape of what follows a name: `X%@F`, `X%`, `@F`,
 * `@[f0,f1]`, `F` or `off` is an engine, `cur/avg[/max]` with or without
 * mW a rail, `name@valueC` a temperature. Whatever none of these takes is
 * counted unknown.
 */
#include "gp-tegrastats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (gp-tegrastats-error-quark, gp_tegrastats_error);

/* The most GPCs one GR3D field lists: AGX Orin prints 2, Thor 3; a longer
 * list is no tegrastats line. */
#define GP_TEGRA_MAX_GPCS 16
/* The most CPUs one list holds: Thor has 14; room for larger boards. */
#define GP_TEGRA_MAX_CPUS 256
/* The temperature tegrastats prints for a sensor that is absent. */
#define GP_TEGRA_TEMP_ABSENT (-256.0)
/* The longest token quoted in an error, so that the error stays one line
 * a person can read. */
#define GP_TEGRA_QUOTE_MAX 40

typedef struct
{
  GpTegraSample *s;
  gchar **tok;
  guint n;
  guint i;
  GError **error;
} GpTegraParse;

/* ---- the fields ------------------------------------------------------ */

static void
gp_tegra_add (GpTegraSample * s, const gchar * name, gdouble value,
    const gchar * unit)
{
  GpTegraField f;
  guint copy = 1;

  f.name = g_strdup (name);
  while (gp_tegra_sample_field (s, f.name) != NULL) {
    g_free (f.name);
    f.name = g_strdup_printf ("%s#%u", name, ++copy);
  }
  f.value = value;
  f.unit = unit;
  g_array_append_val (s->fields, f);
}

static void
gp_tegra_addf (GpTegraSample * s, gdouble value, const gchar * unit,
    const gchar * fmt, ...) G_GNUC_PRINTF (4, 5);

static void
gp_tegra_addf (GpTegraSample * s, gdouble value, const gchar * unit,
    const gchar * fmt, ...)
{
  va_list ap;
  gchar *name;

  va_start (ap, fmt);
  name = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  gp_tegra_add (s, name, value, unit);
  g_free (name);
}

/* ---- small readers ---------------------------------------------------- */

/* A decimal number at @p (`-`, digits, an optional fraction): the text
 * after it, NULL when there is none. */
static const gchar *
gp_tegra_num (const gchar * p, gdouble * value)
{
  const gchar *q = p;
  gchar buf[64];

  if (*q == '-')
    q++;
  if (!g_ascii_isdigit (*q))
    return NULL;
  while (g_ascii_isdigit (*q))
    q++;
  if (*q == '.') {
    if (!g_ascii_isdigit (q[1]))
      return NULL;
    q++;
    while (g_ascii_isdigit (*q))
      q++;
  }
  if ((gsize) (q - p) >= sizeof (buf))
    return NULL;
  memcpy (buf, p, q - p);
  buf[q - p] = '\0';
  *value = g_ascii_strtod (buf, NULL);
  return isfinite (*value) ? q : NULL;
}

/* @p, after a number, is @unit (possibly empty) and nothing more. */
static gboolean
gp_tegra_rest (const gchar * p, const gchar * unit)
{
  return p != NULL && strcmp (p, unit) == 0;
}

/* `A/B` + @unit: TRUE and both values when @t is exactly that. */
static gboolean
gp_tegra_pair (const gchar * t, const gchar * unit, gdouble * a, gdouble * b)
{
  const gchar *p = gp_tegra_num (t, a);

  if (p == NULL || *p != '/')
    return FALSE;
  p = gp_tegra_num (p + 1, b);
  return gp_tegra_rest (p, unit);
}

/* An engine or GR3D name: upper case, digits, underscores. */
static gboolean
gp_tegra_is_name (const gchar * t)
{
  if (!g_ascii_isupper (*t))
    return FALSE;
  for (; *t; t++)
    if (!g_ascii_isupper (*t) && !g_ascii_isdigit (*t) && *t != '_')
      return FALSE;
  return TRUE;
}

/* @t for an error: at most GP_TEGRA_QUOTE_MAX bytes, `...` after a longer
 * one, every byte outside printable ASCII escaped (g_strescape). */
static gchar *
gp_tegra_quote (const gchar * t)
{
  gchar *cut = g_strndup (t, GP_TEGRA_QUOTE_MAX);
  gchar *quoted = g_strescape (cut, NULL);
  gchar *out = g_strconcat (quoted,
      strlen (t) > GP_TEGRA_QUOTE_MAX ? "..." : "", NULL);

  g_free (quoted);
  g_free (cut);
  return out;
}

static gboolean
gp_tegra_fail (GpTegraParse * p, guint at, const gchar * fmt, ...)
G_GNUC_PRINTF (3, 4);

/* Sets the one-line error: the token's place and text, then what is
 * wrong. Always FALSE. */
static gboolean
gp_tegra_fail (GpTegraParse * p, guint at, const gchar * fmt, ...)
{
  va_list ap;
  gchar *what, *quoted;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (at < p->n) {
    quoted = gp_tegra_quote (p->tok[at]);
    g_set_error (p->error, GP_TEGRASTATS_ERROR, GP_TEGRASTATS_ERROR_PARSE,
        "tegrastats line, token %u '%s': %s", at + 1, quoted, what);
    g_free (quoted);
  } else {
    g_set_error (p->error, GP_TEGRASTATS_ERROR, GP_TEGRASTATS_ERROR_PARSE,
        "tegrastats line, at its end (%u tokens): %s", p->n, what);
  }
  g_free (what);
  return FALSE;
}

/* The token after the current one, or a failure naming @field as cut. */
static const gchar *
gp_tegra_next (GpTegraParse * p, const gchar * field)
{
  if (p->i + 1 >= p->n) {
    gp_tegra_fail (p, p->i, "%s has no value (line cut?)", field);
    return NULL;
  }
  return p->tok[p->i + 1];
}

/* ---- the fields by name ---------------------------------------------- */

/* `MM-DD-YYYY HH:MM:SS` as the first two tokens. */
static gboolean
gp_tegra_timestamp (GpTegraParse * p)
{
  gint mo, d, y, h, mi, sec;
  gchar tail;
  GDateTime *dt;

  if (p->n < 2 || strlen (p->tok[0]) != 10 || strlen (p->tok[1]) != 8)
    return FALSE;
  if (sscanf (p->tok[0], "%2d-%2d-%4d%c", &mo, &d, &y, &tail) != 3 ||
      sscanf (p->tok[1], "%2d:%2d:%2d%c", &h, &mi, &sec, &tail) != 3)
    return FALSE;
  dt = g_date_time_new_utc (y, mo, d, h, mi, sec);
  if (dt == NULL)
    return FALSE;
  p->s->has_timestamp = TRUE;
  p->s->timestamp_s = g_date_time_to_unix (dt);
  g_date_time_unref (dt);
  p->i = 2;
  return TRUE;
}

/* `RAM u/tMB (lfb NxSMB)`; the lfb part optional. */
static gboolean
gp_tegra_ram (GpTegraParse * p)
{
  const gchar *v = gp_tegra_next (p, "RAM");
  gdouble used, total, blocks, size;
  const gchar *q;

  if (v == NULL)
    return FALSE;
  if (!gp_tegra_pair (v, "MB", &used, &total))
    return gp_tegra_fail (p, p->i + 1, "RAM is not USED/TOTALMB");
  gp_tegra_add (p->s, "RAM.used", used, "MiB");
  gp_tegra_add (p->s, "RAM.total", total, "MiB");
  p->i += 2;
  if (p->i < p->n && strcmp (p->tok[p->i], "(lfb") == 0) {
    if (p->i + 1 >= p->n)
      return gp_tegra_fail (p, p->i, "RAM's lfb has no value (line cut?)");
    q = gp_tegra_num (p->tok[p->i + 1], &blocks);
    if (q == NULL || *q != 'x' ||
        !gp_tegra_rest (gp_tegra_num (q + 1, &size), "MB)"))
      return gp_tegra_fail (p, p->i + 1, "RAM's lfb is not NxSIZEMB)");
    gp_tegra_add (p->s, "RAM.lfb.blocks", blocks, "");
    gp_tegra_add (p->s, "RAM.lfb.size", size, "MiB");
    p->i += 2;
  }
  return TRUE;
}

/* `SWAP u/tMB (cached cMB)`; the cached part optional. */
static gboolean
gp_tegra_swap (GpTegraParse * p)
{
  const gchar *v = gp_tegra_next (p, "SWAP");
  gdouble used, total, cached;

  if (v == NULL)
    return FALSE;
  if (!gp_tegra_pair (v, "MB", &used, &total))
    return gp_tegra_fail (p, p->i + 1, "SWAP is not USED/TOTALMB");
  gp_tegra_add (p->s, "SWAP.used", used, "MiB");
  gp_tegra_add (p->s, "SWAP.total", total, "MiB");
  p->i += 2;
  if (p->i < p->n && strcmp (p->tok[p->i], "(cached") == 0) {
    if (p->i + 1 >= p->n)
      return gp_tegra_fail (p, p->i, "SWAP's cached has no value");
    if (!gp_tegra_rest (gp_tegra_num (p->tok[p->i + 1], &cached), "MB)"))
      return gp_tegra_fail (p, p->i + 1, "SWAP's cached is not SIZEMB)");
    gp_tegra_add (p->s, "SWAP.cached", cached, "MiB");
    p->i += 2;
  }
  return TRUE;
}

/* `IRAM u/tkB(lfb fkB)`: kB turned into MiB. */
static gboolean
gp_tegra_iram (GpTegraParse * p)
{
  const gchar *v = gp_tegra_next (p, "IRAM");
  gdouble used, total, lfb;
  const gchar *q;
  gboolean lfb_follows;

  if (v == NULL)
    return FALSE;
  q = gp_tegra_num (v, &used);
  if (q != NULL && *q == '/')
    q = gp_tegra_num (q + 1, &total);
  else
    q = NULL;
  if (q == NULL || !g_str_has_prefix (q, "kB"))
    return gp_tegra_fail (p, p->i + 1, "IRAM is not USED/TOTALkB");
  q += 2;
  lfb_follows = strcmp (q, "(lfb") == 0;
  if (!lfb_follows && *q != '\0')
    return gp_tegra_fail (p, p->i + 1, "IRAM is not USED/TOTALkB");
  gp_tegra_add (p->s, "IRAM.used", used / 1024.0, "MiB");
  gp_tegra_add (p->s, "IRAM.total", total / 1024.0, "MiB");
  p->i += 2;
  if (!lfb_follows && p->i < p->n && strcmp (p->tok[p->i], "(lfb") == 0) {
    lfb_follows = TRUE;
    p->i++;
  }
  if (lfb_follows) {
    if (p->i >= p->n)
      return gp_tegra_fail (p, p->i, "IRAM's lfb has no value (line cut?)");
    if (!gp_tegra_rest (gp_tegra_num (p->tok[p->i], &lfb), "kB)"))
      return gp_tegra_fail (p, p->i, "IRAM's lfb is not SIZEkB)");
    gp_tegra_add (p->s, "IRAM.lfb", lfb / 1024.0, "MiB");
    p->i++;
  }
  return TRUE;
}

/* `CPU [e0,e1,...]` with entries `X%@F`, `X%` or `off`, and the legacy
 * `cpu [X%,Y%]@F` (one clock for all); the list may hold spaces. */
static gboolean
gp_tegra_cpus (GpTegraParse * p)
{
  GString *list = g_string_new (NULL);
  guint start = p->i, j;
  gchar **entries = NULL, *close, *quoted;
  gdouble shared = NAN, load, freq;
  const gchar *q;
  gboolean ok = FALSE;

  for (j = p->i + 1; j < p->n; j++) {
    g_string_append (list, p->tok[j]);
    if (strchr (p->tok[j], ']') != NULL)
      break;
  }
  if (j >= p->n) {
    gp_tegra_fail (p, start, "CPU list has no closing ']' (line cut?)");
    goto out;
  }
  close = strchr (list->str, ']');
  if (close[1] != '\0') {
    q = close[1] == '@' ? gp_tegra_num (close + 2, &shared) : NULL;
    if (!gp_tegra_rest (q, "")) {
      quoted = gp_tegra_quote (close + 1);
      gp_tegra_fail (p, j, "CPU list ends in '%s', not ']' or ']@MHz'",
          quoted);
      g_free (quoted);
      goto out;
    }
  }
  *close = '\0';
  entries = g_strsplit (list->str + 1, ",", -1);
  if (g_strv_length (entries) > GP_TEGRA_MAX_CPUS) {
    gp_tegra_fail (p, start, "CPU list has over %d entries",
        GP_TEGRA_MAX_CPUS);
    goto out;
  }
  for (guint c = 0; entries[c] != NULL; c++) {
    if (strcmp (entries[c], "off") == 0) {
      gp_tegra_addf (p->s, 0, "", "CPU%u.state", c);
      gp_tegra_addf (p->s, NAN, "%", "CPU%u.load", c);
      gp_tegra_addf (p->s, NAN, "MHz", "CPU%u.freq", c);
      continue;
    }
    q = gp_tegra_num (entries[c], &load);
    freq = shared;
    if (q == NULL || *q != '%' ||
        (q[1] == '@' && !gp_tegra_rest (gp_tegra_num (q + 2, &freq), "")) ||
        (q[1] != '@' && q[1] != '\0')) {
      quoted = gp_tegra_quote (entries[c]);
      gp_tegra_fail (p, start, "CPU entry %u '%s' is not X%%@MHz, X%% "
          "or off", c, quoted);
      g_free (quoted);
      goto out;
    }
    gp_tegra_addf (p->s, 1, "", "CPU%u.state", c);
    gp_tegra_addf (p->s, load, "%", "CPU%u.load", c);
    gp_tegra_addf (p->s, freq, "MHz", "CPU%u.freq", c);
  }
  p->s->n_cpus = g_strv_length (entries);
  p->i = j + 1;
  ok = TRUE;
out:
  g_strfreev (entries);
  g_string_free (list, TRUE);
  return ok;
}

/* `MTS fg X% bg Y%` (JetPack 4, TX2 and Xavier). */
static gboolean
gp_tegra_mts (GpTegraParse * p)
{
  gdouble fg, bg;

  if (p->i + 4 >= p->n || strcmp (p->tok[p->i + 1], "fg") != 0 ||
      strcmp (p->tok[p->i + 3], "bg") != 0 ||
      !gp_tegra_rest (gp_tegra_num (p->tok[p->i + 2], &fg), "%") ||
      !gp_tegra_rest (gp_tegra_num (p->tok[p->i + 4], &bg), "%"))
    return gp_tegra_fail (p, p->i, "MTS is not 'fg X%% bg Y%%'");
  gp_tegra_add (p->s, "MTS.fg", fg, "%");
  gp_tegra_add (p->s, "MTS.bg", bg, "%");
  p->i += 5;
  return TRUE;
}

/* `name@valueC`: TRUE when @t is a temperature, added. */
static gboolean
gp_tegra_temp (GpTegraSample * s, const gchar * t)
{
  const gchar *at = strchr (t, '@');
  gdouble v;
  gchar *name;

  if (at == NULL || at == t)
    return FALSE;
  for (const gchar * c = t; c < at; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  if (!gp_tegra_rest (gp_tegra_num (at + 1, &v), "C"))
    return FALSE;
  name = g_strndup (t, at - t);
  gp_tegra_addf (s, v <= GP_TEGRA_TEMP_ABSENT ? NAN : v, "C", "temp.%s",
      name);
  g_free (name);
  return TRUE;
}

/* A rail's value, `cur[mW]/avg[mW][/max[mW]]` or `curmW` alone: the
 * count of values read (0 when @t is no rail value). */
static guint
gp_tegra_rail_value (const gchar * t, gdouble v[3])
{
  const gchar *q = t;
  guint n = 0;
  gboolean mw = FALSE;

  while (n < 3) {
    q = gp_tegra_num (q, &v[n]);
    if (q == NULL)
      return 0;
    n++;
    if (g_str_has_prefix (q, "mW")) {
      q += 2;
      mw = TRUE;
    }
    if (*q != '/')
      break;
    q++;
  }
  if (*q != '\0' || (n == 1 && !mw))
    return 0;
  return n;
}

/* An engine's value: `off`, `F`, `X%`, `X%@F`, `@F`, `X%@[f0,...]`,
 * `@[f0,...]`. FALSE when @t is none of these. */
static gboolean
gp_tegra_engine_value (const gchar * t, GpTegraEngineState * state,
    gdouble * load, gdouble * freq, gdouble gpc[GP_TEGRA_MAX_GPCS],
    guint * n_gpc)
{
  const gchar *q = t;

  *state = GP_TEGRA_ENGINE_ON;
  *load = *freq = NAN;
  *n_gpc = 0;
  if (strcmp (t, "off") == 0) {
    *state = GP_TEGRA_ENGINE_OFF;
    return TRUE;
  }
  if (*q != '@') {
    q = gp_tegra_num (q, load);
    if (q == NULL || *load < 0)
      return FALSE;
    if (*q == '\0') {           /* `F`: a clock alone */
      *freq = *load;
      *load = NAN;
      return TRUE;
    }
    if (*q++ != '%')
      return FALSE;
    if (*q == '\0')
      return TRUE;
    if (*q != '@')
      return FALSE;
  }
  q++;
  if (*q != '[')
    return gp_tegra_rest (gp_tegra_num (q, freq), "");
  q++;
  while (TRUE) {
    if (*n_gpc >= GP_TEGRA_MAX_GPCS)
      return FALSE;
    q = gp_tegra_num (q, &gpc[*n_gpc]);
    if (q == NULL)
      return FALSE;
    if (isnan (*freq) || gpc[*n_gpc] > *freq)
      *freq = gpc[*n_gpc];
    (*n_gpc)++;
    if (*q == ']')
      return q[1] == '\0';
    if (*q++ != ',')
      return FALSE;
  }
}

/* A name and the token after it: an engine, a rail, or (when the value
 * is neither) nothing, the name left unknown. FALSE only on a failure. */
static gboolean
gp_tegra_named (GpTegraParse * p, gboolean * taken)
{
  const gchar *name = p->tok[p->i], *v;
  gdouble rail[3], load, freq, gpc[GP_TEGRA_MAX_GPCS];
  GpTegraEngineState state;
  guint n, n_gpc;
  gchar *eng;
  gboolean fixed = strcmp (name, "EMC") == 0 || strcmp (name, "GR3D") == 0
      || strcmp (name, "EMC_FREQ") == 0 || strcmp (name, "GR3D_FREQ") == 0;

  *taken = FALSE;
  if ((v = gp_tegra_next (p, name)) == NULL)
    return FALSE;
  if (strchr (v, '/') != NULL || g_str_has_suffix (v, "mW")) {
    n = gp_tegra_rail_value (v, rail);
    if (n == 0)
      return gp_tegra_fail (p, p->i + 1, "rail %s is not CUR/AVG[/MAX] "
          "(mW)", name);
    eng = g_strdup (name);
    for (guint copy = 2; gp_tegra_sample_rail (p->s, eng, NULL, NULL, NULL);
        copy++) {
      g_free (eng);
      eng = g_strdup_printf ("%s#%u", name, copy);
    }
    gp_tegra_addf (p->s, rail[0], "mW", "rail.%s.cur", eng);
    gp_tegra_addf (p->s, n > 1 ? rail[1] : NAN, "mW", "rail.%s.avg", eng);
    if (n > 2)
      gp_tegra_addf (p->s, rail[2], "mW", "rail.%s.max", eng);
    g_free (eng);
    *taken = TRUE;
    p->i += 2;
    return TRUE;
  }
  if (!gp_tegra_engine_value (v, &state, &load, &freq, gpc, &n_gpc)) {
    if (fixed)
      return gp_tegra_fail (p, p->i + 1, "%s is not X%%@MHz, X%%, @MHz "
          "or @[MHz,...]", name);
    return TRUE;
  }
  eng = g_str_has_suffix (name, "_FREQ") ?
      g_strndup (name, strlen (name) - 5) : g_strdup (name);
  gp_tegra_addf (p->s, state == GP_TEGRA_ENGINE_ON, "", "%s.state", eng);
  gp_tegra_addf (p->s, load, "%", "%s.load", eng);
  gp_tegra_addf (p->s, freq, "MHz", "%s.freq", eng);
  for (guint g = 0; g < n_gpc; g++)
    gp_tegra_addf (p->s, gpc[g], "MHz", "%s.gpc%u.freq", eng, g);
  g_free (eng);
  *taken = TRUE;
  p->i += 2;
  return TRUE;
}

/* One token (and those its field takes) at p->i. */
static gboolean
gp_tegra_token (GpTegraParse * p, gboolean * saw_ram)
{
  const gchar *t = p->tok[p->i];
  gboolean taken;

  if (strcmp (t, "RAM") == 0) {
    *saw_ram = TRUE;
    return gp_tegra_ram (p);
  }
  if (strcmp (t, "SWAP") == 0)
    return gp_tegra_swap (p);
  if (strcmp (t, "IRAM") == 0)
    return gp_tegra_iram (p);
  if (g_ascii_strcasecmp (t, "CPU") == 0 && p->i + 1 < p->n &&
      p->tok[p->i + 1][0] == '[')
    return gp_tegra_cpus (p);
  if (strcmp (t, "MTS") == 0)
    return gp_tegra_mts (p);
  if (gp_tegra_temp (p->s, t)) {
    p->i++;
    return TRUE;
  }
  if (gp_tegra_is_name (t)) {
    if (!gp_tegra_named (p, &taken))
      return FALSE;
    if (taken)
      return TRUE;
  }
  p->s->n_unknown++;
  g_ptr_array_add (p->s->unknown, g_strdup (t));
  p->i++;
  return TRUE;
}

/* ---- the entry points ------------------------------------------------ */

GpTegraSample *
gp_tegrastats_parse_line (const gchar * line, GError ** error)
{
  GpTegraParse p = { 0, };
  GPtrArray *tokens = g_ptr_array_new ();
  gchar **all;
  gboolean saw_ram = FALSE, ok = TRUE;

  g_return_val_if_fail (line != NULL, NULL);
  all = g_strsplit_set (line, " \t\r\n", -1);
  for (guint k = 0; all[k] != NULL; k++)
    if (all[k][0] != '\0')
      g_ptr_array_add (tokens, all[k]);
  g_ptr_array_add (tokens, NULL);
  p.tok = (gchar **) tokens->pdata;
  p.n = tokens->len - 1;
  p.error = error;
  p.s = g_new0 (GpTegraSample, 1);
  p.s->fields = g_array_new (FALSE, FALSE, sizeof (GpTegraField));
  p.s->unknown = g_ptr_array_new_with_free_func (g_free);
  p.s->n_tokens = p.n;

  if (p.n == 0)
    ok = gp_tegra_fail (&p, 0, "empty line");
  else
    gp_tegra_timestamp (&p);
  while (ok && p.i < p.n)
    ok = gp_tegra_token (&p, &saw_ram);
  if (ok && !saw_ram)
    ok = gp_tegra_fail (&p, p.n, "no RAM field: not a tegrastats line");

  g_ptr_array_free (tokens, TRUE);
  g_strfreev (all);
  if (!ok) {
    gp_tegra_sample_free (p.s);
    return NULL;
  }
  return p.s;
}

void
gp_tegra_sample_free (GpTegraSample * s)
{
  if (s == NULL)
    return;
  for (guint k = 0; k < s->fields->len; k++)
    g_free (g_array_index (s->fields, GpTegraField, k).name);
  g_array_free (s->fields, TRUE);
  g_ptr_array_free (s->unknown, TRUE);
  g_free (s);
}

const GpTegraField *
gp_tegra_sample_field (const GpTegraSample * s, const gchar * name)
{
  for (guint k = 0; k < s->fields->len; k++) {
    const GpTegraField *f = &g_array_index (s->fields, GpTegraField, k);

    if (strcmp (f->name, name) == 0)
      return f;
  }
  return NULL;
}

gdouble
gp_tegra_sample_value (const GpTegraSample * s, const gchar * name)
{
  const GpTegraField *f = gp_tegra_sample_field (s, name);

  return f != NULL ? f->value : NAN;
}

gdouble
gp_tegra_sample_gr3d_load (const GpTegraSample * s)
{
  return gp_tegra_sample_value (s, "GR3D.load");
}

gdouble
gp_tegra_sample_emc_load (const GpTegraSample * s)
{
  return gp_tegra_sample_value (s, "EMC.load");
}

gboolean
gp_tegra_sample_cpu (const GpTegraSample * s, guint i, gdouble * load,
    gdouble * freq)
{
  gchar name[32];

  g_snprintf (name, sizeof (name), "CPU%u.state", i);
  if (i >= s->n_cpus || gp_tegra_sample_value (s, name) != 1)
    return FALSE;
  g_snprintf (name, sizeof (name), "CPU%u.load", i);
  if (load != NULL)
    *load = gp_tegra_sample_value (s, name);
  g_snprintf (name, sizeof (name), "CPU%u.freq", i);
  if (freq != NULL)
    *freq = gp_tegra_sample_value (s, name);
  return TRUE;
}

GpTegraEngineState
gp_tegra_sample_engine (const GpTegraSample * s, const gchar * name,
    gdouble * load, gdouble * freq)
{
  gchar *key = g_strconcat (name, ".state", NULL);
  const GpTegraField *f = gp_tegra_sample_field (s, key);
  GpTegraEngineState state = f == NULL ? GP_TEGRA_ENGINE_ABSENT :
      f->value == 1 ? GP_TEGRA_ENGINE_ON : GP_TEGRA_ENGINE_OFF;

  g_free (key);
  key = g_strconcat (name, ".load", NULL);
  if (load != NULL)
    *load = gp_tegra_sample_value (s, key);
  g_free (key);
  key = g_strconcat (name, ".freq", NULL);
  if (freq != NULL)
    *freq = gp_tegra_sample_value (s, key);
  g_free (key);
  return state;
}

gdouble
gp_tegra_sample_temp (const GpTegraSample * s, const gchar * sensor)
{
  for (guint k = 0; k < s->fields->len; k++) {
    const GpTegraField *f = &g_array_index (s->fields, GpTegraField, k);

    if (g_str_has_prefix (f->name, "temp.") &&
        g_ascii_strcasecmp (f->name + 5, sensor) == 0)
      return f->value;
  }
  return NAN;
}

gboolean
gp_tegra_sample_rail (const GpTegraSample * s, const gchar * name,
    gdouble * cur, gdouble * avg, gdouble * max)
{
  gchar *key = g_strconcat ("rail.", name, ".cur", NULL);
  const GpTegraField *f = gp_tegra_sample_field (s, key);

  g_free (key);
  if (f == NULL)
    return FALSE;
  if (cur != NULL)
    *cur = f->value;
  key = g_strconcat ("rail.", name, ".avg", NULL);
  if (avg != NULL)
    *avg = gp_tegra_sample_value (s, key);
  g_free (key);
  key = g_strconcat ("rail.", name, ".max", NULL);
  if (max != NULL)
    *max = gp_tegra_sample_value (s, key);
  g_free (key);
  return TRUE;
}
