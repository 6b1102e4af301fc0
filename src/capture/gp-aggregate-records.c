/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate-records.c: readers of the tracer's records (the contract is
 * src/core/gp-record.h). Malformed records (missing fields, wrong types,
 * odd histogram lists) are tolerated field by field: a bad value counts as
 * absent, never as a crash.
 */
#include "gp-aggregate-private.h"

/* ------------------------------------------------------------------ */
/* fields                                                              */

gboolean
gp_agg_rate_possible (guint64 count, guint64 start, guint64 end)
{
  return count == 0 || (end > start &&
      count / gp_agg_ns_to_s (end - start) <= GP_JSON_MAX_MAGNITUDE);
}

guint64
gp_agg_get_u64 (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL)
    return 0;
  if (G_VALUE_HOLDS_UINT64 (v))
    return g_value_get_uint64 (v);
  if (G_VALUE_HOLDS_INT64 (v))
    return MAX (g_value_get_int64 (v), 0);
  if (G_VALUE_HOLDS_UINT (v))
    return g_value_get_uint (v);
  if (G_VALUE_HOLDS_INT (v))
    return MAX (g_value_get_int (v), 0);
  if (G_VALUE_HOLDS_ULONG (v))
    return g_value_get_ulong (v);
  if (G_VALUE_HOLDS_LONG (v))
    return MAX (g_value_get_long (v), 0);
  if (G_VALUE_HOLDS_DOUBLE (v) && g_value_get_double (v) > 0)
    return (guint64) g_value_get_double (v);
  return 0;
}

gboolean
gp_agg_has_number (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  return v != NULL && (G_VALUE_HOLDS_UINT64 (v) || G_VALUE_HOLDS_INT64 (v)
      || G_VALUE_HOLDS_UINT (v) || G_VALUE_HOLDS_INT (v)
      || G_VALUE_HOLDS_ULONG (v) || G_VALUE_HOLDS_LONG (v)
      || G_VALUE_HOLDS_DOUBLE (v) || G_VALUE_HOLDS_FLOAT (v));
}

gdouble
gp_agg_get_double (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL)
    return 0.0;
  if (G_VALUE_HOLDS_DOUBLE (v))
    return g_value_get_double (v);
  if (G_VALUE_HOLDS_FLOAT (v))
    return g_value_get_float (v);
  return (gdouble) gp_agg_get_u64 (s, field);
}

const gchar *
gp_agg_get_str (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL || !G_VALUE_HOLDS_STRING (v))
    return NULL;
  return g_value_get_string (v);
}

gboolean
gp_agg_get_bool (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  return v != NULL && G_VALUE_HOLDS_BOOLEAN (v) && g_value_get_boolean (v);
}

guint
gp_agg_list_size (const GValue * v)
{
  if (v == NULL)
    return 0;
  if (GST_VALUE_HOLDS_LIST (v))
    return gst_value_list_get_size (v);
  if (GST_VALUE_HOLDS_ARRAY (v))
    return gst_value_array_get_size (v);
  return 0;
}

const GValue *
gp_agg_list_value (const GValue * v, guint i)
{
  if (GST_VALUE_HOLDS_LIST (v))
    return gst_value_list_get_value (v, i);
  return gst_value_array_get_value (v, i);
}

const GstStructure *
gp_agg_list_struct (const GValue * v, guint i)
{
  const GValue *e = gp_agg_list_value (v, i);

  if (e == NULL || !GST_VALUE_HOLDS_STRUCTURE (e))
    return NULL;
  return gst_value_get_structure (e);
}

static gboolean
gp_agg_value_to_u64 (const GValue * v, guint64 * out)
{
  if (G_VALUE_HOLDS_UINT64 (v))
    *out = g_value_get_uint64 (v);
  else if (G_VALUE_HOLDS_INT64 (v) && g_value_get_int64 (v) >= 0)
    *out = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_UINT (v))
    *out = g_value_get_uint (v);
  else if (G_VALUE_HOLDS_INT (v) && g_value_get_int (v) >= 0)
    *out = g_value_get_int (v);
  else
    return FALSE;
  return TRUE;
}

JsonNode *
gp_agg_gvalue_to_json (const GValue * v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  GType t = G_VALUE_TYPE (v);

  switch (G_TYPE_FUNDAMENTAL (t)) {
    case G_TYPE_BOOLEAN:
      json_node_set_boolean (node, g_value_get_boolean (v));
      return node;
    case G_TYPE_CHAR:
      json_node_set_int (node, g_value_get_schar (v));
      return node;
    case G_TYPE_UCHAR:
      json_node_set_int (node, g_value_get_uchar (v));
      return node;
    case G_TYPE_INT:
      json_node_set_int (node, g_value_get_int (v));
      return node;
    case G_TYPE_UINT:
      json_node_set_int (node, g_value_get_uint (v));
      return node;
    case G_TYPE_LONG:
      json_node_set_int (node, g_value_get_long (v));
      return node;
    case G_TYPE_ULONG:
      json_node_set_int (node, g_value_get_ulong (v));
      return node;
    case G_TYPE_INT64:
      json_node_set_int (node, g_value_get_int64 (v));
      return node;
    case G_TYPE_UINT64:
      /* JSON integers are signed 64-bit here; GST_CLOCK_TIME_NONE and the
       * like stay visible as a (large) number rather than wrapping to -1 */
      if (g_value_get_uint64 (v) > G_MAXINT64)
        json_node_set_double (node, (gdouble) g_value_get_uint64 (v));
      else
        json_node_set_int (node, g_value_get_uint64 (v));
      return node;
    case G_TYPE_FLOAT:
      json_node_set_double (node, g_value_get_float (v));
      return node;
    case G_TYPE_DOUBLE:
      json_node_set_double (node, g_value_get_double (v));
      return node;
    case G_TYPE_STRING:
      if (g_value_get_string (v) == NULL) {
        json_node_init_null (node);
      } else {
        json_node_set_string (node, g_value_get_string (v));
      }
      return node;
    case G_TYPE_ENUM:{
      GEnumClass *klass = g_type_class_ref (t);
      GEnumValue *ev = g_enum_get_value (klass, g_value_get_enum (v));

      if (ev)
        json_node_set_string (node, ev->value_nick);
      else
        json_node_set_int (node, g_value_get_enum (v));
      g_type_class_unref (klass);
      return node;
    }
    default:{
      /* caps, fractions, flags...: their GStreamer serialisation */
      gchar *str = gst_value_serialize (v);

      if (str == NULL) {
        json_node_unref (node);
        return NULL;
      }
      json_node_set_string (node, str);
      g_free (str);
      return node;
    }
  }
}

/* ------------------------------------------------------------------ */
/* sparse histogram pairs                                              */

/* One (bucket, count) pair of a sparse histogram. Two guint64 in a row, so
 * an array of them is exactly the [bucket, count, ...] list that
 * gp_hist_add_pairs() reads. */
typedef struct
{
  guint64 bucket;
  guint64 count;
} GpAggPair;

static gint
gp_agg_pair_cmp (gconstpointer a, gconstpointer b)
{
  const GpAggPair *pa = a, *pb = b;

  return pa->bucket < pb->bucket ? -1 : pa->bucket > pb->bucket ? 1 : 0;
}

void
gp_agg_read_pairs (const GstStructure * s, const gchar * field, GArray * out)
{
  const GValue *v = gst_structure_get_value (s, field);
  guint i, n, w;

  g_array_set_size (out, 0);
  n = gp_agg_list_size (v);
  for (i = 0; i + 1 < n; i += 2) {
    GpAggPair p;

    if (!gp_agg_value_to_u64 (gp_agg_list_value (v, i), &p.bucket)
        || !gp_agg_value_to_u64 (gp_agg_list_value (v, i + 1), &p.count))
      continue;
    if (p.bucket >= GP_HIST_N_BUCKETS || p.count == 0)
      continue;
    g_array_append_val (out, p);
  }
  if (out->len < 2)
    return;
  /* the contract does not promise an order; the series merge needs one */
  g_array_sort (out, gp_agg_pair_cmp);
  for (i = 1, w = 0; i < out->len; i++) {
    GpAggPair *dst = &g_array_index (out, GpAggPair, w);
    GpAggPair *src = &g_array_index (out, GpAggPair, i);

    if (src->bucket == dst->bucket)
      dst->count += src->count;
    else
      g_array_index (out, GpAggPair, ++w) = *src;
  }
  g_array_set_size (out, w + 1);
}

void
gp_agg_pairs_merge (GArray * dst, const GArray * src)
{
  GArray *out;
  guint i = 0, j = 0;

  if (src->len == 0)
    return;
  if (dst->len == 0) {
    g_array_append_vals (dst, src->data, src->len);
    return;
  }
  out = g_array_sized_new (FALSE, FALSE, sizeof (GpAggPair),
      dst->len + src->len);
  while (i < dst->len || j < src->len) {
    const GpAggPair *a =
        i < dst->len ? &g_array_index (dst, GpAggPair, i) : NULL;
    const GpAggPair *b =
        j < src->len ? &g_array_index (src, GpAggPair, j) : NULL;
    GpAggPair p;

    if (b == NULL || (a != NULL && a->bucket < b->bucket)) {
      p = *a;
      i++;
    } else if (a == NULL || b->bucket < a->bucket) {
      p = *b;
      j++;
    } else {
      p.bucket = a->bucket;
      p.count = a->count + b->count;
      i++;
      j++;
    }
    g_array_append_val (out, p);
  }
  g_array_set_size (dst, 0);
  g_array_append_vals (dst, out->data, out->len);
  g_array_free (out, TRUE);
}

GArray *
gp_agg_pairs_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (GpAggPair));
}

void
gp_agg_hist_add (GpHist * h, const GArray * pairs)
{
  if (pairs->len > 0)
    gp_hist_add_pairs (h, (const guint64 *) pairs->data, pairs->len * 2);
}
