/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-diff.c: gp_launch_diff (). Both strings are cut into pieces
 * (the segments that are not space, an element with its properties as
 * one), the pieces aligned by their longest common subsequence, and each
 * changed place shown with one element of context on each side.
 */
#include "gp-launch-private.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* diff                                                                      */

typedef struct
{
  gsize start, end;
  gboolean link;
} GpLaunchPiece;

/* the non-space segments, an element's factory and properties as one */
static GArray *
gp_launch_pieces_of (GpLaunch * l)
{
  GArray *pieces = g_array_new (FALSE, FALSE, sizeof (GpLaunchPiece));
  guint i;

  for (i = 0; i < l->segs->len; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    GpLaunchPiece pc;

    if (seg->kind == GP_LAUNCH_SEG_SPACE)
      continue;
    pc.start = seg->offset;
    pc.end = gp_launch_seg_end (l, i);
    pc.link = seg->kind == GP_LAUNCH_SEG_LINK;
    if (seg->kind == GP_LAUNCH_SEG_FACTORY && seg->element >= 0) {
      GpLaunchElementPriv *e = ELEM (l, seg->element);

      pc.end = gp_launch_seg_end (l, e->props_last_seg);
      i = e->props_last_seg;
    }
    g_array_append_val (pieces, pc);
  }
  return pieces;
}

static gboolean
gp_launch_piece_equal (const gchar * a, const GpLaunchPiece * pa,
    const gchar * b, const GpLaunchPiece * pb)
{
  return pa->end - pa->start == pb->end - pb->start &&
      memcmp (a + pa->start, b + pb->start, pa->end - pa->start) == 0;
}

typedef struct
{
  guint i0, i1, j0, j1;         /* changed pieces [i0, i1) and [j0, j1) */
} GpLaunchHunk;

/* the nearest non-link piece before i (or -1) and at or after i (or len) */
static gint
gp_launch_context_before (GArray * p, gint i)
{
  for (i--; i >= 0 && g_array_index (p, GpLaunchPiece, i).link; i--);
  return i;
}

static gint
gp_launch_context_after (GArray * p, gint i)
{
  for (; i < (gint) p->len && g_array_index (p, GpLaunchPiece, i).link; i++);
  return i;
}

static void
gp_launch_append_slice (GString * out, const gchar * prefix, const gchar * text,
    GArray * p, guint i0, guint i1)
{
  gint a = gp_launch_context_before (p, i0),
      b = gp_launch_context_after (p, i1);
  gsize start, end;

  if (p->len == 0) {
    g_string_append_printf (out, "%s%s\n", prefix, text);
    return;
  }
  start = g_array_index (p, GpLaunchPiece, a >= 0 ? a : 0).start;
  end = g_array_index (p, GpLaunchPiece,
      b < (gint) p->len ? b : (gint) p->len - 1).end;
  g_string_append (out, prefix);
  if (end > start)
    g_string_append_len (out, text + start, end - start);
  g_string_append_c (out, '\n');
}

gchar *
gp_launch_diff (const gchar * before, const gchar * after)
{
  GpLaunch *lb, *la;
  GArray *pb, *pa, *hunks;
  GString *out;
  guint nb, na, i, j;
  guint32 *lcs;

  g_return_val_if_fail (before != NULL && after != NULL, NULL);
  if (strcmp (before, after) == 0)
    return g_strdup ("");
  lb = gp_launch_parse (before, NULL);
  la = gp_launch_parse (after, NULL);
  if (lb == NULL || la == NULL) {
    gp_launch_free (lb);
    gp_launch_free (la);
    return g_strdup_printf ("- %s\n+ %s\n", before, after);
  }
  pb = gp_launch_pieces_of (lb);
  pa = gp_launch_pieces_of (la);
  nb = pb->len;
  na = pa->len;
  gp_launch_free (lb);
  gp_launch_free (la);
  if ((guint64) (nb + 1) * (na + 1) > 4u * 1024 * 1024) {
    /* too long to align: the whole strings */
    g_array_unref (pb);
    g_array_unref (pa);
    return g_strdup_printf ("- %s\n+ %s\n", before, after);
  }

  /* longest common subsequence of the pieces, suffix table */
  lcs = g_new0 (guint32, (gsize) (nb + 1) * (na + 1));
#define LCS(x, y) lcs[(gsize) (x) * (na + 1) + (y)]
#define SAME(x, y) gp_launch_piece_equal (before, \
      &g_array_index (pb, GpLaunchPiece, (x)), \
      after, &g_array_index (pa, GpLaunchPiece, (y)))
  for (i = nb; i-- > 0;)
    for (j = na; j-- > 0;)
      LCS (i, j) = SAME (i, j) ? LCS (i + 1, j + 1) + 1 :
          MAX (LCS (i + 1, j), LCS (i, j + 1));

  hunks = g_array_new (FALSE, FALSE, sizeof (GpLaunchHunk));
  i = j = 0;
  while (i < nb || j < na) {
    GpLaunchHunk h;

    if (i < nb && j < na && SAME (i, j)) {
      i++;
      j++;
      continue;
    }
    h.i0 = i;
    h.j0 = j;
    while ((i < nb || j < na) && !(i < nb && j < na && SAME (i, j))) {
      if (j >= na || (i < nb && LCS (i + 1, j) >= LCS (i, j + 1)))
        i++;
      else
        j++;
    }
    h.i1 = i;
    h.j1 = j;
    if (hunks->len > 0) {
      GpLaunchHunk *prev = &g_array_index (hunks, GpLaunchHunk, hunks->len - 1);

      /* contexts that touch make one hunk */
      if (gp_launch_context_before (pb, h.i0) <=
          gp_launch_context_after (pb, prev->i1)) {
        prev->i1 = h.i1;
        prev->j1 = h.j1;
        continue;
      }
    }
    g_array_append_val (hunks, h);
  }
#undef SAME
#undef LCS
  g_free (lcs);

  out = g_string_new (NULL);
  for (i = 0; i < hunks->len; i++) {
    GpLaunchHunk *h = &g_array_index (hunks, GpLaunchHunk, i);

    gp_launch_append_slice (out, "- ", before, pb, h->i0, h->i1);
    gp_launch_append_slice (out, "+ ", after, pa, h->j0, h->j1);
  }
  /* only whitespace differs: the whole strings */
  if (hunks->len == 0)
    g_string_append_printf (out, "- %s\n+ %s\n", before, after);
  g_array_unref (hunks);
  g_array_unref (pb);
  g_array_unref (pa);
  return g_string_free (out, FALSE);
}
