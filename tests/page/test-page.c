/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-page.c: `gstprof report` (src/page) on a real capture. A pipeline
 * whose planted identity (sleep-time, the truth) is named
 * "<img src=x onerror=alert(1)>" runs under `gstprof run`; its report:
 * - HTML: the identity's self time p50 as the session says it, every
 *   element in the graph's SVG, every finding the rules make of the
 *   session, no http:// or https:// anywhere and no script, the name
 *   shown as text (escaped), never as markup;
 * - Markdown: the same figures, its PNG pictures beside it and linked;
 * - redaction: the session rewritten with an rtspsrc-style URI with
 *   credentials and a filesink location under a home folder: neither the
 *   password nor the folder is in the report, --no-redact keeps both, the
 *   session file is left as it was;
 * - a tegrastats log alone with --model and --fps: the curves, the
 *   roofline's point with the bound `gstprof roofline --from` says, and
 *   the machine rules' findings;
 * - headless Chromium from file:// with the network off: the DOM holds
 *   the same self time and the name as text, and no img element;
 * - bad input: exit 3, one line naming it, no file left.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "core/gp-session.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"

static gchar *gp_tmp;

#define GP_PAGE_XSS "<img src=x onerror=alert(1)>"
#define GP_PAGE_XSS_TEXT "&lt;img src=x onerror=alert(1)&gt;"
/* the planted cost */
#define GP_PAGE_SLEEP_MS 4.0
#define GP_PAGE_BUFFERS 60
#define GP_PAGE_LAUNCH "videotestsrc num-buffers=60 ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! " \
  "identity name=\"" GP_PAGE_XSS "\" sleep-time=4000 ! queue ! " \
  "fakesink sync=true"

#define GP_PAGE_PASSWORD "secret"
#define GP_PAGE_RTSP "rtsp://user:" GP_PAGE_PASSWORD "@10.0.0.1/stream"
#define GP_PAGE_HOME "/home/someone/private"

/* ------------------------------------------------------------------ */
/* helpers                                                              */
/* ------------------------------------------------------------------ */

/* The session of GP_PAGE_LAUNCH under `gstprof run --out`, run once. */
static const gchar *
gp_page_run_dir (void)
{
  return gp_test_run_once (gp_tmp, GP_PAGE_LAUNCH);
}

/* `gstprof report INPUT -o OUT [EXTRA...]` must write OUT; its text. */
static gchar *
gp_page_report (const gchar * input, const gchar * out, ...)
{
  GPtrArray *args = g_ptr_array_new ();
  const gchar *extra;
  gchar *path = g_build_filename (gp_tmp, out, NULL), *text = NULL;
  GpTestRun r;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "report");
  g_ptr_array_add (args, (gpointer) input);
  g_ptr_array_add (args, (gpointer) "-o");
  g_ptr_array_add (args, path);
  va_start (ap, out);
  while ((extra = va_arg (ap, const gchar *)) != NULL)
    g_ptr_array_add (args, (gpointer) extra);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  gp_test_run_gstprof_argv (&r, gp_tmp, (const gchar * const *) args->pdata);
  if (r.code != 0)
    g_error ("report %s exited %d: %s", input, r.code, r.err);
  gp_test_assert_has (r.out, "wrote ");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  gp_test_run_clear (&r);
  g_ptr_array_unref (args);
  g_free (path);
  return text;
}

static void
gp_page_assert_lacks (const gchar * text, const gchar * needle)
{
  const gchar *at = strstr (text, needle);

  if (at)
    g_error ("the report holds '%s': ...%.80s...", needle, at);
}

/* @md without its fenced blocks. */
static gchar *
gp_page_md_prose (const gchar * md)
{
  gchar **lines = g_strsplit (md, "\n", -1);
  GString *out = g_string_new (NULL);
  gboolean fenced = FALSE;
  guint i;

  for (i = 0; lines[i]; i++) {
    if (g_str_has_prefix (lines[i], "```"))
      fenced = !fenced;
    else if (!fenced)
      g_string_append_printf (out, "%s\n", lines[i]);
  }
  g_strfreev (lines);
  return g_string_free (out, FALSE);
}

/* The session as the report judges it: the rules run again. */
static GpSession *
gp_page_session (const gchar * dir)
{
  GpSession *s = gp_test_load_session_dir (dir);

  gp_rules_run (s);
  return s;
}

/* The p50 self time the elements table shows for @name, as the session
 * has it: the row's cells name, factory, share, p50. */
static void
gp_page_assert_self_time (const gchar * html, GpSession * s,
    const gchar * name)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gchar *esc = g_markup_escape_text (name, -1);
  gchar *want;

  g_assert_nonnull (es);
  want = g_strdup_printf ("<td>%s</td><td>identity</td><td class=\"num\">"
      "%.1f</td><td class=\"num\">%.3f</td>", esc, es->share_pct,
      es->self_ms.p50);
  gp_test_assert_has (html, want);
  g_test_message ("%s: self p50 %.3f ms in the report and the session",
      name, es->self_ms.p50);
  g_free (want);
  g_free (esc);
}

/* ------------------------------------------------------------------ */
/* cases                                                                */
/* ------------------------------------------------------------------ */

static void
test_html (void)
{
  const gchar *dir = gp_page_run_dir ();
  GpSession *s = gp_page_session (dir);
  gchar *html = gp_page_report (dir, "run.html", NULL);
  guint i;

  /* the truth: the planted sleep, as this machine sleeps it */
  gp_test_assert_planted (s, GP_PAGE_XSS, GP_PAGE_BUFFERS, TRUE,
      GP_PAGE_SLEEP_MS);
  gp_page_assert_self_time (html, s, GP_PAGE_XSS);
  /* one file: nothing fetched, nothing run */
  gp_page_assert_lacks (html, "http://");
  gp_page_assert_lacks (html, "https://");
  gp_page_assert_lacks (html, "<script");
  gp_page_assert_lacks (html, "<img");
  gp_test_assert_has (html, GP_PAGE_XSS_TEXT);
  /* the graph: every element a node, by its name */
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gchar *esc = g_markup_escape_text (e->name, -1);
    gchar *node = g_strdup_printf ("<g id=\"%s\" class=\"node\">", esc);

    if (!e->is_bin)
      gp_test_assert_has (html, node);
    g_free (node);
    g_free (esc);
  }
  /* the curves and the roofline drawn beside it */
  gp_test_assert_has (html, "<figure id=\"gp-curves\">\n<h2>The curves "
      "over time</h2>\n<svg");
  gp_test_assert_has (html, "<figure id=\"gp-roofline\">");
  /* every finding, ranked as the verdict ranks them */
  g_assert_cmpuint (s->findings->len, >, 0);
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    gchar *head = g_strdup_printf ("<span class=\"sev\">%s</span> %s: ",
        f->severity, f->rule);
    gchar *title = g_markup_escape_text (f->title, -1);

    gp_test_assert_has (html, head);
    gp_test_assert_has (html, title);
    g_free (head);
    g_free (title);
  }
  g_free (html);
  gp_session_free (s);
}

static void
test_markdown (void)
{
  const gchar *dir = gp_page_run_dir ();
  GpSession *s = gp_page_session (dir);
  GpElementSummary *es = gp_session_find_elem_summary (s, GP_PAGE_XSS);
  gchar *md = gp_page_report (dir, "run.md", NULL), *cell, *prose;
  /* the CPU roofline has no compute roof to draw: its points are a table */
  const gchar *pics[] = { "graph", "curves" };
  guint i;

  cell = g_strdup_printf ("| %s | identity | %.1f | %.3f |",
      GP_PAGE_XSS_TEXT, es->share_pct, es->self_ms.p50);
  gp_test_assert_has (md, cell);
  /* raw only inside the fences, where no renderer reads markup */
  prose = gp_page_md_prose (md);
  gp_page_assert_lacks (prose, "<img");
  gp_test_assert_has (prose, GP_PAGE_XSS_TEXT);
  for (i = 0; i < G_N_ELEMENTS (pics); i++) {
    gchar *name = g_strdup_printf ("run-%s.png", pics[i]);
    gchar *link = g_strdup_printf ("![%s](%s)", pics[i], name);
    gchar *png = gp_test_read_file (gp_tmp, name);

    gp_test_assert_has (md, link);
    g_assert_nonnull (png);
    g_assert_true (g_str_has_prefix (png, "\x89PNG"));
    g_free (png);
    g_free (link);
    g_free (name);
  }
  g_free (prose);
  g_free (cell);
  g_free (md);
  gp_session_free (s);
}

/* The captured session with an rtsp source's URI and a file sink under a
 * home folder, as `gstprof run` would have kept them; its folder. */
static gchar *
gp_page_private_session (void)
{
  GpSession *s = gp_test_load_session_dir (gp_page_run_dir ());
  gchar *dir = g_build_filename (gp_tmp, "private", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GpElement *e;
  GError *err = NULL;

  g_free (s->launch);
  s->launch = g_strdup ("rtspsrc location=" GP_PAGE_RTSP " ! rtph264depay "
      "! h264parse ! mpegtsmux ! filesink location=" GP_PAGE_HOME "/out.ts");
  e = gp_session_find_element (s, "fakesink0");
  g_assert_nonnull (e);
  if (e->props == NULL)
    e->props = json_object_new ();
  json_object_set_string_member (e->props, "location", GP_PAGE_HOME
      "/out.ts");
  e = gp_session_find_element (s, "videotestsrc0");
  g_assert_nonnull (e);
  json_object_set_string_member (e->props, "location", GP_PAGE_RTSP);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (gp_session_save (s, path, &err));
  g_free (path);
  gp_session_free (s);
  return dir;
}

static void
test_redact (void)
{
  gchar *dir = gp_page_private_session ();
  gchar *before = gp_test_read_file (dir, "session.json"), *after;
  gchar *html = gp_page_report (dir, "private.html", NULL);
  gchar *md = gp_page_report (dir, "private.md", NULL);
  gchar *open = gp_page_report (dir, "open.html", "--no-redact", NULL);

  gp_page_assert_lacks (html, GP_PAGE_PASSWORD);
  gp_page_assert_lacks (html, GP_PAGE_HOME);
  gp_page_assert_lacks (html, "private/");
  gp_test_assert_has (html, "rtsp://***@10.0.0.1/stream");
  gp_test_assert_has (html, "location=***/out.ts");
  gp_page_assert_lacks (md, GP_PAGE_PASSWORD);
  gp_page_assert_lacks (md, GP_PAGE_HOME);
  /* --no-redact keeps them */
  gp_test_assert_has (open, GP_PAGE_RTSP);
  gp_test_assert_has (open, GP_PAGE_HOME "/out.ts");
  /* the session on disk stays exact */
  after = gp_test_read_file (dir, "session.json");
  g_assert_cmpstr (before, ==, after);
  gp_test_assert_has (after, GP_PAGE_RTSP);
  g_free (before);
  g_free (after);
  g_free (open);
  g_free (md);
  g_free (html);
  g_free (dir);
}

/* The bound `gstprof roofline --from LOG` gives its one point. */
static gchar *
gp_page_roofline_bound (const gchar * log)
{
  GpTestRun r;
  gchar **lines, *bound = NULL;
  guint i;

  gp_test_run_gstprof (&r, gp_tmp, "roofline", "--from", log, "--model",
      "resnet50", "--fps", "40", NULL);
  g_assert_cmpint (r.code, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (i = 0; lines[i] && bound == NULL; i++)
    if (g_str_has_prefix (lines[i], "  resnet50 @ 40 fps")) {
      gchar *last = strrchr (g_strstrip (lines[i]), ' ');

      bound = g_strdup (last + 1);
    }
  g_assert_nonnull (bound);
  g_strfreev (lines);
  gp_test_run_clear (&r);
  return bound;
}

static void
test_log (void)
{
  gchar *log = gp_test_fixture_path ("telemetry",
      "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt");
  gchar *html = gp_page_report (log, "board.html", "--model", "resnet50",
      "--fps", "40", NULL);
  gchar *bound = gp_page_roofline_bound (log), *cell;
  GpSession *s = gp_ingest_load_any (log, NULL);
  guint i;

  g_assert_nonnull (s);
  gp_rules_run (s);
  gp_test_assert_has (html, "<figure id=\"gp-curves\">\n<h2>The curves "
      "over time</h2>\n<svg");
  gp_test_assert_has (html, "<figure id=\"gp-roofline\">\n<h2>The "
      "roofline</h2>\n<svg");
  cell = g_strdup_printf ("<td>%s</td>", bound);
  gp_test_assert_has (html, "<tr><td>resnet50 @ 40 fps</td>");
  gp_test_assert_has (strstr (html, "<tr><td>resnet50 @ 40 fps</td>"),
      cell);
  gp_test_assert_has (html, "id=\"gp-table-diagnosis\"");
  gp_test_assert_has (html, "id=\"gp-table-machine\"");
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    gchar *title = g_markup_escape_text (f->title, -1);

    gp_test_assert_has (html, title);
    g_free (title);
  }
  gp_page_assert_lacks (html, "http://");
  gp_page_assert_lacks (html, "https://");
  g_free (cell);
  g_free (bound);
  g_free (html);
  g_free (log);
  gp_session_free (s);
}

static void
test_chromium (void)
{
  gchar *chromium = g_find_program_in_path ("chromium");
  GpSession *s;
  GpElementSummary *es;
  gchar *html, *path, *url, *dom, *err = NULL, *p50;
  gint status = 0;

  if (chromium == NULL) {
    g_test_skip ("no chromium (tools/install-deps.sh installs it)");
    return;
  }
  s = gp_page_session (gp_page_run_dir ());
  es = gp_session_find_elem_summary (s, GP_PAGE_XSS);
  html = gp_page_report (gp_page_run_dir (), "dom.html", NULL);
  path = g_build_filename (gp_tmp, "dom.html", NULL);
  url = g_strconcat ("file://", path, NULL);
  dom = gp_test_chromium_dump_dom (chromium, gp_tmp, url, &err, &status);
  if (strstr (dom, "id=\"gp-tables\"") == NULL
      && gp_test_chromium_skip_emulated (status, err))
    goto out;
  if (strstr (dom, "id=\"gp-tables\"") == NULL)
    g_error ("chromium showed no report (status %d): %s", status, err);
  /* the same figure, the name as text, no element made of it */
  p50 = g_strdup_printf ("<td>%s</td><td>identity</td><td class=\"num\">"
      "%.1f</td><td class=\"num\">%.3f</td>", GP_PAGE_XSS_TEXT,
      es->share_pct, es->self_ms.p50);
  gp_test_assert_has (dom, p50);
  /* an element made of the name would be serialized with its attributes
   * quoted; the DOM's serializer writes an attribute's value with its
   * '<' as it is (the graph node's id holds the name, as text) */
  gp_page_assert_lacks (dom, "<img src=\"");
  gp_page_assert_lacks (dom, "onerror=\"");
  gp_test_assert_has (dom, "<svg");
  g_test_message ("chromium's DOM: %zu bytes, the self time %.3f ms",
      strlen (dom), es->self_ms.p50);
  g_free (p50);
out:
  g_free (dom);
  g_free (err);
  g_free (url);
  g_free (path);
  g_free (html);
  g_free (chromium);
  gp_session_free (s);
}

static void
test_bad (void)
{
  gchar *out = g_build_filename (gp_tmp, "bad.html", NULL);
  gchar *junk = g_build_filename (gp_tmp, "junk.json", NULL);
  gchar *nodir = g_build_filename (gp_tmp, "no", "such", "r.html", NULL);
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "report", "/no/such/session", "-o", out,
      NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "/no/such/session");
  gp_test_run_clear (&r);
  g_assert_true (g_file_set_contents (junk, "{ not json", -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "report", junk, "-o", out, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "junk.json");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "report", gp_page_run_dir (), "-o",
      "r.txt", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "r.txt");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "report", gp_page_run_dir (), NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "-o");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "report", gp_page_run_dir (), "-o",
      nodir, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, nodir);
  gp_test_run_clear (&r);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  gp_test_run_gstprof (&r, gp_tmp, "report", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "--no-redact");
  gp_test_run_clear (&r);
  g_free (nodir);
  g_free (junk);
  g_free (out);
}

int
main (int argc, char **argv)
{
  gint code;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-page-XXXXXX", NULL);
  g_assert_nonnull (gp_tmp);
  g_test_add_func ("/page/html", test_html);
  g_test_add_func ("/page/markdown", test_markdown);
  g_test_add_func ("/page/redact", test_redact);
  g_test_add_func ("/page/log", test_log);
  g_test_add_func ("/page/chromium", test_chromium);
  g_test_add_func ("/page/bad", test_bad);
  code = g_test_run ();
  if (g_getenv ("GP_TEST_KEEP") == NULL)
    gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return code;
}
