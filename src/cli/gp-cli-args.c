/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli-args.c: helpers for the subcommands' argument handling.
 */
#include "gp-cli.h"
#include "telemetry/gp-models.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

gint
gp_cli_fail (const gchar * cmd, const gchar * format, ...)
{
  va_list args;
  gchar *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line, always: scripts read the reason with `head -1`, and a
   * GError from GStreamer or json-glib may carry line breaks. */
  g_strstrip (g_strdelimit (msg, "\r\n", ' '));
  g_printerr ("gstprof%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", msg);
  g_free (msg);
  return GP_EXIT_USAGE;
}

gboolean
gp_cli_parse_duration (const gchar * text, gdouble * out, GError ** error)
{
  static const struct
  {
    const gchar *suffix;
    gdouble scale;
  } units[] = {
    {"", 1.0}, {"s", 1.0}, {"ms", 1e-3}, {"m", 60.0}, {"min", 60.0},
    {"h", 3600.0},
  };
  gchar *number, *end = NULL;
  gsize len;
  gdouble v;
  guint i, dots;

  /* Digits and one dot, then a unit: g_ascii_strtod alone would also take
   * "inf", "nan", hex, exponents and leading blanks. */
  if (text == NULL)
    goto bad;
  len = strspn (text, "0123456789.");
  for (i = 0, dots = 0; i < len; i++)
    dots += text[i] == '.';
  if (len == 0 || dots > 1)
    goto bad;
  number = g_strndup (text, len);
  v = g_ascii_strtod (number, &end);
  if (end != number + len || !isfinite (v)) {
    g_free (number);
    goto bad;
  }
  g_free (number);
  for (i = 0; i < G_N_ELEMENTS (units); i++) {
    if (strcmp (text + len, units[i].suffix) == 0) {
      *out = v * units[i].scale;
      return TRUE;
    }
  }

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "'%s' is not a duration (use 10s, 500ms, 2m, or a number of seconds)",
      text ? text : "");
  return FALSE;
}

gboolean
gp_cli_positive_option (const gchar * cmd, const gchar * name,
    const gchar * text, gdouble * out, gint * code)
{
  gchar *end = NULL;

  *out = NAN;
  if (text == NULL)
    return TRUE;
  *out = g_ascii_strtod (text, &end);
  if (end != text && *end == '\0' && isfinite (*out) && *out > 0)
    return TRUE;
  *code = gp_cli_fail (cmd, "--%s: '%s' is not a number above 0", name,
      text);
  return FALSE;
}

gboolean
gp_cli_parse_si (const gchar * text, gdouble * out)
{
  static const gchar prefixes[] = "kMGTP";
  gchar *end = NULL;
  const gchar *p;
  gdouble v;

  if (text == NULL || (!g_ascii_isdigit (*text) && *text != '.'))
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v) || v < 0)
    return FALSE;
  if (*end != '\0') {
    p = strchr (prefixes, *end);
    if (p == NULL || end[1] != '\0')
      return FALSE;
    v *= pow (1e3, (p - prefixes) + 1);
  }
  *out = v;
  return TRUE;
}

gboolean
gp_cli_si_option (const gchar * cmd, const gchar * name, const gchar * text,
    gdouble * out, gint * code)
{
  *out = NAN;
  if (text == NULL || (gp_cli_parse_si (text, out) && *out > 0))
    return TRUE;
  *code = gp_cli_fail (cmd, "--%s: '%s' is not a number above 0 "
      "(digits, an optional exponent and k, M, G, T or P)", name, text);
  return FALSE;
}

void
gp_cli_roofline_work_entries (GOptionContext * ctx, GpCliRooflineWork * w)
{
  GOptionEntry entries[] = {
    {"model", 0, 0, G_OPTION_ARG_STRING, &w->model,
        "the network on the accelerator (gstprof roofline --list)", "NAME"},
    {"ops", 0, 0, G_OPTION_ARG_STRING, &w->ops,
        "operations per frame (FLOPs = 2 x MACs), instead of --model",
        "OPS"},
    {"bytes", 0, 0, G_OPTION_ARG_STRING, &w->bytes,
        "bytes per frame (default: the model's estimate)", "BYTES"},
    {"fps", 0, 0, G_OPTION_ARG_STRING, &w->fps,
        "frames per second achieved (default: the session's)", "FPS"},
    {"precision", 0, 0, G_OPTION_ARG_STRING, &w->precision,
        "int8, fp16 (default) or fp32", "P"},
    {"target", 0, 0, G_OPTION_ARG_STRING, &w->target,
        "the accelerator (\"AGX Orin 64GB\", \"Tesla T4\")", "NAME"},
    {NULL}
  };

  /* GLib copies the rows: only the strings and @w must outlive them. */
  g_option_context_add_main_entries (ctx, entries, NULL);
}

gboolean
gp_cli_roofline_work_ask (const gchar * cmd, const GpCliRooflineWork * w,
    GpRooflineAsk * ask, gint * code)
{
  ask->target = w->target;
  ask->model = w->model;
  ask->precision = w->precision;
  ask->peak_ops = ask->peak_bw = ask->sms = ask->bus_bits = NAN;
  if (!gp_cli_si_option (cmd, "ops", w->ops, &ask->ops, code)
      || !gp_cli_si_option (cmd, "bytes", w->bytes, &ask->bytes, code)
      || !gp_cli_si_option (cmd, "fps", w->fps, &ask->fps, code))
    return FALSE;
  if (w->precision && gp_precision_bytes (w->precision) == 0) {
    *code = gp_cli_fail (cmd, "--precision: '%s' is none of int8, fp16, "
        "fp32", w->precision);
    return FALSE;
  }
  if (w->model && gp_model_find (w->model) == NULL) {
    *code = gp_cli_fail (cmd, "--model: '%s' is no model gstprof knows "
        "(gstprof roofline --list; or --ops and --bytes)", w->model);
    return FALSE;
  }
  return TRUE;
}

void
gp_cli_roofline_work_clear (GpCliRooflineWork * w)
{
  g_free (w->model);
  g_free (w->ops);
  g_free (w->bytes);
  g_free (w->fps);
  g_free (w->precision);
  g_free (w->target);
}
