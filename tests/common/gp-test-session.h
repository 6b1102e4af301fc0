/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-session.h: sessions made by hand, so the truth is known exactly:
 * the elements, summaries, threads and links a rule or the verdict reads,
 * and the encode pipeline the rules' and the verdict's tests share.
 * Header-only.
 */
#ifndef __GP_TEST_SESSION_H__
#define __GP_TEST_SESSION_H__

#include "core/gp-session.h"

/* A run of @duration_s seconds on GStreamer 1.22.0, generic platform. */
static inline GpSession *
gp_test_session_new (gdouble duration_s)
{
  GpSession *s = gp_session_new ();

  g_free (s->mode);
  s->mode = g_strdup ("run");
  s->duration_s = duration_s;
  g_free (s->gstreamer);
  s->gstreamer = g_strdup ("1.22.0");
  g_free (s->platform);
  s->platform = g_strdup ("generic");
  return s;
}

static inline GpElement *
gp_test_add_element (GpSession * s, const gchar * name, const gchar * factory,
    const gchar * kind)
{
  return gp_session_add_element (s, name, factory, "", kind);
}

static inline void
gp_test_set_prop_bool (GpElement * e, const gchar * prop, gboolean v)
{
  if (e->props == NULL)
    e->props = json_object_new ();
  json_object_set_boolean_member (e->props, prop, v);
}

/* An element summary: @total_ms of self time over the run, @p50/@p95 per
 * buffer, on thread @thread. */
static inline GpElementSummary *
gp_test_add_summary (GpSession * s, const gchar * name, gdouble total_ms,
    gdouble p50, gdouble p95, guint64 buffers, const gchar * thread)
{
  GpElementSummary *es = gp_session_add_elem_summary (s, name);

  es->self_total_ms = total_ms;
  es->self_ms.p50 = p50;
  es->self_ms.p95 = p95;
  es->self_ms.p99 = p95;
  es->self_ms.max = p95;
  es->buffers = buffers;
  es->busy_pct = total_ms / (s->duration_s * 1000.0) * 100.0;
  if (thread)
    g_ptr_array_add (es->threads, g_strdup (thread));
  return es;
}

static inline GpThreadSummary *
gp_test_add_thread (GpSession * s, guint64 tid, const gchar * name, gdouble cpu,
    const gchar * const *elements)
{
  GpThreadSummary *t = gp_session_add_thread (s, tid, name);
  guint i;

  t->cpu_pct_mean = cpu;
  t->cpu_pct_max = cpu;
  for (i = 0; elements && elements[i]; i++)
    g_ptr_array_add (t->elements, g_strdup (elements[i]));
  return t;
}

static inline void
gp_test_link_pads (GpSession * s, const gchar * src, const gchar * sink)
{
  gchar *a = g_strconcat (src, ".src", NULL);
  gchar *b = g_strconcat (sink, ".sink", NULL);

  gp_session_add_link (s, a, b, "video/x-raw, framerate=(fraction)30/1",
      "system");
  g_free (a);
  g_free (b);
}

/* A single-thread encode pipeline, 10 s: src 1000 ms, enc 7000 ms, conv
 * 1500 ms, fakesink (sync=false) 500 ms: enc has 70 % of the work. */
static inline GpSession *
gp_test_encode_session (void)
{
  GpSession *s = gp_test_session_new (10.0);
  const gchar *const els[] = { "src", "conv", "enc", "sink", NULL };
  GpElement *e;
  GpSinkSummary *sk;

  e = gp_test_add_element (s, "src", "videotestsrc", "source");
  gp_test_set_prop_bool (e, "is-live", FALSE);
  gp_test_add_element (s, "conv", "videoconvert", "filter");
  gp_test_add_element (s, "enc", "x264enc", "filter");
  e = gp_test_add_element (s, "sink", "fakesink", "sink");
  gp_test_set_prop_bool (e, "sync", FALSE);
  gp_test_link_pads (s, "src", "conv");
  gp_test_link_pads (s, "conv", "enc");
  gp_test_link_pads (s, "enc", "sink");
  gp_test_add_summary (s, "enc", 7000, 23.0, 30.0, 300, "src:src");
  gp_test_add_summary (s, "conv", 1500, 5.0, 6.0, 300, "src:src");
  gp_test_add_summary (s, "src", 1000, 3.3, 4.0, 300, "src:src");
  gp_test_add_summary (s, "sink", 500, 1.6, 2.0, 300, "src:src");
  gp_test_add_thread (s, 100, "src:src", 95.0, els);
  sk = gp_session_add_sink (s, "sink");
  sk->fps = 30.0;
  sk->target_fps = 30.0;
  sk->buffers = 300;
  s->target_fps = 30.0;
  s->frame_period_ms = 1000.0 / 30.0;
  return s;
}

/* The encode session with a live or non-live source and one path,
 * src to sink, whose p95 latency is @p95 ms. */
static inline GpSession *
gp_test_live_latency_session (gboolean live, gdouble p95)
{
  GpSession *s = gp_test_encode_session ();
  GpElement *e = gp_session_find_element (s, "src");
  GpPath *p;

  gp_test_set_prop_bool (e, "is-live", live);
  p = gp_session_add_path (s, "src.src", "sink");
  p->latency_ms.p50 = p95 - 5;
  p->latency_ms.p95 = p95;
  p->latency_ms.p99 = p95 + 2;
  p->latency_ms.max = p95 + 3;
  p->matched = 300;
  return s;
}

/* A session made by hand, as GStreamer names a chain: videotestsrc0 !
 * [queue] ! queue ! videoconvert0 ! queue ! x264enc0 ! fakesink0 in
 * pipeline0, the queues numbered from 0 in order. With @extra, one more
 * queue at the front, as a fix inserts one: each queue's number is one
 * higher. Links only, no summaries. */
static inline GpSession *
gp_test_chain_session (gboolean extra)
{
  GpSession *s = gp_session_new ();
  const gchar *chain[8];
  guint n = 0, i, q = 0;
  gchar *names[8];

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  chain[n++] = "videotestsrc";
  if (extra)
    chain[n++] = "queue";
  chain[n++] = "queue";
  chain[n++] = "videoconvert";
  chain[n++] = "queue";
  chain[n++] = "x264enc";
  chain[n++] = "fakesink";
  for (i = 0; i < n; i++) {
    names[i] = g_str_equal (chain[i], "queue") ?
        g_strdup_printf ("queue%u", q++) : g_strdup_printf ("%s0", chain[i]);
    gp_session_add_element (s, names[i], chain[i], "pipeline0",
        i == 0 ? "source" : i + 1 == n ? "sink" : "filter");
  }
  for (i = 0; i + 1 < n; i++) {
    gchar *a = g_strdup_printf ("%s.src", names[i]);
    gchar *b = g_strdup_printf ("%s.sink", names[i + 1]);

    gp_session_add_link (s, a, b, NULL, NULL);
    g_free (a);
    g_free (b);
  }
  for (i = 0; i < n; i++)
    g_free (names[i]);
  return s;
}

#endif /* __GP_TEST_SESSION_H__ */
