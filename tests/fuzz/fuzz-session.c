/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: session.json parsing.
 *
 * libFuzzer feeds arbitrary bytes to gp_session_load_data () (UTF-8 and
 * depth checks, json-glib's parser, gp_session_from_json ()). Besides "no
 * crash, no leak, no undefined behaviour" (the sanitizers), it checks the
 * properties the rest of gstprof relies on:
 * - a refusal is one line that starts with the name given for the input;
 * - whatever loads can be written, and what is written loads again to the
 *   same text (save (load (save (x))) == save (x)), so a session that
 *   gstprof accepted once can never become unreadable;
 * - the lookups and the sort work on whatever loaded;
 * - read with its machine series left out of the tree and parsed one at a
 *   time (GpJsonLazy, what a session over GP_JSON_MAX_VALUES gets), it
 *   loads or is refused as read whole, and to the same session.
 * Build and run with tests/fuzz/run-fuzz.sh; not part of `meson test`.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gp-json.h"
#include "core/gp-session.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.json"

static void
exercise_model (GpSession * s)
{
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gboolean b;
    gint64 v;
    gdouble d;

    if (gp_session_find_element (s, e->name) == NULL)
      abort ();
    gp_element_get_prop_bool (e, "sync", &b);
    gp_element_get_prop_string (e, "name");
    gp_element_get_prop_int (e, "max-size-buffers", &v);
    gp_element_get_prop_double (e, "max-size-time", &d);
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (gp_session_find_elem_summary (s, es->name) == NULL)
      abort ();
  }
  gp_session_sort_summaries (s);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL, *split_err = NULL;
  GpSession *s, *again, *split;
  gchar *text, *text2;
  gsize len;

  s = gp_session_load_data ((const gchar *) data, (gssize) size, ORIGIN,
      &err);
  split = gp_json_load_session_data_split ((const gchar *) data,
      (gssize) size, ORIGIN, gp_session_from_json_lazy, 0, &split_err);
  if ((s == NULL) != (split == NULL)) {
    g_printerr ("read whole: %s; machine series apart: %s\n",
        s ? "loaded" : err->message, split ? "loaded" : split_err->message);
    abort ();
  }
  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    gp_fuzz_check_error (split_err, ORIGIN, TRUE);
    g_error_free (err);
    g_error_free (split_err);
    return 0;
  }
  if (err != NULL || split_err != NULL)
    abort ();
  text = gp_session_to_data (s, FALSE, &len);
  text2 = gp_session_to_data (split, FALSE, NULL);
  if (strcmp (text, text2) != 0) {
    g_printerr ("read whole and machine series apart differ\n%s\n%s\n",
        text, text2);
    abort ();
  }
  g_free (text);
  g_free (text2);
  gp_session_free (split);

  exercise_model (s);
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("written session does not load: %s\n", err->message);
    abort ();
  }
  text2 = gp_session_to_data (again, FALSE, NULL);
  if (strcmp (text, text2) != 0) {
    g_printerr ("save (load (save (x))) != save (x)\n%s\n%s\n", text, text2);
    abort ();
  }
  g_free (text);
  g_free (text2);
  gp_session_free (again);
  gp_session_free (s);
  return 0;
}
