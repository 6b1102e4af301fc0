/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-telemetry.c: a saved tegrastats log or nvidia-smi output alone
 * as a session: the machine and nothing else (no pipeline was measured),
 * so that `gstprof analyze tegrastats.log` prints the Machine section and
 * what the machine rules find. The log itself is read by src/telemetry
 * (gp_telemetry_load_data), told by the same sniff that picked this
 * reader (gp_telemetry_sniff).
 */
#include <math.h>

#include "gp-ingest.h"
#include "gp-ingest-private.h"
#include "core/gp-json.h"
#include "telemetry/gp-telemetry.h"

/* tegrastats and `nvidia-smi dmon` print one sample a second unless asked
 * otherwise (--interval, -d); a --query-gpu loop's rows carry their own
 * timestamp when it was asked for. */
#define GP_INGEST_TELEMETRY_INTERVAL_S 1.0

/* The last sample's time, over every series. */
static gdouble
gp_ingest_telemetry_last (const GpMachine * m)
{
  gdouble last = 0;
  guint i, n;

  for (i = 0; i < m->series->len; i++) {
    const GpMachineSeries *sr = g_ptr_array_index (m->series, i);

    n = gp_machine_series_len (sr);
    if (n > 0 && gp_machine_series_t (sr, n - 1) > last)
      last = gp_machine_series_t (sr, n - 1);
  }
  return last;
}

static GpSession *
gp_ingest_telemetry_session (GpMachine * m, GpTelemetryKind kind)
{
  GpSession *s = gp_session_new ();

  g_free (s->mode);
  s->mode = g_strdup ("analyze");
  g_free (s->platform);
  s->platform = g_strdup (kind == GP_TELEMETRY_TEGRASTATS ? "jetson" :
      "dgpu");
  /* each sample covers the interval before it */
  s->duration_s = gp_ingest_telemetry_last (m) +
      GP_INGEST_TELEMETRY_INTERVAL_S;
  s->import_schema = kind == GP_TELEMETRY_TEGRASTATS ?
      GP_INGEST_SCHEMA_TEGRASTATS : GP_INGEST_SCHEMA_NVSMI;
  s->import_detail = g_strdup ("A machine log alone: no pipeline was "
      "measured, so the verdict is the Machine section and the machine "
      "rules (HW, MEMBW, THERMAL, CPUIO).");
  s->machine = m;
  return s;
}

/* The session of @m, or (@m NULL) @terr as a session reader's error. */
static GpSession *
gp_ingest_telemetry_result (GpMachine * m, GpTelemetryKind kind,
    GError * terr, GError ** error)
{
  if (m == NULL) {
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_PARSE, "%s",
        terr->message);
    g_clear_error (&terr);
    return NULL;
  }
  return gp_ingest_telemetry_session (m, kind);
}

GpSession *
gp_ingest_telemetry_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error)
{
  GpTelemetryKind kind = gp_telemetry_sniff (data, length);
  GError *terr = NULL;
  GpMachine *m;

  m = gp_telemetry_load_data (data, length, origin ? origin : "<data>",
      GP_INGEST_TELEMETRY_INTERVAL_S, &terr);
  return gp_ingest_telemetry_result (m, kind, terr, error);
}

GpSession *
gp_ingest_telemetry_read (GpIngestStream * st, GError ** error)
{
  GpTelemetryKind kind = gp_telemetry_sniff (st->head, st->n_head);
  GpTelemetryReader *r;
  GError *terr = NULL;
  GpMachine *m;

  if (kind == GP_TELEMETRY_NONE)
    return gp_ingest_telemetry_data (st->head, st->n_head, st->origin, error);
  /* streamed: the machine's series are bounded, the log is not */
  r = gp_telemetry_reader_new (kind, st->origin,
      GP_INGEST_TELEMETRY_INTERVAL_S);
  if (!gp_ingest_stream_lines (st, gp_telemetry_reader_lines (r), error)) {
    gp_telemetry_reader_free (r);
    return NULL;
  }
  m = gp_telemetry_reader_finish (r, &terr);
  return gp_ingest_telemetry_result (m, kind, terr, error);
}
