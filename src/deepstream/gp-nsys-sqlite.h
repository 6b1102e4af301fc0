/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys-sqlite.h: the GPU metrics of an Nsight Systems SQLite export
 * (`nsys export --type sqlite`, or the .sqlite `nsys stats` leaves beside
 * the report): GPU_METRICS(timestamp, typeId, metricId, value) joined to
 * TARGET_INFO_GPU_METRICS(typeId, metricId, metricName) on both ids, the
 * device the low byte of typeId, samples before the capture's start
 * dropped; the sampling rate from META_DATA_CAPTURE's
 * GPU_METRICS_OPTIONS:SAMPLING_FREQUENCY. Links SQLite: its own library
 * (gpnsysdb), so that only the gstprof binary and its tests do.
 */
#ifndef __GP_NSYS_SQLITE_H__
#define __GP_NSYS_SQLITE_H__

#include <glib.h>

#include "gp-nsys.h"
#include "gp-nsys-metrics.h"

G_BEGIN_DECLS

struct sqlite3;

/* The GPU metrics of the export at @path (opened read-only). NULL and a
 * one-line @error naming @path: GP_NSYS_ERROR_NO_METRICS when the export
 * has no GPU_METRICS table or no sample in it (captured without
 * --gpu-metrics-devices), GP_NSYS_ERROR_PARSE when it is no SQLite
 * database or its tables lack the columns read. */
GpNsysMetrics *gp_nsys_sqlite_load (const gchar * path, GError ** error);
/* The same from an open database; @origin names it in errors. */
GpNsysMetrics *gp_nsys_sqlite_read (struct sqlite3 *db, const gchar * origin,
    GError ** error);

G_END_DECLS

#endif /* __GP_NSYS_SQLITE_H__ */
