/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-big-session.h: a session.json text as large as asked, for the
 * reader's value budget (tests/core/test-session.c, built without the
 * tests' library) and analyze's memory (tests/cli/test-cli.c): header
 * only.
 */
#ifndef __GP_TEST_BIG_SESSION_H__
#define __GP_TEST_BIG_SESSION_H__

#include <glib.h>

/* A session text with @n_series machine series of @n_samples samples
 * each, sample k of series j at t = k / 10 s holding j + k / 1000 (the
 * truth the reader must give back), one sample per line, and
 * @n_windows windows of a 20-element series. */
static inline GString *
gp_test_big_session (guint n_series, guint n_samples, guint n_windows)
{
  GString *t = g_string_new ("{\n\"schema\": \"gstprof/1\",\n"
      "\"series\": [");
  guint i, j, k;

  for (i = 0; i < n_windows; i++) {
    g_string_append_printf (t, "%s\n{\"t0\": %u, \"t1\": %u, "
        "\"elements\": {", i ? "," : "", i, i + 1);
    for (j = 0; j < 20; j++)
      g_string_append_printf (t, "%s\"e%u\": {\"buffers\": 1, "
          "\"self_ms\": 0.5, \"self_ms_p50\": 0.5, \"self_ms_p95\": 0.5}",
          j ? ", " : "", j);
    g_string_append (t, "}}");
  }
  g_string_append (t, "],\n\"machine\": {\"series\": [");
  for (j = 0; j < n_series; j++) {
    g_string_append_printf (t, "%s\n{\"name\": \"thread.cpu/%u w\", "
        "\"unit\": \"%%\", \"source\": \"procfs\", \"limit\": null, "
        "\"t\": [", j ? "," : "", j);
    for (k = 0; k < n_samples; k++)
      g_string_append_printf (t, "%s%g", k ? ", " : "", k / 10.0);
    g_string_append (t, "],\n\"v\": [");
    for (k = 0; k < n_samples; k++)
      g_string_append_printf (t, "%s\n%g", k ? "," : "", j + k / 1000.0);
    g_string_append (t, "]}");
  }
  g_string_append (t, "]}\n}\n");
  return t;
}

#endif /* __GP_TEST_BIG_SESSION_H__ */
