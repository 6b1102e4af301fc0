/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-profile.c: `gstprof ds profile [--duration 30s] -- COMMAND`
 * and `gstprof ds profile --from-stats DIR`: the options, then the capture
 * recipe or the saved stats (src/deepstream/gp-ds-profile-capture.h) and
 * the Markdown report of src/deepstream/gp-ds-profile printed.
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"

#include <math.h>
#include <stdio.h>

#include "deepstream/gp-ds-profile-capture.h"

gint
gp_cmd_ds_profile (gint argc, gchar ** argv)
{
  gchar *from = NULL, *session = NULL, *out = NULL, *dur = NULL;
  gchar *fps = NULL, *plateau = NULL, *nvsmi = NULL, **rest = NULL;
  GOptionEntry entries[] = {
    {"from-stats", 0, 0, G_OPTION_ARG_FILENAME, &from,
        "saved nsys stats outputs (one file per report, or several in one)",
        "DIR"},
    {"duration", 0, 0, G_OPTION_ARG_STRING, &dur,
        "the capture's length (default 30s)", "TIME"},
    {"out", 0, 0, G_OPTION_ARG_FILENAME, &out,
        "where the capture and its reports go (default: a temporary folder)",
        "DIR"},
    {"session", 0, 0, G_OPTION_ARG_FILENAME, &session,
        "a gstprof session of the pipeline: per-element time beside NVTX",
        "DIR"},
    {"fps", 0, 0, G_OPTION_ARG_STRING, &fps, "end-to-end fps measured",
        "FPS"},
    {"plateau", 0, 0, G_OPTION_ARG_STRING, &plateau,
        "the inference plateau's fps (gstprof ds sweep)", "FPS"},
    {"nvsmi", 0, 0, G_OPTION_ARG_FILENAME, &nvsmi,
        "a saved nvidia-smi --query-gpu csv with its header, or a "
        "tegrastats log (default with -- COMMAND: this machine's)", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[-- COMMAND...]");
  GpDsProfile p = { 0 };
  GError *err = NULL;
  gchar *md, *tmp = NULL;
  gint code = GP_EXIT_CLEAN;
  gdouble secs = 30;

  p.duration_s = p.fps = p.plateau = NAN;
  g_option_context_set_summary (ctx, "Profiles a DeepStream pipeline with "
      "Nsight Systems (or reads its saved\nnsys stats) and reports per "
      "plugin, copies, kernels and the bound.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds profile", "%s", err->message);
    goto out;
  }
  if (!gp_cli_positive_option ("ds profile", "fps", fps, &p.fps, &code)
      || !gp_cli_positive_option ("ds profile", "plateau", plateau,
          &p.plateau, &code))
    goto out;
  if (dur && !gp_cli_parse_duration (dur, &secs, &err)) {
    code = gp_cli_fail ("ds profile", "--duration: %s", err->message);
    goto out;
  }
  if (dur)
    p.duration_s = secs;
  if ((from == NULL) == (rest == NULL || rest[0] == NULL)) {
    code = gp_cli_fail ("ds profile", "give either --from-stats DIR or "
        "-- COMMAND");
    goto out;
  }
  if (!gp_ds_profile_hardware (&p, nvsmi, from == NULL, &err)) {
    code = gp_cli_fail ("ds profile", "--nvsmi: %s", err->message);
    goto out;
  }
  if (from) {
    gp_ds_profile_read_stats (&p, from, &err);
  } else {
    gchar *nsys = g_find_program_in_path ("nsys");

    if (nsys == NULL) {
      code = gp_cli_fail ("ds profile", "nsys is not in PATH: install "
          "Nsight Systems, or give --from-stats DIR");
      goto out;
    }
    g_free (nsys);
    if (out == NULL)
      out = tmp = g_dir_make_tmp ("gstprof-ds-XXXXXX", &err);
    if (out == NULL || g_mkdir_with_parents (out, 0755) != 0) {
      code = gp_cli_fail ("ds profile", "--out: %s", err ? err->message :
          out);
      goto out;
    }
    gp_ds_profile_capture (&p, rest, secs, out, &err);
    tmp = NULL;
  }
  if (p.stats == NULL) {
    code = gp_cli_fail ("ds profile", "%s", err->message);
    goto out;
  }
  if (session) {
    GpSession *s = gp_ingest_load_any (session, &err);

    if (s == NULL) {
      code = gp_cli_fail ("ds profile", "%s", err ? err->message : session);
      goto out;
    }
    gp_ds_profile_add_session (&p, s);
  }
  md = gp_ds_profile_markdown (&p);
  fputs (md, stdout);
  g_free (md);
out:
  g_clear_error (&err);
  gp_nsys_stats_free (p.stats);
  if (p.session)
    gp_session_free (p.session);
  if (p.elements)
    g_ptr_array_unref (p.elements);
  g_free (p.hardware);
  g_free (p.hardware_why);
  gp_nsys_metrics_free (p.metrics);
  g_free (p.metrics_why);
  g_free (p.source);
  g_free (from);
  g_free (session);
  g_free (out);
  g_free (dur);
  g_free (fps);
  g_free (plateau);
  g_free (nvsmi);
  g_free (tmp);
  g_strfreev (rest);
  g_option_context_free (ctx);
  return code;
}
