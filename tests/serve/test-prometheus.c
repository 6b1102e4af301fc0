/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-prometheus.c: a real Prometheus (Debian's prometheus package,
 * /usr/bin/prometheus) scrapes `gstprof serve` on loopback. The session
 * is a real run with `identity sleep-time=20000` planted; Prometheus runs
 * with a configuration and a data folder of the test's own, on a free
 * port, scraping every second. After a scrape, its HTTP API
 * (/api/v1/query) must give the planted element's series with the labels
 * gstprof wrote and the ones Prometheus adds (job, instance), its buffer
 * count and its mean self time (the summary's _sum over _count) as the
 * session says (within 10 %), and its median within 10 % of the sleep as
 * this machine gives it. The alert rules
 * of docs/prometheus/gstprof-alerts.yml are loaded with the configuration,
 * so a rule Prometheus would refuse fails here too.
 *
 * Skipped, with the reason, when prometheus is not installed or this
 * gstprof has no server (no libsoup 3). Every process it starts dies with
 * it and is killed at the end.
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp-config.h"
#include "gp-test-util.h"

#define PROMETHEUS "/usr/bin/prometheus"

/* The planted sleep */
#define SLEEP_MS 20.0
#define LAUNCH "videotestsrc name=src num-buffers=40 ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! " \
  "identity name=slow sleep-time=20000 ! fakesink name=sink"
/* What the figure Prometheus gives may differ from the truth */
#define TOLERANCE 0.10
/* The longest the test waits for a server to listen, and for the first
 * scrape to be queryable: the whole test stays under 30 s */
#define START_S 10
#define SCRAPE_S 12

static gchar *tmp;

/* A child whose stderr is read into a string (non-blocking). */
typedef struct
{
  GPid pid;
  gint err_fd;
  GString *err;
} Child;

static void
child_start (Child * c, const gchar * const *argv)
{
  GError *error = NULL;

  memset (c, 0, sizeof *c);
  c->err = g_string_new (NULL);
  g_assert_true (g_spawn_async_with_pipes (tmp, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
          gp_test_child_dies_with_us, NULL, &c->pid, NULL, NULL,
          &c->err_fd, &error));
  g_assert_no_error (error);
  g_unix_set_fd_nonblocking (c->err_fd, TRUE, NULL);
}

/* Reads what the child printed so far; FALSE when it has exited. */
static gboolean
child_poll (Child * c)
{
  gchar buf[1024];
  gssize n;
  gint status;

  while ((n = read (c->err_fd, buf, sizeof buf)) > 0)
    g_string_append_len (c->err, buf, n);
  if (c->pid && waitpid (c->pid, &status, WNOHANG) == c->pid) {
    c->pid = 0;
    return FALSE;
  }
  return c->pid != 0;
}

/* SIGTERM, up to 5 s to go, then SIGKILL; reaped. */
static void
child_stop (Child * c)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  if (c->pid) {
    kill (c->pid, SIGTERM);
    while (child_poll (c) && g_get_monotonic_time () < end)
      g_usleep (20000);
    if (c->pid) {
      kill (c->pid, SIGKILL);
      waitpid (c->pid, NULL, 0);
      c->pid = 0;
    }
  }
  if (c->err_fd > 0)
    close (c->err_fd);
  c->err_fd = -1;
}

static void
child_clear (Child * c)
{
  child_stop (c);
  g_string_free (c->err, TRUE);
}

/* A port free on 127.0.0.1 now. */
static guint
free_port (void)
{
  GError *error = NULL;
  GSocket *sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, &error);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *any = g_inet_socket_address_new (lo, 0);
  GSocketAddress *bound;
  guint port;

  g_assert_no_error (error);
  g_socket_bind (sock, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (sock, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (bound);
  g_object_unref (any);
  g_object_unref (lo);
  g_socket_close (sock, NULL);
  g_object_unref (sock);
  return port;
}

/* GET @path from 127.0.0.1:@port: the body of a 200 reply, NULL for
 * anything else (no server yet, an error status). */
static gchar *
http_get (guint port, const gchar * path)
{
  GSocketClient *client = g_socket_client_new ();
  GSocketConnection *conn;
  GString *all = g_string_new (NULL);
  gchar *req, *body = NULL, *sep;
  gchar buf[4096];
  guint status = 0;
  gssize n;

  g_socket_client_set_timeout (client, 5);
  g_socket_client_set_enable_proxy (client, FALSE);
  conn = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL,
      NULL);
  if (conn == NULL) {
    g_object_unref (client);
    g_string_free (all, TRUE);
    return NULL;
  }
  req = g_strdup_printf ("GET %s HTTP/1.0\r\nHost: 127.0.0.1:%u\r\n"
      "Connection: close\r\n\r\n", path, port);
  if (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
              (conn)), req, strlen (req), NULL, NULL, NULL)) {
    while ((n = g_input_stream_read (g_io_stream_get_input_stream
                (G_IO_STREAM (conn)), buf, sizeof buf, NULL, NULL)) > 0)
      g_string_append_len (all, buf, n);
  }
  sscanf (all->str, "HTTP/1.%*d %u", &status);
  sep = strstr (all->str, "\r\n\r\n");
  if (status == 200 && sep)
    body = g_strdup (sep + 4);
  g_free (req);
  g_string_free (all, TRUE);
  g_object_unref (conn);
  g_object_unref (client);
  return body;
}

/* Prometheus' instant query of @promql: the result array of a successful
 * answer (a new reference), NULL when it failed or holds nothing. */
static JsonArray *
prom_query (guint port, const gchar * promql)
{
  gchar *q = g_uri_escape_string (promql, NULL, FALSE);
  gchar *path = g_strdup_printf ("/api/v1/query?query=%s", q);
  gchar *body = http_get (port, path);
  JsonParser *p = json_parser_new ();
  JsonArray *result = NULL;

  if (body && json_parser_load_from_data (p, body, -1, NULL)) {
    JsonObject *root = json_node_get_object (json_parser_get_root (p));
    JsonObject *data;

    if (g_strcmp0 (json_object_get_string_member (root, "status"),
            "success") == 0 &&
        (data = json_object_get_object_member (root, "data")) &&
        json_object_has_member (data, "result")) {
      result = json_object_get_array_member (data, "result");
      if (json_array_get_length (result) > 0)
        json_array_ref (result);
      else
        result = NULL;
    }
  }
  g_object_unref (p);
  g_free (body);
  g_free (path);
  g_free (q);
  return result;
}

/* The value of an instant vector's sample (["<time>", "<value>"]). */
static gdouble
prom_value (JsonObject * sample)
{
  JsonArray *v = json_object_get_array_member (sample, "value");

  return g_ascii_strtod (json_array_get_string_element (v, 1), NULL);
}

/* `gstprof serve @dir --port 0`: the port it printed. */
static guint
serve_start (Child * c, const gchar * dir)
{
  const gchar *argv[] = { g_getenv ("GSTPROF_BIN"), "serve", dir, "--port",
    "0", NULL
  };
  gint64 end = g_get_monotonic_time () + START_S * G_USEC_PER_SEC;
  const gchar *at;

  child_start (c, argv);
  while (child_poll (c) && g_get_monotonic_time () < end) {
    if ((at = strstr (c->err->str, "serving http://")) && strchr (at, '\n')) {
      const gchar *colon = strchr (at + strlen ("serving http://"), ':');

      return (guint) atoi (colon + 1);
    }
    g_usleep (20000);
  }
  g_error ("gstprof serve printed no address: %s", c->err->str);
  return 0;
}

static void
test_scrape (void)
{
  const gchar *src_root = g_getenv ("GP_SOURCE_ROOT");
  Child serve, prom;
  guint serve_port, prom_port;
  gchar *config, *config_path, *data, *listen, *rules, *cfg_arg, *data_arg;
  const gchar *dir;
  GpSession *s;
  GpElementSummary *es;
  JsonArray *res = NULL;
  JsonObject *metric, *sample;
  gdouble session_ms, prom_ms, slept;
  gint64 end;
  GError *error = NULL;

  if (!g_file_test (PROMETHEUS, G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip ("no " PROMETHEUS " (Debian's prometheus package)");
    return;
  }
  if (!GP_HAVE_SERVE) {
    g_test_skip ("this gstprof has no server (built without libsoup 3)");
    return;
  }
  if (!gp_test_have_tracer ())
    return;

  /* the session: a real run, and what it says of the planted element */
  dir = gp_test_run_once (tmp, LAUNCH);
  s = gp_test_load_session_dir (dir);
  es = gp_session_find_elem_summary (s, "slow");
  g_assert_nonnull (es);
  g_assert_cmpuint (es->buffers, >, 0);
  session_ms = es->self_total_ms / es->buffers;

  serve_port = serve_start (&serve, dir);

  /* Prometheus of our own: its configuration, data and address */
  rules = g_build_filename (src_root, "docs", "prometheus",
      "gstprof-alerts.yml", NULL);
  g_assert_true (g_file_test (rules, G_FILE_TEST_EXISTS));
  config = g_strdup_printf ("global:\n"
      "  scrape_interval: 1s\n"
      "  scrape_timeout: 1s\n"
      "  evaluation_interval: 1s\n"
      "rule_files:\n"
      "  - '%s'\n"
      "scrape_configs:\n"
      "  - job_name: gstprof\n"
      "    static_configs:\n"
      "      - targets: ['127.0.0.1:%u']\n", rules, serve_port);
  config_path = g_build_filename (tmp, "prometheus.yml", NULL);
  g_file_set_contents (config_path, config, -1, &error);
  g_assert_no_error (error);
  data = g_build_filename (tmp, "prometheus-data", NULL);
  prom_port = free_port ();
  listen = g_strdup_printf ("--web.listen-address=127.0.0.1:%u", prom_port);
  cfg_arg = g_strdup_printf ("--config.file=%s", config_path);
  data_arg = g_strdup_printf ("--storage.tsdb.path=%s", data);
  {
    const gchar *argv[] = { PROMETHEUS, cfg_arg, data_arg, listen,
      "--log.level=warn", NULL
    };

    child_start (&prom, argv);
  }

  /* the first scrape that Prometheus can be asked about */
  end = g_get_monotonic_time () + SCRAPE_S * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < end) {
    if (!child_poll (&prom))
      g_error ("prometheus exited: %s", prom.err->str);
    res = prom_query (prom_port,
        "gstprof_element_self_seconds_count{element=\"slow\"}");
    if (res)
      break;
    g_usleep (200000);
  }
  if (res == NULL)
    g_error ("no gstprof series in Prometheus after %d s; its stderr: %s",
        SCRAPE_S, prom.err->str);

  /* the labels: gstprof's, and the target's as Prometheus adds them */
  g_assert_cmpuint (json_array_get_length (res), ==, 1);
  metric = json_object_get_object_member (json_array_get_object_element (res,
          0), "metric");
  g_assert_cmpstr (json_object_get_string_member (metric, "__name__"), ==,
      "gstprof_element_self_seconds_count");
  g_assert_cmpstr (json_object_get_string_member (metric, "element"), ==,
      "slow");
  g_assert_cmpstr (json_object_get_string_member (metric, "pipeline"), ==,
      "pipeline");
  g_assert_cmpstr (json_object_get_string_member (metric, "job"), ==,
      "gstprof");
  {
    gchar *instance = g_strdup_printf ("127.0.0.1:%u", serve_port);

    g_assert_cmpstr (json_object_get_string_member (metric, "instance"), ==,
        instance);
    g_free (instance);
  }
  g_assert_cmpfloat (prom_value (json_array_get_object_element (res, 0)),
      ==, es->buffers);
  json_array_unref (res);

  /* the mean self time, as PromQL divides it, against the session's */
  res = prom_query (prom_port, "gstprof_element_self_seconds_sum"
      "{element=\"slow\"} / gstprof_element_self_seconds_count"
      "{element=\"slow\"}");
  g_assert_nonnull (res);
  sample = json_array_get_object_element (res, 0);
  prom_ms = prom_value (sample) * 1000.0;
  g_test_message ("slow: mean %.3f ms in Prometheus, %.3f ms in the session",
      prom_ms, session_ms);
  g_assert_cmpfloat (fabs (prom_ms - session_ms), <=, TOLERANCE * session_ms);
  json_array_unref (res);

  /* its median against the sleep as this machine gives it (the mean
   * takes in every late wake-up of a loaded machine; the median is the
   * sleep) */
  res = prom_query (prom_port, "gstprof_element_self_seconds"
      "{element=\"slow\",quantile=\"0.5\"}");
  g_assert_nonnull (res);
  prom_ms = prom_value (json_array_get_object_element (res, 0)) * 1000.0;
  slept = SLEEP_MS + gp_test_oversleep_ms (SLEEP_MS);
  g_test_message ("slow: median %.3f ms in Prometheus, %.3f ms in the "
      "session, %.3f ms slept here", prom_ms, es->self_ms.p50, slept);
  g_assert_cmpfloat (fabs (prom_ms - es->self_ms.p50), <=,
      TOLERANCE * es->self_ms.p50);
  g_assert_cmpfloat (fabs (prom_ms - slept), <=, TOLERANCE * slept);
  json_array_unref (res);

  /* the histogram, as a fleet's query reads it: the share of the self
   * times in the octave that holds the sleep, [2^24, 2^25) ns (at most one
   * in twenty preempted out of it), and the median Prometheus interpolates
   * inside that octave */
  res = prom_query (prom_port, "(gstprof_element_self_octaves_seconds_bucket"
      "{element=\"slow\",le=\"0.033554432\"} - ignoring (le) "
      "gstprof_element_self_octaves_seconds_bucket"
      "{element=\"slow\",le=\"0.016777216\"}) / ignoring (le) "
      "gstprof_element_self_octaves_seconds_count{element=\"slow\"}");
  g_assert_nonnull (res);
  g_test_message ("slow: %.3f of the self times in [16.8, 33.6) ms",
      prom_value (json_array_get_object_element (res, 0)));
  g_assert_cmpfloat (prom_value (json_array_get_object_element (res, 0)), >=,
      0.95);
  json_array_unref (res);
  res = prom_query (prom_port, "histogram_quantile (0.5, "
      "gstprof_element_self_octaves_seconds_bucket{element=\"slow\"})");
  g_assert_nonnull (res);
  prom_ms = prom_value (json_array_get_object_element (res, 0)) * 1000.0;
  g_test_message ("slow: histogram_quantile (0.5) %.3f ms", prom_ms);
  g_assert_cmpfloat (prom_ms, >=, 16.777216);
  g_assert_cmpfloat (prom_ms, <=, 33.554432);
  json_array_unref (res);

  /* the target is up, as Prometheus sees it */
  res = prom_query (prom_port, "up{job=\"gstprof\"}");
  g_assert_nonnull (res);
  g_assert_cmpfloat (prom_value (json_array_get_object_element (res, 0)), ==,
      1);
  json_array_unref (res);

  child_stop (&prom);
  child_stop (&serve);
  if (g_test_verbose ())
    gp_test_message_text (prom.err->str);
  child_clear (&prom);
  child_clear (&serve);
  gp_session_free (s);
  g_free (config);
  g_free (config_path);
  g_free (data);
  g_free (listen);
  g_free (rules);
  g_free (cfg_arg);
  g_free (data_arg);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("gp-test-prometheus-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  g_test_add_func ("/prometheus/scrape", test_scrape);
  ret = g_test_run ();
  gp_test_remove_tree (tmp);
  g_free (tmp);
  return ret;
}
