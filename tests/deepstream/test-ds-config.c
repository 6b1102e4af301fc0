/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-ds-config.c: src/deepstream/gp-ds-config on every DeepStream config
 * of GP_FIXTURES/telemetry: load and save byte for byte, every key set
 * and read back with only its value's bytes changed, keys and groups
 * added where they belong, idempotence, the backup; the INI ones held to
 * GLib's GKeyFile, which DeepStream reads them with; refusals with their
 * file and line.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "deepstream/gp-ds-config.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

/* the DeepStream configs among the fixtures (not the logs) */
static GPtrArray *
configs (void)
{
  gchar *dir = gp_test_fixture_path ("telemetry", NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GDir *d;
  const gchar *name;

  if (dir == NULL)
    return out;
  d = g_dir_open (dir, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "deepstream_") &&
        (g_str_has_suffix (name, ".yml") || strstr (name, "config") != NULL))
      g_ptr_array_add (out, g_build_filename (dir, name, NULL));
  if (d != NULL)
    g_dir_close (d);
  g_ptr_array_sort (out, (GCompareFunc) g_strcmp0);
  g_free (dir);
  return out;
}

/* what each fixture config is, and a test app's sources */
static void
test_kind (void)
{
  static const struct
  {
    const gchar *file;
    GpDsConfigKind kind;
    guint sources;
  } want[] = {
    {"deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt",
        GP_DS_KIND_APP, 0},
    {"deepstream_nvinfer_pgie_config_ds9_dstest1.txt", GP_DS_KIND_INFER, 0},
    {"deepstream_nvinfer_pgie_config_ds9_dstest1.yml", GP_DS_KIND_INFER, 0},
    {"deepstream_parallel_infer_tracker0_enable_batch_process.yml",
        GP_DS_KIND_TRACKER, 0},
    {"deepstream_testapp_pipeline_config_ds9_dstest1.yml",
        GP_DS_KIND_TESTAPP, 1},
    {"deepstream_testapp_pipeline_config_ds9_dstest3.yml",
        GP_DS_KIND_TESTAPP, 1},
  };
  GpDsConfig *c;
  gchar **sources;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (want); i++) {
    gchar *path = gp_test_fixture_path ("telemetry", want[i].file);
    GError *err = NULL;

    if (path == NULL)
      return;
    c = gp_ds_config_load (path, &err);
    g_assert_no_error (err);
    g_assert_cmpint (gp_ds_config_kind (c), ==, want[i].kind);
    sources = gp_ds_config_testapp_sources (c);
    g_assert_cmpuint (g_strv_length (sources), ==, want[i].sources);
    g_strfreev (sources);
    gp_ds_config_free (c);
    g_free (path);
  }
  /* three URIs, blanks and the trailing ';' not sources */
  c = gp_ds_config_parse ("list.yml", "source-list:\n  list: a.mp4; b.mp4;"
      " ;c.mp4;\n", strlen ("source-list:\n  list: a.mp4; b.mp4; ;c.mp4;\n"),
      GP_DS_CONFIG_YAML, NULL);
  sources = gp_ds_config_testapp_sources (c);
  g_assert_cmpuint (g_strv_length (sources), ==, 3);
  g_assert_cmpstr (sources[1], ==, "b.mp4");
  g_assert_cmpint (gp_ds_config_kind (c), ==, GP_DS_KIND_TESTAPP);
  g_strfreev (sources);
  gp_ds_config_free (c);
  /* a file of neither kind */
  c = gp_ds_config_parse ("x.txt", "[other]\na=1\n", 12, GP_DS_CONFIG_INI,
      NULL);
  g_assert_cmpint (gp_ds_config_kind (c), ==, GP_DS_KIND_UNKNOWN);
  gp_ds_config_free (c);
}

static gchar **
split_lines (const gchar * text)
{
  return g_strsplit (text, "\n", -1);
}

static void
test_roundtrip (void)
{
  GPtrArray *files = configs ();
  guint i;

  if (files->len == 0)
    return;
  g_assert_cmpuint (files->len, >=, 6);
  for (i = 0; i < files->len; i++) {
    const gchar *path = g_ptr_array_index (files, i);
    gchar *text, *copy, *tmp = g_dir_make_tmp ("gp-ds-XXXXXX", NULL);
    gchar *bak;
    gsize len, n;
    GError *err = NULL;
    GpDsConfig *c = gp_ds_config_load (path, &err);
    gboolean wrote = TRUE;

    g_assert_no_error (err);
    g_assert_true (g_file_get_contents (path, &text, &len, NULL));
    g_assert_cmpmem (gp_ds_config_text (c, &n), n, text, len);
    g_assert_false (gp_ds_config_changed (c));
    gp_ds_config_free (c);
    /* a copy saved unchanged is not written, and gets no backup */
    copy = g_build_filename (tmp, strrchr (path, '/') + 1, NULL);
    g_assert_true (g_file_set_contents (copy, text, len, NULL));
    c = gp_ds_config_load (copy, &err);
    g_assert_no_error (err);
    g_assert_true (gp_ds_config_save (c, &wrote, &err));
    g_assert_false (wrote);
    bak = g_strconcat (copy, ".bak", NULL);
    g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
    gp_ds_config_free (c);
    gp_test_remove_tree (tmp);
    g_free (bak);
    g_free (copy);
    g_free (tmp);
    g_free (text);
  }
  g_ptr_array_unref (files);
}

/* the INI fixtures: every value as GKeyFile reads it */
static void
test_keyfile (void)
{
  GPtrArray *files = configs ();
  guint i, n_ini = 0;

  for (i = 0; i < files->len; i++) {
    const gchar *path = g_ptr_array_index (files, i);
    GKeyFile *kf = g_key_file_new ();
    GpDsConfig *c;
    gchar **groups, **mine;
    guint g, k, n_keys = 0;

    if (gp_ds_config_format_for (path) != GP_DS_CONFIG_INI)
      continue;
    n_ini++;
    g_assert_true (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE,
            NULL));
    c = gp_ds_config_load (path, NULL);
    groups = g_key_file_get_groups (kf, NULL);
    mine = gp_ds_config_groups (c);
    g_assert_cmpuint (g_strv_length (groups), ==, g_strv_length (mine));
    for (g = 0; groups[g] != NULL; g++) {
      gchar **keys = g_key_file_get_keys (kf, groups[g], NULL, NULL);
      gchar **my_keys = gp_ds_config_keys (c, groups[g]);

      g_assert_cmpstr (groups[g], ==, mine[g]);
      g_assert_cmpuint (g_strv_length (keys), ==, g_strv_length (my_keys));
      for (k = 0; keys[k] != NULL; k++) {
        gchar *want = g_key_file_get_value (kf, groups[g], keys[k], NULL);
        gchar *got = gp_ds_config_get (c, groups[g], keys[k]);

        g_assert_cmpstr (got, ==, want);
        n_keys++;
        g_free (want);
        g_free (got);
      }
      g_strfreev (keys);
      g_strfreev (my_keys);
    }
    g_assert_cmpuint (n_keys, >, 10);
    /* an edit and an addition as GKeyFile reads them */
    {
      gsize len;
      const gchar *text;
      GKeyFile *after = g_key_file_new ();
      gchar *v;

      g_assert_true (gp_ds_config_set (c, groups[0], "gpu-id", "3", NULL,
              NULL));
      g_assert_true (gp_ds_config_set (c, groups[0], "gstprof-added", "7",
              NULL, NULL));
      g_assert_true (gp_ds_config_set (c, "gstprof-new", "k", "v;w", NULL,
              NULL));
      text = gp_ds_config_text (c, &len);
      g_assert_true (g_key_file_load_from_data (after, text, len,
              G_KEY_FILE_NONE, NULL));
      v = g_key_file_get_value (after, groups[0], "gpu-id", NULL);
      g_assert_cmpstr (v, ==, "3");
      g_free (v);
      v = g_key_file_get_value (after, groups[0], "gstprof-added", NULL);
      g_assert_cmpstr (v, ==, "7");
      g_free (v);
      v = g_key_file_get_value (after, "gstprof-new", "k", NULL);
      g_assert_cmpstr (v, ==, "v;w");
      g_free (v);
      g_key_file_free (after);
    }
    g_strfreev (groups);
    g_strfreev (mine);
    gp_ds_config_free (c);
    g_key_file_free (kf);
  }
  if (files->len > 0)
    g_assert_cmpuint (n_ini, >=, 2);
  g_ptr_array_unref (files);
}

/* every scalar key of every group: only its value's bytes change, and
 * setting the old value back gives the file again */
static void
test_set_every_key (void)
{
  GPtrArray *files = configs ();
  guint i, n_set = 0;

  for (i = 0; i < files->len; i++) {
    const gchar *path = g_ptr_array_index (files, i);
    GpDsConfig *c = gp_ds_config_load (path, NULL);
    gchar *orig = g_strdup (gp_ds_config_text (c, NULL));
    gchar **groups = gp_ds_config_groups (c);
    guint g, k;

    for (g = 0; groups[g] != NULL; g++) {
      gchar **keys = gp_ds_config_keys (c, groups[g]);

      for (k = 0; keys[k] != NULL; k++) {
        gchar *old = gp_ds_config_get (c, groups[g], keys[k]), *got;
        guint line = gp_ds_config_line (c, groups[g], keys[k]);
        gchar *before = gp_ds_config_line_text (c, line), *after;
        gchar **a, **b;
        guint l, n_diff = 0;
        gboolean changed;
        GError *err = NULL;

        if (old == NULL)
          continue;
        g_assert_true (gp_ds_config_set (c, groups[g], keys[k], "4242",
                &changed, &err));
        g_assert_no_error (err);
        g_assert_true (changed == (strcmp (old, "4242") != 0));
        got = gp_ds_config_get (c, groups[g], keys[k]);
        g_assert_cmpstr (got, ==, "4242");
        g_free (got);
        after = gp_ds_config_line_text (c, line);
        g_assert_true (strstr (after, "4242") != NULL);
        /* the key's bytes before the value stay */
        g_assert_true (strncmp (before, after, strstr (before, keys[k]) -
                before + strlen (keys[k])) == 0);
        a = split_lines (orig);
        b = split_lines (gp_ds_config_text (c, NULL));
        g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
        for (l = 0; a[l] != NULL; l++)
          n_diff += strcmp (a[l], b[l]) != 0;
        g_assert_cmpuint (n_diff, <=, 1);
        /* twice: nothing more */
        g_assert_true (gp_ds_config_set (c, groups[g], keys[k], "4242",
                &changed, NULL));
        g_assert_false (changed);
        g_assert_true (gp_ds_config_set (c, groups[g], keys[k], old, NULL,
                &err));
        g_assert_no_error (err);
        g_assert_cmpstr (gp_ds_config_text (c, NULL), ==, orig);
        n_set++;
        g_strfreev (a);
        g_strfreev (b);
        g_free (before);
        g_free (after);
        g_free (old);
      }
      g_strfreev (keys);
    }
    g_strfreev (groups);
    g_free (orig);
    gp_ds_config_free (c);
  }
  if (files->len > 0)
    g_assert_cmpuint (n_set, >, 150);
  g_ptr_array_unref (files);
}

/* a missing key goes after its group's last key line, spaced like it;
 * a missing group at the end */
static void
test_add (void)
{
  const gchar *ini = "[a]\nx = 1\n# about b\n\n[b]\ny=2\n";
  const gchar *yml = "a:\n  x: 1 # one\n  # about b\n\nb:\n  y: 2\n";
  GpDsConfig *c;
  gboolean changed;

  c = gp_ds_config_parse ("t.txt", ini, strlen (ini), GP_DS_CONFIG_INI,
      NULL);
  g_assert_true (gp_ds_config_set (c, "a", "z", "3", &changed, NULL));
  g_assert_true (changed);
  g_assert_cmpstr (gp_ds_config_text (c, NULL), ==,
      "[a]\nx = 1\nz = 3\n# about b\n\n[b]\ny=2\n");
  g_assert_true (gp_ds_config_set (c, "a", "z", "3", &changed, NULL));
  g_assert_false (changed);
  g_assert_true (gp_ds_config_set (c, "c", "w", "4", NULL, NULL));
  g_assert_cmpstr (gp_ds_config_text (c, NULL), ==,
      "[a]\nx = 1\nz = 3\n# about b\n\n[b]\ny=2\n\n[c]\nw=4\n");
  g_assert_cmpuint (gp_ds_config_line (c, "c", "w"), ==, 10);
  gp_ds_config_free (c);

  c = gp_ds_config_parse ("t.yml", yml, strlen (yml), GP_DS_CONFIG_YAML,
      NULL);
  g_assert_true (gp_ds_config_set (c, "a", "x", "5", NULL, NULL));
  g_assert_true (gp_ds_config_set (c, "a", "z", "3", NULL, NULL));
  g_assert_true (gp_ds_config_set (c, "c/d", "w", "4", NULL, NULL));
  g_assert_cmpstr (gp_ds_config_text (c, NULL), ==,
      "a:\n  x: 5 # one\n  z: 3\n  # about b\n\nb:\n  y: 2\n"
      "\nc:\n  d:\n    w: 4\n");
  g_assert_true (gp_ds_config_has_group (c, "c/d"));
  gp_ds_config_free (c);

  /* no line break at the end: one is added before the new line */
  c = gp_ds_config_parse ("t.txt", "[a]\nx=1", 7, GP_DS_CONFIG_INI, NULL);
  g_assert_true (gp_ds_config_set (c, "a", "y", "2", NULL, NULL));
  g_assert_cmpstr (gp_ds_config_text (c, NULL), ==, "[a]\nx=1\ny=2\n");
  gp_ds_config_free (c);
  /* CRLF kept */
  c = gp_ds_config_parse ("t.txt", "[a]\r\nx=1\r\n", 10, GP_DS_CONFIG_INI,
      NULL);
  g_assert_true (gp_ds_config_set (c, "a", "x", "9", NULL, NULL));
  g_assert_true (gp_ds_config_set (c, "a", "y", "2", NULL, NULL));
  g_assert_cmpstr (gp_ds_config_text (c, NULL), ==, "[a]\r\nx=9\r\ny=2\r\n");
  gp_ds_config_free (c);
}

static void
test_refuse (void)
{
  static const struct
  {
    const gchar *text;
    GpDsConfigFormat format;
    guint line;
  } bad[] = {
    {"x=1\n", GP_DS_CONFIG_INI, 1},
    {"[a]\nno equals sign\n", GP_DS_CONFIG_INI, 2},
    {"[a]\n=1\n", GP_DS_CONFIG_INI, 2},
    {"[a\n", GP_DS_CONFIG_INI, 1},
    {"[a] x\n", GP_DS_CONFIG_INI, 1},
    {"a:\n  b: &x 1\n", GP_DS_CONFIG_YAML, 2},
    {"a:\n  b: *x\n", GP_DS_CONFIG_YAML, 2},
    {"a:\n  b: |\n    text\n", GP_DS_CONFIG_YAML, 2},
    {"a:\n  b: 1\n   c: 2\n", GP_DS_CONFIG_YAML, 3},
    {"a:\n\tb: 1\n", GP_DS_CONFIG_YAML, 2},
    {"a:\n  b: 1\n  b: 2\n", GP_DS_CONFIG_YAML, 3},
    {"a: 1\n  continued\n", GP_DS_CONFIG_YAML, 2},
    {"a:\n  b: [1,\n  2]\n", GP_DS_CONFIG_YAML, 2},
    {"- a\n", GP_DS_CONFIG_YAML, 1},
    {"a:\n  ? b\n", GP_DS_CONFIG_YAML, 2},
    {"a: b: c\n", GP_DS_CONFIG_YAML, 1},
    {"a:\n  b: !!str 1\n", GP_DS_CONFIG_YAML, 2},
    {"a: 1\n---\nb: 2\n", GP_DS_CONFIG_YAML, 2},
    {"[a]\nx=\xff\n", GP_DS_CONFIG_INI, 2},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    gchar *want = g_strdup_printf ("bad.cfg:%u: ", bad[i].line);
    GpDsConfig *c = gp_ds_config_parse ("bad.cfg", bad[i].text,
        strlen (bad[i].text), bad[i].format, &err);

    g_assert_null (c);
    g_assert_error (err, GP_DS_CONFIG_ERROR, GP_DS_CONFIG_ERROR_PARSE);
    if (!g_str_has_prefix (err->message, want))
      g_error ("case %u: '%s' does not start with '%s'", i, err->message,
          want);
    g_assert_null (strchr (err->message, '\n'));
    g_error_free (err);
    g_free (want);
  }
  /* what the subset reads: lists of mappings, comments after values,
   * quotes, flow lists on one line, a document marker */
  {
    const gchar *ok = "---\nsources:\n  - name: a # first\n    uri: 'x y'\n"
        "  - name: b\nlist: [1, 2]\nq: \"a # b\"\n";
    GpDsConfig *c = gp_ds_config_parse ("ok.yml", ok, strlen (ok),
        GP_DS_CONFIG_YAML, NULL);
    gchar *v;

    g_assert_nonnull (c);
    v = gp_ds_config_get (c, "sources/1", "name");
    g_assert_cmpstr (v, ==, "b");
    g_free (v);
    v = gp_ds_config_get (c, "sources/0", "uri");
    g_assert_cmpstr (v, ==, "x y");
    g_free (v);
    v = gp_ds_config_get (c, "", "q");
    g_assert_cmpstr (v, ==, "a # b");
    g_free (v);
    g_assert_null (gp_ds_config_get (c, "", "sources"));
    g_assert_true (gp_ds_config_set (c, "sources/0", "name", "c", NULL,
            NULL));
    g_assert_true (strstr (gp_ds_config_text (c, NULL),
            "  - name: c # first\n") != NULL);
    /* values a plain scalar cannot be, a mapping as a value */
    g_assert_false (gp_ds_config_set (c, "", "q", "a: b", NULL, NULL));
    g_assert_false (gp_ds_config_set (c, "", "sources", "1", NULL, NULL));
    g_assert_false (gp_ds_config_set (c, "", "k", "x\ny", NULL, NULL));
    gp_ds_config_free (c);
  }
}

static void
test_save_backup (void)
{
  GPtrArray *files = configs ();
  guint i;

  for (i = 0; i < files->len; i++) {
    const gchar *path = g_ptr_array_index (files, i);
    gchar *tmp = g_dir_make_tmp ("gp-ds-XXXXXX", NULL);
    gchar *copy = g_build_filename (tmp, strrchr (path, '/') + 1, NULL);
    gchar *bak = g_strconcat (copy, ".bak", NULL), *text, *disk;
    gsize len, n;
    GpDsConfig *c;
    gboolean wrote;
    GError *err = NULL;
    gchar **groups;
    GStatBuf st;

    g_assert_true (g_file_get_contents (path, &text, &len, NULL));
    g_assert_true (g_file_set_contents (copy, text, len, NULL));
    g_assert_cmpint (g_chmod (copy, 0640), ==, 0);
    c = gp_ds_config_load (copy, &err);
    groups = gp_ds_config_groups (c);
    g_assert_nonnull (groups[0]);
    g_assert_true (gp_ds_config_set (c, groups[0], "gpu-id", "1", NULL,
            &err));
    g_assert_no_error (err);
    g_assert_true (gp_ds_config_save (c, &wrote, &err));
    g_assert_true (wrote);
    g_assert_true (g_file_get_contents (bak, &disk, &n, NULL));
    g_assert_cmpmem (disk, n, text, len);
    g_free (disk);
    g_assert_true (g_file_get_contents (copy, &disk, &n, NULL));
    g_assert_cmpmem (disk, n, gp_ds_config_text (c, NULL),
        strlen (gp_ds_config_text (c, NULL)));
    g_free (disk);
    g_assert_cmpint (g_stat (copy, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0640);
    /* saved twice: written once */
    g_assert_true (gp_ds_config_save (c, &wrote, &err));
    g_assert_false (wrote);
    /* a second edit keeps the first backup: the original */
    g_assert_true (gp_ds_config_set (c, groups[0], "gpu-id", "2", NULL,
            NULL));
    g_assert_true (gp_ds_config_save (c, &wrote, &err));
    g_assert_true (wrote);
    g_assert_true (g_file_get_contents (bak, &disk, &n, NULL));
    g_assert_cmpmem (disk, n, text, len);
    g_free (disk);
    gp_ds_config_free (c);
    /* loaded again, the edit is there */
    c = gp_ds_config_load (copy, &err);
    g_assert_no_error (err);
    disk = gp_ds_config_get (c, groups[0], "gpu-id");
    g_assert_cmpstr (disk, ==, "2");
    g_free (disk);
    gp_ds_config_free (c);
    g_strfreev (groups);
    gp_test_remove_tree (tmp);
    g_free (text);
    g_free (bak);
    g_free (copy);
    g_free (tmp);
  }
  g_ptr_array_unref (files);
}

/* After edits of every kind on an INI (a value replaced, a key added to a
 * group with keys, to a group with none, a new group, a key given twice),
 * down the file, back up and down again, which parse only the lines they
 * touch and leave the lines below to be moved later, every key's value
 * and line are
 * what a fresh parse of the same text says: the truth is the whole-text
 * parser, on the text the edits left. */
static void
test_edits_agree (void)
{
  static const gchar ini[] =
      "# a comment\n[application]\nenable-perf-measurement=1\n\n"
      "[source0]\nenable=1\ntype=3\n\n[empty]\n\n"
      "[source1]\nenable=1\nuri=a\nuri=b\n\n[sink0]\nenable=1\ntype=2";
  static const gchar *const edits[][3] = {
    {"source0", "type", "4"},
    {"source0", "num-extra-surfaces", "16"},
    {"empty", "first", "1"},
    {"source1", "uri", "c"},
    {"source1", "gpu-id", "0"},
    {"sink0", "sync", "0"},
    {"brand-new", "k", "v"},
    {"application", "enable-perf-measurement", "0"},
    {"brand-new", "k2", "v2"},
    /* down the file again after the jump back (the lines below an edit
     * are moved when next looked at: each of these finds them moved) */
    {"application", "gie-kitti-output-dir", "out"},
    {"source0", "gpu-id", "1"},
    {"source1", "uri", "d"},
    {"sink0", "type", "3"},
    {"empty", "second", "2"},
  };
  GError *err = NULL;
  GpDsConfig *c = gp_ds_config_parse ("e.txt", ini, sizeof ini - 1,
      GP_DS_CONFIG_INI, &err);
  GpDsConfig *fresh;
  const gchar *text;
  gchar **groups, **mine;
  gsize len;
  guint i, g, k;

  g_assert_no_error (err);
  for (i = 0; i < G_N_ELEMENTS (edits); i++) {
    gboolean changed;

    g_assert_true (gp_ds_config_set (c, edits[i][0], edits[i][1],
            edits[i][2], &changed, &err));
    g_assert_no_error (err);
    g_assert_true (changed);
    text = gp_ds_config_text (c, &len);
    fresh = gp_ds_config_parse ("e.txt", text, len, GP_DS_CONFIG_INI, &err);
    g_assert_no_error (err);
    groups = gp_ds_config_groups (fresh);
    mine = gp_ds_config_groups (c);
    g_assert_cmpuint (g_strv_length (mine), ==, g_strv_length (groups));
    for (g = 0; groups[g]; g++) {
      gchar **keys = gp_ds_config_keys (fresh, groups[g]);

      g_assert_cmpstr (mine[g], ==, groups[g]);
      g_assert_true (gp_ds_config_has_group (c, groups[g]));
      for (k = 0; keys[k]; k++) {
        gchar *a = gp_ds_config_get (c, groups[g], keys[k]);
        gchar *b = gp_ds_config_get (fresh, groups[g], keys[k]);

        g_assert_cmpstr (a, ==, b);
        g_assert_cmpuint (gp_ds_config_line (c, groups[g], keys[k]), ==,
            gp_ds_config_line (fresh, groups[g], keys[k]));
        g_free (a);
        g_free (b);
      }
      g_strfreev (keys);
    }
    for (k = 1; k <= 40; k++) {
      gchar *a = gp_ds_config_line_text (c, k);
      gchar *b = gp_ds_config_line_text (fresh, k);

      g_assert_cmpstr (a, ==, b);
      g_free (a);
      g_free (b);
    }
    g_strfreev (mine);
    g_strfreev (groups);
    gp_ds_config_free (fresh);
  }
  text = gp_ds_config_text (c, NULL);
  /* both uri lines took the new value; the new group came last */
  g_assert_nonnull (strstr (text, "uri=d\nuri=d\ngpu-id=0\n"));
  g_assert_true (g_str_has_suffix (text, "[brand-new]\nk=v\nk2=v2\n"));
  g_assert_nonnull (strstr (text, "[empty]\nfirst=1\nsecond=2\n"));
  gp_ds_config_free (c);
}

gint
main (gint argc, gchar ** argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-config/kind", test_kind);
  g_test_add_func ("/ds-config/roundtrip", test_roundtrip);
  g_test_add_func ("/ds-config/keyfile", test_keyfile);
  g_test_add_func ("/ds-config/set-every-key", test_set_every_key);
  g_test_add_func ("/ds-config/add", test_add);
  g_test_add_func ("/ds-config/edits-agree", test_edits_agree);
  g_test_add_func ("/ds-config/refuse", test_refuse);
  g_test_add_func ("/ds-config/save-backup", test_save_backup);
  return g_test_run ();
}
