/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof overhead benchmark: one timed pipeline run.
 *
 * gp-bench-run [--timeout SECONDS] "LAUNCH STRING"
 *
 * Parses the launch string, then times the pipeline from the call that sets
 * it to PLAYING until the EOS message reaches the bus, and prints one line:
 *
 *   wall_s=0.123456 cpu_s=0.234567 maxrss_kib=12345
 *
 * wall_s is the monotonic wall time of that run; cpu_s the process's user +
 * system CPU time spent over the same span; maxrss_kib the peak resident
 * set of the process (VmHWM, else getrusage ru_maxrss).  Process start-up,
 * gst_init () (registry scan, tracer instantiation) and parsing stay outside
 * the timed span on purpose: they cost the same with or without a tracer,
 * and would only blur the ratios the benchmark reports.
 *
 * The tracer (if any) is chosen by the caller through GST_TRACERS in the
 * environment; every run is a fresh process, so no state carries over.
 *
 * Exit codes: 0 EOS reached; 2 the pipeline failed (error message, state
 * change failure, or no EOS within the timeout); 3 bad usage or a bad launch
 * string (one line on stderr naming the argument).
 */

#include <gst/gst.h>

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#define GP_BENCH_DEFAULT_TIMEOUT_S 600

static gdouble
gp_bench_timeval_s (const struct timeval *tv)
{
  return (gdouble) tv->tv_sec + (gdouble) tv->tv_usec / 1e6;
}

/* User + system CPU time of the whole process, in seconds: all streaming
 * threads included, so the hooks' cost shows even when it runs on a core
 * that would otherwise idle. */
static gdouble
gp_bench_process_cpu_s (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0.0;
  return gp_bench_timeval_s (&ru.ru_utime) + gp_bench_timeval_s (&ru.ru_stime);
}

/* Peak resident set of this process image, in KiB.  VmHWM is read first:
 * ru_maxrss survives execve on Linux, so a child forked from a large
 * parent (the Python driver) would report the parent's size as its floor
 * and hide the growth this benchmark looks for. */
static glong
gp_bench_peak_rss_kib (void)
{
  gchar *status = NULL;
  struct rusage ru;
  glong kib = -1;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)) {
    const gchar *line = strstr (status, "\nVmHWM:");

    if (line != NULL)
      kib = strtol (line + strlen ("\nVmHWM:"), NULL, 10);
    g_free (status);
  }
  if (kib > 0)
    return kib;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return -1;
  /* Linux reports ru_maxrss in KiB. */
  return ru.ru_maxrss;
}

static void
gp_bench_usage (void)
{
  g_printerr ("usage: gp-bench-run [--timeout SECONDS] \"LAUNCH STRING\"\n");
}

int
main (int argc, char **argv)
{
  const gchar *launch = NULL;
  guint timeout_s = GP_BENCH_DEFAULT_TIMEOUT_S;
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gint64 t_start, t_end;
  gdouble cpu_start, cpu_end;
  gint i, rc = 0;

  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--timeout") == 0) {
      gchar *end = NULL;
      guint64 v;

      if (i + 1 >= argc) {
        g_printerr ("gp-bench-run: --timeout: missing value\n");
        return 3;
      }
      v = g_ascii_strtoull (argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || v == 0 || v > G_MAXUINT / 1000) {
        g_printerr ("gp-bench-run: --timeout: '%s' is not a positive number "
            "of seconds\n", argv[i]);
        return 3;
      }
      timeout_s = (guint) v;
    } else if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0) {
      gp_bench_usage ();
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      g_printerr ("gp-bench-run: unknown option '%s'\n", argv[i]);
      return 3;
    } else if (launch == NULL) {
      launch = argv[i];
    } else {
      g_printerr ("gp-bench-run: unexpected argument '%s' (quote the launch "
          "string as one argument)\n", argv[i]);
      return 3;
    }
  }
  if (launch == NULL || *launch == '\0') {
    gp_bench_usage ();
    return 3;
  }

  gst_init (NULL, NULL);

  pipeline = gst_parse_launch_full (launch, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  if (pipeline == NULL || error != NULL) {
    g_printerr ("gp-bench-run: launch string: %s\n",
        error ? error->message : "could not be parsed");
    g_clear_error (&error);
    if (pipeline)
      gst_object_unref (pipeline);
    return 3;
  }
  /* A launch string with one element gives that element, not a pipeline;
   * wrap it so there is a bus to wait on. */
  if (!GST_IS_PIPELINE (pipeline)) {
    GstElement *wrapper = gst_pipeline_new (NULL);

    gst_bin_add (GST_BIN (wrapper), pipeline);
    pipeline = wrapper;
  }
  bus = gst_element_get_bus (pipeline);

  cpu_start = gp_bench_process_cpu_s ();
  t_start = g_get_monotonic_time ();

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("gp-bench-run: the pipeline refused to go to PLAYING\n");
    rc = 2;
    goto done;
  }

  /* No main loop: the bus is polled directly, so a tracer that relies on
   * the default main context would show up as missing windows, not as a
   * hang (see peers.md, GstShark's timers). */
  msg = gst_bus_timed_pop_filtered (bus, (GstClockTime) timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t_end = g_get_monotonic_time ();
  cpu_end = gp_bench_process_cpu_s ();

  if (msg == NULL) {
    g_printerr ("gp-bench-run: no EOS within %u s\n", timeout_s);
    rc = 2;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("gp-bench-run: error from %s: %s\n",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
    g_clear_error (&err);
    rc = 2;
  } else {
    g_print ("wall_s=%.6f cpu_s=%.6f maxrss_kib=%ld\n",
        (gdouble) (t_end - t_start) / 1e6, cpu_end - cpu_start,
        gp_bench_peak_rss_kib ());
  }
  if (msg)
    gst_message_unref (msg);

done:
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  /* No gst_deinit (): tracers would flush and finalize there, which is
   * teardown cost this benchmark does not measure. */
  return rc;
}
