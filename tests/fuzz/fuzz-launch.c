/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the launch-string tokenizer and rewriter
 * (src/core/gp-launch-*.c).
 *
 * libFuzzer feeds arbitrary bytes to gp_launch_parse (). Besides "no crash,
 * no leak, no undefined behaviour" (the sanitizers), it checks what the
 * rest of gstprof relies on:
 * - whatever parses comes back byte for byte from gp_launch_to_string (),
 *   and its segments tile the input;
 * - a refusal is one line that starts with "launch string, column N";
 * - every patch either applies, and the result parses again, or fails with
 *   a one-line "patch N: ..." error and leaves the launch unchanged;
 * - gp_launch_diff () gives an answer for any pair.
 * GStreamer is initialised without plugins, so names come from the factory
 * names and caps are checked by gst_caps_from_string ().
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`, seeded with the
 * launch strings in tests/); by hand, from the repository root (not part of
 * `meson test`):
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=all -fno-omit-frame-pointer -Isrc \
 *     $(pkg-config --cflags glib-2.0 json-glib-1.0 gstreamer-1.0) \
 *     -o build-fuzz/fuzz-launch tests/fuzz/fuzz-launch.c \
 *     src/core/gp-launch-*.c src/core/gp-json.c src/core/gp-session.c \
 *     $(pkg-config --libs glib-2.0 json-glib-1.0 gstreamer-1.0)
 *   G_SLICE=always-malloc build-fuzz/fuzz-launch -max_total_time=120 \
 *     -max_len=4096 build-fuzz/launch-corpus
 */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include "core/gp-launch.h"

static void
fail (const gchar * what, const gchar * detail)
{
  g_printerr ("fuzz-launch: %s: %s\n", what, detail != NULL ? detail : "");
  abort ();
}

static void
check_error (GError * err, const gchar * prefix)
{
  if (err == NULL || err->domain != GP_LAUNCH_ERROR ||
      !g_str_has_prefix (err->message, prefix) ||
      strchr (err->message, '\n') != NULL)
    fail ("bad error", err != NULL ? err->message : "(none)");
}

static void
check_tiles (GpLaunch * l, const gchar * s)
{
  gsize at = 0;
  guint i;
  gchar *back;

  for (i = 0; i < gp_launch_get_n_segments (l); i++) {
    const GpLaunchSegment *seg = gp_launch_get_segment (l, i);
    gsize n = strlen (seg->text);

    if (seg->offset != at || n == 0 || strncmp (s + at, seg->text, n) != 0)
      fail ("segments do not tile the input", s);
    if (seg->element >= (gint) gp_launch_get_n_elements (l))
      fail ("segment of no element", s);
    at += n;
  }
  if (at != strlen (s))
    fail ("segments do not cover the input", s);
  for (i = 0; i < gp_launch_get_n_elements (l); i++) {
    const GpLaunchElement *e = gp_launch_get_element (l, i);

    if (e->offset + e->length > strlen (s) || e->parent >= (gint) i)
      fail ("element out of bounds", s);
  }
  back = gp_launch_to_string (l);
  if (strcmp (back, s) != 0)
    fail ("round trip", s);
  g_free (back);
}

/* one op on a copy (taken): applies and still parses, or fails cleanly */
static void
try_patch (GpLaunch * l, GpLaunchOp * op)
{
  GpLaunch *c = gp_launch_copy (l);
  GPtrArray *patch = gp_launch_patch_new ();
  GError *err = NULL;
  gchar *before, *after, *diff;

  g_ptr_array_add (patch, op);
  if (c == NULL)
    fail ("copy", "");
  before = gp_launch_to_string (c);
  if (gp_launch_apply_patch (c, patch, &err)) {
    GpLaunch *again;
    GError *perr = NULL;

    after = gp_launch_to_string (c);
    again = gp_launch_parse (after, &perr);
    if (again == NULL)
      fail ("patched string does not parse", perr->message);
    check_tiles (again, after);
    gp_launch_free (again);
    diff = gp_launch_diff (before, after);
    if (diff == NULL || (strcmp (before, after) != 0 && *diff == '\0'))
      fail ("diff", after);
    g_free (diff);
    g_free (after);
  } else {
    check_error (err, "patch ");
    g_clear_error (&err);
    after = gp_launch_to_string (c);
    if (strcmp (before, after) != 0)
      fail ("a failed patch changed the launch", after);
    g_free (after);
  }
  g_free (before);
  g_ptr_array_unref (patch);
  gp_launch_free (c);
}

static void
exercise_patches (GpLaunch * l, const guint8 * data, size_t size)
{
  guint n = gp_launch_get_n_elements (l), k;

  /* a few elements, picked by the input itself */
  for (k = 0; k < 3 && n > 0; k++) {
    guint i = (size > k ? data[size - 1 - k] : k) % n;
    const GpLaunchElement *e = gp_launch_get_element (l, i);
    GpLaunchAt at = k == 0 ? GP_LAUNCH_AT_AFTER : k == 1 ?
        GP_LAUNCH_AT_BEFORE : GP_LAUNCH_AT_TARGET;
    GpLaunchOp *op;

    if (e->name == NULL)
      continue;
    try_patch (l, gp_launch_op_set_string (e->name, "max-size-buffers",
            "a b\"c\\"));
    op = gp_launch_op_insert (k % 2 == 0 ? GP_LAUNCH_AT_AFTER :
        GP_LAUNCH_AT_BEFORE, e->name, "queue");
    gp_launch_op_add_prop_int (op, "leaky", 2);
    gp_launch_op_add_prop_bool (op, "x", TRUE);
    try_patch (l, op);
    try_patch (l, gp_launch_op_replace (e->name, "identity", k % 2));
    try_patch (l, gp_launch_op_caps (at, e->name,
            "video/x-raw(memory:NVMM),format=NV12"));
    try_patch (l, gp_launch_op_remove (e->name));
  }
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  /* no plugin scan: fast start-up, and the same names on every machine */
  gchar *registry = g_build_filename (g_get_tmp_dir (),
      "gstprof-fuzz-launch-registry.bin", NULL);

  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", TRUE);
  g_setenv ("GST_REGISTRY_1_0", registry, TRUE);
  g_free (registry);
  gst_init (NULL, NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *s;
  GpLaunch *l;
  GError *err = NULL;

  if (memchr (data, '\0', size) != NULL)
    return 0;
  s = g_strndup ((const gchar *) data, size);
  l = gp_launch_parse (s, &err);
  if (l == NULL) {
    check_error (err, "launch string, column ");
    g_clear_error (&err);
  } else {
    check_tiles (l, s);
    exercise_patches (l, data, size);
    gp_launch_free (l);
  }
  /* the diff of any two strings, launch or not */
  if (size > 1) {
    gchar *half = g_strndup (s, size / 2), *d = gp_launch_diff (s, half);

    if (d == NULL || *d == '\0')
      fail ("diff of different strings", s);
    g_free (d);
    g_free (half);
  }
  g_free (s);
  return 0;
}
