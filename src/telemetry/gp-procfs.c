/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-procfs: the kernel texts the samplers read (gp-procfs.h). */
#include "gp-procfs.h"

#include <string.h>

/* The /proc/stat fields that make up a CPU's time: user nice system idle
 * iowait irq softirq steal (guest and guest_nice are inside user and
 * nice). */
#define GP_PROCFS_STAT_FIELDS 8
/* at least user nice system idle (kernels before 2.6 printed no more) */
#define GP_PROCFS_STAT_MIN_FIELDS 4

/* An unsigned decimal at *@p (before @end), with its digits consumed;
 * FALSE when there is none or it does not fit 64 bits. */
static gboolean
gp_procfs_u64 (const gchar ** p, const gchar * end, guint64 * v)
{
  const gchar *q = *p;
  guint64 n = 0;

  if (q >= end || !g_ascii_isdigit (*q))
    return FALSE;
  for (; q < end && g_ascii_isdigit (*q); q++) {
    guint d = *q - '0';

    if (n > (G_MAXUINT64 - d) / 10)
      return FALSE;
    n = n * 10 + d;
  }
  *p = q;
  *v = n;
  return TRUE;
}

static const gchar *
gp_procfs_skip_blanks (const gchar * p, const gchar * end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

gboolean
gp_procfs_stat_cpu (const gchar * line, gsize len, gint * cpu,
    guint64 * busy, guint64 * total)
{
  const gchar *p = line, *end = line + len;
  guint64 f[GP_PROCFS_STAT_FIELDS] = { 0 };
  guint64 sum = 0, n;
  guint i;

  if (len < 3 || memcmp (line, "cpu", 3) != 0)
    return FALSE;
  p += 3;
  if (p < end && g_ascii_isdigit (*p)) {
    if (!gp_procfs_u64 (&p, end, &n) || n > G_MAXINT)
      return FALSE;
    *cpu = (gint) n;
  } else
    *cpu = -1;
  if (p >= end || (*p != ' ' && *p != '\t'))
    return FALSE;
  for (i = 0; i < GP_PROCFS_STAT_FIELDS; i++) {
    p = gp_procfs_skip_blanks (p, end);
    if (!gp_procfs_u64 (&p, end, &f[i]))
      break;
  }
  if (i < GP_PROCFS_STAT_MIN_FIELDS)
    return FALSE;
  for (i = 0; i < GP_PROCFS_STAT_FIELDS; i++) {
    if (sum > G_MAXUINT64 - f[i])
      return FALSE;
    sum += f[i];
  }
  *total = sum;
  /* idle (3) and iowait (4): the CPU had nothing to run */
  *busy = sum - f[3] - f[4];
  return TRUE;
}

gboolean
gp_procfs_kib (const gchar * text, gsize len, const gchar * key,
    guint64 * kib)
{
  const gchar *p = text, *end = text + len;
  gsize klen = strlen (key);

  while (p < end) {
    const gchar *nl = memchr (p, '\n', end - p);
    const gchar *eol = nl ? nl : end;

    if ((gsize) (eol - p) > klen && memcmp (p, key, klen) == 0
        && p[klen] == ':') {
      const gchar *q = gp_procfs_skip_blanks (p + klen + 1, eol);

      return gp_procfs_u64 (&q, eol, kib);
    }
    p = nl ? nl + 1 : end;
  }
  return FALSE;
}

static void
gp_procfs_copy_printable (gchar * out, gsize size, const gchar * from,
    gsize n)
{
  gsize i;

  n = MIN (n, size - 1);
  for (i = 0; i < n; i++)
    out[i] = g_ascii_isprint (from[i]) ? from[i] : '?';
  out[n] = '\0';
}

gboolean
gp_procfs_task_stat (const gchar * text, gsize len,
    gchar comm[GP_PROCFS_COMM_MAX], guint64 * ticks)
{
  const gchar *end = text + len, *open, *close = NULL, *p;
  guint64 utime = 0, stime = 0, skip;
  guint field;

  open = memchr (text, '(', len);
  if (open == NULL)
    return FALSE;
  /* the name may hold ')' itself: the last one closes it */
  for (p = open + 1; p < end; p++)
    if (*p == ')')
      close = p;
  if (close == NULL)
    return FALSE;
  gp_procfs_copy_printable (comm, GP_PROCFS_COMM_MAX, open + 1,
      close - open - 1);
  /* field 3, the state, is one letter; fields 4.. are numbers, some of
   * them negative (priority, nice) */
  p = gp_procfs_skip_blanks (close + 1, end);
  if (p >= end || !g_ascii_isalpha (*p))
    return FALSE;
  p++;
  for (field = 4; field <= 15; field++) {
    p = gp_procfs_skip_blanks (p, end);
    if (p < end && *p == '-')
      p++;
    if (!gp_procfs_u64 (&p, end, field == 14 ? &utime : field == 15 ?
            &stime : &skip))
      return FALSE;
  }
  if (utime > G_MAXUINT64 - stime)
    return FALSE;
  *ticks = utime + stime;
  return TRUE;
}

gboolean
gp_procfs_schedstat (const gchar * text, gsize len, guint64 * ns)
{
  const gchar *p = gp_procfs_skip_blanks (text, text + len);

  return gp_procfs_u64 (&p, text + len, ns);
}

gboolean
gp_procfs_number (const gchar * text, gsize len, gint64 * v)
{
  const gchar *p = text, *end = text + len;
  gboolean neg = FALSE;
  guint64 n;

  p = gp_procfs_skip_blanks (p, end);
  if (p < end && (*p == '-' || *p == '+'))
    neg = *p++ == '-';
  if (!gp_procfs_u64 (&p, end, &n) || n > (guint64) G_MAXINT64)
    return FALSE;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p != end)
    return FALSE;
  *v = neg ? -(gint64) n : (gint64) n;
  return TRUE;
}

gboolean
gp_procfs_word (const gchar * text, gsize len, gchar * out, gsize size)
{
  if (size == 0)
    return FALSE;
  len = MIN (len, size - 1);
  /* the blanks at the end of what fits go too */
  while (len > 0 && g_ascii_isspace (text[len - 1]))
    len--;
  if (len == 0)
    return FALSE;
  gp_procfs_copy_printable (out, size, text, len);
  return TRUE;
}
