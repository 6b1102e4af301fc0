/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-models: the known networks' work per frame (gp-models.h). */
#include "gp-models.h"

#include <string.h>

/* ../shared/reference/deepstream-roofline.md §5.4: torchvision's GMACs
 * doubled, Ultralytics' FLOPs as they are. */
static const GpModel gp_models_table[] = {
  {"resnet50", "ResNet-50 (torchvision)", 224, 224, 3, 2 * 4.09, 25.6,
      "torchvision: 4.09 GMACs"},
  {"resnet34", "ResNet-34 (torchvision)", 224, 224, 3, 2 * 3.67, 21.8,
      "torchvision: 3.67 GMACs"},
  {"resnet18", "ResNet-18 (torchvision)", 224, 224, 3, 2 * 1.82, 11.7,
      "torchvision: 1.82 GMACs"},
  {"mobilenetv2", "MobileNetV2 (torchvision)", 224, 224, 3, 2 * 0.30, 3.5,
      "torchvision: 0.30 GMACs"},
  {"mobilenetv3large", "MobileNetV3-Large (torchvision)", 224, 224, 3,
      2 * 0.22, 5.5, "torchvision: 0.22 GMACs"},
  {"yolov8n", "YOLOv8n (Ultralytics)", 640, 640, 3, 8.7, 3.2,
      "Ultralytics: 8.7 GFLOPs"},
  {"yolov8s", "YOLOv8s (Ultralytics)", 640, 640, 3, 28.6, 11.2,
      "Ultralytics: 28.6 GFLOPs"},
  {"yolov8m", "YOLOv8m (Ultralytics)", 640, 640, 3, 78.9, 25.9,
      "Ultralytics: 78.9 GFLOPs"},
};

const GpModel *
gp_models (guint * n)
{
  *n = G_N_ELEMENTS (gp_models_table);
  return gp_models_table;
}

/* lower case, without '-', '_', '.' and spaces */
static gchar *
gp_model_key (const gchar * name)
{
  GString *k = g_string_new (NULL);
  const gchar *p;

  for (p = name; p && *p; p++)
    if (!strchr ("-_. ", *p))
      g_string_append_c (k, g_ascii_tolower (*p));
  return g_string_free (k, FALSE);
}

const GpModel *
gp_model_find (const gchar * name)
{
  gchar *key = gp_model_key (name);
  const GpModel *found = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_models_table) && !found; i++)
    if (strcmp (gp_models_table[i].name, key) == 0)
      found = &gp_models_table[i];
  g_free (key);
  return found;
}

gdouble
gp_model_ops (const GpModel * m)
{
  return m->gflops * 1e9;
}

guint
gp_precision_bytes (const gchar * precision)
{
  if (precision == NULL)
    return 0;
  if (g_ascii_strcasecmp (precision, "int8") == 0)
    return 1;
  if (g_ascii_strcasecmp (precision, "fp16") == 0)
    return 2;
  if (g_ascii_strcasecmp (precision, "fp32") == 0)
    return 4;
  return 0;
}

gdouble
gp_model_bytes_estimate (const GpModel * m, const gchar * precision)
{
  gdouble input = (gdouble) m->channels * m->width * m->height;

  return (input + m->params_m * 1e6) * gp_precision_bytes (precision);
}
