/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-series.h: a session's series held to their contract,
 * src/core/gp-series.h: every field of every window is declared in its
 * section with its type. For the tests of the series' writers (the
 * aggregator, each importer), on real captures and logs. Header-only, so
 * that tests linking only the core library use it too.
 */
#ifndef __GP_TEST_SERIES_H__
#define __GP_TEST_SERIES_H__

#include <string.h>

#include "core/gp-series.h"
#include "core/gp-session.h"

/* @node is a value of @type */
static inline gboolean
gp_test_series_type_ok (JsonNode * node, GpSeriesType type)
{
  GType vt = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) :
      G_TYPE_INVALID;

  if (type == GP_SERIES_NUMBER_OR_NULL && JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (type == GP_SERIES_INTEGER)
    return vt == G_TYPE_INT64;
  return vt == G_TYPE_INT64 || vt == G_TYPE_DOUBLE;
}

static const gchar *const gp_test_series_sections[] = { GP_SERIES_ELEMENTS,
  GP_SERIES_LINKS, GP_SERIES_QUEUES, GP_SERIES_THREADS, GP_SERIES_PATHS,
  GP_SERIES_PROCESS
};

static inline gboolean
gp_test_series_is_section (const gchar * name)
{
  return g_strv_contains ((const gchar * const *) gp_test_series_sections,
      name);
}

/* What is wrong with the fields of @o, in @section of window @i, appended
 * to @out. */
static inline void
gp_test_series_check_fields (JsonObject * o, const gchar * section, guint i,
    GString * out)
{
  GList *members = json_object_get_members (o), *l;
  guint k;

  for (l = members; l; l = l->next) {
    JsonNode *node = json_object_get_member (o, l->data);

    if (*section == '\0' && gp_test_series_is_section (l->data))
      continue;
    for (k = 0; k < G_N_ELEMENTS (gp_series_spec); k++)
      if (strcmp (gp_series_spec[k].section, section) == 0 &&
          strcmp (gp_series_spec[k].name, l->data) == 0)
        break;
    if (k == G_N_ELEMENTS (gp_series_spec))
      g_string_append_printf (out, "series[%u]: %s.%s is not declared\n", i,
          section, (gchar *) l->data);
    else if (!gp_test_series_type_ok (node, gp_series_spec[k].type))
      g_string_append_printf (out, "series[%u]: %s.%s has the wrong type\n",
          i, section, (gchar *) l->data);
  }
  g_list_free (members);
}

/* Fails the test, listing what is wrong, unless @s has windows and every
 * field of every window is declared with its section and type. */
static inline void
gp_test_assert_series_declared (GpSession * s)
{
  GString *out = g_string_new (NULL);
  guint i, k;

  g_assert_cmpuint (gp_session_n_windows (s), >, 0);
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gp_test_series_check_fields (g_ptr_array_index (s->series, i),
        GP_SERIES_WINDOW, i, out);
    for (k = 0; k < G_N_ELEMENTS (gp_test_series_sections); k++) {
      const gchar *name = gp_test_series_sections[k];
      JsonObject *sec = gp_session_window_section (s, i, name);
      GList *keys, *l;

      if (sec == NULL) {
        g_string_append_printf (out, "series[%u]: no %s\n", i, name);
        continue;
      }
      if (strcmp (name, GP_SERIES_PROCESS) == 0) {
        gp_test_series_check_fields (sec, name, i, out);
        continue;
      }
      keys = json_object_get_members (sec);
      for (l = keys; l; l = l->next) {
        JsonNode *entry = json_object_get_member (sec, l->data);

        if (JSON_NODE_HOLDS_OBJECT (entry))
          gp_test_series_check_fields (json_node_get_object (entry), name, i,
              out);
        else
          g_string_append_printf (out, "series[%u]: %s.%s is no object\n",
              i, name, (gchar *) l->data);
      }
      g_list_free (keys);
    }
  }
  if (out->len > 0)
    g_error ("the series against gp-series.h:\n%s", out->str);
  g_string_free (out, TRUE);
}

#endif /* __GP_TEST_SERIES_H__ */
