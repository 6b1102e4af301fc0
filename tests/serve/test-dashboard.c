/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-dashboard.c: what the repository hands a Prometheus and Grafana
 * user, held to what gp_metrics_text () writes (gp_metrics_names ()):
 * - docs/grafana/gstprof.json is JSON, has panels, each with a query, and
 *   every expression (panels' targets, the variables' queries) names only
 *   metrics gstprof writes;
 * - docs/prometheus/gstprof-alerts.yml names only those too, has the
 *   issue's four alerts, passes `promtool check rules`, and fires as
 *   tests/serve/gstprof-alerts-test.yml says (`promtool test rules`: each
 *   alert on series that must raise it, silent on series that must not),
 *   where promtool is installed;
 * - docs/metrics.md lists every metric gstprof writes and no other.
 */
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "serve/gp-metrics.h"
#include "gp-test-util.h"

/* Every gstprof_* name in @text (a name ending in '_', `gstprof_*` in
 * prose, is none) into @names. */
static void
collect_names (const gchar * text, GHashTable * names)
{
  const gchar *p = text;

  while ((p = strstr (p, "gstprof_"))) {
    const gchar *q = p;

    /* a name starts where no name character is before it */
    if (p > text && (g_ascii_isalnum (p[-1]) || p[-1] == '_')) {
      p += strlen ("gstprof_");
      continue;
    }
    while (g_ascii_isalnum (*q) || *q == '_')
      q++;
    if (q[-1] != '_')
      g_hash_table_add (names, g_strndup (p, q - p));
    p = q;
  }
}

/* Each of @names is a metric gstprof writes; @what names the file. */
static void
assert_known (GHashTable * names, const gchar * what)
{
  const gchar *const *known = gp_metrics_names ();
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, names);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (!g_strv_contains (known, k))
      g_error ("%s names %s, which gstprof never writes", what,
          (const gchar *) k);
}

static gchar *
read_source (const gchar * rel)
{
  gchar *path = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), rel, NULL);
  gchar *text = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_free (path);
  return text;
}

/* The expressions of a dashboard node: every string member named expr,
 * query or definition, anywhere below @node. */
static void
collect_exprs (JsonNode * node, GPtrArray * exprs)
{
  if (JSON_NODE_HOLDS_OBJECT (node)) {
    JsonObject *o = json_node_get_object (node);
    GList *members = json_object_get_members (o), *l;

    for (l = members; l; l = l->next) {
      JsonNode *v = json_object_get_member (o, l->data);

      if ((strcmp (l->data, "expr") == 0 || strcmp (l->data, "query") == 0 ||
              strcmp (l->data, "definition") == 0) &&
          JSON_NODE_HOLDS_VALUE (v) &&
          json_node_get_value_type (v) == G_TYPE_STRING)
        g_ptr_array_add (exprs, (gpointer) json_node_get_string (v));
      else
        collect_exprs (v, exprs);
    }
    g_list_free (members);
  } else if (JSON_NODE_HOLDS_ARRAY (node)) {
    JsonArray *a = json_node_get_array (node);
    guint i;

    for (i = 0; i < json_array_get_length (a); i++)
      collect_exprs (json_array_get_element (a, i), exprs);
  }
}

static void
test_grafana (void)
{
  gchar *text = read_source ("docs/grafana/gstprof.json");
  JsonParser *p = json_parser_new ();
  GError *error = NULL;
  JsonObject *root;
  JsonArray *panels;
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GPtrArray *exprs;
  guint i, n_queries = 0;

  json_parser_load_from_data (p, text, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (p));
  g_assert_nonnull (json_object_get_string_member (root, "title"));
  panels = json_object_get_array_member (root, "panels");
  g_assert_cmpuint (json_array_get_length (panels), >, 0);
  /* every panel but a row asks at least one query that names gstprof */
  for (i = 0; i < json_array_get_length (panels); i++) {
    JsonObject *panel = json_array_get_object_element (panels, i);
    GHashTable *own = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
        NULL);
    guint j;

    if (g_strcmp0 (json_object_get_string_member (panel, "type"),
            "row") == 0) {
      g_hash_table_unref (own);
      continue;
    }
    exprs = g_ptr_array_new ();
    collect_exprs (json_object_get_member (panel, "targets"), exprs);
    for (j = 0; j < exprs->len; j++)
      collect_names (g_ptr_array_index (exprs, j), own);
    if (g_hash_table_size (own) == 0)
      g_error ("panel \"%s\" asks nothing of gstprof",
          json_object_get_string_member (panel, "title"));
    g_ptr_array_unref (exprs);
    g_hash_table_unref (own);
  }
  exprs = g_ptr_array_new ();
  collect_exprs (json_parser_get_root (p), exprs);
  for (i = 0; i < exprs->len; i++) {
    collect_names (g_ptr_array_index (exprs, i), names);
    n_queries++;
  }
  g_test_message ("%u panels, %u expressions naming %u metrics",
      json_array_get_length (panels), n_queries, g_hash_table_size (names));
  assert_known (names, "docs/grafana/gstprof.json");
  g_ptr_array_unref (exprs);
  g_hash_table_unref (names);
  g_object_unref (p);
  g_free (text);
}

/* promtool @args... in the source root: exit 0, else its output fails
 * the test. FALSE (nothing run) without promtool. */
static gboolean
promtool (const gchar * first, ...) G_GNUC_NULL_TERMINATED;

static gboolean
promtool (const gchar * first, ...)
{
  gchar *bin = g_find_program_in_path ("promtool");
  GPtrArray *argv = g_ptr_array_new ();
  GSubprocessLauncher *l;
  GSubprocess *sp;
  GError *error = NULL;
  gchar *out = NULL;
  const gchar *a;
  va_list ap;

  if (bin == NULL) {
    g_ptr_array_unref (argv);
    return FALSE;
  }
  g_ptr_array_add (argv, bin);
  va_start (ap, first);
  for (a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
      G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_cwd (l, g_getenv ("GP_SOURCE_ROOT"));
  sp = g_subprocess_launcher_spawnv (l, (const gchar * const *) argv->pdata,
      &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (sp, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  gp_test_message_text (out);
  if (!g_subprocess_get_if_exited (sp) || g_subprocess_get_exit_status (sp))
    g_error ("promtool %s failed", first);
  g_object_unref (sp);
  g_object_unref (l);
  g_free (out);
  g_free (bin);
  g_ptr_array_unref (argv);
  return TRUE;
}

static void
test_alerts (void)
{
  const gchar *const alerts[] = { "GstprofPathLatencyAboveFramePeriod",
    "GstprofLinkStalled", "GstprofSinkBelowTargetRate", "GstprofNewFinding"
  };
  gchar *text = read_source ("docs/prometheus/gstprof-alerts.yml");
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (alerts); i++) {
    gchar *line = g_strdup_printf ("- alert: %s\n", alerts[i]);

    gp_test_assert_has (text, line);
    g_free (line);
  }
  collect_names (text, names);
  g_assert_cmpuint (g_hash_table_size (names), >, 0);
  assert_known (names, "docs/prometheus/gstprof-alerts.yml");
  if (!promtool ("check", "rules", "docs/prometheus/gstprof-alerts.yml",
          NULL)) {
    g_test_skip ("no promtool in PATH: the rules are not checked by "
        "Prometheus' own tool here (Debian's prometheus package has it)");
  } else {
    promtool ("test", "rules", "tests/serve/gstprof-alerts-test.yml", NULL);
  }
  g_hash_table_unref (names);
  g_free (text);
}

static void
test_docs (void)
{
  gchar *text = read_source ("docs/metrics.md");
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  const gchar *const *known = gp_metrics_names ();
  guint i;

  collect_names (text, names);
  assert_known (names, "docs/metrics.md");
  for (i = 0; known[i]; i++)
    if (!g_hash_table_contains (names, known[i]))
      g_error ("docs/metrics.md does not list %s", known[i]);
  g_hash_table_unref (names);
  g_free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dashboard/grafana", test_grafana);
  g_test_add_func ("/dashboard/alerts", test_alerts);
  g_test_add_func ("/dashboard/docs", test_docs);
  return g_test_run ();
}
