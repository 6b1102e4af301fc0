/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-check.c: `gstprof check`: what this machine can measure. Never
 * fails: exit 0 whatever it finds. `gstprof check LAUNCH`: whether the
 * launch string builds and links here, without running it (exit 0 yes,
 * 3 no), in one line `gstprof fix` reads back (GP_FIX_LINKS_SAID_*).
 */
#include "gp-cli.h"
#include "capture/gp-capture.h"
#include "fix/gp-fix.h"
#include "report/gp-check.h"

#include <stdio.h>

/* `gstprof check LAUNCH`: GStreamer initialised. */
static gint
gp_cmd_check_launch (const gchar * launch)
{
  gchar *why = NULL;
  GpFixLinks links = gp_fix_links_here (launch, &why);
  gint code = links == GP_FIX_LINKS_OK ? GP_EXIT_CLEAN : GP_EXIT_USAGE;

  if (links == GP_FIX_LINKS_OK)
    printf ("%s (built with GStreamer's parser and this machine's "
        "elements; not run)\n", GP_FIX_LINKS_SAID_YES);
  else
    printf ("%s%s\n", links == GP_FIX_LINKS_REFUSED ? GP_FIX_LINKS_SAID_NO :
        GP_FIX_LINKS_SAID_UNKNOWN, why);
  g_free (why);
  return code;
}

gint
gp_cmd_check (gint argc, gchar ** argv)
{
  GOptionEntry entries[] = { {NULL} };
  GpCaptureOptions opts;
  GOptionContext *ctx;
  GError *err = NULL, *gst_err = NULL;
  gboolean env_ok;
  gchar *report, *user_plugin_path;

  ctx = g_option_context_new ("[\"LAUNCH\"]");
  g_option_context_set_summary (ctx, "Reports what this machine can "
      "measure: GStreamer version, whether the\ngstprof tracer plugin is "
      "found (and where, for run and wrap, and for a program\ngiven only "
      "GST_TRACERS=gstprof), platform (jetson, dgpu, generic),\ntegrastats, "
      "nvidia-smi and nsys, hardware elements registered, and whether\n"
      "--cpu works. With a launch string: whether it builds and links\n"
      "here (GStreamer's parser, this machine's elements and their pads'\n"
      "caps), without running it.");
  g_option_context_set_description (ctx, "Exit code: always 0; what is "
      "missing is reported, not failed on. With a\nlaunch string: 0 when "
      "it builds and links, 3 when it does not (one line says\nwhy).\n");
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

  if (argc >= 2 && gst_init_check (NULL, NULL, &gst_err)) {
    /* unquoted, the shell split it: the words make it again */
    gchar *launch = g_strjoinv (" ", argv + 1);
    gint code = gp_cmd_check_launch (launch);

    g_free (launch);
    g_clear_error (&err);
    g_free (user_plugin_path);
    return code;
  }
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
