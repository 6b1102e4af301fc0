/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-check.c: `gstprof check`: what this machine can measure. Never
 * fails: exit 0 whatever it finds.
 */
#include "gp-cli.h"
#include "capture/gp-capture.h"
#include "report/gp-check.h"

#include <stdio.h>

gint
gp_cmd_check (gint argc, gchar ** argv)
{
  GOptionEntry entries[] = { {NULL} };
  GpCaptureOptions opts;
  GOptionContext *ctx;
  GError *err = NULL, *gst_err = NULL;
  gboolean env_ok;
  gchar *report, *user_plugin_path;

  ctx = g_option_context_new (NULL);
  g_option_context_set_summary (ctx, "Reports what this machine can "
      "measure: GStreamer version, whether the\ngstprof tracer plugin is "
      "found (and where, for run and wrap, and for a program\ngiven only "
      "GST_TRACERS=gstprof), platform (jetson, dgpu, generic),\ntegrastats, "
      "nvidia-smi and nsys, hardware elements registered, and whether\n"
      "--cpu works.");
  g_option_context_set_description (ctx, "Exit code: always 0; what is "
      "missing is reported, not failed on.\n");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    /* Even a stray argument does not make check fail: say so, go on. */
    g_printerr ("gstprof check: %s (ignored)\n", err->message);
    g_clear_error (&err);
  }
  g_option_context_free (ctx);

  /* The same plugin search as `run`, so "found" here means `run` finds it;
   * but the check itself is not traced. */
  user_plugin_path = g_strdup (g_getenv ("GST_PLUGIN_PATH_1_0") ?
      g_getenv ("GST_PLUGIN_PATH_1_0") : g_getenv ("GST_PLUGIN_PATH"));
  gp_capture_options_init (&opts);
  env_ok = gp_capture_prepare_env (&opts, &err);
  g_unsetenv ("GST_TRACERS");

  if (!gst_init_check (NULL, NULL, &gst_err)) {
    printf ("GStreamer:   cannot initialise (%s)\n", gst_err ?
        gst_err->message : "unknown reason");
    g_clear_error (&gst_err);
    g_clear_error (&err);
    g_free (user_plugin_path);
    return GP_EXIT_CLEAN;
  }
  report = gp_check_report (env_ok ? NULL : err ? err->message :
      "the tracer's environment could not be prepared", user_plugin_path);
  fputs (report, stdout);
  g_free (report);
  g_free (user_plugin_path);
  g_clear_error (&err);
  return GP_EXIT_CLEAN;
}
