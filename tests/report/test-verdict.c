/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-verdict.c: the verdict text (src/report/gp-verdict.c and
 * gp-verdict-findings.c) on sessions made by hand (gp-test-session.h), so
 * the truth is known exactly: the header and how the run ended, the rates
 * in each sink's media, latency, threads and workers, where the time goes,
 * the findings ranked with their evidence, an 80-column layout, colour
 * only when asked, and the same text from a saved session.
 */
#include <string.h>
#include "core/gp-session.h"
#include "rules/gp-rules.h"
#include "report/gp-verdict.h"
#include "gp-test-util.h"
#include "gp-test-session.h"

static void
assert_fits_80 (const gchar * text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i;

  for (i = 0; lines[i]; i++) {
    if (g_utf8_strlen (lines[i], -1) > GP_VERDICT_WIDTH)
      g_error ("line %u is %ld columns: '%s'", i + 1,
          g_utf8_strlen (lines[i], -1), lines[i]);
    g_assert_false (g_str_has_suffix (lines[i], " "));
  }
  g_strfreev (lines);
}

/* @s's plain verdict after its rules ran, printed with --verbose, each
 * line checked to fit the terminal; g_free () it. */
static gchar *
verdict_of (GpSession * s)
{
  gchar *text;

  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  return text;
}

static void
test_verdict_text (void)
{
  GpSession *s = gp_test_live_latency_session (TRUE, 50.0);
  GpQueueSummary *q;
  gchar *text, *colored, *findings;

  g_free (s->launch);
  s->launch = g_strdup ("videotestsrc is-live=true ! videoconvert ! x264enc "
      "speed-preset=medium ! queue max-size-buffers=3 ! fakesink sync=false "
      "a-very-long-property-name-to-wrap=a-very-long-value-to-wrap-again");
  gp_session_find_sink (s, "sink")->fps = 20.0;
  q = gp_session_add_queue_summary (s, "queue-with-a-rather-long-name0");
  q->residence_ms.p50 = 12.5;
  q->residence_ms.p95 = 20.25;
  q->level_pct_mean = 40;
  q->level_pct_max = 100;
  q->dropped = 7;
  text = verdict_of (s);
  g_assert_null (strchr (text, '\033'));
  /* header: rate against the caps' target, latency against the period */
  g_assert_nonnull (strstr (text, "20.0 fps of 30.0 fps"));
  g_assert_nonnull (strstr (text, "45.0 / 50.0 / 52.0 ms"));
  g_assert_nonnull (strstr (text, "52.0 ms  over 33.3 ms"));
  g_assert_nonnull (strstr (text, "limiting: src:src"));
  /* where the time goes: enc first, 70 % */
  g_assert_nonnull (strstr (text, "  enc                      70%"));
  /* a name longer than its column is whole, its row going on under it */
  g_assert_nonnull (strstr (text, "\n  queue-with-a-rather-long-name0\n"
          "                            12.5      20.2"));
  /* findings, ranked: the verified QUEUE (medium: the source has measured
   * work of its own on enc's thread) first, then the info ones by rank value:
   * CPU (95 % of a core) > HOT (70) > BUDGET latency (50) > throughput (33) */
  findings = gp_verdict_format_findings (s, GP_VERDICT_PLAIN);
  g_assert_true (g_str_has_prefix (findings, "Findings (5)"));
  g_assert_true (g_str_has_suffix (text, findings));
  g_assert_nonnull (strstr (findings, " 1. [medium] QUEUE: live source src"));
  g_assert_nonnull (strstr (findings, " 2. [info] CPU: thread src:src"));
  g_assert_nonnull (strstr (findings, " 3. [info] HOT: enc takes 70%"));
  g_assert_nonnull (strstr (findings, " 4. [info] BUDGET: src to sink"));
  g_assert_nonnull (strstr (findings, " 5. [info] BUDGET: sink gets 20.0"));
  g_assert_nonnull (strstr (findings, "evidence: factory x264enc, self p50 "
          "23.0 ms"));
  g_assert_nonnull (strstr (findings, "heuristic: not yet verified"));

  colored = gp_verdict_format (s, NULL, GP_VERDICT_COLOR);
  g_assert_nonnull (strchr (colored, '\033'));

  g_free (text);
  g_free (colored);
  g_free (findings);
  gp_session_free (s);
}

static void
test_verdict_not_measured (void)
{
  GpSession *s = gp_test_session_new (0);
  gchar *text;

  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "run, duration not measured"));
  g_assert_nonnull (strstr (text, "Rate (steady state at each sink, in its "
          "own media)\n  not measured"));
  g_assert_nonnull (strstr (text, "vs a frame)\n  not measured (no "
          "buffer was matched"));
  g_assert_nonnull (strstr (text, "Threads\n  not measured"));
  g_assert_nonnull (strstr (text, "Findings: none\n  rules run: PREROLL, "
          "BUFFERING, STOPPED, SLOW, PACE, LOSS, CUT, CHUNK, HOT,"));
  g_free (text);
  gp_session_free (s);
}

/* The encode session with x264's own threads: @n_workers threads named
 * after the streaming thread (as threads inherit their creator's name), at
 * @each % of a core, and the process at @proc_pct of 2 cores. */
static GpSession *
make_worker_session (guint n_workers, gdouble each, gdouble proc_pct)
{
  GpSession *s = gp_test_encode_session ();
  guint i;

  for (i = 0; i < n_workers; i++) {
    gchar *name = g_strdup_printf ("src:src/%u", 101 + i);
    GpThreadSummary *t = gp_test_add_thread (s, 101 + i, name, each, NULL);

    t->worker = TRUE;
    g_free (name);
  }
  /* gstprof's own timer, idle */
  gp_test_add_thread (s, 99, "gstprof-timer", 0.4, NULL)->worker = TRUE;
  s->process.measured = TRUE;
  s->process.cpu_pct_mean = proc_pct;
  s->process.cpu_pct_max = proc_pct + 5;
  s->process.n_cpus = 2;
  s->process.rss_mb_start = 60;
  s->process.rss_mb_max = 180;
  s->process.rss_mb_end = 175;
  gp_session_sort_summaries (s);
  return s;
}

/* Workers saturate both cores: the verdict says the process is CPU-bound
 * and names the workers, and claims no streaming thread as the limit. */
static void
test_verdict_cpu_bound (void)
{
  GpSession *s = make_worker_session (3, 32.0, 191.0);
  gchar *text;

  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "Threads\n  process: 191% CPU of 200% "
          "available (2 cores), peak 196%; RSS 60 MiB at start,\n    175 MiB "
          "at the end (max 180 MiB)\n"));
  g_assert_nonnull (strstr (text, "  CPU-bound: all 2 cores are busy (191% "
          "of 200%), 96% of it on worker"));
  g_assert_nonnull (strstr (text, "  worker threads: 4 threads outside "
          "GStreamer's streaming threads, 96% CPU"));
  g_assert_nonnull (strstr (text, "    src:src: 3 threads, 96% CPU; named "
          "after the streaming thread"));
  g_assert_nonnull (strstr (text, "heaviest element is enc"));
  g_assert_nonnull (strstr (text, "    1 more thread, 0.4% CPU\n"));
  g_assert_nonnull (strstr (text, "  busiest streaming: src:src: busy"));
  g_assert_null (strstr (text, "limiting:"));
  g_assert_null (strstr (text, "most CPU:"));
  g_free (text);
  gp_session_free (s);
}

/* Workers with spare cores: the streaming thread is still the limit, and
 * the workers are shown; below 20 % of a core they are not. */
static void
test_verdict_workers (void)
{
  GpSession *s = make_worker_session (2, 30.0, 155.0);
  gchar *text;

  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "  process: 155% CPU of 200% available"));
  g_assert_null (strstr (text, "CPU-bound"));
  g_assert_nonnull (strstr (text, "    src:src: 2 threads, 60% CPU"));
  g_assert_nonnull (strstr (text, "  limiting: src:src: busy"));
  gp_session_free (s);
  g_free (text);

  s = make_worker_session (2, 5.0, 106.0);
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_nonnull (strstr (text, "  process: 106% CPU"));
  g_assert_null (strstr (text, "worker threads"));
  g_assert_nonnull (strstr (text, "  limiting: src:src: busy"));
  g_free (text);
  gp_session_free (s);
}

/* A pipeline stuck in preroll: the header says so first, names the sink
 * that never prerolled, the one holding the only buffer and the blocked
 * thread, and no rate or latency is claimed. */
static void
test_verdict_never_played (void)
{
  GpSession *s = gp_test_session_new (5.0);
  GpThreadSummary *t;
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PAUSED");
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("vsink", "PAUSED",
          "VOID_PENDING", TRUE));
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("asink", "READY",
          "PAUSED", FALSE));
  t = gp_test_add_thread (s, 100, "demux:sink", 0.5, NULL);
  t->blocked_in = g_strdup ("vsink");
  t->blocked_ms = 4900;
  text = verdict_of (s);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict: the pipeline "
          "never reached PLAYING\n"));
  g_assert_nonnull (strstr (text, "\nNEVER PLAYED: it got to PAUSED; never "
          "prerolled: asink; holding the only buffer\n  (prerolled): vsink, "
          "which blocks thread demux:sink. No rate, latency or stall\n"));
  g_assert_nonnull (strstr (text, "Threads\n  blocked: demux:sink: in vsink "
          "for 4.9 s\n"));
  g_assert_null (strstr (text, "limiting:"));
  g_assert_nonnull (strstr (text, "Rate (steady state at each sink, in its "
          "own media)\n  not measured (the pipeline never played)"));
  g_assert_cmpuint (gp_session_count_findings (s, "PREROLL"), >=, 1);
  g_free (text);

  /* a pipeline that errors before PLAYING says why itself */
  g_free (s->end);
  s->end = g_strdup ("error");
  gp_session_add_event (s, 0.2, "error", "asink", "Internal data stream "
      "error.");
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict\n"));
  g_assert_null (strstr (text, "NEVER PLAYED"));
  g_assert_nonnull (strstr (text, "ended: on an error (below)"));
  g_assert_nonnull (strstr (text, "error at 0.2 s: asink: Internal data "
          "stream error."));
  g_free (text);
  gp_session_free (s);
}

/* How the run ended, with the EOS drain, and dropped events. */
static void
test_verdict_ended (void)
{
  GpSession *s = gp_test_encode_session ();
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PLAYING");
  g_free (s->end);
  s->end = g_strdup ("duration");
  s->stop_s = 10.0;
  s->drain_s = 0.25;
  s->events_dropped = 12;
  text = verdict_of (s);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict\n"));
  g_assert_nonnull (strstr (text, "\nended: --duration reached at 10.0 s; "
          "EOS drained in 0.25 s\n"));
  g_assert_nonnull (strstr (text, "\nevents: 12 were dropped (too many at "
          "once, a QoS storm): the timeline has gaps\n"));
  g_free (text);

  /* the EOS never came back: the stopped event says how long was waited */
  s->drain_s = -1;
  s->events_dropped = 0;
  gp_session_add_event (s, 13.0, "stopped", "", "EOS did not reach the "
      "sinks in time; stopped without it");
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_nonnull (strstr (text, "\nended: --duration reached at 10.0 s; "
          "EOS did not reach the sinks in time;\n  stopped without it\n"));
  g_assert_null (strstr (text, "were dropped"));
  g_free (text);
  gp_session_free (s);
}

/* Each sink in its own media: audio in real time, RTP in bits and
 * packets, video against the caps' framerate. */
static void
test_verdict_rates (void)
{
  GpSession *s = gp_test_encode_session ();
  GpSinkSummary *sk;
  gchar *text;

  sk = gp_session_find_sink (s, "sink");
  g_free (sk->media);
  sk->media = g_strdup ("video");
  sk->fps = 24.0;
  sk = gp_session_add_sink (s, "asink");
  g_free (sk->media);
  sk->media = g_strdup ("audio");
  sk->fps = 50.0;
  sk->media_per_s = 1.0;
  sk = gp_session_add_sink (s, "udpsink0");
  g_free (sk->media);
  sk->media = g_strdup ("rtp");
  sk->fps = 50.0;
  sk->bytes_per_s = 8625;
  sk->first_s = 4.0;
  s->window_s = 1.0;
  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "\n  sink                     24.0 fps of "
          "30.0 fps (caps)  20% below\n"));
  g_assert_nonnull (strstr (text, "\n  asink                  1.00x real "
          "time (audio)  ok\n"));
  g_assert_nonnull (strstr (text, "\n  udpsink0              69 kbit/s, "
          "50.0 packets/s (rtp)\n    first buffer after 4.0 s; the rate is "
          "the steady state after it\n"));
  g_free (text);

  /* a sink that played less than a second: its preroll is no rate */
  s->duration_s = 5.0;
  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_event (s, 4.4, "state", "pipeline0", "PAUSED->PLAYING");
  gp_session_add_event (s, 4.5, "state", "pipeline0", "PLAYING->PAUSED");
  sk = gp_session_find_sink (s, "asink");
  sk->first_s = 3.4;
  sk->media_per_s = 0.11;
  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "\n  asink                   rate not "
          "measured: played 0.1 s (from 4.4 s)\n"));
  g_assert_null (strstr (text, "0.11x"));
  g_free (text);
  gp_session_free (s);
}

/* Under not-negotiated: the link, what it offered and what the peer
 * accepts, from the event's data. */
static void
test_verdict_negotiation (void)
{
  GpSession *s = gp_test_session_new (0.5);
  GpEvent *ev;
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PAUSED");
  g_free (s->end);
  s->end = g_strdup ("error");
  ev = gp_session_add_event (s, 0.1, "error", "src", "Internal data stream "
      "error. (not-negotiated)");
  ev->data = json_object_new ();
  json_object_set_string_member (ev->data, "link", "src.src");
  json_object_set_string_member (ev->data, "peer", "sink.sink");
  json_object_set_string_member (ev->data, "caps", "video/x-raw, "
      "format=(string)I420, width=(int)320, height=(int)240, "
      "framerate=(fraction)30/1");
  json_object_set_string_member (ev->data, "accepts", "audio/x-raw");
  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "error at 0.1 s: src: Internal data "
          "stream error. (not-negotiated)\n  at the link src.src > "
          "sink.sink:"));
  g_assert_nonnull (strstr (text, "sink.sink accepts"));
  g_assert_nonnull (strstr (text, "audio/x-raw"));
  g_free (text);
  gp_session_free (s);
}

/* With --cpu, an element mostly off the CPU is said to wait; one that
 * works, or whose total is too small to judge, is not. */
static void
test_verdict_off_cpu (void)
{
  GpSession *s = gp_test_encode_session ();
  gchar *text;

  gp_session_find_elem_summary (s, "enc")->cpu_ms = 6800;
  gp_session_find_elem_summary (s, "conv")->cpu_ms = 30;
  gp_session_find_elem_summary (s, "sink")->cpu_ms = 400;
  text = verdict_of (s);
  g_assert_nonnull (strstr (text, "\n  conv was on the CPU for 2.0% of its "
          "self time (--cpu): the rest it spent off\n  it, sleeping"));
  g_assert_null (strstr (text, "enc was on the CPU"));
  g_assert_null (strstr (text, "sink was on the CPU"));
  g_free (text);
  gp_session_free (s);
}

/* A saved session gives the same verdict: the whole text, through the
 * JSON and back. */
static void
test_verdict_round_trip (void)
{
  GpSession *s = gp_test_live_latency_session (TRUE, 50.0), *back;
  GError *err = NULL;
  gchar *data, *a, *b;
  gsize len;

  gp_session_find_sink (s, "sink")->fps = 20.0;
  gp_rules_run (s);
  a = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  data = gp_session_to_data (s, TRUE, &len);
  back = gp_session_load_data (data, len, "round-trip", &err);
  g_assert_no_error (err);
  gp_rules_run (back);
  b = gp_verdict_format (back, NULL, GP_VERDICT_PLAIN);
  g_assert_cmpstr (a, ==, b);
  g_free (a);
  g_free (b);
  g_free (data);
  gp_session_free (s);
  gp_session_free (back);
}
int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/verdict/text", test_verdict_text);
  g_test_add_func ("/verdict/not-measured", test_verdict_not_measured);
  g_test_add_func ("/verdict/round-trip", test_verdict_round_trip);
  g_test_add_func ("/verdict/cpu-bound", test_verdict_cpu_bound);
  g_test_add_func ("/verdict/workers", test_verdict_workers);
  g_test_add_func ("/verdict/never-played", test_verdict_never_played);
  g_test_add_func ("/verdict/ended", test_verdict_ended);
  g_test_add_func ("/verdict/rates", test_verdict_rates);
  g_test_add_func ("/verdict/negotiation", test_verdict_negotiation);
  g_test_add_func ("/verdict/off-cpu", test_verdict_off_cpu);
  return g_test_run ();
}
