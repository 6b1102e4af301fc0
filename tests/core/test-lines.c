/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-lines.c: core/gp-lines.h against the truth of g_strsplit () on the
 * whole text: the same lines whatever the blocks the text comes in, a line
 * over the bound given once as long and never in part, the last line
 * without a newline said to be cut, nothing after a stop.
 */
#include <string.h>

#include "core/gp-lines.h"

typedef struct
{
  GPtrArray *got;               /* "W:text", "L:", "C:text" */
  guint stop_after;             /* 0: never stops */
} Seen;

static gboolean
on_line (const gchar * line, gsize len, GpLineFlags flags, gpointer data)
{
  Seen *seen = data;
  const gchar *tag = (flags & GP_LINE_LONG) ? "L" :
      (flags & GP_LINE_CUT) ? "C" : "W";

  g_ptr_array_add (seen->got, g_strdup_printf ("%s:%.*s", tag, (int) len,
          line));
  return seen->stop_after == 0 || seen->got->len < seen->stop_after;
}

/* @text fed in blocks of @block bytes; what the splitter gave, joined by
 * '|'. */
static gchar *
split (const gchar * text, gsize max, gsize block, guint stop_after,
    guint64 * n_long, gboolean * pending)
{
  Seen seen = { g_ptr_array_new_with_free_func (g_free), stop_after };
  GpLines *l = gp_lines_new (max, on_line, &seen);
  gsize len = strlen (text), at;
  gchar *joined;

  for (at = 0; at < len; at += block)
    gp_lines_feed (l, text + at, MIN (block, len - at));
  *pending = gp_lines_pending (l);
  gp_lines_finish (l);
  *n_long = gp_lines_n_long (l);
  gp_lines_free (l);
  g_ptr_array_add (seen.got, NULL);
  joined = g_strjoinv ("|", (gchar **) seen.got->pdata);
  g_ptr_array_unref (seen.got);
  return joined;
}

static void
test_any_blocks (void)
{
  const gchar *text = "a\nbb\n\nccc\r\n0123456789ABCDEF\ndd\nlast";
  gsize block;

  /* every block size, one byte to all of it: the same lines; the 16-byte
   * line is over the bound of 8, skipped whole and counted */
  for (block = 1; block <= strlen (text); block++) {
    guint64 n_long;
    gboolean pending;
    gchar *got = split (text, 8, block, 0, &n_long, &pending);

    g_assert_cmpstr (got, ==, "W:a|W:bb|W:|W:ccc\r|L:|W:dd|C:last");
    g_assert_cmpuint (n_long, ==, 1);
    g_assert_true (pending);
    g_free (got);
  }
}

static void
test_bounds (void)
{
  guint64 n_long;
  gboolean pending;
  gchar *got;

  /* exactly the bound is a line; one more is long, wherever it ends */
  got = split ("12345678\n123456789\n123456789", 8, 3, 0, &n_long, &pending);
  g_assert_cmpstr (got, ==, "W:12345678|L:|L:");
  g_assert_cmpuint (n_long, ==, 2);
  g_assert_true (pending);
  g_free (got);
  /* a text ending in its newline has nothing pending, no cut line */
  got = split ("x\ny\n", 8, 1, 0, &n_long, &pending);
  g_assert_cmpstr (got, ==, "W:x|W:y");
  g_assert_false (pending);
  g_free (got);
  /* a stop: nothing more given, nothing said to be pending */
  got = split ("x\ny\nz\npart", 8, 2, 2, &n_long, &pending);
  g_assert_cmpstr (got, ==, "W:x|W:y");
  g_assert_false (pending);
  g_free (got);
}

static void
test_binary (void)
{
  gchar head[GP_LINES_BINARY_BYTES + 8];

  memset (head, 'a', sizeof head);
  g_assert_false (gp_lines_binary (head, sizeof head));
  head[GP_LINES_BINARY_BYTES] = '\0';   /* past what is looked at */
  g_assert_false (gp_lines_binary (head, sizeof head));
  head[GP_LINES_BINARY_BYTES - 1] = '\0';
  g_assert_true (gp_lines_binary (head, sizeof head));
  g_assert_false (gp_lines_binary (head, 10));
}

/* The skips' sentence: the count against the lines read, the first
 * skipped line's place and why kept whatever follows. */
static void
test_skips (void)
{
  GpLinesSkips k = { 0 };
  gchar *text;

  k.lines = 3;
  g_assert_null (gp_lines_skips_text (&k));
  gp_lines_skip (&k, "t.log:2: cut");
  gp_lines_skip (&k, "t.log:3: garbage");
  text = gp_lines_skips_text (&k);
  g_assert_cmpstr (text, ==, "2 of 3 lines skipped, first at t.log:2: cut");
  g_free (text);
  gp_lines_skips_clear (&k);
  g_assert_null (k.first);
  g_assert_cmpuint (k.skipped, ==, 0);
  /* a damaged line's bytes quoted in why: kept as valid UTF-8 */
  gp_lines_skip (&k, "t.log:1: token 'a\xff'");
  g_assert_true (g_utf8_validate (k.first, -1, NULL));
  g_assert_true (g_str_has_prefix (k.first, "t.log:1: token 'a"));
  gp_lines_skips_clear (&k);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/lines/any-blocks", test_any_blocks);
  g_test_add_func ("/core/lines/bounds", test_bounds);
  g_test_add_func ("/core/lines/binary", test_binary);
  g_test_add_func ("/core/lines/skips", test_skips);
  return g_test_run ();
}
