/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli-args.c: helpers for the subcommands' argument handling.
 */
#include "gp-cli.h"

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
