/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * fuzz-wrap-socket.c: libFuzzer target for the bytes gstprof wrap reads
 * from the connections to its socket (src/capture/gp-wrap.c): anyone who
 * can reach the socket's folder, and every process the wrapped program
 * starts, may send anything. The input is one stream per connection,
 * separated by GP_FUZZ_CONN_SEP (at most GP_FUZZ_CONNS of them); each is
 * written into a socket pair in pieces (their sizes picked by the input's
 * bytes) and read by wrap's own reader (gp_wrap_on_read, the file is
 * included here for its static functions) between the pieces, as the main
 * loop would, with the live progress line asked for as wrap asks it. Then
 * the per-process view wrap builds: the program's stream by its header's
 * pid, each one's program text, its session and its busiest element.
 * For any input:
 * - nothing crashes, hangs or leaks;
 * - a connection that sent a header gives a session (finished as wrap
 *   finishes it, cut or not) whose numbers are finite, and that session
 *   saves as a gstprof session that loads again;
 * - the progress line is one line, the program text within its bound.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`), with the records
 * the tracer streams for a real pipeline as seeds.
 */
#include "capture/gp-wrap.c"

#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.socket"
/* Between two connections' streams in the input (a seed of two processes
 * is two records files with this between them). */
#define GP_FUZZ_CONN_SEP "\n--gstprof-fuzz-connection--\n"
/* More connections than this are one stream with the separator in it. */
#define GP_FUZZ_CONNS 4

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  gst_init (NULL, NULL);
  return 0;
}

/* One line, not empty. */
static void
gp_fuzz_check_one_line (const gchar * what, const gchar * text)
{
  if (text == NULL || *text == '\0' || strchr (text, '\n') != NULL) {
    g_printerr ("%s is not one line: '%s'\n", what, text ? text : "(null)");
    abort ();
  }
}

/* The session of a connection's stream, as wrap checks it. */
static void
gp_fuzz_check_session (GpSession * s)
{
  GError *err = NULL;
  GpSession *again;
  gchar *text, *busiest;
  gsize len;
  guint i;

  gp_fuzz_check_number ("duration_s", s->duration_s);
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    gp_fuzz_check_quantiles (es->name, &es->self_ms);
    gp_fuzz_check_number (es->name, es->busy_pct);
    gp_fuzz_check_number (es->name, es->self_total_ms);
  }
  busiest = gp_wrap_busiest (s);
  if (busiest == NULL)
    abort ();
  g_free (busiest);
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("the stream's session, once saved, does not load: %s\n",
        err->message);
    abort ();
  }
  g_free (text);
  gp_session_free (again);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GpWrap w = { 0 };
  GpWrapConn *main_conn;
  const gchar *at = (const gchar *) data, *end = at + size;
  gint fds[GP_FUZZ_CONNS][2];
  const gchar *from[GP_FUZZ_CONNS], *to[GP_FUZZ_CONNS];
  guint n = 0, i, pid;
  gboolean more = TRUE;
  guint round = 0;

  /* the streams */
  while (n < GP_FUZZ_CONNS) {
    const gchar *sep = n + 1 < GP_FUZZ_CONNS ?
        g_strstr_len (at, end - at, GP_FUZZ_CONN_SEP) : NULL;

    from[n] = at;
    to[n] = sep ? sep : end;
    n++;
    if (sep == NULL)
      break;
    at = sep + strlen (GP_FUZZ_CONN_SEP);
  }

  w.conns = g_ptr_array_new_with_free_func (gp_wrap_conn_free);
  w.pid = 1;
  for (i = 0; i < n; i++) {
    GpWrapConn *c = g_new0 (GpWrapConn, 1);

    if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds[i]) != 0)
      abort ();
    fcntl (fds[i][0], F_SETFL, O_NONBLOCK);
    c->w = &w;
    c->fd = fds[i][0];
    c->reader = gp_records_reader_new ("its stream on the socket");
    g_ptr_array_add (w.conns, c);
  }

  /* the pieces, round by round over the connections, each read as it
   * arrives; the progress line after each round */
  while (more) {
    more = FALSE;
    for (i = 0; i < n; i++) {
      GpWrapConn *c = g_ptr_array_index (w.conns, i);
      gsize piece;

      if (fds[i][1] < 0)
        continue;
      piece = from[i] < to[i] ? MIN ((gsize) (to[i] - from[i]),
          (gsize) (guint8) from[i][0] * 16 + 1) : 0;
      if (piece > 0 && write (fds[i][1], from[i], piece) != (gssize) piece)
        abort ();
      from[i] += piece;
      if (from[i] >= to[i]) {
        /* the process ended: its end of the connection closes */
        close (fds[i][1]);
        fds[i][1] = -1;
      } else {
        more = TRUE;
      }
      if (c->fd >= 0 && gp_wrap_on_read (c->fd, G_IO_IN, c) ==
          G_SOURCE_REMOVE && c->fd >= 0)
        abort ();
    }
    if (round++ % 4 == 0) {
      main_conn = gp_wrap_conn_of (&w, (guint) w.pid);
      if (main_conn == NULL)
        main_conn = gp_wrap_conn_of (&w, 0);
      if (main_conn != NULL) {
        GpAggregator *agg = gp_records_reader_aggregator (main_conn->reader);
        gchar *rates = agg ? gp_aggregator_describe_progress (agg, 1.0) :
            NULL;

        if (agg != NULL)
          gp_fuzz_check_one_line ("the progress line", rates);
        g_free (rates);
      }
    }
  }
  /* every stream has ended: each connection was read to its end */
  for (i = 0; i < n; i++)
    if (((GpWrapConn *) g_ptr_array_index (w.conns, i))->fd >= 0)
      abort ();

  /* the program's session, and every other process's */
  main_conn = gp_wrap_conn_of (&w, 0);
  for (i = 0; i < n; i++) {
    GpWrapConn *c = g_ptr_array_index (w.conns, i);
    const GstStructure *h = gp_records_reader_get_header (c->reader);
    GpSession *s;
    gchar *what;

    if (h == NULL)
      continue;
    pid = gp_wrap_header_pid (h);
    if (c == main_conn && gp_wrap_conn_of (&w, pid) == NULL)
      abort ();
    what = gp_wrap_program_text (h);
    if (what == NULL || strlen (what) > GP_WRAP_PROGRAM_TEXT_MAX) {
      g_printerr ("the program text is longer than its bound\n");
      abort ();
    }
    g_free (what);
    s = gp_records_reader_finish (c->reader, c->cut);
    if (s == NULL) {
      g_printerr ("a stream with a header gives no session\n");
      abort ();
    }
    gp_fuzz_check_session (s);
    gp_session_free (s);
  }
  g_ptr_array_unref (w.conns);
  return 0;
}
