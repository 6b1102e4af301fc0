/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-profile.c: `gstprof ds profile [--duration 30s] -- COMMAND`
 * (nsys profile with the capture recipe's trace flags, then `nsys stats
 * --report R --format csv` per report, each saved as DIR/R.csv) and
 * `gstprof ds profile --from-stats DIR`: the Markdown report of
 * src/deepstream/gp-ds-profile.
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "deepstream/gp-ds-coverage.h"
#include "deepstream/gp-ds-profile.h"
#include "deepstream/gp-ds-hw.h"
#include "deepstream/gp-nsys-sqlite.h"

/* what nsys says when it may not read the GPU's counters: the capture is
 * taken again without GPU metrics */
static const gchar *const gp_cmd_ds_profile_refusals[] = {
  "ERR_NVGPUCTRPERM", "gpu-metrics", "GPU Metrics", "GPU metrics", NULL
};

/* A file's report name from its name ("run_nvtx_sum.csv"), or NULL. */
static const gchar *
gp_cmd_ds_profile_hint (const gchar * file)
{
  static const gchar *const more[] = { "nvtx_pushpop_sum", "nvtxsum",
    "cudaapisum", "gpukernsum", "gpumemtimesum", "gpumemsizesum", "osrtsum",
    NULL
  };
  guint i;

  for (i = 0; more[i]; i++)
    if (strstr (file, more[i]))
      return more[i];
  for (i = 0; gp_ds_profile_reports[i]; i++)
    if (strstr (file, gp_ds_profile_reports[i]))
      return gp_ds_profile_reports[i];
  return NULL;
}

static gboolean
gp_cmd_ds_profile_read (GpNsysStats ** all, const gchar * path,
    const gchar * hint, GError ** error)
{
  gchar *text;
  gsize len;
  GpNsysStats *s;

  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;
  s = gp_nsys_parse (text, len, hint, path, error);
  g_free (text);
  if (s == NULL)
    return FALSE;
  if (*all == NULL)
    *all = s;
  else
    gp_nsys_stats_merge (*all, s);
  return TRUE;
}

/* Every .csv/.txt of @dir; the first SQLite export in @sqlite, or where
 * GPU metrics are that gstprof does not read, in @why. */
static GpNsysStats *
gp_cmd_ds_profile_dir (const gchar * dir, gchar ** sqlite, gchar ** why,
    GError ** error)
{
  GDir *d = g_dir_open (dir, 0, error);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GpNsysStats *all = NULL;
  const gchar *n;
  guint i;

  if (d == NULL)
    return NULL;
  while ((n = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (n));
  g_dir_close (d);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (i = 0; i < names->len; i++) {
    const gchar *name = *(gchar **) & g_ptr_array_index (names, i);
    gchar *path = g_build_filename (dir, name, NULL);

    if (strstr (name, "gpu_metric_util") && *why == NULL)
      *why = g_strdup_printf ("%s is a recipe's output; gstprof reads GPU "
          "metrics from the SQLite export (`nsys export --type sqlite "
          "REPORT.nsys-rep`, put beside the stats)", path);
    else if (g_str_has_suffix (name, ".sqlite") && *sqlite == NULL)
      *sqlite = g_strdup (path);
    else if ((g_str_has_suffix (name, ".csv")
            || g_str_has_suffix (name, ".txt"))
        && g_file_test (path, G_FILE_TEST_IS_REGULAR)
        && !gp_cmd_ds_profile_read (&all, path,
            gp_cmd_ds_profile_hint (name), error)) {
      g_free (path);
      g_ptr_array_unref (names);
      gp_nsys_stats_free (all);
      return NULL;
    }
    g_free (path);
  }
  g_ptr_array_unref (names);
  if (all == NULL)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
        "%s: no nsys stats output (*.csv, *.txt)", dir);
  return all;
}

/* The GPU metrics of the SQLite export at @path into @p: an export without
 * them is said in the report, one that does not read is an error. */
static gboolean
gp_cmd_ds_profile_metrics (GpDsProfile * p, const gchar * path,
    GError ** error)
{
  GError *e = NULL;

  p->metrics = gp_nsys_sqlite_load (path, &e);
  if (p->metrics != NULL)
    return TRUE;
  if (!g_error_matches (e, GP_NSYS_ERROR, GP_NSYS_ERROR_NO_METRICS)) {
    g_propagate_error (error, e);
    return FALSE;
  }
  g_free (p->metrics_why);
  p->metrics_why = g_strdup (e->message);
  g_error_free (e);
  return TRUE;
}

static gboolean
gp_cmd_ds_profile_refused_metrics (const gchar * err_text)
{
  guint i;

  for (i = 0; gp_cmd_ds_profile_refusals[i]; i++)
    if (strstr (err_text, gp_cmd_ds_profile_refusals[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* `nsys profile` with the capture recipe's flags (GPU metrics when
 * @metrics); its stderr in @err_text, TRUE when the report was written */
static gboolean
gp_cmd_ds_profile_capture (gchar ** cmd, gdouble secs, const gchar * base,
    gboolean metrics, gchar ** err_text, GError ** error)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  gchar *rep = g_strdup_printf ("%s.nsys-rep", base);
  gint status = 0;
  gboolean ok;
  guint i;

  g_ptr_array_add (argv, g_strdup ("nsys"));
  g_ptr_array_add (argv, g_strdup ("profile"));
  g_ptr_array_add (argv, g_strdup ("--trace=cuda,nvtx,osrt"));
  if (metrics)
    g_ptr_array_add (argv, g_strdup ("--gpu-metrics-devices=all"));
  g_ptr_array_add (argv, g_strdup ("--cuda-memory-usage=true"));
  g_ptr_array_add (argv, g_strdup ("--force-overwrite=true"));
  g_ptr_array_add (argv, g_strdup_printf ("--duration=%.0f", ceil (secs)));
  g_ptr_array_add (argv, g_strdup_printf ("--output=%s", base));
  for (i = 0; cmd[i]; i++)
    g_ptr_array_add (argv, g_strdup (cmd[i]));
  g_ptr_array_add (argv, NULL);
  g_clear_pointer (err_text, g_free);
  ok = g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH
      | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err_text, &status,
      error);
  if (ok && (!g_spawn_check_exit_status (status, NULL)
          || !g_file_test (rep, G_FILE_TEST_EXISTS))) {
    g_strstrip (*err_text);
    g_strdelimit (*err_text, "\n", ' ');
    g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
        "nsys profile failed (no %s): %s", rep, *err_text);
    ok = FALSE;
  }
  g_ptr_array_unref (argv);
  g_free (rep);
  return ok;
}

/* the capture recipe: nsys profile, then nsys stats per report */
static GpNsysStats *
gp_cmd_ds_profile_live (GpDsProfile * p, gchar ** cmd, gdouble secs,
    const gchar * out, GError ** error)
{
  gchar *base = g_build_filename (out, "report", NULL);
  gchar *rep = g_strdup_printf ("%s.nsys-rep", base);
  gchar *db = g_strdup_printf ("%s.sqlite", base);
  gchar *err_text = NULL;
  GpNsysStats *all = NULL;
  GError *refused = NULL;
  gint status = 0;
  guint i;

  if (!gp_cmd_ds_profile_capture (cmd, secs, base, TRUE, &err_text,
          &refused)) {
    if (err_text == NULL || !gp_cmd_ds_profile_refused_metrics (err_text)) {
      g_propagate_error (error, refused);
      goto out;
    }
    /* the counters are the administrator's: capture without them */
    p->metrics_why = g_strdup_printf ("nsys may not read this GPU's "
        "counters (%s); the capture was taken again without "
        "--gpu-metrics-devices. Run as root, or load the driver with "
        "NVreg_RestrictProfilingToAdminUsers=0", err_text);
    g_clear_error (&refused);
    if (!gp_cmd_ds_profile_capture (cmd, secs, base, FALSE, &err_text,
            error))
      goto out;
  }
  for (i = 0; gp_ds_profile_reports[i]; i++) {
    const gchar *r = gp_ds_profile_reports[i];
    gchar *sargv[] = { (gchar *) "nsys", (gchar *) "stats",
      (gchar *) "--force-export=true", (gchar *) "--report", (gchar *) r,
      (gchar *) "--format", (gchar *) "csv", rep, NULL
    };
    gchar *text = NULL, *file;
    GpNsysStats *s;

    if (!g_spawn_sync (NULL, sargv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
            &text, NULL, &status, error)) {
      g_clear_pointer (&all, gp_nsys_stats_free);
      goto out;
    }
    file = g_strdup_printf ("%s/%s.csv", out, r);
    g_file_set_contents (file, text, -1, NULL);
    s = gp_nsys_parse (text, strlen (text), r, file, NULL);
    if (s != NULL) {
      if (all == NULL)
        all = s;
      else
        gp_nsys_stats_merge (all, s);
    }
    g_free (file);
    g_free (text);
  }
  if (all == NULL) {
    g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
        "nsys stats gave no report for %s", rep);
  } else if (p->metrics_why == NULL) {
    /* nsys stats leaves the SQLite export beside the report */
    if (!g_file_test (db, G_FILE_TEST_IS_REGULAR))
      p->metrics_why = g_strdup_printf ("nsys stats left no SQLite export "
          "(%s)", db);
    else if (!gp_cmd_ds_profile_metrics (p, db, error))
      g_clear_pointer (&all, gp_nsys_stats_free);
  }
out:
  g_free (err_text);
  g_free (db);
  g_free (rep);
  g_free (base);
  return all;
}

/* The GPU and its ceilings as `ds hw` has them: from a saved query or
 * tegrastats log (@file), else this machine's when the capture runs here
 * (@live); its first GPU, the one nvinfer's gpu-id 0 names. */
static gboolean
gp_cmd_ds_profile_hw (GpDsProfile * p, const gchar * file, gboolean live,
    GError ** e)
{
  GError *why = NULL;
  GPtrArray *gpus;

  if (file == NULL && !live)
    return TRUE;
  gpus = file ? gp_ds_hw_load (file, e) : gp_ds_hw_probe (&why);
  if (gpus == NULL) {
    p->hardware_why = why ? g_strdup (why->message) : NULL;
    g_clear_error (&why);
    return file == NULL;
  }
  g_ptr_array_set_size (gpus, 1);
  p->hardware = gp_ds_hw_report (gpus);
  g_ptr_array_unref (gpus);
  return TRUE;
}

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
  g_set_prgname ("gstprof ds profile");
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
  if (!gp_cmd_ds_profile_hw (&p, nvsmi, from == NULL, &err)) {
    code = gp_cli_fail ("ds profile", "--nvsmi: %s", err->message);
    goto out;
  }
  if (from) {
    gchar *db = NULL;

    p.stats = gp_cmd_ds_profile_dir (from, &db, &p.metrics_why, &err);
    p.source = g_strdup_printf ("the saved nsys stats in %s", from);
    if (p.stats && db && !gp_cmd_ds_profile_metrics (&p, db, &err))
      g_clear_pointer (&p.stats, gp_nsys_stats_free);
    g_free (db);
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
    p.duration_s = secs;
    p.stats = gp_cmd_ds_profile_live (&p, rest, secs, out, &err);
    p.source = g_strdup_printf ("nsys profile of `%s` (%.0f s), reports "
        "in %s", rest[0], secs, out);
    tmp = NULL;
  }
  if (p.stats == NULL) {
    code = gp_cli_fail ("ds profile", "%s", err->message);
    goto out;
  }
  if (session) {
    const GpNsysTable *nvtx;

    p.session = gp_ingest_load_any (session, &err);
    if (p.session == NULL) {
      code = gp_cli_fail ("ds profile", "%s", err ? err->message : session);
      goto out;
    }
    p.elements = gp_ds_elements_from_session (p.session);
    nvtx = gp_nsys_stats_find (p.stats, "nvtx_sum");
    if (nvtx && nvtx->skipped == NULL)
      gp_ds_coverage_from_nvtx (p.elements, nvtx);
    else
      gp_ds_coverage_from_table (p.elements);
    gp_ds_coverage_add_session (p.elements, p.session);
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
