/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-redact-corpus.h: tests/fixtures/redact/secrets.tsv read, for the
 * redactor's test (tests/report/test-redact.c) and its fuzz target
 * (tests/fuzz/fuzz-redact.c, built without the tests' library): header
 * only. A case is a NULL-terminated strv [secrets, keeps, text]; the
 * secrets and keeps are '|'-separated, keeps "-" for none.
 */
#ifndef __GP_TEST_REDACT_CORPUS_H__
#define __GP_TEST_REDACT_CORPUS_H__

#include <glib.h>

/* The cases of @path (gchar** each, g_strfreev'd with the array); NULL
 * with the file and line of the first one that is not three fields. */
static inline GPtrArray *
gp_test_redact_corpus (const gchar * path, gchar ** error)
{
  gchar *text = NULL, **lines;
  GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_strfreev);
  guint i;

  if (!g_file_get_contents (path, &text, NULL, NULL)) {
    *error = g_strdup_printf ("%s: cannot read", path);
    g_ptr_array_unref (cases);
    return NULL;
  }
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar **f;

    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    f = g_strsplit (lines[i], "\t", 3);
    if (g_strv_length (f) != 3) {
      *error = g_strdup_printf ("%s:%u: not SECRETS<tab>KEEPS<tab>TEXT",
          path, i + 1);
      g_strfreev (f);
      g_clear_pointer (&cases, g_ptr_array_unref);
      break;
    }
    g_ptr_array_add (cases, f);
  }
  g_strfreev (lines);
  g_free (text);
  return cases;
}

/* The first of @c's secrets that @out holds, NULL when none. */
static inline const gchar *
gp_test_redact_survivor (gchar ** c, const gchar * out)
{
  gchar **secrets = g_strsplit (c[0], "|", -1);
  const gchar *found = NULL;
  guint i;

  for (i = 0; secrets[i] && found == NULL; i++)
    if (strstr (out, secrets[i]) != NULL)
      found = strstr (c[0], secrets[i]);
  g_strfreev (secrets);
  return found;
}

#endif /* __GP_TEST_REDACT_CORPUS_H__ */
