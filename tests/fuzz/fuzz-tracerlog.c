/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: logs of GStreamer's own tracers (src/ingest,
 * gp-ingest-tracerlog.c).
 *
 * libFuzzer feeds arbitrary bytes to gp_ingest_tracerlog_data () (line
 * splitting, the prefix search, the field scanner, every record handler,
 * gzip when the bytes start with its magic, the windows and the session
 * built at the end) and to the scanner alone on the first line; seed it
 * with the real samples in tests/ingest/tracerlog (decompressed, and their
 * first lines). Besides "no crash, no leak, no undefined behaviour" (the
 * sanitizers), it checks what the rest of gstprof relies on:
 * - a refusal is one line in GP_SESSION_ERROR that starts with the name
 *   given for the input;
 * - a session is complete: every number the model keeps is finite,
 *   quantiles are ordered where known, the series within its bound;
 * - it saves as a gstprof session that loads again.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/gp-ingest.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.log"

static void
check_session (GpSession * s)
{
  guint i;

  if (g_strcmp0 (s->import_schema, GP_INGEST_SCHEMA_TRACERLOG) != 0 ||
      s->import_detail == NULL || gp_session_n_windows (s) > 512)
    abort ();
  gp_fuzz_check_number ("duration_s", s->duration_s);
  gp_fuzz_check_number ("target_fps", s->target_fps);
  gp_fuzz_check_number ("process cpu", s->process.cpu_pct_mean);
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    gp_fuzz_check_quantiles (es->name, &es->self_ms);
    gp_fuzz_check_number ("self_total_ms", es->self_total_ms);
    gp_fuzz_check_number ("busy_pct", es->busy_pct);
    gp_fuzz_check_number ("share_pct", es->share_pct);
  }
  for (i = 0; i < s->queue_summaries->len; i++)
    gp_fuzz_check_quantiles ("queue", &((GpQueueSummary *)
            g_ptr_array_index (s->queue_summaries, i))->residence_ms);
  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    gp_fuzz_check_number ("link fps", ls->fps);
    gp_fuzz_check_number ("link bytes_per_s", ls->bytes_per_s);
    gp_fuzz_check_number ("link media_per_s", ls->media_per_s);
    if (gp_session_find_link (s, ls->id) == NULL)
      abort ();
  }
  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    gp_fuzz_check_quantiles ("path", &p->latency_ms);
    gp_fuzz_check_number ("path mean", p->mean_ms);
  }
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    gp_fuzz_check_number ("thread cpu", t->cpu_pct_mean);
    gp_fuzz_check_number ("thread cpu max", t->cpu_pct_max);
  }
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);

    gp_fuzz_check_number ("sink fps", ss->fps);
    gp_fuzz_check_number ("sink media", ss->media_per_s);
  }
  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (ev->type == NULL || ev->source == NULL || ev->text == NULL)
      abort ();
    gp_fuzz_check_number ("event t", ev->t);
  }
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpSession *s, *again;
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *types = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *values = g_ptr_array_new_with_free_func (g_free);
  const guint8 *nl = memchr (data, '\n', size);
  gchar *name = NULL, *text;
  gsize len;

  if (gp_ingest_tracerlog_scan ((const gchar *) data,
          nl ? (gsize) (nl - data) : size, &name, keys, types, values) &&
      (name == NULL || keys->len != values->len || keys->len != types->len))
    abort ();
  g_free (name);
  g_ptr_array_unref (keys);
  g_ptr_array_unref (types);
  g_ptr_array_unref (values);

  s = gp_ingest_tracerlog_data ((const gchar *) data, size, ORIGIN, &err);
  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_error_free (err);
    return 0;
  }
  check_session (s);
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("imported log, once saved, does not load: %s\n",
        err->message);
    abort ();
  }
  g_free (text);
  gp_session_free (again);
  gp_session_free (s);
  return 0;
}
