/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-profile-capture.c: what `gstprof ds profile` reports on
 * (gp-ds-profile-capture.h): the capture recipe (nsys profile with its
 * trace flags, GPU metrics where the driver lets them be read, then `nsys
 * stats --report R --format csv` per report, each saved as DIR/R.csv and
 * read, the GPU metrics from the SQLite export nsys stats leaves), or
 * the stats saved in a folder; the GPU and its ceilings; a gstprof
 * session's elements beside NVTX.
 */
#include "gp-ds-profile-capture.h"

#include <math.h>
#include <string.h>

#include "gp-ds-coverage.h"
#include "gp-ds-hw.h"
#include "gp-nsys-sqlite.h"
#include "core/gp-file.h"

/* what nsys says when it may not read the GPU's counters: the capture is
 * taken again without GPU metrics */
static const gchar *const gp_ds_profile_capture_refusals[] = {
  "ERR_NVGPUCTRPERM", "gpu-metrics", "GPU Metrics", "GPU metrics", NULL
};

/* A file's report name from its name ("run_nvtx_sum.csv"), or NULL. */
static const gchar *
gp_ds_profile_capture_hint (const gchar * file)
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
gp_ds_profile_capture_read (GpNsysStats ** all, const gchar * path,
    const gchar * hint, GError ** error)
{
  gchar *text;
  gsize len;
  GpNsysStats *s;

  text = gp_file_read_capped (path, GP_NSYS_STATS_MAX_BYTES,
      "an nsys stats report", &len, error);
  if (text == NULL)
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
gp_ds_profile_capture_dir (const gchar * dir, gchar ** sqlite, gchar ** why,
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
        && !gp_ds_profile_capture_read (&all, path,
            gp_ds_profile_capture_hint (name), error)) {
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
gp_ds_profile_capture_metrics (GpDsProfile * p, const gchar * path,
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
gp_ds_profile_capture_refused_metrics (const gchar * err_text)
{
  guint i;

  for (i = 0; gp_ds_profile_capture_refusals[i]; i++)
    if (strstr (err_text, gp_ds_profile_capture_refusals[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* `nsys profile` with the capture recipe's flags (GPU metrics when
 * @metrics); its stderr in @err_text, TRUE when the report was written */
static gboolean
gp_ds_profile_capture_capture (gchar ** cmd, gdouble secs, const gchar * base,
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
gp_ds_profile_capture_live (GpDsProfile * p, gchar ** cmd, gdouble secs,
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

  if (!gp_ds_profile_capture_capture (cmd, secs, base, TRUE, &err_text,
          &refused)) {
    if (err_text == NULL || !gp_ds_profile_capture_refused_metrics (err_text)) {
      g_propagate_error (error, refused);
      goto out;
    }
    /* the counters are the administrator's: capture without them */
    p->metrics_why = g_strdup_printf ("nsys may not read this GPU's "
        "counters (%s); the capture was taken again without "
        "--gpu-metrics-devices. Run as root, or load the driver with "
        "NVreg_RestrictProfilingToAdminUsers=0", err_text);
    g_clear_error (&refused);
    if (!gp_ds_profile_capture_capture (cmd, secs, base, FALSE, &err_text,
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
    else if (!gp_ds_profile_capture_metrics (p, db, error))
      g_clear_pointer (&all, gp_nsys_stats_free);
  }
out:
  g_free (err_text);
  g_free (db);
  g_free (rep);
  g_free (base);
  return all;
}

gboolean
gp_ds_profile_hardware (GpDsProfile * p, const gchar * file, gboolean live,
    GError ** e)
{
  GError *why = NULL;
  GPtrArray *gpus;

  if (file == NULL && !live)
    return TRUE;
  gpus = file ? gp_ds_hw_load (file, NULL, e) : gp_ds_hw_probe (&why);
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

gboolean
gp_ds_profile_read_stats (GpDsProfile * p, const gchar * dir,
    GError ** error)
{
  gchar *db = NULL;

  p->stats = gp_ds_profile_capture_dir (dir, &db, &p->metrics_why, error);
  p->source = g_strdup_printf ("the saved nsys stats in %s", dir);
  if (p->stats && db && !gp_ds_profile_capture_metrics (p, db, error))
    g_clear_pointer (&p->stats, gp_nsys_stats_free);
  g_free (db);
  return p->stats != NULL;
}

gboolean
gp_ds_profile_capture (GpDsProfile * p, gchar ** cmd, gdouble secs,
    const gchar * out, GError ** error)
{
  p->duration_s = secs;
  p->stats = gp_ds_profile_capture_live (p, cmd, secs, out, error);
  p->source = g_strdup_printf ("nsys profile of `%s` (%.0f s), reports "
      "in %s", cmd[0], secs, out);
  return p->stats != NULL;
}

void
gp_ds_profile_add_session (GpDsProfile * p, GpSession * session)
{
  const GpNsysTable *nvtx;

  p->session = session;
  p->elements = gp_ds_elements_from_session (session);
  nvtx = p->stats ? gp_nsys_stats_find (p->stats, "nvtx_sum") : NULL;
  if (nvtx && nvtx->skipped == NULL)
    gp_ds_coverage_from_nvtx (p->elements, nvtx);
  else
    gp_ds_coverage_from_table (p->elements);
  gp_ds_coverage_add_session (p->elements, session);
}
