/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz seeds: writes sessions with every section filled through
 * the model and gp_session_save (), so the seeds always follow the schema
 * this build writes. Usage: make-seeds DIR */
#include "core/gp-session.h"

static JsonObject *
object_from (const gchar * text)
{
  JsonParser *p = json_parser_new ();
  JsonObject *o = NULL;

  if (json_parser_load_from_data (p, text, -1, NULL))
    o = json_object_ref (json_node_get_object (json_parser_get_root (p)));
  g_object_unref (p);
  return o;
}

static GpSession *
make_full (void)
{
  GpSession *s = gp_session_new ();
  GpElement *e;
  GpElementSummary *es;
  GpQueueSummary *qs;
  GpLinkSummary *ls;
  GpPath *p;
  GpThreadSummary *ts;
  GpSinkSummary *ss;
  GpFinding *f;
  JsonObject *w;

  s->launch = g_strdup ("videotestsrc is-live=true ! queue ! "
      "identity sleep-time=8000 ! fakesink sync=false");
  g_free (s->started);
  s->started = g_strdup ("2024-05-01T12:00:00Z");
  s->duration_s = 4.0;
  g_free (s->gstreamer);
  s->gstreamer = g_strdup ("1.22.0");
  s->exit_code = 1;

  e = gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  e->is_bin = TRUE;
  e = gp_session_add_element (s, "videotestsrc0", "videotestsrc",
      "pipeline0", "source");
  e->props = object_from ("{\"is-live\": true, \"pattern\": \"smpte\", "
      "\"num-buffers\": -1}");
  e = gp_session_add_element (s, "queue0", "queue", "pipeline0", "queue");
  e->props = object_from ("{\"max-size-buffers\": 200, \"leaky\": \"no\"}");
  e = gp_session_add_element (s, "identity0", "identity", "pipeline0",
      "filter");
  e->props = object_from ("{\"sleep-time\": 8000, \"sync\": false}");
  e = gp_session_add_element (s, "fakesink0", "fakesink", "pipeline0",
      "sink");
  e->props = object_from ("{\"sync\": false}");
  gp_session_add_link (s, "videotestsrc0.src", "queue0.sink",
      "video/x-raw, format=(string)I420, framerate=(fraction)30/1", NULL);
  gp_session_add_link (s, "queue0.src", "identity0.sink", NULL, NULL);
  gp_session_add_link (s, "identity0.src", "fakesink0.sink", NULL,
      "memory:NVMM");
  g_ptr_array_add (s->hw_elements, g_strdup ("nvv4l2decoder"));

  es = gp_session_add_elem_summary (s, "identity0");
  es->self_ms = (GpQuantiles) {
  8.06, 8.12, 8.2, 8.9};
  es->buffers = 120;
  es->self_total_ms = 967.2;
  es->busy_pct = 24.2;
  es->handler_ms = 96.0;
  es->handler_calls = 120;
  es->handler_busy_pct = 2.4;
  es->share_pct = 97.5;
  g_ptr_array_add (es->threads, g_strdup ("queue0:src"));
  es = gp_session_add_elem_summary (s, "fakesink0");
  es->buffers = 120;
  es->cpu_ms = 0.5;
  es->cpu_buffers = 120;
  es->wait_ms = (GpQuantiles) {
  0.01, 0.02, 0.03, 0.1};
  es->wait_total_ms = 1.5;
  es = gp_session_add_elem_summary (s, "appsrc0");
  es->queued_mb_max = 12.5;
  es->queued_mb_end = 3.25;
  es->queued_limit_bytes = 200000;
  es->queued_blocks = TRUE;
  qs = gp_session_add_queue_summary (s, "queue0");
  qs->residence_ms = (GpQuantiles) {
  0.1, 0.2, 0.3, 0.5};
  qs->level_pct_mean = 0.5;
  qs->level_pct_max = 1;
  qs->level_buffers_max = 2;
  ls = gp_session_add_link_summary (s, "videotestsrc0.src->queue0.sink");
  ls->fps = 30.0;
  ls->no_pts = 3;
  ls->rtp = TRUE;
  ls->rtp_expected = 122;
  ls->rtp_received = 120;
  ls->rtp_restarts = 1;
  ls->probe_ms = 812.5;
  ls->probe_pushes = 118;
  ls->probe_busy_pct = 20.3;
  p = gp_session_add_path (s, "videotestsrc0.src", "fakesink0");
  p->latency_ms = (GpQuantiles) {
  8.3, 8.5, 9, 9.5};
  p->matched = 118;
  p->unmatched = 2;
  p->mean_ms = 8.4;
  p->exact = 100;
  gp_session_add_interlatency (s, "videotestsrc0.src", "identity0");
  ts = gp_session_add_thread (s, 4242, "queue0:src");
  ts->cpu_pct_mean = 3.5;
  ts->cpu_pct_max = 5;
  ts->run_delay_pct = 1.25;
  g_ptr_array_add (ts->elements, g_strdup ("identity0"));
  ts->blocked_in = g_strdup ("fakesink0");
  ts->blocked_ms = 12.5;
  ss = gp_session_add_sink (s, "fakesink0");
  g_free (ss->media);
  ss->media = g_strdup ("video");
  ss->media_per_s = 0.99;
  ss->bytes_per_s = 3.4e6;
  ss->first_s = 0.05;
  ss->fps = 29.9;
  ss->target_fps = 30;
  ss->buffers = 120;
  s->target_fps = 30;
  s->frame_period_ms = 1000.0 / 30;
  w = object_from ("{\"t0\": 0.0, \"t1\": 0.25, \"elements\": "
      "{\"identity0\": {\"buffers\": 8, \"self_ms_p50\": 8.1, "
      "\"self_ms_p95\": 8.2}}, \"links\": {\"videotestsrc0.src->queue0.sink\":"
      " {\"fps\": 32.0, \"bytes_per_s\": 1.5e6}}, \"queues\": {\"queue0\": "
      "{\"level_pct_mean\": 0.5, \"level_pct_max\": 1.0, \"dropped\": 0}}, "
      "\"threads\": {\"queue0:src\": {\"cpu_pct\": 3.0}}, \"paths\": "
      "{\"videotestsrc0.src->fakesink0\": {\"latency_ms_p50\": 8.3, "
      "\"latency_ms_p95\": 8.5, \"matched\": 8, \"unmatched\": 0}}}");
  gp_session_add_window (s, w);
  json_object_unref (w);
  gp_session_add_event (s, 0.01, "state", "pipeline0", "PAUSED -> PLAYING");
  gp_session_add_event (s, 3.9, "eos", "pipeline0", "");
  gp_session_add_event (s, 1.0, "qos", "fakesink0", "dropped")->data =
      object_from ("{\"processed\": 30, \"dropped\": 2, \"jitter_ns\": "
      "1500000, \"live\": true, \"format\": \"buffers\"}");
  g_free (s->reached);
  s->reached = g_strdup ("PLAYING");
  g_free (s->end);
  s->end = g_strdup ("duration");
  s->stop_s = 4.0;
  s->drain_s = 0.02;
  s->events_dropped = 3;
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("fakesink0", "PAUSED",
          "VOID_PENDING", TRUE));
  f = gp_session_add_finding (s, "HOT", "high", "identity0 takes 97 %");
  gp_finding_add_target (f, "identity0");
  json_object_set_double_member (f->evidence, "share_pct", 97.5);
  f->fix_patch = gp_launch_patch_new ();
  g_ptr_array_add (f->fix_patch, gp_launch_op_set_int ("identity0",
          "sleep-time", 0));
  f->verified_on = g_strdup ("x86_64");
  return s;
}

/* trace.bin seeds (gp-trace.c): two threads, nested pushes, a list, a
 * pull and an event; and one with no thread */
static gboolean
make_traces (const gchar * dir)
{
  GpTrace *t = gp_trace_new ();
  GpTraceThread *th;
  GpTraceSlice sl[] = {
    {2000, 3000, 2, 1, 2, GP_TRACE_KIND_BUFFER},
    {1500, 4000, 1, 1, 1, GP_TRACE_KIND_BUFFER},
    {1000, 5000, 0, 8, 0, GP_TRACE_KIND_BUFFER},
    {5000, 5100, 1, 0, 0, GP_TRACE_KIND_EVENT},
    {6000, 9000, 0, 1, 0, GP_TRACE_KIND_PULL},
  };
  GError *err = NULL;
  gchar *path;
  gboolean ok;

  t->seconds = 10;
  t->t0 = 500;
  t->now = 20000;
  g_ptr_array_add (t->elements, g_strdup ("videotestsrc0"));
  g_ptr_array_add (t->elements, g_strdup ("identity0"));
  g_ptr_array_add (t->elements, g_strdup ("fakesink0"));
  th = gp_trace_add_thread (t, 1234, "videotestsrc0:s", 3);
  g_array_append_vals (th->slices, sl, G_N_ELEMENTS (sl));
  th = gp_trace_add_thread (t, 1235, "queue0:src", 0);
  g_array_append_vals (th->slices, sl, 2);
  path = g_build_filename (dir, "small.bin", NULL);
  ok = gp_trace_save (t, path, &err);
  g_free (path);
  g_ptr_array_set_size (t->threads, 0);
  path = g_build_filename (dir, "empty.bin", NULL);
  ok = ok && gp_trace_save (t, path, &err);
  g_free (path);
  if (!ok)
    g_printerr ("%s\n", err->message);
  g_clear_error (&err);
  gp_trace_free (t);
  return ok;
}

int
main (int argc, char **argv)
{
  GpSession *s;
  GError *err = NULL;
  gchar *path;

  if (argc != 2 && argc != 3) {
    g_printerr ("usage: %s DIR [TRACE_DIR]\n", argv[0]);
    return 3;
  }
  if (argc == 3 && !make_traces (argv[2]))
    return 1;
  s = make_full ();
  path = g_build_filename (argv[1], "full.json", NULL);
  if (!gp_session_save (s, path, &err)) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  g_free (path);
  gp_session_free (s);

  s = gp_session_new ();
  path = g_build_filename (argv[1], "empty-model.json", NULL);
  if (!gp_session_save (s, path, &err)) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  g_free (path);
  gp_session_free (s);
  return 0;
}
