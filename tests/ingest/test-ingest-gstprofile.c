/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: reading gst-profile sessions (src/ingest).
 *
 * The truth is the real captures in tests/fixtures/gst-profile-sessions
 * (Jetson Orin NX and a PC) and the JSON itself: every fixture loads; counts
 * and rates are recomputed here from the file with json-glib and compared
 * with the model; the merged percentiles are checked against what is
 * provable from per-window percentiles (exact when all windows agree, and
 * between the smallest and the largest window value otherwise); bad input
 * of every kind gives one error line naming the file, never a crash.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ingest/gp-ingest.h"
#include "../common/gp-test-series.h"
#include "../common/gp-test-util.h"

#define ORIGIN "bad.json"

static gchar *
fixture_path (const gchar * name)
{
  const gchar *dir = g_getenv ("GP_FIXTURES");

  g_assert_nonnull (dir);
  return g_build_filename (dir, "gst-profile-sessions", name, NULL);
}

static GpSession *
load_fixture (const gchar * name)
{
  gchar *path = fixture_path (name);
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any (path, &err);

  g_assert_no_error (err);
  g_assert_nonnull (s);
  gp_test_assert_series_declared (s);
  g_free (path);
  return s;
}

static JsonNode *
parse_fixture (const gchar * name, JsonParser ** parser)
{
  gchar *path = fixture_path (name);
  GError *err = NULL;

  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, path, &err);
  g_assert_no_error (err);
  g_free (path);
  return json_parser_get_root (*parser);
}

static gchar *
read_fixture (const gchar * name, gsize * len)
{
  gchar *path = fixture_path (name), *data = NULL;
  GError *err = NULL;

  g_file_get_contents (path, &data, len, &err);
  g_assert_no_error (err);
  g_free (path);
  return data;
}

static GpLink *
find_link (GpSession * s, const gchar * id)
{
  GpLink *l = gp_session_find_link (s, id);

  if (l == NULL)
    g_error ("no link %s", id);
  return l;
}

/* Each refusal: no session, our error domain, one line that starts with
 * the name given for the input. */
static void
assert_refused (const gchar * text, const gchar * expect_in_message)
{
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any_data (text, -1, ORIGIN, &err);

  g_assert_null (s);
  g_assert_nonnull (err);
  g_assert_true (err->domain == GP_SESSION_ERROR);
  g_assert_true (g_str_has_prefix (err->message, ORIGIN ":"));
  g_assert_null (strchr (err->message, '\n'));
  if (expect_in_message && strstr (err->message, expect_in_message) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", err->message, expect_in_message);
  g_test_message ("refused: %s", err->message);
  g_error_free (err);
}

/* ---------------------------------------------------------------- */
/* every fixture                                                      */
/* ---------------------------------------------------------------- */

static void
test_all_fixtures_load (void)
{
  gchar *dir_path = fixture_path ("");
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const gchar *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    JsonParser *parser;
    JsonObject *root, *graph;
    GpSession *s, *again;
    GError *err = NULL;
    gchar *data;
    gsize len;
    guint i;

    if (!g_str_has_suffix (name, ".json"))
      continue;
    s = load_fixture (name);
    root = json_node_get_object (parse_fixture (name, &parser));
    graph = json_object_get_object_member (root, "graph");

    g_assert_cmpstr (s->mode, ==, "analyze");
    /* busy shares over the run's duration, as the log gives it */
    gp_test_assert_shares (s, name);
    g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_GSTPROFILE);
    g_assert_cmpstr (s->import_mode, ==, "run");
    g_assert_cmpuint (s->import_missing, ==, GP_INGEST_GSTPROFILE_MISSING);
    g_assert_cmpuint (s->elements->len, ==,
        json_array_get_length (json_object_get_array_member (graph,
                "elements")));
    g_assert_cmpuint (s->links->len, ==,
        json_array_get_length (json_object_get_array_member (graph,
                "links")));
    g_assert_cmpuint (s->series->len, ==,
        json_array_get_length (json_object_get_array_member
            (json_object_get_object_member (root, "series"), "t")));
    g_assert_cmpuint (s->events->len, ==,
        json_array_get_length (json_object_get_array_member (root,
                "events")));
    /* their findings are not ours */
    g_assert_cmpuint (s->findings->len, ==, 0);
    for (i = 0; i < s->elements->len; i++) {
      GpElement *e = g_ptr_array_index (s->elements, i);

      g_assert_nonnull (e->kind);
      g_assert_true (strchr ("sfqtb", e->kind[0]) != NULL);
    }
    /* every link names both pads in our "element.pad" form */
    for (i = 0; i < s->links->len; i++) {
      GpLink *l = g_ptr_array_index (s->links, i);

      g_assert_nonnull (strchr (l->src, '.'));
      g_assert_nonnull (strchr (l->sink, '.'));
      g_assert_null (strchr (l->src, ':'));
    }

    /* what was imported can be saved as a gstprof session and read back */
    data = gp_session_to_data (s, TRUE, &len);
    again = gp_session_load_data (data, (gssize) len, name, &err);
    g_assert_no_error (err);
    g_assert_cmpuint (again->elements->len, ==, s->elements->len);
    g_assert_cmpuint (again->link_summaries->len, ==,
        s->link_summaries->len);
    gp_session_free (again);
    g_free (data);

    g_test_message ("%s: %u elements, %u links, %u windows", name,
        s->elements->len, s->links->len, s->series->len);
    g_object_unref (parser);
    gp_session_free (s);
    n++;
  }
  g_dir_close (dir);
  g_free (dir_path);
  /* the seven captures the note lists */
  g_assert_cmpuint (n, >=, 7);
}

/* ---------------------------------------------------------------- */
/* the Orin zero-copy break capture, value by value                   */
/* ---------------------------------------------------------------- */

/* Mean fps of a link over its data windows less the first and the last,
 * recomputed from the file. */
static gdouble
expected_link_fps (JsonObject * root, const gchar * key)
{
  JsonArray *fps = json_object_get_array_member (json_object_get_object_member
      (json_object_get_object_member (json_object_get_object_member (root,
                  "series"), "links"), key), "fps");
  guint i, n = json_array_get_length (fps), first = n, last = 0, used = 0;
  gdouble sum = 0;

  for (i = 0; i < n; i++) {
    JsonNode *v = json_array_get_element (fps, i);

    if (!JSON_NODE_HOLDS_NULL (v) && json_node_get_double (v) > 0) {
      first = MIN (first, i);
      last = i;
    }
  }
  for (i = first + 1; i < last; i++) {
    JsonNode *v = json_array_get_element (fps, i);

    if (!JSON_NODE_HOLDS_NULL (v) && json_node_get_double (v) > 0) {
      sum += json_node_get_double (v);
      used++;
    }
  }
  g_assert_cmpuint (used, >, 10);
  return sum / used;
}

static void
window_range (JsonArray * col, gdouble * lo, gdouble * hi)
{
  guint i;

  *lo = G_MAXDOUBLE;
  *hi = -1;
  for (i = 0; i < json_array_get_length (col); i++) {
    JsonNode *v = json_array_get_element (col, i);

    if (JSON_NODE_HOLDS_NULL (v))
      continue;
    *lo = MIN (*lo, json_node_get_double (v));
    *hi = MAX (*hi, json_node_get_double (v));
  }
}

static void
test_orin_zc_break (void)
{
  GpSession *s = load_fixture ("orin-nx-jp6-zc-break.json");
  JsonParser *parser;
  JsonObject *root =
      json_node_get_object (parse_fixture ("orin-nx-jp6-zc-break.json",
          &parser));
  JsonObject *pipe =
      json_object_get_object_member (json_object_get_object_member (root,
          "series"), "pipeline");
  static const gchar *const nvmm[] = {
    "nvvconv0.src->capsfilter1.sink", "capsfilter1.src->nvvconv1.sink",
    "nvvconv2.src->capsfilter4.sink", "capsfilter4.src->nvv4l2h264enc0.sink",
  };
  static const gchar *const sysmem[] = {
    "videotestsrc0.src->capsfilter0.sink", "capsfilter0.src->nvvconv0.sink",
    "nvvconv1.src->capsfilter2.sink", "capsfilter2.src->videoconvert0.sink",
    "videoconvert0.src->capsfilter3.sink", "capsfilter3.src->nvvconv2.sink",
    "nvv4l2h264enc0.src->h264parse0.sink", "h264parse0.src->fakesink0.sink",
  };
  GpLinkSummary *ls;
  GpElementSummary *es;
  GpElement *e;
  GpLink *l;
  GpPath *p;
  GpThreadSummary *ts;
  gdouble lo, hi, want;
  gboolean sync;
  guint i;

  /* session */
  g_assert_cmpstr (s->gstreamer, ==, "1.20.3");
  g_assert_cmpstr (s->platform, ==, "jetson");
  g_assert_cmpstr (s->started, ==, "2026-08-19T16:57:20Z");
  g_assert_cmpfloat_with_epsilon (s->duration_s, 12.318, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->window_s, 0.25, 1e-12);
  g_assert_true (g_str_has_prefix (s->launch, "videotestsrc is-live=true"));
  g_assert_cmpint (s->exit_code, ==, 0);

  /* graph: 13 elements and the pipeline bin */
  g_assert_cmpuint (s->elements->len, ==, 14);
  g_assert_cmpuint (s->links->len, ==, 12);
  g_assert_cmpstr (gp_session_find_element (s, "videotestsrc0")->kind, ==,
      "source");
  g_assert_cmpstr (gp_session_find_element (s, "fakesink0")->kind, ==,
      "sink");
  g_assert_cmpstr (gp_session_find_element (s, "videoconvert0")->kind, ==,
      "filter");
  e = gp_session_find_element (s, "pipeline0");
  g_assert_true (e->is_bin);
  g_assert_cmpstr (e->kind, ==, "bin");
  /* JetPack 6 names nvvidconv's GType "Gstnvvconv": the real factory */
  g_assert_cmpstr (gp_session_find_element (s, "nvvconv1")->factory, ==,
      "nvvidconv");
  g_assert_true (g_ptr_array_find_with_equal_func (s->hw_elements,
          "nvvidconv", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (s->hw_elements,
          "nvv4l2h264enc", g_str_equal, NULL));
  g_assert_false (g_ptr_array_find_with_equal_func (s->hw_elements,
          "videoconvert", g_str_equal, NULL));

  /* properties: what the dot dump showed, as it showed it; nothing else */
  e = gp_session_find_element (s, "fakesink0");
  g_assert_true (gp_element_get_prop_bool (e, "sync", &sync));
  g_assert_false (sync);
  g_assert_cmpstr (gp_element_get_prop_string (e, "sync"), ==, "FALSE");
  e = gp_session_find_element (s, "nvv4l2h264enc0");
  g_assert_cmpstr (gp_element_get_prop_string (e, "peak-bitrate"), ==,
      "4000000");
  g_assert_false (gp_element_get_prop_bool (e, "insert-sps-pps", &sync));
  g_assert_null (gp_element_get_prop_string (e, "bitrate"));

  /* memory of every link */
  for (i = 0; i < G_N_ELEMENTS (nvmm); i++)
    g_assert_cmpstr (find_link (s, nvmm[i])->memory, ==, "memory:NVMM");
  for (i = 0; i < G_N_ELEMENTS (sysmem); i++)
    g_assert_cmpstr (find_link (s, sysmem[i])->memory, ==, "system");

  /* dot's pretty caps became a caps string */
  l = find_link (s, "capsfilter1.src->nvvconv1.sink");
  g_assert_true (g_str_has_prefix (l->caps,
          "video/x-raw(memory:NVMM), width=1920, height=1080, "
          "framerate=30/1"));
  /* the field the dot dump cut short is left out, not passed on cut */
  l = find_link (s, "nvv4l2h264enc0.src->h264parse0.sink");
  g_assert_null (strstr (l->caps, "multiview-flags"));
  g_assert_null (strstr (l->caps, "profile=NULL"));
  g_assert_nonnull (strstr (l->caps, "stream-format=byte-stream"));

  /* link rates against the file */
  ls = gp_session_find_link_summary (s, "videoconvert0.src->capsfilter3.sink");
  g_assert_nonnull (ls);
  want = expected_link_fps (root, "videoconvert0:src->capsfilter3:sink");
  g_assert_cmpfloat_with_epsilon (ls->fps, want, 1e-9);
  g_assert_cmpfloat (ls->fps, >, 29.0);
  g_assert_cmpfloat (ls->fps, <, 31.0);
  g_assert_cmpfloat (ls->bytes_per_s, >, 3.8e7);
  g_assert_cmpfloat (ls->bytes_per_s, <, 5.0e7);

  /* target rate from the caps framerate, not from the busiest window */
  g_assert_cmpfloat_with_epsilon (s->target_fps, 30.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->frame_period_ms, 1000.0 / 30, 1e-9);
  g_assert_cmpuint (s->sinks->len, ==, 1);
  g_assert_cmpfloat_with_epsilon (((GpSinkSummary *) s->sinks->pdata[0])->
      target_fps, 30.0, 1e-9);

  /* one latency path, source to sink; the run's p95 lies between the
   * smallest and the largest window p95 (provable), and with one warm-up
   * window of 179.5 ms among 48 steady ones it stays with the steady ones */
  g_assert_cmpuint (s->paths->len, ==, 1);
  p = g_ptr_array_index (s->paths, 0);
  g_assert_cmpstr (p->source, ==, "videotestsrc0.src");
  g_assert_cmpstr (p->sink, ==, "fakesink0");
  window_range (json_object_get_array_member (pipe, "latency_ms_p95"), &lo,
      &hi);
  g_assert_cmpfloat (p->latency_ms.p95, >=, lo);
  g_assert_cmpfloat (p->latency_ms.p95, <=, hi);
  g_assert_cmpfloat (p->latency_ms.p95, >, 24.0);
  g_assert_cmpfloat (p->latency_ms.p95, <, 28.0);
  g_assert_cmpfloat (p->latency_ms.p50, <=, p->latency_ms.p95);
  g_assert_cmpfloat (p->latency_ms.p50, >, 20.0);
  g_assert_cmpfloat (p->latency_ms.p99, <, 0);
  g_assert_cmpfloat (p->latency_ms.max, <, 0);
  /* one sample per buffer into the sink: about 30/s over 12 s */
  g_assert_cmpuint (p->matched, >, 330);
  g_assert_cmpuint (p->matched, <, 380);
  g_test_message ("latency p50 %.2f p95 %.2f ms, matched %" G_GUINT64_FORMAT,
      p->latency_ms.p50, p->latency_ms.p95, p->matched);

  /* elements: the encoder's merged p95 among its window p95s */
  es = gp_session_find_elem_summary (s, "nvv4l2h264enc0");
  g_assert_nonnull (es);
  window_range (json_object_get_array_member (json_object_get_object_member
          (json_object_get_object_member (json_object_get_object_member
                  (root, "series"), "elements"), "nvv4l2h264enc0"),
          "proc_ms_p95"), &lo, &hi);
  g_assert_cmpfloat (es->self_ms.p95, >=, lo);
  g_assert_cmpfloat (es->self_ms.p95, <=, hi);
  g_assert_cmpfloat (es->self_ms.p95, >, 8.0);
  g_assert_cmpfloat (es->self_ms.p95, <, 10.0);
  g_assert_cmpfloat (es->cpu_ms, <, 0);
  g_assert_cmpuint (es->threads->len, ==, 0);
  /* sources have no element-latency: unknown, not zero */
  es = gp_session_find_elem_summary (s, "videotestsrc0");
  g_assert_cmpfloat (es->self_ms.p50, <, 0);
  /* the biggest worker is first */
  es = g_ptr_array_index (s->elem_summaries, 0);
  g_assert_cmpstr (es->name, ==, "nvv4l2h264enc0");

  /* threads: from "tid:comm" */
  g_assert_cmpuint (s->threads->len, ==, 10);
  ts = gp_session_find_thread (s, 98350);
  g_assert_nonnull (ts);
  g_assert_cmpstr (ts->name, ==, "videotestsrc0:s");
  g_assert_cmpfloat_with_epsilon (ts->cpu_pct_mean, 67.2, 1e-9);
  g_assert_cmpfloat (ts->cpu_pct_max, <, 0);
  g_assert_true (s->threads->pdata[0] == ts);

  /* events kept, in our words */
  g_assert_cmpuint (s->events->len, ==, 163);
  g_assert_cmpstr (((GpEvent *) s->events->pdata[0])->type, ==, "state");
  g_assert_cmpstr (((GpEvent *) s->events->pdata[162])->type, ==,
      "child-exit");

  /* series in our shape */
  {
    JsonObject *w = g_ptr_array_index (s->series, 10);
    JsonObject *links = json_object_get_object_member (w, "links");

    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (w, "t0"),
        2.5, 1e-9);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (w, "t1"),
        2.75, 1e-9);
    g_assert_true (json_object_has_member (links,
            "videotestsrc0.src->capsfilter0.sink"));
    g_assert_true (json_object_has_member (json_object_get_object_member (w,
                "elements"), "nvv4l2h264enc0"));
    g_assert_true (json_object_has_member (json_object_get_object_member (w,
                "paths"), "videotestsrc0.src->fakesink0"));
  }

  g_object_unref (parser);
  gp_session_free (s);
}

/* The other Orin captures: 30 fps targets, and the queue of the healthy
 * one is a queue, with its element-latency as residence, not self time. */
static void
test_orin_others (void)
{
  static const gchar *const names[] = {
    "orin-nx-jp6-healthy.json", "orin-nx-jp6-no-queue.json",
    "orin-nx-jp6-sw.json",
  };
  GpSession *s;
  GpQueueSummary *qs;
  GpElementSummary *es;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    s = load_fixture (names[i]);
    g_assert_cmpfloat_with_epsilon (s->target_fps, 30.0, 1e-9);
    g_assert_cmpuint (s->paths->len, ==, 1);
    g_assert_true (g_ptr_array_find_with_equal_func (s->hw_elements,
            "nvvidconv", g_str_equal, NULL));
    gp_session_free (s);
  }

  s = load_fixture ("orin-nx-jp6-healthy.json");
  g_assert_cmpstr (gp_session_find_element (s, "queue0")->kind, ==, "queue");
  qs = gp_session_find_queue_summary (s, "queue0");
  g_assert_nonnull (qs);
  g_assert_cmpfloat (qs->residence_ms.p50, >, 0);
  g_assert_cmpfloat (qs->level_pct_mean, <, 0);
  g_assert_cmpstr (qs->leaky, ==, "unknown");
  es = gp_session_find_elem_summary (s, "queue0");
  g_assert_cmpfloat (es->self_ms.p50, <, 0);
  g_assert_cmpfloat (es->share_pct, ==, 0);
  gp_session_free (s);

  /* the PC capture: generic, 1.24.2, x264 first */
  s = load_fixture ("software-healthy.json");
  g_assert_cmpstr (s->platform, ==, "generic");
  g_assert_cmpstr (s->gstreamer, ==, "1.24.2");
  g_assert_cmpfloat_with_epsilon (s->target_fps, 30.0, 1e-9);
  g_assert_cmpuint (s->hw_elements->len, ==, 0);
  g_assert_cmpstr (((GpElementSummary *) s->elem_summaries->pdata[0])->name,
      ==, "x264enc0");
  g_assert_nonnull (gp_session_find_queue_summary (s, "queue0"));
  gp_session_free (s);
}

/* The synthetic Jetson file: every window equal, so the merge must give
 * the windows' own values exactly; links without caps text get caps from
 * their media, memory and format. */
static void
test_synthetic_exact (void)
{
  GpSession *s = load_fixture ("jetson-zc-break.json");
  GpElementSummary *es = gp_session_find_elem_summary (s, "videoconvert0");
  GpPath *p;
  GpLink *l;

  g_assert_cmpfloat_with_epsilon (es->self_ms.p50, 8.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (es->self_ms.p95, 9.0, 1e-9);
  g_assert_cmpuint (es->buffers, ==, 40);
  /* 40 buffers x 8 ms median */
  g_assert_cmpfloat_with_epsilon (es->self_total_ms, 320.0, 1e-9);

  p = g_ptr_array_index (s->paths, 0);
  g_assert_cmpstr (p->source, ==, "nvarguscamerasrc0.src");
  g_assert_cmpstr (p->sink, ==, "udpsink0");
  g_assert_cmpfloat_with_epsilon (p->latency_ms.p50, 18.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (p->latency_ms.p95, 20.0, 1e-9);
  /* the sink's input link has no series: no count to estimate from */
  g_assert_cmpuint (p->matched, ==, 0);

  l = find_link (s, "nvarguscamerasrc0.src->videoconvert0.sink");
  g_assert_cmpstr (l->memory, ==, "memory:NVMM");
  g_assert_cmpstr (l->caps, ==, "video/x-raw(memory:NVMM), format=NV12");
  l = find_link (s, "nvv4l2h264enc0.src->udpsink0.sink");
  g_assert_cmpstr (l->memory, ==, "system");
  g_assert_cmpstr (l->caps, ==, "video/x-h264");
  /* no caps framerate anywhere: unknown, not guessed from window fps */
  g_assert_cmpfloat (s->target_fps, <, 0);
  g_assert_cmpfloat (s->frame_period_ms, <, 0);

  g_assert_cmpfloat_with_epsilon (gp_session_find_link_summary (s,
          "videoconvert0.src->nvvidconv0.sink")->fps, 30.0, 1e-9);
  gp_session_free (s);
}

/* Caps and memory in the forms the files hold: dot's pretty text with
 * several features, a feature gst-profile calls "unknown", caps already
 * serialized, no caps at all. */
static void
test_caps_forms (void)
{
  const gchar *text = "{\"schema\":\"gst-profile/1\",\"graph\":{"
      "\"elements\":["
      "{\"id\":\"a0\",\"pads\":{\"src\":\"src\"}},"
      "{\"id\":\"b0\",\"pads\":{\"sink\":\"sink\",\"src\":\"src\"}},"
      "{\"id\":\"c0\"},{\"id\":\"d0\"}],"
      "\"links\":["
      "{\"src\":\"a0:src\",\"sink\":\"b0:sink\",\"memory\":\"unknown\","
      "\"caps\":\"video/x-raw(memory:NVMM, meta:GstVideoOverlayComposition)"
      "   format: NV12   max-framerate: 60/1   framerate: 0/1\"},"
      "{\"src\":\"b0:src\",\"sink\":\"c0:sink\",\"memory\":\"unknown\","
      "\"caps\":\"video/x-raw(memory:CUDAMemory)  framerate: 25/1  "
      "colorimetry: bt709 odd, value\"},"
      "{\"src\":\"c0:src\",\"sink\":\"d0:sink\",\"memory\":\"sysmem\","
      "\"caps\":\"video/x-raw, format=(string)I420, "
      "framerate=(fraction)15/1\"},"
      "{\"src\":\"c0:aux\",\"sink\":\"d0:aux\",\"memory\":\"unknown\","
      "\"caps\":\"\",\"media\":\"\"}]}}";
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any_data (text, -1, "caps.json", &err);
  GpLink *l;

  g_assert_no_error (err);
  l = find_link (s, "a0.src->b0.sink");
  g_assert_cmpstr (l->memory, ==, "memory:NVMM");
  g_assert_cmpstr (l->caps, ==, "video/x-raw(memory:NVMM, "
      "meta:GstVideoOverlayComposition), format=NV12, max-framerate=60/1, "
      "framerate=0/1");
  l = find_link (s, "b0.src->c0.sink");
  g_assert_cmpstr (l->memory, ==, "memory:CUDAMemory");
  g_assert_cmpstr (l->caps, ==, "video/x-raw(memory:CUDAMemory), "
      "framerate=25/1, colorimetry=\"bt709 odd, value\"");
  l = find_link (s, "c0.src->d0.sink");
  g_assert_cmpstr (l->memory, ==, "system");
  g_assert_cmpstr (l->caps, ==,
      "video/x-raw, format=(string)I420, framerate=(fraction)15/1");
  l = find_link (s, "c0.aux->d0.aux");
  g_assert_null (l->memory);
  g_assert_null (l->caps);
  /* the source asks for a variable rate (0/1), max-framerate is not the
   * rate: the first link with a rate says 25 */
  g_assert_cmpfloat_with_epsilon (s->target_fps, 25.0, 1e-9);
  /* kinds from pads, else from links */
  g_assert_cmpstr (gp_session_find_element (s, "a0")->kind, ==, "source");
  g_assert_cmpstr (gp_session_find_element (s, "b0")->kind, ==, "filter");
  g_assert_cmpstr (gp_session_find_element (s, "c0")->kind, ==, "filter");
  g_assert_cmpstr (gp_session_find_element (s, "d0")->kind, ==, "sink");
  /* the sink's own target: its input caps */
  g_assert_cmpfloat_with_epsilon (gp_session_find_sink (s, "d0")->target_fps,
      15.0, 1e-9);
  gp_session_free (s);
}

/* ---------------------------------------------------------------- */
/* merging per-window percentiles                                     */
/* ---------------------------------------------------------------- */

static GpSession *
load_windows (guint b1, gdouble p50_1, gdouble p95_1, guint b2,
    gdouble p50_2, gdouble p95_2)
{
  gchar *text = g_strdup_printf ("{\"schema\":\"gst-profile/1\","
      "\"graph\":{\"elements\":[{\"id\":\"x0\",\"factory\":\"identity\","
      "\"pads\":{\"sink\":\"sink\",\"src\":\"src\"}}]},"
      "\"series\":{\"window_ms\":250,\"t\":[0,0.25],\"elements\":{\"x0\":"
      "{\"proc_ms_p50\":[%g,%g],\"proc_ms_p95\":[%g,%g],"
      "\"buffers\":[%u,%u]}}}}", p50_1, p50_2, p95_1, p95_2, b1, b2);
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any_data (text, -1, "two.json", &err);

  g_assert_no_error (err);
  g_free (text);
  return s;
}

static GpSession *
load_two_windows (guint b1, gdouble v1, guint b2, gdouble v2)
{
  return load_windows (b1, v1, v1, b2, v2, v2);
}

static void
test_merge_weights (void)
{
  GpSession *s;
  GpElementSummary *es;

  /* 90 samples at 2 ms, 10 at 10 ms: the p95 is 10 ms */
  s = load_two_windows (90, 2.0, 10, 10.0);
  es = gp_session_find_elem_summary (s, "x0");
  g_assert_cmpfloat_with_epsilon (es->self_ms.p50, 2.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (es->self_ms.p95, 10.0, 1e-6);
  g_assert_cmpuint (es->buffers, ==, 100);
  g_assert_cmpfloat_with_epsilon (es->self_total_ms, 280.0, 1e-9);
  gp_session_free (s);

  /* 90 at 2 ms, 1 at 10 ms: 1 % of the samples is above 2 ms, so the p95
   * is 2 ms, where a p95 of the window p95s would say 10 */
  s = load_two_windows (90, 2.0, 1, 10.0);
  es = gp_session_find_elem_summary (s, "x0");
  g_assert_cmpfloat_with_epsilon (es->self_ms.p95, 2.0, 1e-6);
  g_assert_cmpfloat (es->self_ms.max, <, 0);
  gp_session_free (s);

  /* inside a window: one window spread from 0 (p50) to 10 ms (p95), one
   * all at 5 ms, same counts. The run's p95 is the first window's p90,
   * 0.40 / 0.45 of the way from its p50 to its p95 in the model (half the
   * samples at the p50, 45 % spread evenly to the p95) */
  s = load_windows (100, 0.0, 10.0, 100, 5.0, 5.0);
  es = gp_session_find_elem_summary (s, "x0");
  g_assert_cmpfloat_with_epsilon (es->self_ms.p50, 5.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (es->self_ms.p95, 10.0 * 0.40 / 0.45, 1e-6);
  gp_session_free (s);
}

/* ---------------------------------------------------------------- */
/* imports through session.json                                       */
/* ---------------------------------------------------------------- */

/* Every fixture, imported and saved as a gstprof session, reads back with
 * where it came from, what it lacks, and its unknown link memories still
 * unknown (not "system"); saving that again gives the same bytes. */
static void
test_import_round_trip (void)
{
  gchar *dir_path = fixture_path (""), *tmp;
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const gchar *name;
  GError *err = NULL;
  guint n = 0, n_unknown_memory = 0;

  tmp = g_dir_make_tmp ("gstprof-ingest-rt-XXXXXX", &err);
  g_assert_no_error (err);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    gchar *out, *again, *text, *text2;
    GpSession *s, *back;
    guint i;

    if (!g_str_has_suffix (name, ".json"))
      continue;
    s = load_fixture (name);
    g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_GSTPROFILE);
    g_assert_cmphex (s->import_missing, ==, GP_INGEST_GSTPROFILE_MISSING);

    out = g_build_filename (tmp, name, NULL);
    g_assert_true (gp_session_save (s, out, &err));
    g_assert_no_error (err);
    back = gp_ingest_load_any (out, &err);
    g_assert_no_error (err);
    g_assert_cmpstr (back->schema, ==, GP_SESSION_SCHEMA);
    g_assert_cmpstr (back->mode, ==, s->mode);
    g_assert_cmpstr (back->import_schema, ==, s->import_schema);
    g_assert_cmpstr (back->import_mode, ==, s->import_mode);
    g_assert_cmphex (back->import_missing, ==, s->import_missing);
    g_assert_cmpuint (back->links->len, ==, s->links->len);
    for (i = 0; i < s->links->len; i++) {
      GpLink *a = g_ptr_array_index (s->links, i);
      GpLink *b = g_ptr_array_index (back->links, i);

      g_assert_cmpstr (a->id, ==, b->id);
      g_assert_cmpstr (a->memory, ==, b->memory);
      n_unknown_memory += a->memory == NULL;
    }

    again = g_strconcat (out, ".again", NULL);
    g_assert_true (gp_session_save (back, again, &err));
    g_assert_no_error (err);
    g_file_get_contents (out, &text, NULL, &err);
    g_assert_no_error (err);
    g_file_get_contents (again, &text2, NULL, &err);
    g_assert_no_error (err);
    g_assert_cmpstr (text, ==, text2);
    g_assert_nonnull (strstr (text, "\"imported_from\""));

    g_unlink (again);
    g_unlink (out);
    g_free (text);
    g_free (text2);
    g_free (again);
    g_free (out);
    gp_session_free (back);
    gp_session_free (s);
    n++;
  }
  g_dir_close (dir);
  g_rmdir (tmp);
  g_free (tmp);
  g_free (dir_path);
  g_assert_cmpuint (n, >=, 7);
  g_test_message ("%u fixtures, %u links of unknown memory", n,
      n_unknown_memory);
}

/* Every flag a gst-profile import sets has a name in session.json, a label
 * for the verdict and a description; the note names them all. */
static void
test_missing_names (void)
{
  GpSession *s = load_fixture ("software-healthy.json");
  gchar *note = gp_ingest_import_note (s, 80);
  /* the note unwrapped, so that a label cut over two lines is found */
  gchar **parts = g_strsplit (note, "\n  ", -1);
  gchar *flat = g_strjoinv (" ", parts);
  guint bit, lines = 0;
  const gchar *p;

  for (bit = 0; bit < 32; bit++) {
    guint flag = 1u << bit;

    if ((GP_INGEST_GSTPROFILE_MISSING & flag) == 0) {
      /* another reader's flag (a tracer log's): named everywhere too, and
       * not in this note */
      if (gp_ingest_missing_label (flag) != NULL) {
        g_assert_cmphex (gp_session_import_missing_from_name
            (gp_session_import_missing_name (flag)), ==, flag);
        g_assert_nonnull (gp_ingest_missing_describe (flag));
        g_assert_null (strstr (flat, gp_ingest_missing_label (flag)));
      } else {
        g_assert_null (gp_session_import_missing_name (flag));
      }
      continue;
    }
    g_assert_nonnull (gp_session_import_missing_name (flag));
    g_assert_cmphex (gp_session_import_missing_from_name
        (gp_session_import_missing_name (flag)), ==, flag);
    g_assert_nonnull (gp_ingest_missing_describe (flag));
    g_assert_nonnull (gp_ingest_missing_label (flag));
    g_assert_nonnull (strstr (flat, gp_ingest_missing_label (flag)));
  }
  g_assert_true (g_str_has_prefix (note, "imported from gst-profile/1 "
          "(its mode: run); not in it: self time"));
  for (p = note; *p != '\0'; p++) {
    const gchar *nl = strchr (p, '\n');

    g_assert_nonnull (nl);
    g_assert_cmpint (g_utf8_strlen (p, nl - p), <=, 80);
    lines++;
    p = nl;
  }
  g_assert_cmpuint (lines, ==, 3);
  g_free (flat);
  g_strfreev (parts);
  g_free (note);

  /* gstprof's own sessions get no note */
  s->import_schema = NULL;
  g_assert_null (gp_ingest_import_note (s, 80));
  gp_session_free (s);
}

/* ---------------------------------------------------------------- */
/* bad input                                                          */
/* ---------------------------------------------------------------- */

static void
test_bad_schema (void)
{
  assert_refused ("{\"schema\":\"gst-profile/2\"}", "unknown schema");
  assert_refused ("{\"schema\":\"something\",\"session\":{}}",
      "unknown schema");
  assert_refused ("{\"session\":{}}", "no \"schema\"");
  assert_refused ("{\"schema\":7}", "schema: expected a string");
  assert_refused ("[1,2,3]", "not a JSON object");
  assert_refused ("", "empty");
  assert_refused ("   ", NULL);
  assert_refused ("{\"schema\":\"gst-profile/1\"", NULL);
  assert_refused ("\xff\xfe{}", "not UTF-8");
  /* one value and nothing after it (json-glib would leak on the second) */
  assert_refused ("{\"schema\":\"gst-profile/1\"}\n{\"b\":\"y\"}",
      "bad.json:2:1: more data after the end of the JSON value");
  assert_refused ("\"s\" {\"a\":1}",
      "bad.json:1:5: more data after the end of the JSON value");
  assert_refused ("\"s\"", "not a session file");
  /* what json-glib's scanner takes but JSON does not have */
  assert_refused ("{\"schema\": /* x */ \"gst-profile/1\"}",
      "bad.json:1:12: a comment");
  assert_refused ("{'schema': 'gst-profile/1'}",
      "bad.json:1:2: a single quote");
  assert_refused ("null", "not a session file");
}

static void
test_bad_file (void)
{
  GError *err = NULL;
  GpSession *s;
  gchar *dir = g_dir_make_tmp ("gstprof-ingest-XXXXXX", &err);
  gchar *path = g_build_filename (dir, "empty.json", NULL);

  g_assert_no_error (err);
  s = gp_ingest_load_any ("/nonexistent/dir/session.json", &err);
  g_assert_null (s);
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_IO);
  g_assert_true (g_str_has_prefix (err->message,
          "/nonexistent/dir/session.json: "));
  g_clear_error (&err);

  g_file_set_contents (path, "", 0, &err);
  g_assert_no_error (err);
  s = gp_ingest_load_any (path, &err);
  g_assert_null (s);
  g_assert_nonnull (err);
  g_assert_true (g_str_has_prefix (err->message, path));
  g_clear_error (&err);

  /* a directory is not a session */
  s = gp_ingest_load_any (dir, &err);
  g_assert_null (s);
  g_assert_nonnull (err);
  g_assert_true (g_str_has_prefix (err->message, dir));
  g_clear_error (&err);

  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

/* Every fixture cut short at many places: a syntax error with a position,
 * never a crash or a half session. */
static void
test_truncated (void)
{
  static const gchar *const names[] = {
    "orin-nx-jp6-zc-break.json", "jetson-zc-break.json",
    "software-healthy.json",
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gsize len;
    gchar *data = read_fixture (names[i], &len);

    for (k = 1; k < 40; k++) {
      gsize cut = len * k / 40;
      GError *err = NULL;
      GpSession *s = gp_ingest_load_any_data (data, (gssize) cut, ORIGIN,
          &err);

      g_assert_null (s);
      g_assert_nonnull (err);
      g_assert_true (g_str_has_prefix (err->message, ORIGIN ":"));
      g_assert_null (strchr (err->message, '\n'));
      g_clear_error (&err);
    }
    g_free (data);
  }
}

/* A valid minimal gst-profile session with one piece replaced. */
static gchar *
with_piece (const gchar * session, const gchar * graph, const gchar * series,
    const gchar * extra)
{
  return g_strdup_printf ("{\"schema\":\"gst-profile/1\",\"session\":%s,"
      "\"graph\":%s,\"series\":%s%s}", session, graph, series, extra);
}

#define GOOD_SESSION "{\"mode\":\"run\",\"duration_s\":1.0}"
#define GOOD_GRAPH "{\"elements\":[{\"id\":\"a0\",\"factory\":\"fakesrc\"," \
  "\"pads\":{\"src\":\"src\"},\"props\":{}}],\"links\":[{\"id\":" \
  "\"a0:src->b0:sink\",\"src\":\"a0:src\",\"sink\":\"b0:sink\"," \
  "\"memory\":\"sysmem\"}]}"
#define GOOD_SERIES "{\"window_ms\":250,\"t\":[0,0.25],\"elements\":{\"a0\":" \
  "{\"proc_ms_p50\":[1,1],\"proc_ms_p95\":[2,2],\"buffers\":[3,3]}}," \
  "\"links\":{\"a0:src->b0:sink\":{\"fps\":[30,30],\"bytes_s\":[1,1]," \
  "\"stalled\":[false,false]}},\"pipeline\":{\"latency_ms_p50\":[1,null]," \
  "\"latency_ms_p95\":[2,null]}}"

static void
test_good_minimal (void)
{
  gchar *text = with_piece (GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, "");
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any_data (text, -1, "min.json", &err);

  g_assert_no_error (err);
  g_assert_cmpuint (s->elements->len, ==, 1);
  g_assert_cmpuint (s->link_summaries->len, ==, 1);
  g_assert_cmpuint (s->series->len, ==, 2);
  gp_session_free (s);
  g_free (text);

  /* a thread's figure past a double's range is unknown, never infinite
   * (found by fuzz-gstprofile) */
  text = with_piece (GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES,
      ",\"threads\":{\"1:big\":0.1e3080,\"2:fine\":5}");
  s = gp_ingest_load_any_data (text, -1, "min.json", &err);
  g_assert_no_error (err);
  g_assert_cmpfloat (gp_session_find_thread (s, 1)->cpu_pct_mean,
      <, 0);
  g_assert_cmpfloat (gp_session_find_thread (s, 2)->cpu_pct_mean,
      ==, 5);
  gp_session_free (s);
  g_free (text);
}

static void
test_wrong_types (void)
{
  static const struct
  {
    const gchar *session, *graph, *series, *extra, *expect;
  } cases[] = {
    {"{\"duration_s\":\"long\"}", GOOD_GRAPH, GOOD_SERIES, "",
        "session.duration_s: expected a number"},
    {"{\"duration_s\":-3}", GOOD_GRAPH, GOOD_SERIES, "",
        "session.duration_s: expected a non-negative number"},
    {"[]", GOOD_GRAPH, GOOD_SERIES, "", "session: expected an object"},
    {GOOD_SESSION, "{\"elements\":{}}", GOOD_SERIES, "",
        "graph.elements: expected an array"},
    {GOOD_SESSION, "{\"elements\":[7]}", GOOD_SERIES, "",
        "graph.elements[0]: expected an object"},
    {GOOD_SESSION, "{\"elements\":[{\"id\":5}]}", GOOD_SERIES, "",
        "graph.elements[0].id: expected a string"},
    {GOOD_SESSION, "{\"elements\":[{\"factory\":\"x\"}]}", GOOD_SERIES, "",
        "graph.elements[0]: an element needs"},
    {GOOD_SESSION, "{\"elements\":[{\"id\":\"a\"},{\"id\":\"a\"}]}",
        GOOD_SERIES, "", "graph.elements[1]: element \"a\" is listed twice"},
    {GOOD_SESSION, "{\"elements\":[{\"id\":\"a\",\"props\":{\"sync\":true}}]}",
        GOOD_SERIES, "", "graph.elements[0].props.sync: expected a string"},
    {GOOD_SESSION, "{\"elements\":[{\"id\":\"a\",\"is_bin\":\"no\"}]}",
        GOOD_SERIES, "", "graph.elements[0].is_bin: expected true or false"},
    {GOOD_SESSION, "{\"links\":[{\"src\":\"a:src\"}]}", GOOD_SERIES, "",
        "graph.links[0]: a link needs"},
    {GOOD_SESSION, "{\"links\":[{\"src\":\"a:src\",\"sink\":\"b:sink\","
          "\"memory\":3}]}", GOOD_SERIES, "",
        "graph.links[0].memory: expected a string"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,\"x\"]}", "",
        "series.t: value 1: expected a number"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"window_ms\":0,\"t\":[0]}", "",
        "series.window_ms: expected a positive number"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,1],\"links\":{\"a:src->b:sink\":"
          "{\"fps\":[30,\"fast\"]}}}", "",
        "series.links.a:src->b:sink.fps: value 1: expected a number or null"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,1],\"links\":{\"a:src->b:sink\":"
          "{\"fps\":[30,-1]}}}", "", "expected a non-negative number"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,1],\"links\":{\"a:src->b:sink\":"
          "{\"stalled\":[1,0]}}}", "", "expected true, false or null"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,1],\"elements\":{\"a0\":[1]}}", "",
        "series.elements.a0: expected an object"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"t\":[0,1],\"elements\":{\"a0\":"
          "{\"buffers\":[1e300,1]}}}", "", "in range"},
    {GOOD_SESSION, GOOD_GRAPH, "{\"elements\":{\"a0\":{}}}", "",
        "series: columns without \"t\""},
    {GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, ",\"threads\":{\"1:x\":\"hot\"}",
        "threads.1:x: expected a number"},
    {GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, ",\"threads\":[]",
        "threads: expected an object"},
    {GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, ",\"events\":[{\"t\":\"now\"}]",
        "events[0].t: expected a number"},
    {GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, ",\"events\":{}",
        "events: expected an array"},
    {GOOD_SESSION, GOOD_GRAPH, GOOD_SERIES, ",\"target\":{\"platform\":1}",
        "target.platform: expected a string"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *text = with_piece (cases[i].session, cases[i].graph,
        cases[i].series, cases[i].extra);

    assert_refused (text, cases[i].expect);
    g_free (text);
  }
}

/* Columns of another length than series.t: refused, naming the column. */
static void
test_unequal_lengths (void)
{
  static const struct
  {
    const gchar *series, *expect;
  } cases[] = {
    {"{\"t\":[0,0.25,0.5],\"elements\":{\"a0\":{\"proc_ms_p95\":[1,2]}}}",
        "series.elements.a0.proc_ms_p95: has 2 values but series.t has 3"},
    {"{\"t\":[0,0.25],\"elements\":{\"a0\":{\"buffers\":[1,2,3]}}}",
        "series.elements.a0.buffers: has 3 values but series.t has 2"},
    {"{\"t\":[0,0.25],\"links\":{\"l\":{\"bytes_s\":[]}}}",
        "series.links.l.bytes_s: has 0 values"},
    {"{\"t\":[0],\"pipeline\":{\"latency_ms_p95\":[1,2]}}",
        "series.pipeline.latency_ms_p95: has 2 values"},
    {"{\"t\":[0],\"system\":{\"cpu_pct_per_core\":[[],[]]}}",
        "series.system.cpu_pct_per_core: has 2 values"},
    {"{\"t\":[],\"system\":{\"vic_pct\":[1]}}",
        "series.system.vic_pct: has 1 value but series.t has 0"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *text = with_piece (GOOD_SESSION, GOOD_GRAPH, cases[i].series, "");

    assert_refused (text, cases[i].expect);
    g_free (text);
  }
}

/* A real capture with one column shortened by a window. */
static void
test_fixture_unequal (void)
{
  JsonParser *parser;
  JsonNode *root = parse_fixture ("orin-nx-jp6-sw.json", &parser);
  JsonArray *col =
      json_object_get_array_member (json_object_get_object_member
      (json_object_get_object_member (json_object_get_object_member
              (json_node_get_object (root), "series"), "links"),
          "videoconvert0:src->capsfilter1:sink"), "fps");
  GError *err = NULL;
  GpSession *s;

  json_array_remove_element (col, json_array_get_length (col) - 1);
  s = gp_ingest_gstprofile (root, "orin-nx-jp6-sw.json", &err);
  g_assert_null (s);
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
  g_assert_cmpstr (err->message, ==, "orin-nx-jp6-sw.json: series.links."
      "videoconvert0:src->capsfilter1:sink.fps: has 48 values but series.t "
      "has 49");
  g_error_free (err);
  g_object_unref (parser);
}

/* Nested deeper than any session could be: refused before json-glib
 * recurses into it. */
static void
test_deep_nesting (void)
{
  GString *text = g_string_new ("{\"schema\":\"gst-profile/1\",\"x\":");
  guint i;

  for (i = 0; i < 100000; i++)
    g_string_append_c (text, '[');
  assert_refused (text->str, "nested deeper");
  g_string_free (text, TRUE);
}

/* Long and odd names in the file stay one short line in the error. */
static void
test_error_one_line (void)
{
  GString *key = g_string_new (NULL);
  gchar *series, *text;
  guint i;

  for (i = 0; i < 2000; i++)
    g_string_append (key, i % 7 ? "k" : "\\n");
  series = g_strdup_printf ("{\"t\":[0],\"links\":{\"%s\":{\"fps\":[1,2]}}}",
      key->str);
  text = with_piece (GOOD_SESSION, GOOD_GRAPH, series, "");
  assert_refused (text, "has 2 values");
  g_free (text);
  g_free (series);
  g_string_free (key, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ingest/gstprofile/all-fixtures", test_all_fixtures_load);
  g_test_add_func ("/ingest/gstprofile/orin-zc-break", test_orin_zc_break);
  g_test_add_func ("/ingest/gstprofile/orin-others", test_orin_others);
  g_test_add_func ("/ingest/gstprofile/synthetic-exact", test_synthetic_exact);
  g_test_add_func ("/ingest/gstprofile/caps-forms", test_caps_forms);
  g_test_add_func ("/ingest/gstprofile/merge-weights", test_merge_weights);
  g_test_add_func ("/ingest/gstprofile/good-minimal", test_good_minimal);
  g_test_add_func ("/ingest/gstprofile/import-round-trip",
      test_import_round_trip);
  g_test_add_func ("/ingest/gstprofile/missing-names", test_missing_names);
  g_test_add_func ("/ingest/bad/schema", test_bad_schema);
  g_test_add_func ("/ingest/bad/file", test_bad_file);
  g_test_add_func ("/ingest/bad/truncated", test_truncated);
  g_test_add_func ("/ingest/bad/wrong-types", test_wrong_types);
  g_test_add_func ("/ingest/bad/unequal-lengths", test_unequal_lengths);
  g_test_add_func ("/ingest/bad/fixture-unequal", test_fixture_unequal);
  g_test_add_func ("/ingest/bad/deep-nesting", test_deep_nesting);
  g_test_add_func ("/ingest/bad/error-one-line", test_error_one_line);
  return g_test_run ();
}
