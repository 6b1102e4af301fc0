/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in for NVIDIA's tegrastats, for the sampler's tests: it replays
 * the real lines of a fixture ($GP_STANDIN_TEGRASTATS, one of
 * tests/fixtures/telemetry/tegrastats_*.txt), one line per interval
 * and over again, on stdout, flushed, until it is killed, as tegrastats
 * does. It takes tegrastats' own options: `--interval MS` (default 1000),
 * and refuses any other one as tegrastats would (usage, exit 1). With
 * $GP_STANDIN_DIE_AFTER=N it dies after N lines, a message on stderr. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
standin_usage (const char *bad)
{
  fprintf (stderr, "tegrastats: unknown option '%s'\n"
      "Usage: tegrastats [-option]\n"
      "        --interval <millisec> : sample the information in "
      "<milliseconds>\n", bad);
  return 1;
}

/* A stand-in for a tool that is not gstprof's: what it holds when it exits
 * (on any of its paths) the exit frees, as the real tool's would be, so
 * LeakSanitizer (make test-asan) has nothing of gstprof's to look at. */
int __lsan_is_turned_off (void);

int
__lsan_is_turned_off (void)
{
  return 1;
}

int
main (int argc, char **argv)
{
  const char *fixture = g_getenv ("GP_STANDIN_TEGRASTATS");
  const char *die = g_getenv ("GP_STANDIN_DIE_AFTER");
  long interval = 1000, die_after = die ? atol (die) : 0;
  gchar *text = NULL, **lines;
  guint n = 0, i;
  long printed = 0;
  int a;

  for (a = 1; a < argc; a++) {
    if (strcmp (argv[a], "--interval") == 0 && a + 1 < argc)
      interval = atol (argv[++a]);
    else if (g_str_has_prefix (argv[a], "--interval="))
      interval = atol (argv[a] + strlen ("--interval="));
    else
      return standin_usage (argv[a]);
  }
  if (interval <= 0)
    return standin_usage ("--interval");
  if (fixture == NULL || !g_file_get_contents (fixture, &text, NULL, NULL)) {
    fprintf (stderr, "tegrastats stand-in: no fixture "
        "(GP_STANDIN_TEGRASTATS=%s)\n", fixture ? fixture : "");
    return 1;
  }
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++)
    if (*g_strstrip (lines[i]))
      lines[n++] = lines[i];
    else
      g_free (lines[i]);
  lines[n] = NULL;
  if (n == 0)
    return 1;
  /* tegrastats prints its first line one interval after it starts */
  for (i = 0;; i = (i + 1) % n) {
    g_usleep (interval * 1000);
    printf ("%s\n", lines[i]);
    fflush (stdout);
    if (die_after > 0 && ++printed >= die_after) {
      fprintf (stderr, "tegrastats stand-in: dying after %ld lines "
          "(GP_STANDIN_DIE_AFTER)\n", printed);
      return 1;
    }
  }
}
