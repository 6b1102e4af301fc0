/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: reading gst-profile sessions (src/ingest).
 *
 * libFuzzer feeds arbitrary bytes to gp_ingest_load_any_data () (UTF-8 and
 * depth checks, json-glib's parser, the schema dispatch and
 * gp_ingest_gstprofile (); a tegrastats log or nvidia-smi output, told by
 * gp_telemetry_sniff (), as a session of the machine alone, its rules
 * and verdict); seed it with the gst-profile captures in
 * tests/fixtures/gst-profile-sessions and the telemetry logs.
 * Besides "no crash, no leak, no undefined behaviour" (the sanitizers), it
 * checks what the rest of gstprof
 * relies on:
 * - a refusal is one line, in GP_SESSION_ERROR, that starts with the name
 *   given for the input;
 * - an imported session is complete: every number the model keeps is
 *   finite, every link summary and path names a link or element string,
 *   quantiles are ordered (p50 <= p95) where known;
 * - whatever was imported can be saved as a gstprof session and that file
 *   loads again (an import never produces a session gstprof cannot read).
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`), whose INGEST,
 * VERDICT and CORE lists name the sources it needs (the readers, the
 * telemetry, the rules and the verdict with the roofline's kit, the core).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/gp-ingest.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.json"

static void
check_session (GpSession * s)
{
  guint i;

  if (s->import_schema == NULL) {
    /* a gstprof/1 session through the dispatcher: fuzz-session.c covers
     * that reader */
    return;
  }
  if (g_strcmp0 (s->import_schema, GP_INGEST_SCHEMA_TEGRASTATS) == 0 ||
      g_strcmp0 (s->import_schema, GP_INGEST_SCHEMA_NVSMI) == 0) {
    /* a machine log alone: the machine and nothing else, and its rules
     * and Machine section never trip on what the log holds
     * (fuzz-telemetry.c covers the reading) */
    if (g_strcmp0 (s->mode, "analyze") != 0 || s->machine == NULL ||
        s->elements->len != 0 || s->import_missing != 0)
      abort ();
    gp_fuzz_check_number ("duration_s", s->duration_s);
    gp_rules_run (s);
    g_free (gp_verdict_format (s, NULL, GP_VERDICT_PLAIN));
    return;
  }
  if (g_strcmp0 (s->mode, "analyze") != 0 ||
      s->import_missing != GP_INGEST_GSTPROFILE_MISSING)
    abort ();
  gp_fuzz_check_number ("duration_s", s->duration_s);
  gp_fuzz_check_number ("window_s", s->window_s);
  gp_fuzz_check_number ("target_fps", s->target_fps);
  gp_fuzz_check_number ("frame_period_ms", s->frame_period_ms);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gboolean b;

    if (e->name == NULL || e->kind == NULL || e->factory == NULL ||
        e->parent == NULL || gp_session_find_element (s, e->name) == NULL)
      abort ();
    gp_element_get_prop_bool (e, "sync", &b);
  }
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);

    if (l->id == NULL || l->src == NULL || l->sink == NULL ||
        gp_session_find_link (s, l->id) == NULL)
      abort ();
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    gp_fuzz_check_quantiles (es->name, &es->self_ms);
    gp_fuzz_check_number ("self_total_ms", es->self_total_ms);
    gp_fuzz_check_number ("busy_pct", es->busy_pct);
    gp_fuzz_check_number ("share_pct", es->share_pct);
    if (gp_session_find_elem_summary (s, es->name) == NULL)
      abort ();
  }
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);

    gp_fuzz_check_quantiles (qs->name, &qs->residence_ms);
    if (qs->leaky == NULL)
      abort ();
  }
  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    if (ls->id == NULL)
      abort ();
    gp_fuzz_check_number ("link fps", ls->fps);
    gp_fuzz_check_number ("link bytes_per_s", ls->bytes_per_s);
  }
  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (p->source == NULL || p->sink == NULL)
      abort ();
    gp_fuzz_check_quantiles ("path", &p->latency_ms);
  }
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);

    gp_fuzz_check_number ("sink fps", ss->fps);
    gp_fuzz_check_number ("sink target_fps", ss->target_fps);
  }
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *ts = g_ptr_array_index (s->threads, i);

    if (ts->name == NULL)
      abort ();
    gp_fuzz_check_number ("thread cpu", ts->cpu_pct_mean);
  }
  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (ev->type == NULL || ev->source == NULL || ev->text == NULL)
      abort ();
    gp_fuzz_check_number ("event t", ev->t);
  }
  gp_session_sort_summaries (s);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpSession *s, *again;
  gchar *text;
  gsize len;

  s = gp_ingest_load_any_data ((const gchar *) data, (gssize) size, ORIGIN,
      &err);
  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_error_free (err);
    return 0;
  }
  if (err != NULL)
    abort ();

  check_session (s);
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("imported session, once saved, does not load: %s\n",
        err->message);
    abort ();
  }
  g_free (text);
  gp_session_free (again);
  gp_session_free (s);
  return 0;
}
