/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the kernel texts the machine samplers read
 * (src/telemetry, gp-procfs.c).
 *
 * libFuzzer's bytes go whole to every reader, and each of their lines to
 * the /proc/stat line reader. Seeded with this machine's /proc/stat,
 * /proc/meminfo, /proc/self/status, a thread's stat and schedstat, and
 * sysfs attributes as a Jetson's read. Besides "no crash, no read past the
 * bytes given (ASan), no undefined behaviour", it checks:
 * - a cpu line: its CPU -1 or above, busy at most total;
 * - a thread's name: NUL-terminated within GP_PROCFS_COMM_MAX, printable;
 * - a word: printable, no trailing blank, within its buffer.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/gp-procfs.h"

static void
fuzz_procfs_die (const char *what)
{
  fprintf (stderr, "fuzz-procfs: %s\n", what);
  abort ();
}

static void
fuzz_procfs_printable (const gchar * s, gsize size)
{
  gsize n = strnlen (s, size);

  if (n == size)
    fuzz_procfs_die ("text not NUL-terminated in its buffer");
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isprint (s[i]))
      fuzz_procfs_die ("text not printable");
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  /* a copy of exactly the bytes given: ASan sees any read past them */
  gchar *text = g_malloc (size ? size : 1);
  const gchar *p = text, *end = text + size;
  gchar comm[GP_PROCFS_COMM_MAX], word[32];
  guint64 busy, total, v;
  gint64 n;
  gint cpu;

  memcpy (text, data, size);
  while (p < end) {
    const gchar *nl = memchr (p, '\n', end - p);
    const gchar *eol = nl ? nl : end;

    if (gp_procfs_stat_cpu (p, eol - p, &cpu, &busy, &total)
        && (cpu < -1 || busy > total))
      fuzz_procfs_die ("cpu line out of its bounds");
    p = nl ? nl + 1 : end;
  }
  gp_procfs_kib (text, size, "MemTotal", &v);
  gp_procfs_kib (text, size, "VmRSS", &v);
  if (gp_procfs_task_stat (text, size, comm, &v))
    fuzz_procfs_printable (comm, sizeof comm);
  gp_procfs_schedstat (text, size, &v);
  gp_procfs_number (text, size, &n);
  if (gp_procfs_word (text, size, word, sizeof word)) {
    fuzz_procfs_printable (word, sizeof word);
    if (word[0] == '\0' || g_ascii_isspace (word[strlen (word) - 1]))
      fuzz_procfs_die ("word empty or ending in a blank");
  }
  g_free (text);
  return 0;
}
