/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in for nvidia-smi's query loop, for the sampler's tests: it
 * answers `--query-gpu=FIELDS --format=csv[,noheader][,nounits]
 * [-lms MS | --loop-ms=MS | -l S]` from the real output of a fixture with
 * its header ($GP_STANDIN_NVSMI, one of tests/fixtures/telemetry/
 * nvidia_smi_query_*_header*.txt): each field asked for is the fixture's
 * column of that name (the old spellings clocks_throttle_reasons.* and
 * clocks.current.* answer for the new), its unit dropped with nounits; a
 * field the fixture has no column for is `[N/A]`, as nvidia-smi prints a
 * value the GPU does not report. One sample per loop: every GPU's row
 * (a fixture with an index column), else the fixture's rows in turn, over
 * again. A field named in $GP_STANDIN_NVSMI_REFUSE (comma separated) is
 * refused the way the driver refuses a field it does not know: its line
 * on stdout, exit status 2. With $GP_STANDIN_DIE_AFTER=N it dies after N
 * samples, a message on stderr. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  gchar *name;                  /* as the header names it, no unit */
  gchar *unit;                  /* the header's [unit], or NULL */
} StandinColumn;

/* the spelling both old and new names are compared in */
static gchar *
standin_canonical (const gchar * name)
{
  gchar *c = g_ascii_strdown (name, -1);
  static const gchar *const pairs[][2] = {
    {"clocks_throttle_reasons.", "clocks_event_reasons."},
    {"clocks.current.sm", "clocks.sm"},
    {"clocks.current.memory", "clocks.mem"},
    {"clocks.current.graphics", "clocks.gr"},
  };
  guint i;

  g_strstrip (c);
  for (i = 0; i < G_N_ELEMENTS (pairs); i++)
    if (g_str_has_prefix (c, pairs[i][0])) {
      gchar *r = g_strconcat (pairs[i][1], c + strlen (pairs[i][0]), NULL);

      g_free (c);
      return r;
    }
  return c;
}

static gchar **
standin_cells (const gchar * line)
{
  gchar **cells = g_strsplit (line, ",", -1);
  guint i;

  for (i = 0; cells[i]; i++)
    g_strstrip (cells[i]);
  return cells;
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
  const gchar *fixture = g_getenv ("GP_STANDIN_NVSMI");
  const gchar *refuse = g_getenv ("GP_STANDIN_NVSMI_REFUSE");
  const gchar *die = g_getenv ("GP_STANDIN_DIE_AFTER");
  long loop_ms = 0, die_after = die ? atol (die) : 0, samples = 0;
  gchar *query = NULL, *format = NULL, *text = NULL;
  gchar **fields, **lines, **refused;
  GPtrArray *rows = g_ptr_array_new ();
  StandinColumn *cols;
  guint n_cols, i, f, next = 0, index_col = G_MAXUINT;
  gboolean noheader, nounits;
  int a;

  for (a = 1; a < argc; a++) {
    const gchar *arg = argv[a];

    if (g_str_has_prefix (arg, "--query-gpu="))
      query = g_strdup (arg + strlen ("--query-gpu="));
    else if (strcmp (arg, "--query-gpu") == 0 && a + 1 < argc)
      query = g_strdup (argv[++a]);
    else if (g_str_has_prefix (arg, "--format="))
      format = g_strdup (arg + strlen ("--format="));
    else if (strcmp (arg, "-lms") == 0 && a + 1 < argc)
      loop_ms = atol (argv[++a]);
    else if (g_str_has_prefix (arg, "--loop-ms="))
      loop_ms = atol (arg + strlen ("--loop-ms="));
    else if (strcmp (arg, "-l") == 0 && a + 1 < argc)
      loop_ms = atol (argv[++a]) * 1000;
    else {
      printf ("Invalid combination of input arguments. Please run "
          "'nvidia-smi -h' for help.\n\n");
      return 2;
    }
  }
  if (query == NULL || format == NULL || !g_str_has_prefix (format, "csv")) {
    printf ("Invalid combination of input arguments. Please run "
        "'nvidia-smi -h' for help.\n\n");
    return 2;
  }
  noheader = strstr (format, "noheader") != NULL;
  nounits = strstr (format, "nounits") != NULL;
  fields = standin_cells (query);
  refused = standin_cells (refuse ? refuse : "");
  for (f = 0; fields[f]; f++)
    if (g_strv_contains ((const gchar * const *) refused, fields[f])) {
      printf ("Field \"%s\" is not a valid field to query.\n\n", fields[f]);
      return 2;
    }
  if (fixture == NULL || !g_file_get_contents (fixture, &text, NULL, NULL)) {
    fprintf (stderr, "nvidia-smi stand-in: no fixture "
        "(GP_STANDIN_NVSMI=%s)\n", fixture ? fixture : "");
    return 1;
  }
  lines = g_strsplit (text, "\n", -1);
  {
    gchar **head = standin_cells (lines[0]);

    n_cols = g_strv_length (head);
    cols = g_new0 (StandinColumn, n_cols);
    for (i = 0; i < n_cols; i++) {
      gchar *open = strchr (head[i], '[');

      if (open != NULL && g_str_has_suffix (head[i], "]")) {
        cols[i].unit = g_strndup (open + 1, strlen (open + 1) - 1);
        *open = '\0';
      }
      cols[i].name = standin_canonical (head[i]);
      if (strcmp (cols[i].name, "index") == 0)
        index_col = i;
    }
    g_strfreev (head);
  }
  for (i = 1; lines[i]; i++)
    if (*g_strstrip (lines[i]))
      g_ptr_array_add (rows, standin_cells (lines[i]));
  if (rows->len == 0)
    return 1;
  if (!noheader) {
    for (f = 0; fields[f]; f++)
      printf ("%s%s", f ? ", " : "", fields[f]);
    printf ("\n");
  }
  while (TRUE) {
    /* one sample: every GPU once (an index column), else one row */
    guint first = next;

    do {
      gchar **cells = g_ptr_array_index (rows, next);

      for (f = 0; fields[f]; f++) {
        gchar *want = standin_canonical (fields[f]);
        const gchar *cell = NULL;
        gchar *out;

        for (i = 0; i < n_cols && cell == NULL; i++)
          if (strcmp (cols[i].name, want) == 0 && i < g_strv_length (cells))
            cell = cells[i];
        if (cell == NULL && strcmp (want, "index") == 0)
          out = g_strdup_printf ("%u", index_col == G_MAXUINT ? 0 :
              next - first);
        else if (cell == NULL)
          out = g_strdup ("[N/A]");
        else {
          out = g_strdup (cell);
          i--;
          if (nounits && cols[i].unit != NULL) {
            gchar *suffix = g_strconcat (" ", cols[i].unit, NULL);

            if (g_str_has_suffix (out, suffix))
              out[strlen (out) - strlen (suffix)] = '\0';
            g_free (suffix);
          }
        }
        printf ("%s%s", f ? ", " : "", out);
        g_free (out);
        g_free (want);
      }
      printf ("\n");
      next = (next + 1) % rows->len;
    } while (index_col != G_MAXUINT && next != 0);
    fflush (stdout);
    samples++;
    if (loop_ms <= 0)
      return 0;
    if (die_after > 0 && samples >= die_after) {
      fprintf (stderr, "nvidia-smi stand-in: dying after %ld samples "
          "(GP_STANDIN_DIE_AFTER)\n", samples);
      return 1;
    }
    g_usleep (loop_ms * 1000);
  }
}
