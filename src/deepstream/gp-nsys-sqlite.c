/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys-sqlite.c: GPU metrics from an nsys SQLite export
 * (gp-nsys-sqlite.h). The columns are found by name (PRAGMA table_info)
 * among the spellings releases used, so a query only ever names columns
 * from the lists below.
 */
#include "gp-nsys-sqlite.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

static gboolean
gp_nsys_sqlite_fail (GError ** error, gint code, const gchar * origin,
    const gchar * what, sqlite3 * db)
{
  g_set_error (error, GP_NSYS_ERROR, code, "%s: %s%s%s", origin, what,
      db ? ": " : "", db ? sqlite3_errmsg (db) : "");
  return FALSE;
}

static gboolean
gp_nsys_sqlite_has_table (sqlite3 * db, const gchar * table)
{
  sqlite3_stmt *st = NULL;
  gboolean has = FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM sqlite_master WHERE type IN "
          "('table', 'view') AND name = ?1", -1, &st, NULL) == SQLITE_OK
      && sqlite3_bind_text (st, 1, table, -1, SQLITE_STATIC) == SQLITE_OK)
    has = sqlite3_step (st) == SQLITE_ROW;
  sqlite3_finalize (st);
  return has;
}

/* The first of @names (NULL-terminated) that @table has, or NULL. */
static const gchar *
gp_nsys_sqlite_column (sqlite3 * db, const gchar * table,
    const gchar * const *names)
{
  gchar *sql = g_strdup_printf ("PRAGMA table_info(%s)", table);
  sqlite3_stmt *st = NULL;
  const gchar *found = NULL;
  guint best = G_MAXUINT, i;

  if (sqlite3_prepare_v2 (db, sql, -1, &st, NULL) == SQLITE_OK) {
    while (sqlite3_step (st) == SQLITE_ROW) {
      const gchar *col = (const gchar *) sqlite3_column_text (st, 1);

      for (i = 0; col && names[i] && i < best; i++)
        if (g_ascii_strcasecmp (col, names[i]) == 0) {
          best = i;
          found = names[i];
        }
    }
  }
  sqlite3_finalize (st);
  g_free (sql);
  return found;
}

/* META_DATA_CAPTURE's sampling frequency, NAN when absent */
static gdouble
gp_nsys_sqlite_rate (sqlite3 * db)
{
  sqlite3_stmt *st = NULL;
  gdouble hz = NAN;

  if (gp_nsys_sqlite_has_table (db, "META_DATA_CAPTURE")
      && sqlite3_prepare_v2 (db, "SELECT value FROM META_DATA_CAPTURE WHERE "
          "name = 'GPU_METRICS_OPTIONS:SAMPLING_FREQUENCY'", -1, &st,
          NULL) == SQLITE_OK && sqlite3_step (st) == SQLITE_ROW) {
    gdouble v = sqlite3_column_type (st, 0) == SQLITE_NULL ? NAN :
        sqlite3_column_double (st, 0);

    if (v > 0 && isfinite (v))
      hz = v;
  }
  sqlite3_finalize (st);
  return hz;
}

/* A metric as GPU_METRICS names it: its (typeId, metricId), 0 for a typeId
 * a layout does not have */
typedef struct
{
  gint64 type, id;
} GpNsysSqliteId;

typedef struct
{
  GpNsysSqliteId key;
  gchar *name;                  /* the smallest name given to the pair */
  GpNsysMetricSamples *last;    /* the samples last added to, on */
  guint last_gpu;               /* last_gpu */
} GpNsysSqliteName;

static guint
gp_nsys_sqlite_id_hash (gconstpointer p)
{
  const GpNsysSqliteId *k = p;

  return g_int64_hash (&k->type) * 31 + g_int64_hash (&k->id);
}

static gboolean
gp_nsys_sqlite_id_equal (gconstpointer a, gconstpointer b)
{
  const GpNsysSqliteId *x = a, *y = b;

  return x->type == y->type && x->id == y->id;
}

static void
gp_nsys_sqlite_name_free (gpointer p)
{
  GpNsysSqliteName *n = p;

  g_free (n->name);
  g_free (n);
}

/* one row of TARGET_INFO_GPU_METRICS into @names: the smallest name of
 * its pair kept */
static void
gp_nsys_sqlite_name_row (GHashTable * names, sqlite3_stmt * st)
{
  const gchar *text = (const gchar *) sqlite3_column_text (st, 2);
  GpNsysSqliteId key = { sqlite3_column_int64 (st, 0),
    sqlite3_column_int64 (st, 1)
  };
  GpNsysSqliteName *n;
  gchar *valid;

  if (text == NULL)
    return;
  valid = g_utf8_make_valid (text, -1);
  n = g_hash_table_lookup (names, &key);
  if (n == NULL) {
    n = g_new0 (GpNsysSqliteName, 1);
    n->key = key;
    n->name = valid;
    g_hash_table_insert (names, &n->key, n);
  } else if (strcmp (valid, n->name) < 0) {
    g_free (n->name);
    n->name = valid;
  } else {
    g_free (valid);
  }
}

/* TARGET_INFO_GPU_METRICS: one name per (typeId, metricId), so that a name
 * listed twice counts no sample twice; by metricId alone (@type NULL)
 * where either table has no typeId. NULL when the query fails. */
static GHashTable *
gp_nsys_sqlite_names (sqlite3 * db, const gchar * type, const gchar * id,
    const gchar * name)
{
  gchar *sql = g_strdup_printf ("SELECT %s, %s, %s FROM "
      "TARGET_INFO_GPU_METRICS", type ? type : "0", id, name);
  GHashTable *names = g_hash_table_new_full (gp_nsys_sqlite_id_hash,
      gp_nsys_sqlite_id_equal, NULL, gp_nsys_sqlite_name_free);
  sqlite3_stmt *st = NULL;
  gint rc = sqlite3_prepare_v2 (db, sql, -1, &st, NULL);

  g_free (sql);
  if (rc == SQLITE_OK)
    while ((rc = sqlite3_step (st)) == SQLITE_ROW)
      gp_nsys_sqlite_name_row (names, st);
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE) {
    g_hash_table_unref (names);
    return NULL;
  }
  return names;
}

GpNsysMetrics *
gp_nsys_sqlite_read (sqlite3 * db, const gchar * origin, GError ** error)
{
  static const gchar *const ts_names[] = { "timestamp", "start", NULL };
  static const gchar *const type_names[] = { "typeId", NULL };
  static const gchar *const id_names[] = { "metricId", "id", NULL };
  static const gchar *const name_names[] = { "metricName", "name", NULL };
  static const gchar *const value_names[] = { "value", NULL };
  const gchar *ts, *type, *id, *value, *info_type, *info_id, *info_name;
  sqlite3_stmt *st = NULL;
  GHashTable *names;
  GpNsysMetrics *m;
  gboolean by_type;
  gchar *sql;
  gint rc;

  if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM sqlite_master", -1, &st,
          NULL) != SQLITE_OK || sqlite3_step (st) != SQLITE_ROW) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, origin, "not an SQLite "
        "database", db);
    sqlite3_finalize (st);
    return NULL;
  }
  g_clear_pointer (&st, sqlite3_finalize);
  if (!gp_nsys_sqlite_has_table (db, "GPU_METRICS")) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_NO_METRICS, origin, "no "
        "GPU_METRICS table (captured without --gpu-metrics-devices)", NULL);
    return NULL;
  }
  if (!gp_nsys_sqlite_has_table (db, "TARGET_INFO_GPU_METRICS")) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, origin, "GPU_METRICS "
        "without TARGET_INFO_GPU_METRICS: the metrics have no names", NULL);
    return NULL;
  }
  ts = gp_nsys_sqlite_column (db, "GPU_METRICS", ts_names);
  type = gp_nsys_sqlite_column (db, "GPU_METRICS", type_names);
  id = gp_nsys_sqlite_column (db, "GPU_METRICS", id_names);
  value = gp_nsys_sqlite_column (db, "GPU_METRICS", value_names);
  info_type = gp_nsys_sqlite_column (db, "TARGET_INFO_GPU_METRICS",
      type_names);
  info_id = gp_nsys_sqlite_column (db, "TARGET_INFO_GPU_METRICS", id_names);
  info_name = gp_nsys_sqlite_column (db, "TARGET_INFO_GPU_METRICS",
      name_names);
  if (ts == NULL || id == NULL || value == NULL || info_id == NULL
      || info_name == NULL) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, origin, "GPU_METRICS "
        "needs timestamp, metricId and value, TARGET_INFO_GPU_METRICS "
        "metricId and metricName", NULL);
    return NULL;
  }
  by_type = type != NULL && info_type != NULL;
  names = gp_nsys_sqlite_names (db, by_type ? info_type : NULL, info_id,
      info_name);
  sql = g_strdup_printf ("SELECT %s, %s, %s, %s FROM GPU_METRICS", ts,
      type ? type : "0", id, value);
  rc = names ? sqlite3_prepare_v2 (db, sql, -1, &st, NULL) : SQLITE_ERROR;
  g_free (sql);
  if (rc != SQLITE_OK) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, origin,
        "GPU_METRICS does not read", db);
    if (names)
      g_hash_table_unref (names);
    return NULL;
  }
  m = gp_nsys_metrics_new (origin);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW) {
    gint tt = sqlite3_column_type (st, 0), vt = sqlite3_column_type (st, 3);
    gint64 type_id = sqlite3_column_int64 (st, 1);
    GpNsysSqliteId key = { by_type ? type_id : 0,
      sqlite3_column_int64 (st, 2)
    };
    GpNsysSqliteName *n = g_hash_table_lookup (names, &key);
    guint gpu = (guint) (type_id & 0xff);

    if (n == NULL || (tt != SQLITE_INTEGER && tt != SQLITE_FLOAT)
        || (vt != SQLITE_INTEGER && vt != SQLITE_FLOAT))
      continue;
    if (n->last == NULL || n->last_gpu != gpu) {
      n->last = gp_nsys_metrics_samples (m, gpu, n->name);
      n->last_gpu = gpu;
    }
    gp_nsys_metrics_add_sample (m, n->last, sqlite3_column_int64 (st, 0),
        sqlite3_column_double (st, 3));
  }
  g_hash_table_unref (names);
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, origin,
        "GPU_METRICS does not read", db);
    gp_nsys_metrics_free (m);
    return NULL;
  }
  gp_nsys_metrics_finish (m);
  if (m->n_samples == 0) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_NO_METRICS, origin, "no GPU "
        "metric sample in GPU_METRICS", NULL);
    gp_nsys_metrics_free (m);
    return NULL;
  }
  m->rate_hz = gp_nsys_sqlite_rate (db);
  return m;
}

GpNsysMetrics *
gp_nsys_sqlite_load (const gchar * path, GError ** error)
{
  sqlite3 *db = NULL;
  GpNsysMetrics *m = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)) {
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, path, "no such file",
        NULL);
    return NULL;
  }
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    gp_nsys_sqlite_fail (error, GP_NSYS_ERROR_PARSE, path, "not an SQLite "
        "database", db);
  else
    m = gp_nsys_sqlite_read (db, path, error);
  sqlite3_close (db);
  return m;
}
