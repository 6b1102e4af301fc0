/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the redactor (src/report/gp-redact.c) against the
 * secret forms of tests/fixtures/redact/secrets.tsv.
 *
 * Each input picks one case of the corpus by its first byte and puts the
 * case's text between two fuzzed texts (the rest of the input, split at
 * its first NUL), a space on either side, as an error message or a
 * launch string holds it among other words. The case's secrets are taken
 * out of the fuzzed texts first: a copy of one there, in a form that is no
 * secret's ("client_sttps:/ClientS3cr3t"), is not the case's to mask.
 * Besides "no crash, no leak, no undefined behaviour" (the sanitizers), it
 * checks that
 * - none of the case's secrets survives gp_redact_text () or, as a launch
 *   string, gp_redact_session ();
 * - redacting twice gives what redacting once gave (a mask is never
 *   masked into something else);
 * - the whole input as a text is redacted without a crash.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`; GP_FUZZ_REDACT
 * names the corpus file, seeded with its texts); by hand, from the
 * repository root:
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc \
 *     -Ibuild-fuzz/config $(pkg-config --cflags glib-2.0 json-glib-1.0 \
 *     gstreamer-1.0) -o build-fuzz/fuzz-redact tests/fuzz/fuzz-redact.c \
 *     src/report/gp-redact.c src/core/gp-launch-*.c src/core/gp-json.c \
 *     src/core/gp-session*.c ... $(pkg-config --libs ...)
 */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "report/gp-redact.h"
#include "../common/gp-test-redact-corpus.h"

static GPtrArray *cases;        /* gp-test-redact-corpus.h */

static void
fail (const gchar * what, const gchar * detail)
{
  g_printerr ("fuzz-redact: %s: %s\n", what, detail);
  abort ();
}

static void
load_cases (void)
{
  const gchar *path = g_getenv ("GP_FUZZ_REDACT");
  gchar *err = NULL;

  if (path == NULL)
    fail ("GP_FUZZ_REDACT names no corpus file", "(unset)");
  cases = gp_test_redact_corpus (path, &err);
  if (cases == NULL)
    fail ("the corpus", err);
  if (cases->len == 0)
    fail ("an empty corpus", path);
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  gst_init (NULL, NULL);
  load_cases ();
  return 0;
}

/* @text with every one of @c's secrets made "x": it cannot hold one. */
static gchar *
without_secrets (gchar ** c, gchar * text)
{
  gchar **secrets = g_strsplit (c[0], "|", -1);
  guint i;

  for (i = 0; secrets[i]; i++) {
    gchar **parts;

    if (secrets[i][0] == '\0')
      continue;
    while (strstr (text, secrets[i]) != NULL) {
      parts = g_strsplit (text, secrets[i], -1);
      g_free (text);
      text = g_strjoinv ("x", parts);
      g_strfreev (parts);
    }
  }
  g_strfreev (secrets);
  return text;
}

static void
check_secrets (gchar ** c, const gchar * out, const gchar * in)
{
  if (gp_test_redact_survivor (c, out) != NULL) {
    gchar *why = g_strdup_printf ("one of '%s' in '%s' (from '%s')", c[0],
        out, in);

    fail ("a secret survives", why);
  }
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);
int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar **c, *whole, *prefix, *suffix, *text, *once, *twice;
  const guint8 *nul;
  GpSession *s;

  if (size == 0)
    return 0;
  c = g_ptr_array_index (cases, data[0] % cases->len);
  nul = memchr (data + 1, 0, size - 1);
  prefix = g_strndup ((const gchar *) data + 1, nul ? (gsize) (nul - data - 1)
      : size - 1);
  suffix = nul ? g_strndup ((const gchar *) nul + 1, size - (nul - data) - 1)
      : g_strdup ("");
  prefix = without_secrets (c, prefix);
  suffix = without_secrets (c, suffix);
  text = g_strconcat (prefix, " ", c[2], " ", suffix, NULL);

  once = gp_redact_text (NULL, text);
  check_secrets (c, once, text);
  twice = gp_redact_text (NULL, once);
  if (strcmp (once, twice) != 0) {
    gchar *why = g_strdup_printf ("'%s' then '%s'", once, twice);

    fail ("redacting twice changed it", why);
  }
  s = gp_session_new ();
  s->launch = g_strdup (text);
  gp_redact_session (s);
  check_secrets (c, s->launch, text);
  gp_session_free (s);

  whole = gp_redact_text (NULL, prefix);
  g_free (whole);

  g_free (twice);
  g_free (once);
  g_free (text);
  g_free (suffix);
  g_free (prefix);
  return 0;
}
