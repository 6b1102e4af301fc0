/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the session model and session.json.
 *
 * - round trip: a session with every field set (unknown values, unicode,
 *   nested props and evidence included) is saved, loaded and compared
 *   field by field, and save (load (save (x))) is byte-identical to
 *   save (x);
 * - atomic save: no temporary file is left, and a failed save (read-only
 *   directory, target that is a directory) leaves no file and keeps the
 *   previous one intact;
 * - bad input: each kind of broken file gives one line naming the file
 *   (and the line:column or key path), never a crash.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "../common/gp-test-big-session.h"
#include "core/gp-json.h"
#include "core/gp-session.h"
#include "core/gp-session-query.h"

/* ---------------------------------------------------------------- */
/* helpers                                                            */
/* ---------------------------------------------------------------- */

static gchar *
make_tmp_dir (void)
{
  GError *err = NULL;
  gchar *dir = g_dir_make_tmp ("gstprof-test-XXXXXX", &err);

  g_assert_no_error (err);
  return dir;
}

static void
remove_tree (const gchar * path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const gchar *name;

  if (d != NULL) {
    while ((name = g_dir_read_name (d)) != NULL) {
      gchar *p = g_build_filename (path, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
      g_free (p);
    }
    g_dir_close (d);
  }
  g_rmdir (path);
}

static gint
cmp_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* Names in @dir, sorted, joined by spaces. */
static gchar *
list_dir (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const gchar *name;
  gchar *res;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, cmp_names);
  g_ptr_array_add (names, NULL);
  res = g_strjoinv (" ", (gchar **) names->pdata);
  g_ptr_array_free (names, TRUE);
  return res;
}

static JsonObject *
parse_object (const gchar * text)
{
  JsonParser *p = json_parser_new ();
  GError *err = NULL;
  JsonObject *o;

  json_parser_load_from_data (p, text, -1, &err);
  g_assert_no_error (err);
  o = json_object_ref (json_node_get_object (json_parser_get_root (p)));
  g_object_unref (p);
  return o;
}

static JsonNode *
parse_node (const gchar * text)
{
  JsonParser *p = json_parser_new ();
  GError *err = NULL;
  JsonNode *n;

  json_parser_load_from_data (p, text, -1, &err);
  g_assert_no_error (err);
  n = json_node_copy (json_parser_get_root (p));
  g_object_unref (p);
  return n;
}

static void
add_strings (GPtrArray * arr, const gchar * first, ...)
{
  va_list args;
  const gchar *s;

  va_start (args, first);
  for (s = first; s != NULL; s = va_arg (args, const gchar *))
      g_ptr_array_add (arr, g_strdup (s));
  va_end (args);
}

/* A session with every field set, several to "unknown", and strings that
 * need escaping. */
static GpSession *
make_full_session (void)
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
  guint i;

  g_free (s->mode);
  s->mode = g_strdup ("wrap");
  s->launch = g_strdup ("videotestsrc is-live=true ! queue name=\"q ü\" ! "
      "identity sleep-time=2000 ! fakesink\t# \"quoted\" \\ back\nslash");
  g_free (s->started);
  s->started = g_strdup ("2024-05-01T12:00:00Z");
  s->duration_s = 10.25;
  g_free (s->gstreamer);
  s->gstreamer = g_strdup ("1.22.0");
  g_free (s->platform);
  s->platform = g_strdup ("jetson");
  s->window_s = 0.1;
  s->exit_code = 2;
  s->reached = g_strdup ("PAUSED");
  s->end = g_strdup ("duration");
  s->stop_s = 10.0;
  s->drain_s = 0.125;
  s->events_dropped = 17;
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("fakesink0", "PAUSED",
          "VOID_PENDING", TRUE));
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("othersink", "READY",
          "PAUSED", FALSE));

  e = gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  e->is_bin = TRUE;
  e->props = parse_object ("{\"async-handling\": false, \"latency\": -1,"
      "\"name\": \"pipeline0\"}");
  e = gp_session_add_element (s, "videotestsrc0", "videotestsrc",
      "pipeline0", "source");
  e->props = parse_object ("{\"is-live\": true, \"pattern\": \"ball\","
      "\"num-buffers\": -1, \"blocksize\": 4096, \"foreground-color\": "
      "4294967295, \"timestamp-offset\": 0, \"k0\": 1.5, \"nested\": "
      "{\"a\": [1, 2.5, \"x\", null, {\"b\": false}]}}");
  e = gp_session_add_element (s, "q ü", "queue", "pipeline0", "queue");
  e->props = parse_object ("{\"leaky\": \"downstream\", "
      "\"max-size-buffers\": 200, \"max-size-time\": 1000000000}");
  e = gp_session_add_element (s, "fakesink0", "fakesink", "pipeline0",
      "sink");
  e->props = parse_object ("{\"sync\": false}");

  gp_session_add_link (s, "videotestsrc0.src", "q ü.sink",
      "video/x-raw, format=(string)I420, width=(int)320, "
      "framerate=(fraction)30/1", "system");
  gp_session_add_link (s, "q ü.src", "fakesink0.sink", NULL,
      "memory:NVMM");
  add_strings (s->hw_elements, "nvv4l2decoder", "nvvidconv", NULL);

  es = gp_session_add_elem_summary (s, "identity0");
  es->self_ms = (GpQuantiles) {
  8.0123, 8.2, 8.31, 9.75};
  es->buffers = 200;
  for (i = 0; i < GP_OCTAVE_N; i++)
    es->self_octaves.below[i] = i < 13 ? 0 : i == 13 ? 150 : 200;
  es->self_octaves.count = 200;
  es->self_total_ms = 1602.46;
  es->cpu_ms = 3.25;
  es->queued_mb_max = 98.5;
  es->queued_mb_end = 97.25;
  es->queued_limit_bytes = 460800;
  es->queued_blocks = TRUE;
  es->handler_ms = 812.25;
  es->handler_calls = 190;
  es->handler_busy_pct = 37.5;
  es->busy_pct = 73.1;
  es->share_pct = 72.9999;
  add_strings (es->threads, "videotestsrc0:src", NULL);
  es = gp_session_add_elem_summary (s, "q ü");
  es->buffers = G_MAXINT64;
  es->self_total_ms = 0.001;
  es->busy_pct = 0;
  es->share_pct = 1e-9;
  /* self_ms and cpu_ms stay unknown (-1) */
  es = gp_session_add_elem_summary (s, "fakesink0");
  es->self_ms = (GpQuantiles) {
  0.002, 0.003, 0.004, 0.1};
  es->buffers = 199;
  es->self_total_ms = 0.4;
  es->cpu_buffers = 190;
  es->wait_ms = (GpQuantiles) {
  32.5, 33.0, 33.25, 40.0};
  es->wait_total_ms = 6400.5;
  add_strings (es->threads, "q ü:src", "other", NULL);

  qs = gp_session_add_queue_summary (s, "q ü");
  qs->residence_ms = (GpQuantiles) {
  50.1, 50.9, 51.2, 60};
  qs->level_pct_mean = 12.5;
  qs->level_pct_max = -1;
  qs->level_buffers_max = 7;
  qs->dropped = 5;
  g_free (qs->leaky);
  qs->leaky = g_strdup ("downstream");
  qs->blocked_ms = 12.75;

  ls = gp_session_add_link_summary (s, "videotestsrc0.src->q ü.sink");
  ls->fps = 29.97;
  ls->bytes_per_s = 3456789.5;
  ls->media_per_s = 0.999;
  ls->first_s = 0.25;
  ls->buffers = 300;
  ls->no_pts = 12;
  ls->rtp = TRUE;
  ls->rtp_expected = 310;
  ls->rtp_received = 300;
  ls->rtp_restarts = 1;
  ls->probe_ms = 1234.5;
  ls->probe_pushes = 290;
  ls->probe_busy_pct = 41.15;
  ls = gp_session_add_link_summary (s, "q ü.src->fakesink0.sink");
  ls->fps = 0;
  ls->bytes_per_s = 0;

  p = gp_session_add_path (s, "videotestsrc0.src", "fakesink0");
  p->latency_ms = (GpQuantiles) {
  52.5, 55, 58.125, 61};
  p->mean_ms = 53.25;
  for (i = 0; i < GP_OCTAVE_N; i++)
    p->latency_octaves.below[i] = i < 15 ? i : 290;
  p->latency_octaves.count = 290;
  p->matched = 290;
  p->exact = 100;
  p->unmatched = 10;
  p = gp_session_add_path (s, "videotestsrc0.src", "othersink");
  p->unmatched = 3;
  p = gp_session_add_interlatency (s, "videotestsrc0.src", "identity0");
  p->latency_ms = (GpQuantiles) {
  0.5, 0.6, 0.7, 0.8};
  p->matched = 300;

  ts = gp_session_add_thread (s, 12345, "videotestsrc0:s");
  ts->cpu_pct_mean = 81.5;
  ts->cpu_pct_max = 99.75;
  ts->run_delay_pct = 12.25;
  add_strings (ts->elements, "videotestsrc0", "identity0", NULL);
  ts = gp_session_add_thread (s, G_GUINT64_CONSTANT (4294967296), "q ü:src");
  ts->cpu_pct_mean = 2;
  ts->blocked_in = g_strdup ("fakesink0");
  ts->blocked_ms = 812.5;
  /* an encoder's worker: no hook saw it, it runs no element */
  ts = gp_session_add_thread (s, 12346, "videotestsrc0:s/12346");
  ts->cpu_pct_mean = 40.25;
  ts->cpu_pct_max = 100;
  ts->worker = TRUE;
  s->process.measured = TRUE;
  s->process.cpu_pct_mean = 190.5;
  s->process.cpu_pct_max = 199.75;
  s->process.n_cpus = 2;
  s->process.rss_mb_start = 60.25;
  s->process.rss_mb_max = 512;
  s->process.rss_mb_end = -1;

  ss = gp_session_add_sink (s, "fakesink0");
  g_free (ss->media);
  ss->media = g_strdup ("video");
  ss->fps = 29.9;
  ss->target_fps = 30;
  ss->media_per_s = 0.996;
  ss->bytes_per_s = 1234.5;
  ss->first_s = 1.5;
  ss->buffers = 299;
  ss = gp_session_add_sink (s, "othersink");
  ss->fps = 0.5;
  ss->buffers = 5;
  s->target_fps = 30;
  s->frame_period_ms = 1000.0 / 30;

  for (i = 0; i < 3; i++) {
    gchar *text = g_strdup_printf ("{\"t0\": %g, \"t1\": %g, \"elements\": "
        "{\"identity0\": {\"buffers\": %u, \"self_ms_p50\": 8.0%u, "
        "\"self_ms_p95\": 8.5}}, \"links\": {\"videotestsrc0.src->q ü.sink\":"
        " {\"fps\": 30.0, \"bytes_per_s\": 1e6}}, \"queues\": {\"q ü\": "
        "{\"level_pct_mean\": 10, \"level_pct_max\": null, \"dropped\": 0}},"
        " \"threads\": {\"12345\": {\"cpu_pct\": 80.5}}, \"paths\": "
        "{\"videotestsrc0.src->fakesink0\": {\"latency_ms_p50\": 52.5, "
        "\"latency_ms_p95\": 55.0, \"matched\": 7, \"unmatched\": 0}}, "
        "\"process\": {\"cpu_pct\": 150.5, \"rss_mb\": null}}",
        i * 0.25, (i + 1) * 0.25, 7 + i, i);
    JsonObject *w = parse_object (text);

    gp_session_add_window (s, w);
    json_object_unref (w);
    g_free (text);
  }

  gp_session_add_event (s, -0.5, "state", "pipeline0", "NULL -> READY");
  {
    GpEvent *ev = gp_session_add_event (s, 1.25, "qos", "fakesink0",
        "dropped 3 of 40");

    ev->data = parse_object ("{\"processed\": 37, \"dropped\": 3, "
        "\"jitter_ns\": -5000000, \"live\": true}");
  }
  gp_session_add_event (s, 9.999, "error", "",
      "Internal data stream error.\nsecond line");

  f = gp_session_add_finding (s, "HOT", "high",
      "identity0 takes 73 % of the time");
  gp_finding_add_target (f, "identity0");
  json_object_set_double_member (f->evidence, "share_pct", 72.9999);
  json_object_set_int_member (f->evidence, "buffers", 200);
  json_object_set_member (f->evidence, "detail",
      parse_node ("{\"p50\": [8.0, 8.1], \"ok\": true}"));
  g_free (f->why);
  f->why = g_strdup ("One element takes most of the streaming thread.");
  g_free (f->fix);
  f->fix = g_strdup ("Lower identity0 sleep-time, or add a queue after it.");
  f->fix_patch = gp_launch_patch_new ();
  g_ptr_array_add (f->fix_patch, gp_launch_op_set_int ("identity0",
          "sleep-time", 1000));
  f->heuristic = FALSE;
  f->verified_on = g_strdup ("x86_64 2 cores, GStreamer 1.22");
  f->rank_value = 1602.46;
  f = gp_session_add_finding (s, "BUDGET", "info", "latency within budget");
  gp_finding_add_target (f, "videotestsrc0.src->fakesink0");
  gp_finding_add_target (f, "fakesink0");
  f->heuristic = TRUE;
  f->rank_value = -2.5;
  return s;
}

static void
assert_octaves_equal (const GpOctaves * a, const GpOctaves * b)
{
  guint i;

  g_assert_cmpuint (a->count, ==, b->count);
  for (i = 0; i < GP_OCTAVE_N; i++)
    g_assert_cmpuint (a->below[i], ==, b->below[i]);
}

static void
assert_quantiles_equal (const GpQuantiles * a, const GpQuantiles * b)
{
  g_assert_cmpfloat (a->p50, ==, b->p50);
  g_assert_cmpfloat (a->p95, ==, b->p95);
  g_assert_cmpfloat (a->p99, ==, b->p99);
  g_assert_cmpfloat (a->max, ==, b->max);
}

static void
assert_strings_equal (GPtrArray * a, GPtrArray * b)
{
  guint i;

  g_assert_cmpuint (a->len, ==, b->len);
  for (i = 0; i < a->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
}

static void
assert_objects_equal (JsonObject * a, JsonObject * b)
{
  JsonNode *na = json_node_new (JSON_NODE_OBJECT);
  JsonNode *nb = json_node_new (JSON_NODE_OBJECT);

  /* NULL props and {} are the same thing in the file. */
  if (a == NULL)
    json_node_take_object (na, json_object_new ());
  else
    json_node_set_object (na, a);
  if (b == NULL)
    json_node_take_object (nb, json_object_new ());
  else
    json_node_set_object (nb, b);
  g_assert_true (json_node_equal (na, nb));
  json_node_unref (na);
  json_node_unref (nb);
}

static void
assert_paths_equal (GPtrArray * a, GPtrArray * b)
{
  guint i;

  g_assert_cmpuint (a->len, ==, b->len);
  for (i = 0; i < a->len; i++) {
    GpPath *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

    g_assert_cmpstr (x->source, ==, y->source);
    g_assert_cmpstr (x->sink, ==, y->sink);
    assert_quantiles_equal (&x->latency_ms, &y->latency_ms);
    assert_octaves_equal (&x->latency_octaves, &y->latency_octaves);
    g_assert_cmpfloat (x->mean_ms, ==, y->mean_ms);
    g_assert_cmpuint (x->matched, ==, y->matched);
    g_assert_cmpuint (x->exact, ==, y->exact);
    g_assert_cmpuint (x->unmatched, ==, y->unmatched);
  }
}

/* Every field of the model, in order. */
static void
assert_sessions_equal (GpSession * a, GpSession * b)
{
  guint i;

  g_assert_cmpstr (a->schema, ==, b->schema);
  g_assert_cmpstr (a->mode, ==, b->mode);
  g_assert_cmpstr (a->launch, ==, b->launch);
  g_assert_cmpstr (a->started, ==, b->started);
  g_assert_cmpfloat (a->duration_s, ==, b->duration_s);
  g_assert_cmpstr (a->gstreamer, ==, b->gstreamer);
  g_assert_cmpstr (a->platform, ==, b->platform);
  g_assert_cmpfloat (a->window_s, ==, b->window_s);
  g_assert_cmpint (a->exit_code, ==, b->exit_code);
  g_assert_cmpstr (a->reached, ==, b->reached);
  g_assert_cmpstr (a->end, ==, b->end);
  g_assert_cmpfloat (a->stop_s, ==, b->stop_s);
  g_assert_cmpfloat (a->drain_s, ==, b->drain_s);
  g_assert_cmpuint (a->events_dropped, ==, b->events_dropped);
  g_assert_cmpuint (a->preroll->len, ==, b->preroll->len);
  for (i = 0; i < a->preroll->len; i++) {
    GpPrerollSink *x = g_ptr_array_index (a->preroll, i);
    GpPrerollSink *y = g_ptr_array_index (b->preroll, i);

    g_assert_cmpstr (x->name, ==, y->name);
    g_assert_cmpstr (x->state, ==, y->state);
    g_assert_cmpstr (x->pending, ==, y->pending);
    g_assert_cmpint (x->prerolled, ==, y->prerolled);
  }

  g_assert_cmpuint (a->elements->len, ==, b->elements->len);
  for (i = 0; i < a->elements->len; i++) {
    GpElement *x = g_ptr_array_index (a->elements, i);
    GpElement *y = g_ptr_array_index (b->elements, i);

    g_assert_cmpstr (x->name, ==, y->name);
    g_assert_cmpstr (x->factory, ==, y->factory);
    g_assert_cmpstr (x->parent, ==, y->parent);
    g_assert_cmpstr (x->kind, ==, y->kind);
    g_assert_cmpint (x->is_bin, ==, y->is_bin);
    assert_objects_equal (x->props, y->props);
  }
  g_assert_cmpuint (a->links->len, ==, b->links->len);
  for (i = 0; i < a->links->len; i++) {
    GpLink *x = g_ptr_array_index (a->links, i);
    GpLink *y = g_ptr_array_index (b->links, i);

    g_assert_cmpstr (x->id, ==, y->id);
    g_assert_cmpstr (x->src, ==, y->src);
    g_assert_cmpstr (x->sink, ==, y->sink);
    g_assert_cmpstr (x->caps, ==, y->caps);
    g_assert_cmpstr (x->memory, ==, y->memory);
  }
  assert_strings_equal (a->hw_elements, b->hw_elements);

  g_assert_cmpuint (a->elem_summaries->len, ==, b->elem_summaries->len);
  for (i = 0; i < a->elem_summaries->len; i++) {
    GpElementSummary *x = g_ptr_array_index (a->elem_summaries, i);
    GpElementSummary *y = g_ptr_array_index (b->elem_summaries, i);

    g_assert_cmpstr (x->name, ==, y->name);
    assert_quantiles_equal (&x->self_ms, &y->self_ms);
    assert_octaves_equal (&x->self_octaves, &y->self_octaves);
    g_assert_cmpuint (x->buffers, ==, y->buffers);
    g_assert_cmpfloat (x->self_total_ms, ==, y->self_total_ms);
    g_assert_cmpuint (x->cpu_buffers, ==, y->cpu_buffers);
    assert_quantiles_equal (&x->wait_ms, &y->wait_ms);
    g_assert_cmpfloat (x->wait_total_ms, ==, y->wait_total_ms);
    g_assert_cmpfloat (x->cpu_ms, ==, y->cpu_ms);
    g_assert_cmpfloat (x->queued_mb_max, ==, y->queued_mb_max);
    g_assert_cmpfloat (x->queued_mb_end, ==, y->queued_mb_end);
    g_assert_cmpuint (x->queued_limit_bytes, ==, y->queued_limit_bytes);
    g_assert_cmpint (x->queued_blocks, ==, y->queued_blocks);
    g_assert_cmpfloat (x->handler_ms, ==, y->handler_ms);
    g_assert_cmpuint (x->handler_calls, ==, y->handler_calls);
    g_assert_cmpfloat (x->handler_busy_pct, ==, y->handler_busy_pct);
    g_assert_cmpfloat (x->busy_pct, ==, y->busy_pct);
    g_assert_cmpfloat (x->share_pct, ==, y->share_pct);
    assert_strings_equal (x->threads, y->threads);
  }
  g_assert_cmpuint (a->queue_summaries->len, ==, b->queue_summaries->len);
  for (i = 0; i < a->queue_summaries->len; i++) {
    GpQueueSummary *x = g_ptr_array_index (a->queue_summaries, i);
    GpQueueSummary *y = g_ptr_array_index (b->queue_summaries, i);

    g_assert_cmpstr (x->name, ==, y->name);
    assert_quantiles_equal (&x->residence_ms, &y->residence_ms);
    g_assert_cmpfloat (x->level_pct_mean, ==, y->level_pct_mean);
    g_assert_cmpfloat (x->level_pct_max, ==, y->level_pct_max);
    g_assert_cmpuint (x->level_buffers_max, ==, y->level_buffers_max);
    g_assert_cmpuint (x->dropped, ==, y->dropped);
    g_assert_cmpstr (x->leaky, ==, y->leaky);
    g_assert_cmpfloat (x->blocked_ms, ==, y->blocked_ms);
  }
  g_assert_cmpuint (a->link_summaries->len, ==, b->link_summaries->len);
  for (i = 0; i < a->link_summaries->len; i++) {
    GpLinkSummary *x = g_ptr_array_index (a->link_summaries, i);
    GpLinkSummary *y = g_ptr_array_index (b->link_summaries, i);

    g_assert_cmpstr (x->id, ==, y->id);
    g_assert_cmpfloat (x->fps, ==, y->fps);
    g_assert_cmpfloat (x->bytes_per_s, ==, y->bytes_per_s);
    g_assert_cmpfloat (x->media_per_s, ==, y->media_per_s);
    g_assert_cmpfloat (x->first_s, ==, y->first_s);
    g_assert_cmpuint (x->buffers, ==, y->buffers);
    g_assert_cmpuint (x->no_pts, ==, y->no_pts);
    g_assert_cmpint (x->rtp, ==, y->rtp);
    g_assert_cmpuint (x->rtp_expected, ==, y->rtp_expected);
    g_assert_cmpuint (x->rtp_received, ==, y->rtp_received);
    g_assert_cmpuint (x->rtp_restarts, ==, y->rtp_restarts);
    g_assert_cmpfloat (x->probe_ms, ==, y->probe_ms);
    g_assert_cmpuint (x->probe_pushes, ==, y->probe_pushes);
    g_assert_cmpfloat (x->probe_busy_pct, ==, y->probe_busy_pct);
  }
  assert_paths_equal (a->paths, b->paths);
  assert_paths_equal (a->interlatency, b->interlatency);
  g_assert_cmpuint (a->threads->len, ==, b->threads->len);
  for (i = 0; i < a->threads->len; i++) {
    GpThreadSummary *x = g_ptr_array_index (a->threads, i);
    GpThreadSummary *y = g_ptr_array_index (b->threads, i);

    g_assert_cmpuint (x->tid, ==, y->tid);
    g_assert_cmpstr (x->name, ==, y->name);
    g_assert_cmpfloat (x->cpu_pct_mean, ==, y->cpu_pct_mean);
    g_assert_cmpfloat (x->cpu_pct_max, ==, y->cpu_pct_max);
    g_assert_cmpfloat (x->run_delay_pct, ==, y->run_delay_pct);
    assert_strings_equal (x->elements, y->elements);
    g_assert_cmpint (x->worker, ==, y->worker);
    g_assert_cmpstr (x->blocked_in, ==, y->blocked_in);
    if (x->blocked_in)
      g_assert_cmpfloat (x->blocked_ms, ==, y->blocked_ms);
  }
  g_assert_cmpuint (a->sinks->len, ==, b->sinks->len);
  for (i = 0; i < a->sinks->len; i++) {
    GpSinkSummary *x = g_ptr_array_index (a->sinks, i);
    GpSinkSummary *y = g_ptr_array_index (b->sinks, i);

    g_assert_cmpstr (x->name, ==, y->name);
    g_assert_cmpstr (x->media, ==, y->media);
    g_assert_cmpfloat (x->fps, ==, y->fps);
    g_assert_cmpfloat (x->target_fps, ==, y->target_fps);
    g_assert_cmpfloat (x->media_per_s, ==, y->media_per_s);
    g_assert_cmpfloat (x->bytes_per_s, ==, y->bytes_per_s);
    g_assert_cmpfloat (x->first_s, ==, y->first_s);
    g_assert_cmpuint (x->buffers, ==, y->buffers);
  }
  g_assert_cmpfloat (a->target_fps, ==, b->target_fps);
  g_assert_cmpfloat (a->frame_period_ms, ==, b->frame_period_ms);
  g_assert_cmpint (a->process.measured, ==, b->process.measured);
  if (a->process.measured) {
    g_assert_cmpfloat (a->process.cpu_pct_mean, ==, b->process.cpu_pct_mean);
    g_assert_cmpfloat (a->process.cpu_pct_max, ==, b->process.cpu_pct_max);
    g_assert_cmpint (a->process.n_cpus, ==, b->process.n_cpus);
    g_assert_cmpfloat (a->process.rss_mb_start, ==, b->process.rss_mb_start);
    g_assert_cmpfloat (a->process.rss_mb_max, ==, b->process.rss_mb_max);
    g_assert_cmpfloat (a->process.rss_mb_end, ==, b->process.rss_mb_end);
  }

  g_assert_cmpuint (a->series->len, ==, b->series->len);
  for (i = 0; i < a->series->len; i++)
    assert_objects_equal (g_ptr_array_index (a->series, i),
        g_ptr_array_index (b->series, i));

  g_assert_cmpuint (a->events->len, ==, b->events->len);
  for (i = 0; i < a->events->len; i++) {
    GpEvent *x = g_ptr_array_index (a->events, i);
    GpEvent *y = g_ptr_array_index (b->events, i);

    g_assert_cmpfloat (x->t, ==, y->t);
    g_assert_cmpstr (x->type, ==, y->type);
    g_assert_cmpstr (x->source, ==, y->source);
    g_assert_cmpstr (x->text, ==, y->text);
    assert_objects_equal (x->data, y->data);
  }
  g_assert_cmpuint (a->findings->len, ==, b->findings->len);
  for (i = 0; i < a->findings->len; i++) {
    GpFinding *x = g_ptr_array_index (a->findings, i);
    GpFinding *y = g_ptr_array_index (b->findings, i);

    g_assert_cmpstr (x->rule, ==, y->rule);
    g_assert_cmpstr (x->severity, ==, y->severity);
    g_assert_cmpstr (x->title, ==, y->title);
    assert_strings_equal (x->targets, y->targets);
    assert_objects_equal (x->evidence, y->evidence);
    g_assert_cmpstr (x->why, ==, y->why);
    g_assert_cmpstr (x->fix, ==, y->fix);
    g_assert_true ((x->fix_patch == NULL) == (y->fix_patch == NULL));
    if (x->fix_patch != NULL) {
      JsonNode *px = gp_session_patch_to_json (x->fix_patch);
      JsonNode *py = gp_session_patch_to_json (y->fix_patch);

      g_assert_true (json_node_equal (px, py));
      json_node_unref (px);
      json_node_unref (py);
    }
    g_assert_cmpint (x->heuristic, ==, y->heuristic);
    g_assert_cmpstr (x->verified_on, ==, y->verified_on);
    g_assert_cmpfloat (x->rank_value, ==, y->rank_value);
  }
}

static gchar *
read_file (const gchar * path)
{
  gchar *text = NULL;
  GError *err = NULL;

  g_file_get_contents (path, &text, NULL, &err);
  g_assert_no_error (err);
  return text;
}

static void
write_file (const gchar * path, const gchar * data, gssize len)
{
  GError *err = NULL;

  g_file_set_contents (path, data, len, &err);
  g_assert_no_error (err);
}

/* ---------------------------------------------------------------- */
/* model                                                              */
/* ---------------------------------------------------------------- */

static void
test_model_defaults (void)
{
  GpSession *s = gp_session_new ();
  GpElementSummary *es;
  GpLink *l;

  g_assert_cmpstr (s->schema, ==, GP_SESSION_SCHEMA);
  g_assert_cmpfloat (s->target_fps, ==, -1);
  g_assert_cmpfloat (s->frame_period_ms, ==, -1);
  g_assert_null (s->launch);

  es = gp_session_add_elem_summary (s, "x");
  g_assert_cmpfloat (es->self_ms.p50, ==, -1);
  g_assert_cmpfloat (es->self_ms.max, ==, -1);
  g_assert_cmpfloat (es->cpu_ms, ==, -1);
  g_assert_cmpuint (es->buffers, ==, 0);
  g_assert_true (gp_session_find_elem_summary (s, "x") == es);
  g_assert_null (gp_session_find_elem_summary (s, "y"));
  g_assert_null (gp_session_find_elem_summary (s, NULL));

  l = gp_session_add_link (s, "a.src", "b.sink", NULL, NULL);
  g_assert_cmpstr (l->id, ==, "a.src->b.sink");
  g_assert_cmpstr (l->memory, ==, "system");
  g_assert_null (l->caps);
  g_assert_true (gp_session_find_link (s, "a.src->b.sink") == l);

  /* Rebuilding a summary frees the old entries (valgrind/ASan clean). */
  g_ptr_array_set_size (s->elem_summaries, 0);
  g_assert_null (gp_session_find_elem_summary (s, "x"));
  gp_session_free (s);
  gp_session_free (NULL);
}

static void
test_model_find_and_sort (void)
{
  GpSession *s = make_full_session ();
  GpElementSummary *es;
  GpThreadSummary *ts;

  g_assert_nonnull (gp_session_find_element (s, "q ü"));
  g_assert_null (gp_session_find_element (s, "nope"));
  g_assert_nonnull (gp_session_find_queue_summary (s, "q ü"));
  g_assert_nonnull (gp_session_find_link_summary (s,
          "q ü.src->fakesink0.sink"));
  g_assert_nonnull (gp_session_find_sink (s, "othersink"));
  g_assert_cmpuint (gp_session_find_thread (s, 12345)->tid, ==, 12345);
  g_assert_null (gp_session_find_thread (s, 1));
  g_assert_cmpuint (gp_session_find_path (s, "videotestsrc0.src",
          "fakesink0")->matched, ==, 290);

  /* Shuffle the order, then sort: self_total desc, ties stable. */
  es = g_ptr_array_steal_index (s->elem_summaries, 0);
  g_ptr_array_add (s->elem_summaries, es);
  es = gp_session_add_elem_summary (s, "tie");
  es->self_total_ms = 0.4;
  ts = g_ptr_array_steal_index (s->threads, 0);
  g_ptr_array_add (s->threads, ts);
  gp_session_sort_summaries (s);
  g_assert_cmpstr (((GpElementSummary *) s->elem_summaries->pdata[0])->name,
      ==, "identity0");
  g_assert_cmpstr (((GpElementSummary *) s->elem_summaries->pdata[1])->name,
      ==, "fakesink0");
  g_assert_cmpstr (((GpElementSummary *) s->elem_summaries->pdata[2])->name,
      ==, "tie");
  g_assert_cmpstr (((GpElementSummary *) s->elem_summaries->pdata[3])->name,
      ==, "q ü");
  g_assert_cmpuint (((GpThreadSummary *) s->threads->pdata[0])->tid, ==,
      12345);
  gp_session_free (s);
}

static void
test_model_props (void)
{
  GpSession *s = make_full_session ();
  GpElement *src = gp_session_find_element (s, "videotestsrc0");
  GpElement *q = gp_session_find_element (s, "q ü");
  gboolean b = FALSE;
  gint64 i = 0;
  gdouble d = 0;

  g_assert_true (gp_element_get_prop_bool (src, "is-live", &b));
  g_assert_true (b);
  g_assert_false (gp_element_get_prop_bool (src, "pattern", &b));
  g_assert_false (gp_element_get_prop_bool (src, "missing", &b));
  g_assert_cmpstr (gp_element_get_prop_string (src, "pattern"), ==, "ball");
  g_assert_null (gp_element_get_prop_string (src, "blocksize"));
  g_assert_null (gp_element_get_prop_string (src, "nested"));
  g_assert_true (gp_element_get_prop_int (src, "num-buffers", &i));
  g_assert_cmpint (i, ==, -1);
  g_assert_true (gp_element_get_prop_int (src, "foreground-color", &i));
  g_assert_cmpint (i, ==, 4294967295);
  g_assert_false (gp_element_get_prop_int (src, "k0", &i));
  g_assert_true (gp_element_get_prop_double (src, "k0", &d));
  g_assert_cmpfloat (d, ==, 1.5);
  g_assert_true (gp_element_get_prop_double (q, "max-size-time", &d));
  g_assert_cmpfloat (d, ==, 1e9);
  g_assert_cmpstr (gp_element_get_prop_string (q, "leaky"), ==,
      "downstream");
  /* No props at all, no element at all: FALSE, not a crash. */
  g_assert_false (gp_element_get_prop_bool (NULL, "sync", &b));
  g_assert_null (gp_element_get_prop_string (NULL, "x"));
  gp_session_free (s);
}

/* ---------------------------------------------------------------- */
/* round trip                                                         */
/* ---------------------------------------------------------------- */

static void
test_round_trip (void)
{
  gchar *dir = make_tmp_dir ();
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *path2 = g_build_filename (dir, "again.json", NULL);
  GpSession *s = make_full_session (), *loaded, *loaded2;
  GError *err = NULL;
  gchar *text, *text2, *data;
  gsize len;

  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  loaded = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_nonnull (loaded);
  assert_sessions_equal (s, loaded);

  /* save (load (save (x))) == save (x), byte for byte */
  g_assert_true (gp_session_save (loaded, path2, &err));
  g_assert_no_error (err);
  text = read_file (path);
  text2 = read_file (path2);
  g_assert_cmpstr (text, ==, text2);

  /* the file is gp_session_to_data, pretty and ending in a newline */
  data = gp_session_to_data (s, TRUE, &len);
  g_assert_cmpstr (text, ==, data);
  g_assert_cmpuint (len, ==, strlen (data));
  g_assert_true (g_str_has_suffix (text, "}\n"));
  g_assert_nonnull (strstr (text, "\n  \"session\" : {"));
  /* the new fields by their names: streaming, and process with null for
   * what is unknown */
  g_assert_nonnull (strstr (text, "\"streaming\" : false"));
  g_assert_nonnull (strstr (text, "\"streaming\" : true"));
  g_assert_nonnull (strstr (text, "\"process\" : {\n      \"cpu_pct\" : {\n"
          "        \"mean\" : 190.5,"));
  g_assert_nonnull (strstr (text, "\"n_cpus\" : 2,"));
  g_assert_nonnull (strstr (text, "\"end\" : null"));

  /* and the compact form loads to the same model */
  g_free (data);
  data = gp_session_to_data (s, FALSE, &len);
  g_assert_true (strchr (data, '\n') == data + len - 1);
  loaded2 = gp_session_load_data (data, (gssize) len, "compact", &err);
  g_assert_no_error (err);
  assert_sessions_equal (s, loaded2);

  g_free (data);
  g_free (text);
  g_free (text2);
  gp_session_free (s);
  gp_session_free (loaded);
  gp_session_free (loaded2);
  remove_tree (dir);
  g_free (path);
  g_free (path2);
  g_free (dir);
}

/* An imported session keeps where it came from and what it lacks through
 * session.json (session.imported_from), and a link whose memory is unknown
 * (NULL) stays unknown instead of turning into "system". */
static void
test_round_trip_import (void)
{
  gchar *dir = make_tmp_dir ();
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GpSession *s = make_full_session (), *loaded, *own;
  GError *err = NULL;
  GpLink *l;
  JsonParser *parser;
  JsonObject *imp;
  JsonArray *missing;
  gchar *text;
  guint bit, n_named = 0;

  s->import_schema = "gst-profile/1";
  s->import_mode = "wrap";
  /* self_time, element_threads and qos; bit 30 has no name and is not
   * written */
  s->import_missing = (1u << 0) | (1u << 2) | (1u << 9) | (1u << 30);
  l = g_ptr_array_index (s->links, 0);
  g_clear_pointer (&l->memory, g_free);

  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  text = read_file (path);
  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  imp = json_object_get_object_member (json_object_get_object_member
      (json_node_get_object (json_parser_get_root (parser)), "session"),
      "imported_from");
  g_assert_nonnull (imp);
  g_assert_cmpstr (json_object_get_string_member (imp, "schema"), ==,
      "gst-profile/1");
  g_assert_cmpstr (json_object_get_string_member (imp, "mode"), ==, "wrap");
  missing = json_object_get_array_member (imp, "missing");
  g_assert_cmpuint (json_array_get_length (missing), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (missing, 0), ==,
      "self_time");
  g_assert_cmpstr (json_array_get_string_element (missing, 1), ==,
      "element_threads");
  g_assert_cmpstr (json_array_get_string_element (missing, 2), ==, "qos");
  g_object_unref (parser);

  loaded = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_nonnull (loaded);
  /* static strings, the same ones the ingest readers use */
  g_assert_cmpstr (loaded->import_schema, ==, "gst-profile/1");
  g_assert_cmpstr (loaded->import_mode, ==, "wrap");
  g_assert_cmphex (loaded->import_missing, ==,
      (1u << 0) | (1u << 2) | (1u << 9));
  l = g_ptr_array_index (loaded->links, 0);
  g_assert_null (l->memory);
  l = g_ptr_array_index (loaded->links, 1);
  g_assert_nonnull (l->memory);
  gp_session_free (loaded);

  /* every name maps back to its bit, and only single known bits have one */
  for (bit = 0; bit < 32; bit++) {
    const gchar *name = gp_session_import_missing_name (1u << bit);

    if (name == NULL)
      continue;
    n_named++;
    g_assert_cmphex (gp_session_import_missing_from_name (name), ==,
        1u << bit);
  }
  g_assert_cmpuint (n_named, ==, 16);
  g_assert_null (gp_session_import_missing_name (0));
  g_assert_null (gp_session_import_missing_name (3));
  g_assert_cmpuint (gp_session_import_missing_from_name ("nope"), ==, 0);

  /* gstprof's own sessions have no imported_from, and read none back */
  own = make_full_session ();
  g_free (text);
  text = gp_session_to_data (own, FALSE, NULL);
  g_assert_null (strstr (text, "imported_from"));
  loaded = gp_session_load_data (text, -1, "own.json", &err);
  g_assert_no_error (err);
  g_assert_null (loaded->import_schema);
  g_assert_null (loaded->import_mode);
  g_assert_cmpuint (loaded->import_missing, ==, 0);
  gp_session_free (loaded);
  gp_session_free (own);

  /* from a file: unknown schema and missing names this build does not
   * know; a null mode; a wrong type is an error naming the key */
  loaded = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"session\":"
      " {\"imported_from\": {\"schema\": \"nsys/9\", \"mode\": null,"
      " \"missing\": [\"qos\", \"later_thing\"]}}}", -1, "imp.json", &err);
  g_assert_no_error (err);
  g_assert_cmpstr (loaded->import_schema, ==, "other");
  g_assert_null (loaded->import_mode);
  g_assert_cmphex (loaded->import_missing, ==, 1u << 9);
  gp_session_free (loaded);
  loaded = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"session\":"
      " {\"imported_from\": {\"missing\": [1]}}}", -1, "imp.json", &err);
  g_assert_null (loaded);
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
  g_assert_cmpstr (err->message, ==,
      "imp.json: session.imported_from.missing[0]: expected a string");
  g_clear_error (&err);

  g_free (text);
  gp_session_free (s);
  remove_tree (dir);
  g_free (path);
  g_free (dir);
}

/* The documented key names, where users' scripts look for them. */
static void
test_key_names (void)
{
  GpSession *s = make_full_session ();
  JsonNode *root = gp_session_to_json (s);
  JsonObject *o = json_node_get_object (root), *sum, *e, *q, *th, *f;
  const gchar *session_keys[] = { "mode", "launch", "started", "duration_s",
    "gstreamer", "platform", "window_s", "exit_code"
  };
  const gchar *finding_keys[] = { "rule", "severity", "title", "targets",
    "evidence", "why", "fix", "fix_patch", "heuristic", "verified_on"
  };
  guint i;

  g_assert_cmpstr (json_object_get_string_member (o, "schema"), ==,
      "gstprof/1");
  for (i = 0; i < G_N_ELEMENTS (session_keys); i++)
    g_assert_true (json_object_has_member (json_object_get_object_member (o,
                "session"), session_keys[i]));
  e = json_array_get_object_element (json_object_get_array_member
      (json_object_get_object_member (o, "graph"), "elements"), 1);
  g_assert_cmpstr (json_object_get_string_member (e, "factory"), ==,
      "videotestsrc");
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member
          (e, "props"), "is-live"));
  e = json_array_get_object_element (json_object_get_array_member
      (json_object_get_object_member (o, "graph"), "links"), 1);
  g_assert_cmpstr (json_object_get_string_member (e, "id"), ==,
      "q ü.src->fakesink0.sink");
  g_assert_true (json_object_get_null_member (e, "caps"));
  g_assert_cmpstr (json_object_get_string_member (e, "memory"), ==,
      "memory:NVMM");

  sum = json_object_get_object_member (o, "summary");
  e = json_object_get_object_member (json_object_get_object_member (sum,
          "elements"), "identity0");
  g_assert_cmpfloat (json_object_get_double_member
      (json_object_get_object_member (e, "self_ms"), "p50"), ==, 8.0123);
  g_assert_cmpint (json_object_get_int_member (e, "buffers"), ==, 200);
  g_assert_cmpfloat (json_object_get_double_member (e, "busy_pct"), ==, 73.1);
  /* unknown values are null, not -1 */
  e = json_object_get_object_member (json_object_get_object_member (sum,
          "elements"), "q ü");
  g_assert_true (json_object_get_null_member (e, "cpu_ms"));
  g_assert_true (json_object_get_null_member (json_object_get_object_member
          (e, "self_ms"), "p99"));
  q = json_object_get_object_member (json_object_get_object_member (sum,
          "queues"), "q ü");
  g_assert_cmpfloat (json_object_get_double_member
      (json_object_get_object_member (q, "residence_ms"), "p95"), ==, 50.9);
  g_assert_cmpfloat (json_object_get_double_member
      (json_object_get_object_member (q, "level_pct"), "mean"), ==, 12.5);
  g_assert_true (json_object_get_null_member (json_object_get_object_member
          (q, "level_pct"), "max"));
  g_assert_cmpint (json_object_get_int_member (q, "dropped"), ==, 5);
  g_assert_cmpfloat (json_object_get_double_member
      (json_object_get_object_member (json_object_get_object_member (sum,
                  "links"), "videotestsrc0.src->q ü.sink"), "fps"), ==, 29.97);
  e = json_array_get_object_element (json_object_get_array_member (sum,
          "paths"), 0);
  g_assert_cmpstr (json_object_get_string_member (e, "sink"), ==,
      "fakesink0");
  g_assert_cmpint (json_object_get_int_member (e, "matched"), ==, 290);
  th = json_array_get_object_element (json_object_get_array_member (sum,
          "threads"), 0);
  g_assert_cmpint (json_object_get_int_member (th, "tid"), ==, 12345);
  g_assert_cmpfloat (json_object_get_double_member
      (json_object_get_object_member (th, "cpu_pct"), "max"), ==, 99.75);
  g_assert_true (json_object_get_null_member (json_object_get_object_member
          (json_object_get_object_member (sum, "sinks"), "othersink"),
          "target_fps"));
  g_assert_cmpfloat (json_object_get_double_member (sum, "target_fps"), ==,
      30);
  g_assert_cmpfloat (json_object_get_double_member (sum, "frame_period_ms"),
      ==, 1000.0 / 30);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o,
              "series")), ==, 3);
  g_assert_cmpstr (json_object_get_string_member
      (json_array_get_object_element (json_object_get_array_member (o,
                  "events"), 1), "type"), ==, "qos");
  f = json_array_get_object_element (json_object_get_array_member (o,
          "findings"), 0);
  for (i = 0; i < G_N_ELEMENTS (finding_keys); i++)
    g_assert_true (json_object_has_member (f, finding_keys[i]));
  f = json_array_get_object_element (json_object_get_array_member (o,
          "findings"), 1);
  g_assert_true (json_object_get_null_member (f, "fix_patch"));
  g_assert_true (json_object_get_null_member (f, "verified_on"));

  json_node_unref (root);
  gp_session_free (s);
}

/* Null semantics and defaults on the reading side; unknown keys ignored. */
static void
test_read_defaults_and_nulls (void)
{
  GError *err = NULL;
  GpSession *s;
  GpElementSummary *es;
  GpQueueSummary *qs;

  s = gp_session_load_data ("{\"schema\": \"gstprof/1\"}", -1, "min.json",
      &err);
  g_assert_no_error (err);
  g_assert_cmpstr (s->mode, ==, "run");
  g_assert_null (s->launch);
  g_assert_cmpfloat (s->target_fps, ==, -1);
  g_assert_cmpfloat (s->frame_period_ms, ==, -1);
  g_assert_cmpuint (s->elements->len, ==, 0);
  g_assert_cmpuint (s->series->len, ==, 0);
  g_assert_false (s->process.measured);
  gp_session_free (s);

  /* sessions from before summary.process and threads[].streaming: not
   * measured, and streaming threads; a null process is not measured */
  s = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"summary\": "
      "{\"threads\": [{\"tid\": 1, \"name\": \"a\"}, {\"tid\": 2, "
      "\"streaming\": null}, {\"tid\": 3, \"streaming\": false}], "
      "\"process\": null}}", -1, "old.json", &err);
  g_assert_no_error (err);
  g_assert_false (s->process.measured);
  g_assert_false (gp_session_find_thread (s, 1)->worker);
  g_assert_false (gp_session_find_thread (s, 2)->worker);
  g_assert_true (gp_session_find_thread (s, 3)->worker);
  gp_session_free (s);

  /* a process object with nulls: measured, each number unknown */
  s = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"summary\": "
      "{\"process\": {\"cpu_pct\": {\"mean\": 50, \"max\": null}, "
      "\"n_cpus\": null}}}", -1, "proc.json", &err);
  g_assert_no_error (err);
  g_assert_true (s->process.measured);
  g_assert_cmpfloat (s->process.cpu_pct_mean, ==, 50);
  g_assert_cmpfloat (s->process.cpu_pct_max, ==, -1);
  g_assert_cmpint (s->process.n_cpus, ==, -1);
  g_assert_cmpfloat (s->process.rss_mb_start, ==, -1);
  g_assert_cmpfloat (s->process.rss_mb_max, ==, -1);
  g_assert_cmpfloat (s->process.rss_mb_end, ==, -1);
  gp_session_free (s);

  s = gp_session_load_data ("{\"schema\": \"gstprof/1\", \"future\": [1],"
      " \"session\": {\"launch\": null, \"new_key\": {\"x\": 1},"
      "   \"duration_s\": 1e999},"
      " \"summary\": {\"elements\": {\"a\": {\"self_ms\": {\"p50\": null,"
      "   \"p95\": -3, \"p99\": 2, \"max\": 4.5, \"p999\": 9},"
      "   \"buffers\": 12.0, \"cpu_ms\": null, \"busy_pct\": -7,"
      "   \"later\": \"x\"}, \"b\": {}, \"c\": {\"buffers\": 1},"
      "   \"c\": {\"buffers\": 99}},"
      "  \"queues\": {\"q\": {\"level_pct\": null}},"
      "  \"frame_period_ms\": 33.5, \"target_fps\": null},"
      " \"graph\": {\"links\": [{\"src\": \"a.src\", \"sink\": \"b.sink\"},"
      "   {\"src\": \"b.src\", \"sink\": \"c.sink\", \"memory\": null}]},"
      " \"findings\": [{\"rule\": \"HOT\", \"fix_patch\": {\"op\": \"remove\","
      "   \"target\": \"b\"}}]}",
      -1, "nulls.json", &err);
  g_assert_no_error (err);
  g_assert_null (s->launch);
  g_assert_cmpfloat (s->duration_s, ==, -1);
  g_assert_cmpfloat (s->target_fps, ==, -1);
  g_assert_cmpfloat (s->frame_period_ms, ==, 33.5);
  /* a duplicated key gives one entry (json-glib keeps the last value) */
  g_assert_cmpuint (s->elem_summaries->len, ==, 3);
  g_assert_cmpuint (gp_session_find_elem_summary (s, "c")->buffers, ==, 99);
  es = gp_session_find_elem_summary (s, "a");
  g_assert_cmpfloat (es->self_ms.p50, ==, -1);
  g_assert_cmpfloat (es->self_ms.p95, ==, -1);
  g_assert_cmpfloat (es->self_ms.p99, ==, 2);
  g_assert_cmpfloat (es->self_ms.max, ==, 4.5);
  g_assert_cmpuint (es->buffers, ==, 12);
  g_assert_cmpfloat (es->cpu_ms, ==, -1);
  g_assert_cmpfloat (es->busy_pct, ==, -1);
  qs = gp_session_find_queue_summary (s, "q");
  g_assert_cmpfloat (qs->level_pct_max, ==, -1);
  g_assert_cmpstr (qs->leaky, ==, "no");
  g_assert_cmpstr (((GpLink *) s->links->pdata[0])->id, ==, "a.src->b.sink");
  g_assert_cmpstr (((GpLink *) s->links->pdata[0])->memory, ==, "system");
  /* absent memory is the default, null is unknown */
  g_assert_null (((GpLink *) s->links->pdata[1])->memory);
  /* one op alone is a patch of one */
  g_assert_cmpuint (((GpFinding *) s->findings->pdata[0])->fix_patch->len,
      ==, 1);
  gp_session_free (s);
}

/* What the model may hold but JSON cannot: NaN, infinity, bytes that are
 * not UTF-8 (thread names from /proc). The file must still load. */
static void
test_write_unrepresentable (void)
{
  GpSession *s = gp_session_new (), *back;
  GpThreadSummary *ts;
  JsonObject *w = json_object_new ();
  GError *err = NULL;
  gchar *text, *text2;
  gsize len;

  ts = gp_session_add_thread (s, 1, "bad\xff\xfename");
  ts->cpu_pct_mean = NAN;
  ts->cpu_pct_max = INFINITY;
  gp_session_add_event (s, NAN, "warning", "src\xc3", "text");
  json_object_set_double_member (w, "fps", NAN);
  json_object_set_string_member (w, "na\xffme", "v\xff");
  gp_session_add_window (s, w);
  json_object_unref (w);
  s->duration_s = -INFINITY;

  text = gp_session_to_data (s, TRUE, &len);
  g_assert_true (g_utf8_validate (text, (gssize) len, NULL));
  g_assert_null (strstr (text, "nan"));
  g_assert_null (strstr (text, "inf"));
  back = gp_session_load_data (text, (gssize) len, "odd.json", &err);
  g_assert_no_error (err);
  ts = back->threads->pdata[0];
  g_assert_true (g_str_has_prefix (ts->name, "bad"));
  g_assert_cmpfloat (ts->cpu_pct_mean, ==, -1);
  g_assert_cmpfloat (ts->cpu_pct_max, ==, -1);
  g_assert_cmpfloat (((GpEvent *) back->events->pdata[0])->t, ==, 0);
  g_assert_cmpfloat (back->duration_s, ==, -1);
  g_assert_true (json_object_get_null_member (back->series->pdata[0],
          "fps"));
  text2 = gp_session_to_data (back, TRUE, NULL);
  g_assert_cmpstr (text, ==, text2);
  g_free (text);
  g_free (text2);
  gp_session_free (s);
  gp_session_free (back);

  /* doubles json-glib would print as "1e-99.0" (not JSON): in a summary,
   * an event time and a series window, they are written so the file loads,
   * within one ulp of the value (measurements stay within 1e15: larger
   * ones are refused on reading, see test_reject_impossible) */
  s = gp_session_new ();
  gp_session_add_elem_summary (s, "e")->share_pct = 1e-99;
  s->duration_s = 1e-20;
  gp_session_add_event (s, -1e-22, "eos", "", "");
  w = json_object_new ();
  json_object_set_double_member (w, "fps", 1e+300);
  gp_session_add_window (s, w);
  json_object_unref (w);
  text = gp_session_to_data (s, FALSE, &len);
  g_assert_null (strstr (text, "e-99.0"));
  g_assert_null (strstr (text, "e-20.0"));
  back = gp_session_load_data (text, (gssize) len, "exp.json", &err);
  g_assert_no_error (err);
  g_assert_cmpfloat_with_epsilon (((GpElementSummary *) back->
          elem_summaries->pdata[0])->share_pct, 1e-99, 1e-113);
  g_assert_cmpfloat_with_epsilon (back->duration_s, 1e-20, 1e-35);
  g_assert_cmpfloat_with_epsilon (((GpEvent *) back->events->pdata[0])->t,
      -1e-22, 1e-37);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member
      (back->series->pdata[0], "fps"), 1e300, 1e285);
  text2 = gp_session_to_data (back, FALSE, NULL);
  g_assert_cmpstr (text, ==, text2);
  g_free (text);
  g_free (text2);
  gp_session_free (s);
  gp_session_free (back);
}

/* Numbers no measurement gives are refused, naming where they are. */
static void
test_reject_impossible (void)
{
  GError *err = NULL;
  const gchar *bad[] = {
    "{\"schema\":\"gstprof/1\",\"session\":{\"duration_s\":1e20}}",
    "{\"schema\":\"gstprof/1\",\"summary\":{\"elements\":{\"x\":"
        "{\"busy_pct\":1e308}}}}",
    "{\"schema\":\"gstprof/1\",\"summary\":{\"threads\":[{\"tid\":1,"
        "\"name\":\"t\",\"cpu_pct\":{\"mean\":2e5}}]}}",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GpSession *s = gp_session_load_data (bad[i], -1, "bad.json", &err);

    g_assert_null (s);
    g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
    g_assert_nonnull (strstr (err->message, "cannot be"));
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
}

/* ---------------------------------------------------------------- */
/* atomic save                                                        */
/* ---------------------------------------------------------------- */

static void
test_save_atomic (void)
{
  gchar *dir = make_tmp_dir ();
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *subdir = g_build_filename (dir, "taken", NULL);
  GpSession *s = make_full_session ();
  GError *err = NULL;
  gchar *names, *before, *after, *expect;
  struct stat st;

  /* Overwrite an older file: the new content, one file, no temp left. */
  write_file (path, "old content", -1);
  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "session.json");
  g_free (names);
  before = read_file (path);
  g_assert_true (g_str_has_prefix (before, "{\n  \"schema\" : \"gstprof/1\""));
  /* A new file gets the usual mode (0666 minus umask), not mkstemp's 0600. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  {
    mode_t mask = umask (0);

    umask (mask);
    g_assert_cmpint (st.st_mode & 0777, ==, 0666 & ~mask);
  }

  /* The target is a directory: the temp file is written, the rename fails,
   * the temp file is removed and the error names the target. */
  g_assert_cmpint (g_mkdir (subdir, 0755), ==, 0);
  g_assert_false (gp_session_save (s, subdir, &err));
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_IO);
  expect = g_strdup_printf ("%s: cannot write: %s", subdir,
      g_strerror (EISDIR));
  g_assert_cmpstr (err->message, ==, expect);
  g_free (expect);
  g_clear_error (&err);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "session.json taken");
  g_free (names);
  names = list_dir (subdir);
  g_assert_cmpstr (names, ==, "");
  g_free (names);

  /* A directory that does not exist. */
  {
    gchar *nowhere = g_build_filename (dir, "no", "such", "s.json", NULL);

    g_assert_false (gp_session_save (s, nowhere, &err));
    expect = g_strdup_printf ("%s: cannot write: %s", nowhere,
        g_strerror (ENOENT));
    g_assert_cmpstr (err->message, ==, expect);
    g_free (expect);
    g_clear_error (&err);
    g_free (nowhere);
  }

  after = read_file (path);
  g_assert_cmpstr (before, ==, after);
  g_free (before);
  g_free (after);
  gp_session_free (s);
  remove_tree (dir);
  g_free (subdir);
  g_free (path);
  g_free (dir);
}

/* Runs as an unprivileged user (root ignores directory modes). */
static void
test_save_readonly_subprocess (void)
{
  const gchar *dir = g_getenv ("GP_TEST_RO_DIR");
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GpSession *s = make_full_session ();
  GError *err = NULL;
  gchar *expect;

  if (geteuid () == 0) {
    g_assert_cmpint (setgid (65534), ==, 0);
    g_assert_cmpint (setuid (65534), ==, 0);
  }
  g_assert_false (gp_session_save (s, path, &err));
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_IO);
  expect = g_strdup_printf ("%s: cannot write: %s", path, g_strerror (EACCES));
  g_assert_cmpstr (err->message, ==, expect);
  g_free (expect);
  g_error_free (err);
  gp_session_free (s);
  g_free (path);
}

static void
test_save_readonly (void)
{
  gchar *top = make_tmp_dir ();
  gchar *dir = g_build_filename (top, "ro", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *names, *content;

  /* nobody must be able to reach the directory, not write in it */
  g_assert_cmpint (g_chmod (top, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  write_file (path, "{\"schema\": \"gstprof/1\"}", -1);
  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);

  /* Root ignores directory modes: the check runs as nobody, which needs
   * the right to change user (absent in some containers). */
  if (geteuid () == 0) {
    pid_t pid = fork ();
    int status = 0;

    if (pid == 0)
      _exit (setgid (65534) == 0 && setuid (65534) == 0 ? 0 : 1);
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    if (!WIFEXITED (status) || WEXITSTATUS (status) != 0) {
      g_test_skip ("running as root and cannot change to an unprivileged "
          "user");
      g_chmod (dir, 0755);
      remove_tree (top);
      g_free (path);
      g_free (dir);
      g_free (top);
      return;
    }
  }

  g_setenv ("GP_TEST_RO_DIR", dir, TRUE);
  /* 0: G_TEST_SUBPROCESS_DEFAULT, which GLib names only from 2.74 */
  g_test_trap_subprocess ("/core/session/save-readonly/subprocess", 0, 0);
  g_test_trap_assert_passed ();

  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "session.json");
  content = read_file (path);
  g_assert_cmpstr (content, ==, "{\"schema\": \"gstprof/1\"}");
  g_free (names);
  g_free (content);
  g_chmod (dir, 0755);
  remove_tree (top);
  g_free (path);
  g_free (dir);
  g_free (top);
}

/* ---------------------------------------------------------------- */
/* bad input                                                          */
/* ---------------------------------------------------------------- */

/* Loads @path and checks the error: one line, starting with the file's
 * name, matching @pattern (a regex where "@" stands for the path). */
static void
expect_load_error (const gchar * path, const gchar * pattern)
{
  GError *err = NULL;
  GpSession *s = gp_session_load (path, &err);
  gchar *quoted = g_regex_escape_string (path, -1);
  gchar **parts = g_strsplit (pattern, "@", -1);
  gchar *regex = g_strjoinv (quoted, parts);

  if (s != NULL)
    g_error ("%s loaded, expected an error matching %s", path, pattern);
  g_assert_nonnull (err);
  g_assert_true (err->domain == GP_SESSION_ERROR);
  g_assert_null (strchr (err->message, '\n'));
  g_assert_null (strchr (err->message, '\r'));
  g_assert_true (g_str_has_prefix (err->message, path));
  if (!g_regex_match_simple (regex, err->message, 0, 0))
    g_error ("error \"%s\" does not match /%s/", err->message, regex);
  g_error_free (err);
  g_free (regex);
  g_strfreev (parts);
  g_free (quoted);
}

static void
expect_text_error (const gchar * dir, const gchar * name, const gchar * text,
    gssize len, const gchar * pattern)
{
  gchar *path = g_build_filename (dir, name, NULL);

  write_file (path, text, len);
  expect_load_error (path, pattern);
  g_free (path);
}

static void
test_bad_syntax (void)
{
  gchar *dir = make_tmp_dir ();
  GpSession *s = make_full_session ();
  gsize len;
  gchar *text = gp_session_to_data (s, TRUE, &len);
  gchar *deep;

  /* cut in the middle of a real session, and after the first byte */
  expect_text_error (dir, "truncated.json", text, (gssize) len / 2,
      "^@:[0-9]+:[0-9]+: .+");
  expect_text_error (dir, "brace.json", "{", -1, "^@:[0-9]+:[0-9]+: .+");
  expect_text_error (dir, "line3.json", "{\n  \"schema\": \"gstprof/1\",\n"
      "  \"session\" {}\n}", -1, "^@:3:[0-9]+: .+");
  expect_text_error (dir, "words.json", "this is not json", -1,
      "^@:1:[0-9]+: .+");
  expect_text_error (dir, "empty.json", "", 0,
      "^@: empty file, not a session$");
  expect_text_error (dir, "blank.json", " \n\t\n", -1,
      "^@: empty file, not a session$");
  expect_text_error (dir, "png.json", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16,
      "^@:1:1: not UTF-8 text \\(byte 0x89\\)$");
  expect_text_error (dir, "nul.json", "{\"schema\": \"gst\0prof/1\"}", 24,
      "^@:1:16: not UTF-8 text \\(byte 0x00\\)$");

  /* what json-glib would accept (and, for the first, leak) but is not a
   * JSON document */
  expect_text_error (dir, "two.json", "{\"schema\": \"gstprof/1\"}\n"
      "{\"schema\": \"gstprof/1\"}", -1,
      "^@:2:1: more data after the end of the JSON value$");
  expect_text_error (dir, "numobj.json", "12{\"schema\": \"gstprof/1\"}", -1,
      "^@:1:3: more data after the end of the JSON value$");
  expect_text_error (dir, "comment.json", "{\"schema\": /* \" */ 1}", -1,
      "^@:1:12: a comment or '/' outside a string$");
  expect_text_error (dir, "squote.json", "{'schema': 'gstprof/1'}", -1,
      "^@:1:2: a single quote outside a string$");
  /* escapes json-glib leaks its string on (found by fuzzing) */
  expect_text_error (dir, "short-u.json", "{\"mode\": \"\\ud8\"}", -1,
      "^@:1:12: a \\\\u escape without four hex digits$");
  expect_text_error (dir, "high.json", "{\"mode\": \"\\ud83dx\"}", -1,
      "^@:1:16: a \\\\u escape that is the first half of a UTF-16 pair "
      "alone$");
  expect_text_error (dir, "low.json", "{\"mode\": \"\\ude00\"}", -1,
      "^@:1:16: a \\\\u escape that is the second half of a UTF-16 "
      "pair alone$");
  expect_text_error (dir, "esc.json", "{\"mode\": \"\\x41\"}", -1,
      "^@:1:12: an unknown escape in a string$");
  {
    /* whole escapes still read: a pair, a BMP character, the short ones */
    GError *err = NULL;
    GpSession *ok = gp_session_load_data ("{\"schema\": \"gstprof/1\", "
        "\"session\": {\"mode\": \"\\ud83d\\ude00 \\u00e9\\t\\/\"}}", -1,
        "esc.json", &err);

    g_assert_no_error (err);
    g_assert_cmpstr (ok->mode, ==, "\xf0\x9f\x98\x80 \xc3\xa9\t/");
    gp_session_free (ok);
  }

  /* nesting that would overflow json-glib's recursive parser */
  deep = g_malloc (200001);
  memset (deep, '[', 100000);
  memset (deep + 100000, ']', 100000);
  deep[200000] = '\0';
  expect_text_error (dir, "deep.json", deep, -1,
      "^@:1:257: nested deeper than 256 levels$");
  g_free (deep);

  {
    gchar *missing = g_build_filename (dir, "missing.json", NULL);

    expect_load_error (missing, "^@: No such file or directory$");
    g_free (missing);
  }
  expect_load_error (dir, "^@: Is a directory$");

  g_free (text);
  gp_session_free (s);
  remove_tree (dir);
  g_free (dir);
}

/* Over GP_JSON_MAX_VALUES, a session's machine series are read one at a
 * time and give back every sample; anything else over it is refused in
 * one line; a parse error inside a series read alone names its line and
 * column in the whole file. */
static void
test_value_budget (void)
{
  gchar *dir = make_tmp_dir ();
  gchar *path = g_build_filename (dir, "big.json", NULL);
  GString *text = gp_test_big_session (130, 8000, 4);
  GError *err = NULL;
  GpSession *s;
  GpMachineSeries *ms;
  gchar *bad, *at;
  guint line;

  /* 130 x 8,000 x 2 values: over the budget, machine series aside */
  g_assert_cmpuint (130 * 8000 * 2, >, GP_JSON_MAX_VALUES);
  write_file (path, text->str, (gssize) text->len);
  s = gp_session_load (path, &err);
  g_assert_no_error (err);
  g_assert_nonnull (s->machine);
  g_assert_cmpuint (s->machine->series->len, ==, 130);
  g_assert_cmpuint (s->series->len, ==, 4);
  ms = gp_machine_find (s->machine, "thread.cpu", "129 w");
  g_assert_nonnull (ms);
  g_assert_cmpuint (ms->v->len, ==, 8000);
  g_assert_cmpfloat_with_epsilon (g_array_index (ms->t, gdouble, 7999),
      799.9, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (ms->v, gdouble, 7999),
      129 + 7.999, 1e-9);
  gp_session_free (s);

  /* a word that is not JSON in series 77's values: its line in the file */
  at = strstr (text->str, "\"thread.cpu/77 w\"");
  g_assert_nonnull (at);
  at = strstr (at, "\"v\": [\n") + strlen ("\"v\": [\n");
  memcpy (at, "nope", 4);
  for (line = 1, bad = text->str; bad < at; bad++)
    line += *bad == '\n';
  bad = g_strdup_printf ("^@:%u:[0-9]+: .+", line);
  write_file (path, text->str, (gssize) text->len);
  expect_load_error (path, bad);
  g_free (bad);
  g_string_free (text, TRUE);

  /* one machine series over the budget alone: read apart, it would still
   * be one tree that large; refused */
  text = gp_test_big_session (1, GP_JSON_MAX_VALUES / 2 + 1, 0);
  write_file (path, text->str, (gssize) text->len);
  expect_load_error (path, "^@: [0-9]+ values, more than the 2000000 "
      "gstprof reads");
  g_string_free (text, TRUE);

  /* the same values in windows: refused, naming the count */
  text = gp_test_big_session (0, 0, 2000000 / (20 * 5) + 1);
  write_file (path, text->str, (gssize) text->len);
  expect_load_error (path, "^@: [0-9]+ values, more than the 2000000 "
      "gstprof reads \\(its machine series aside\\): not a session it "
      "wrote$");
  g_string_free (text, TRUE);

  remove_tree (dir);
  g_free (path);
  g_free (dir);
}

static void
test_bad_schema (void)
{
  gchar *dir = make_tmp_dir ();

  expect_text_error (dir, "other.json", "{\"schema\": \"gst-profile/1\"}", -1,
      "^@: not a gstprof session \\(schema \"gst-profile/1\"\\)$");
  expect_text_error (dir, "v2.json", "{\"schema\": \"gstprof/2\"}", -1,
      "^@: not a gstprof session \\(schema \"gstprof/2\"\\)$");
  expect_text_error (dir, "none.json", "{\"session\": {}}", -1,
      "^@: not a gstprof session \\(no \"schema\" key\\)$");
  expect_text_error (dir, "num.json", "{\"schema\": 1}", -1,
      "^@: schema: expected a string$");
  expect_text_error (dir, "array.json", "[{\"schema\": \"gstprof/1\"}]", -1,
      "^@: not a gstprof session \\(the top level is an array, not an "
      "object\\)$");
  expect_text_error (dir, "null.json", "null", -1,
      "^@: not a gstprof session \\(the top level is null, not an "
      "object\\)$");
  expect_text_error (dir, "str.json", "\"gstprof/1\"", -1,
      "^@: not a gstprof session \\(the top level is a string, not an "
      "object\\)$");
  /* a schema with a newline still gives one line */
  expect_text_error (dir, "nl.json", "{\"schema\": \"a\\nb\"}", -1,
      "^@: not a gstprof session \\(schema \"a\\\\nb\"\\)$");
  remove_tree (dir);
  g_free (dir);
}

static void
test_bad_types (void)
{
  /* (document body after the schema, expected key path and type) */
  static const struct
  {
    const gchar *body;
    const gchar *expect;
  } cases[] = {
    {"\"session\": []", "session: expected an object"},
    {"\"session\": {\"duration_s\": \"10\"}",
        "session.duration_s: expected a number"},
    {"\"session\": {\"mode\": 1}", "session.mode: expected a string"},
    {"\"session\": {\"exit_code\": 1.5}",
        "session.exit_code: expected an integer"},
    {"\"graph\": {\"elements\": {}}", "graph.elements: expected an array"},
    {"\"graph\": {\"elements\": [{\"name\": \"a\"}, 3]}",
        "graph.elements\\[1\\]: expected an object"},
    {"\"graph\": {\"elements\": [{\"is_bin\": \"yes\"}]}",
        "graph.elements\\[0\\].is_bin: expected true or false"},
    {"\"graph\": {\"elements\": [{\"props\": [1]}]}",
        "graph.elements\\[0\\].props: expected an object"},
    {"\"graph\": {\"links\": [{\"caps\": {}}]}",
        "graph.links\\[0\\].caps: expected a string"},
    {"\"graph\": {\"hw_elements\": [\"a\", null]}",
        "graph.hw_elements\\[1\\]: expected a string"},
    {"\"summary\": {\"elements\": {\"id0\": {\"buffers\": -3}}}",
        "summary.elements.id0.buffers: expected a non-negative integer"},
    {"\"summary\": {\"elements\": {\"id0\": {\"buffers\": \"many\"}}}",
        "summary.elements.id0.buffers: expected a non-negative integer"},
    {"\"summary\": {\"elements\": {\"id0\": {\"self_ms\": {\"p95\": \"x\"}}}}",
        "summary.elements.id0.self_ms.p95: expected a number"},
    {"\"summary\": {\"elements\": {\"id0\": 5}}",
        "summary.elements.id0: expected an object"},
    {"\"summary\": {\"queues\": {\"q0\": {\"level_pct\": {\"max\": true}}}}",
        "summary.queues.q0.level_pct.max: expected a number"},
    {"\"summary\": {\"links\": {\"a->b\": {\"fps\": [30]}}}",
        "summary.links.a->b.fps: expected a number"},
    {"\"summary\": {\"paths\": [{\"latency_ms\": 5}]}",
        "summary.paths\\[0\\].latency_ms: expected an object"},
    {"\"summary\": {\"elements\": {\"id0\": {\"self_octaves\": "
          "{\"count\": 3, \"below\": [1, 2]}}}}",
        "summary.elements.id0.self_octaves.below: expected an array of 21 "
          "counts"},
    {"\"summary\": {\"elements\": {\"id0\": {\"self_octaves\": "
          "{\"count\": 3, \"below\": [0,0,0,0,0,0,0,0,0,0,2,1,3,3,3,3,3,3,3,3,3]}}}}",
        "summary.elements.id0.self_octaves: below\\[11\\]: expected a count "
          "not below the one before it nor above count"},
    {"\"summary\": {\"paths\": [{\"latency_octaves\": "
          "{\"count\": 2, \"below\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3]}}]}",
        "summary.paths\\[0\\].latency_octaves: below\\[20\\]: expected a "
          "count not below the one before it nor above count"},
    {"\"summary\": {\"paths\": [{\"latency_octaves\": "
          "{\"count\": 2, \"below\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1.5]}}]}",
        "summary.paths\\[0\\].latency_octaves: below\\[20\\]: expected a "
          "count not below the one before it nor above count"},
    {"\"summary\": {\"interlatency\": [{}, {\"matched\": -1}]}",
        "summary.interlatency\\[1\\].matched: expected a non-negative integer"},
    {"\"summary\": {\"threads\": [{\"elements\": [\"a\", 2]}]}",
        "summary.threads\\[0\\].elements\\[1\\]: expected a string"},
    {"\"summary\": {\"threads\": [{\"cpu_pct\": {\"mean\": {}}}]}",
        "summary.threads\\[0\\].cpu_pct.mean: expected a number"},
    {"\"summary\": {\"sinks\": {\"s\": {\"target_fps\": \"30/1\"}}}",
        "summary.sinks.s.target_fps: expected a number"},
    {"\"summary\": {\"frame_period_ms\": false}",
        "summary.frame_period_ms: expected a number"},
    {"\"summary\": {\"threads\": [{\"streaming\": \"no\"}]}",
        "summary.threads\\[0\\].streaming: expected true or false"},
    {"\"summary\": {\"process\": [1]}",
        "summary.process: expected an object"},
    {"\"summary\": {\"process\": {\"n_cpus\": \"two\"}}",
        "summary.process.n_cpus: expected an integer"},
    {"\"summary\": {\"process\": {\"rss_mb\": {\"max\": \"1G\"}}}",
        "summary.process.rss_mb.max: expected a number"},
    {"\"series\": [{}, []]", "series\\[1\\]: expected an object"},
    {"\"series\": {}", "series: expected an array"},
    {"\"events\": [{\"t\": \"now\"}]", "events\\[0\\].t: expected a number"},
    {"\"findings\": [{\"targets\": \"x\"}]",
        "findings\\[0\\].targets: expected an array"},
    {"\"findings\": [{\"heuristic\": 1}]",
        "findings\\[0\\].heuristic: expected true or false"},
    {"\"findings\": [{\"evidence\": []}]",
        "findings\\[0\\].evidence: expected an object"},
  };
  gchar *dir = make_tmp_dir ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *name = g_strdup_printf ("type%u.json", i);
    gchar *text = g_strdup_printf ("{\"schema\": \"gstprof/1\", %s}",
        cases[i].body);
    gchar *pattern = g_strdup_printf ("^@: %s$", cases[i].expect);

    expect_text_error (dir, name, text, -1, pattern);
    g_free (pattern);
    g_free (text);
    g_free (name);
  }
  remove_tree (dir);
  g_free (dir);
}

/* Random bytes, and a real session with random bytes changed: any result,
 * but never a crash, and errors are one line naming the file. */
static void
test_bad_garbage (void)
{
  GRand *rand = g_rand_new_with_seed (2024);
  GpSession *s = make_full_session ();
  gsize len, i;
  gchar *text = gp_session_to_data (s, FALSE, &len);
  guint round, n_ok = 0, n_err = 0;
  /* structural characters, so mutations make near-valid JSON */
  static const gchar json_chars[] = "{}[]\":,0-9en \\";

  for (round = 0; round < 3000; round++) {
    gchar *buf;
    gsize blen;
    GError *err = NULL;
    GpSession *back;

    if (round < 200) {
      blen = g_rand_int_range (rand, 0, 4096);
      buf = g_malloc (blen + 1);
      for (i = 0; i < blen; i++)
        buf[i] = (gchar) g_rand_int_range (rand, 0, 256);
    } else {
      guint flips = g_rand_int_range (rand, 1, 8);

      buf = g_malloc (len + 1);
      memcpy (buf, text, len + 1);
      blen = len;
      for (i = 0; i < flips; i++) {
        gsize at = g_rand_int_range (rand, 0, (gint32) len);

        buf[at] = (gchar) (round % 3 == 0 ? g_rand_int_range (rand, 0, 256)
            : json_chars[g_rand_int_range (rand, 0, sizeof (json_chars) - 1)]);
      }
      if (round % 5 == 0)
        blen = g_rand_int_range (rand, 0, (gint32) len);
    }
    buf[blen] = '\0';
    back = gp_session_load_data (buf, (gssize) blen, "fuzz.json", &err);
    if (back != NULL) {
      /* whatever loaded saves and loads again to the same text */
      gchar *t1 = gp_session_to_data (back, FALSE, NULL);
      GpSession *again = gp_session_load_data (t1, -1, "again", &err);
      gchar *t2;

      g_assert_no_error (err);
      t2 = gp_session_to_data (again, FALSE, NULL);
      g_assert_cmpstr (t1, ==, t2);
      g_free (t1);
      g_free (t2);
      gp_session_free (again);
      gp_session_free (back);
      n_ok++;
    } else {
      g_assert_nonnull (err);
      g_assert_true (g_str_has_prefix (err->message, "fuzz.json"));
      g_assert_null (strchr (err->message, '\n'));
      g_error_free (err);
      n_err++;
    }
    g_free (buf);
  }
  g_test_message ("garbage: %u loaded, %u refused", n_ok, n_err);
  g_assert_cmpuint (n_err, >, 0);
  g_free (text);
  gp_session_free (s);
  g_rand_free (rand);
}

/* A session of elements named "b0".."b{n-1}", b{i}'s parent @parents[i]
 * (NULL: "" top level), as session.json text. */
static gchar *
parents_session (guint n, const gchar * const *parents)
{
  GString *t = g_string_new ("{\"schema\": \"gstprof/1\", \"graph\": "
      "{\"elements\": [");
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (t, "%s{\"name\": \"b%u\", \"factory\": \"bin\", "
        "\"parent\": \"%s\", \"kind\": \"bin\", \"is_bin\": true}",
        i ? ", " : "", i, parents[i] ? parents[i] : "");
  g_string_append (t, "]}}");
  return g_string_free (t, FALSE);
}

/* A parent chain that loops (an element its own parent, two or three bins
 * each other's) is refused in one line naming the loop; a long chain that
 * does not loop loads, and an identity climbs it to a bound. */
static void
test_parent_loops (void)
{
  static const struct
  {
    guint n;
    const gchar *parents[4];
    const gchar *said;
  } loops[] = {
    {1, {"b0"}, "graph.elements[0]: the parent chain loops (b0 -> b0)"},
    {3, {NULL, "b2", "b1"}, "graph.elements[1]: the parent chain loops "
          "(b1 -> b2 -> b1)"},
    {4, {NULL, "b3", "b1", "b2"}, "graph.elements[1]: the parent chain "
          "loops (b1 -> b3 -> b2 -> b1)"},
    /* the loop above an element that is not in it */
    {4, {"b1", "b2", "b3", "b2"}, "graph.elements[0]: the parent chain "
          "loops (b2 -> b3 -> b2)"},
  };
  const gchar **chain = g_new0 (const gchar *, 1001);
  gchar **names = g_new0 (gchar *, 1001);
  GpSession *s;
  GError *err = NULL;
  gchar *text, *id;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (loops); i++) {
    text = parents_session (loops[i].n, loops[i].parents);
    s = gp_session_load_data (text, -1, "loop.json", &err);
    g_assert_null (s);
    g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
    g_assert_null (strchr (err->message, '\n'));
    g_assert_true (g_str_has_prefix (err->message, "loop.json: "));
    g_assert_nonnull (strstr (err->message, loops[i].said));
    g_clear_error (&err);
    g_free (text);
  }
  /* b{i} inside b{i-1}, a thousand deep: no loop, and the identity of
   * the innermost comes back, bounded (before: bins with made-up names
   * were worked out again at every level, and this never ended) */
  for (i = 0; i < 1000; i++) {
    names[i] = g_strdup_printf ("b%u", i ? i - 1 : 0);
    chain[i] = i ? names[i] : NULL;
  }
  text = parents_session (1000, chain);
  s = gp_session_load_data (text, -1, "deep.json", &err);
  g_assert_no_error (err);
  id = gp_session_element_identity (s, "b999");
  {
    guint slashes = 0;
    const gchar *c;

    /* the bins climbed, each a "/": as many as the bound (64) allows */
    for (c = id; *c; c++)
      slashes += *c == '/';
    g_assert_cmpuint (slashes, ==, 64);
  }
  g_free (id);
  gp_session_free (s);
  g_free (text);
  g_strfreev (names);
  g_free (chain);
}

static gint
by_name_descending (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(GpElement * const *) b)->name,
      (*(GpElement * const *) a)->name);
}

/* Lookups by name through the index agree with a scan of the array after
 * appends, direct appends, a sort, an emptying and refilling and a rename
 * announced by gp_session_reindex (); the first of two of a name wins. */
static void
test_find_index (void)
{
  GpSession *s = gp_session_new ();
  GpElement *e, *first;
  guint i;

  g_assert_null (gp_session_find_element (s, "e0"));
  for (i = 0; i < 2000; i++) {
    gchar *name = g_strdup_printf ("e%u", i);

    gp_session_add_element (s, name, "identity", "", "filter");
    /* looked up as they come: the index takes in each append */
    g_assert_true (gp_session_find_element (s, name) ==
        g_ptr_array_index (s->elements, i));
    g_free (name);
  }
  first = gp_session_find_element (s, "e7");
  gp_session_add_element (s, "e7", "queue", "", "queue");
  g_assert_true (gp_session_find_element (s, "e7") == first);
  /* appended straight into the array, as an importer does */
  e = gp_element_new ("direct", "fakesink", "", "sink");
  g_ptr_array_add (s->elements, e);
  g_assert_true (gp_session_find_element (s, "direct") == e);
  /* a sort moves entries: found where they are now */
  g_ptr_array_sort (s->elements, by_name_descending);
  for (i = 0; i < s->elements->len; i += 97) {
    e = g_ptr_array_index (s->elements, i);
    if (strcmp (e->name, "e7") != 0)
      g_assert_true (gp_session_find_element (s, e->name) == e);
  }
  /* "direct" sorts after every "e..." when descending */
  g_assert_true (gp_session_find_element (s, "direct") ==
      g_ptr_array_index (s->elements, s->elements->len - 1));
  /* emptied and refilled with other names */
  g_ptr_array_set_size (s->elements, 0);
  g_assert_null (gp_session_find_element (s, "e5"));
  gp_session_add_element (s, "other", "identity", "", "filter");
  g_assert_nonnull (gp_session_find_element (s, "other"));
  g_assert_null (gp_session_find_element (s, "e0"));
  /* an entry added unnamed and named before the next lookup (as the
   * reader does) */
  e = gp_session_add_element (s, NULL, NULL, NULL, NULL);
  g_free (e->name);
  e->name = g_strdup ("late");
  g_assert_true (gp_session_find_element (s, "late") == e);
  /* renamed in place, said with gp_session_reindex () */
  e = gp_session_find_element (s, "other");
  g_free (e->name);
  e->name = g_strdup ("renamed");
  gp_session_reindex (s);
  g_assert_true (gp_session_find_element (s, "renamed") == e);
  g_assert_null (gp_session_find_element (s, "other"));
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/session/model-defaults", test_model_defaults);
  g_test_add_func ("/core/session/model-find-and-sort",
      test_model_find_and_sort);
  g_test_add_func ("/core/session/model-props", test_model_props);
  g_test_add_func ("/core/session/round-trip", test_round_trip);
  g_test_add_func ("/core/session/round-trip-import", test_round_trip_import);
  g_test_add_func ("/core/session/key-names", test_key_names);
  g_test_add_func ("/core/session/read-defaults-and-nulls",
      test_read_defaults_and_nulls);
  g_test_add_func ("/core/session/write-unrepresentable",
      test_write_unrepresentable);
  g_test_add_func ("/core/session/reject-impossible",
      test_reject_impossible);
  g_test_add_func ("/core/session/save-atomic", test_save_atomic);
  g_test_add_func ("/core/session/save-readonly", test_save_readonly);
  g_test_add_func ("/core/session/save-readonly/subprocess",
      test_save_readonly_subprocess);
  g_test_add_func ("/core/session/bad-syntax", test_bad_syntax);
  g_test_add_func ("/core/session/bad-schema", test_bad_schema);
  g_test_add_func ("/core/session/value-budget", test_value_budget);
  g_test_add_func ("/core/session/bad-types", test_bad_types);
  g_test_add_func ("/core/session/bad-garbage", test_bad_garbage);
  g_test_add_func ("/core/session/parent-loops", test_parent_loops);
  g_test_add_func ("/core/session/find-index", test_find_index);
  return g_test_run ();
}
