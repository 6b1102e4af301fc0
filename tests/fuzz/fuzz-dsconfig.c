/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: DeepStream's INI and YAML configs
 * (src/deepstream, gp-ds-config.c).
 *
 * The first byte picks the format, the rest is the file. Seeded with the
 * DeepStream configs of GP_FIXTURES/telemetry. Besides "no crash, no leak,
 * no undefined behaviour", it checks:
 * - a refusal is one line that starts with the name given for the input;
 * - what loads gives its bytes back unchanged (load then save is the file);
 * - every key of every group, set to a new value, reads back as that value
 *   and changes no line count; set back, the text is the input again;
 * - a key added to the first group reads back, and adding it again
 *   changes nothing;
 * - the config's kind is one of the kinds, and a test app's sources are
 *   words without blanks at their ends.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <stdlib.h>
#include <string.h>

#include "deepstream/gp-ds-config.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.cfg"

static guint
count_lines (const gchar * t)
{
  guint n = 0;

  for (; *t; t++)
    n += *t == '\n';
  return n;
}

static void
check_kind (const GpDsConfig * c)
{
  gchar **sources = gp_ds_config_testapp_sources (c);
  guint i;

  if (gp_ds_config_kind (c) > GP_DS_KIND_TRACKER)
    abort ();
  for (i = 0; sources[i]; i++) {
    gsize n = strlen (sources[i]);

    if (n == 0 || g_ascii_isspace (sources[i][0])
        || g_ascii_isspace (sources[i][n - 1]) || strchr (sources[i], ';'))
      abort ();
  }
  g_strfreev (sources);
}

int LLVMFuzzerTestOneInput (const guint8 * data, gsize size);

int
LLVMFuzzerTestOneInput (const guint8 * data, gsize size)
{
  GpDsConfigFormat format;
  GpDsConfig *c;
  GError *err = NULL;
  const gchar *loaded;
  gchar *text;
  gchar **groups;
  gsize len;
  guint g, k, lines;
  gboolean changed;

  if (size < 1)
    return 0;
  format = data[0] & 1 ? GP_DS_CONFIG_YAML : GP_DS_CONFIG_INI;
  c = gp_ds_config_parse (ORIGIN, (const gchar *) data + 1, size - 1, format,
      &err);
  if (c == NULL) {
    gp_fuzz_check_error (err, ORIGIN ":", FALSE);
    g_error_free (err);
    return 0;
  }
  loaded = gp_ds_config_text (c, &len);
  if (len != size - 1 || memcmp (loaded, data + 1, len) != 0) {
    g_printerr ("load then save is not the input\n");
    abort ();
  }
  check_kind (c);
  /* valid past the edits below */
  text = g_strdup (loaded);
  lines = count_lines (text);
  groups = gp_ds_config_groups (c);
  for (g = 0; groups[g] != NULL; g++) {
    gchar **keys = gp_ds_config_keys (c, groups[g]);

    for (k = 0; keys[k] != NULL; k++) {
      gchar *old = gp_ds_config_get (c, groups[g], keys[k]), *back;

      if (old == NULL)
        continue;
      if (!gp_ds_config_set (c, groups[g], keys[k], "77", NULL, &err)) {
        gp_fuzz_check_error (err, ORIGIN ":", FALSE);
        g_clear_error (&err);
        g_free (old);
        continue;
      }
      back = gp_ds_config_get (c, groups[g], keys[k]);
      if (g_strcmp0 (back, "77") != 0 ||
          count_lines (gp_ds_config_text (c, NULL)) != lines) {
        g_printerr ("[%s] %s: set 77, read '%s'\n", groups[g], keys[k],
            back);
        abort ();
      }
      g_free (back);
      if (gp_ds_config_set (c, groups[g], keys[k], old, NULL, NULL) &&
          strcmp (gp_ds_config_text (c, NULL), text) != 0 &&
          strlen (old) > 0) {
        /* the old value set back gives the text back, unless it was
         * written quoted or spaced (the same value, other bytes) */
        gchar *again = gp_ds_config_get (c, groups[g], keys[k]);

        if (g_strcmp0 (again, old) != 0) {
          g_printerr ("[%s] %s: set back, read '%s'\n", groups[g], keys[k],
              again);
          abort ();
        }
        g_free (again);
      }
      g_free (old);
    }
    g_strfreev (keys);
  }
  if (groups[0] != NULL) {
    gchar *v;

    if (gp_ds_config_set (c, groups[0], "gstprof-fuzz", "1", NULL, &err)) {
      v = gp_ds_config_get (c, groups[0], "gstprof-fuzz");
      if (g_strcmp0 (v, "1") != 0 || !gp_ds_config_set (c, groups[0],
              "gstprof-fuzz", "1", &changed, NULL) || changed) {
        g_printerr ("[%s] added key not read back or not idempotent\n",
            groups[0]);
        abort ();
      }
      g_free (v);
    } else {
      gp_fuzz_check_error (err, ORIGIN ":", FALSE);
      g_clear_error (&err);
    }
  }
  g_strfreev (groups);
  g_free (text);
  gp_ds_config_free (c);
  return 0;
}
