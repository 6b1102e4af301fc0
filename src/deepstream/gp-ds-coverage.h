/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-coverage.h: which elements of a DeepStream pipeline emit NVTX
 * ranges, from the table of what DeepStream 9's sources emit, or measured
 * from an nsys nvtx_sum; and, since gstprof's tracer times every element,
 * each one's self time from a session, the uninstrumented ones too.
 */
#ifndef __GP_DS_COVERAGE_H__
#define __GP_DS_COVERAGE_H__

#include <glib.h>

#include "core/gp-session.h"
#include "gp-nsys.h"

G_BEGIN_DECLS

typedef struct
{
  gchar *name;                  /* the element's name (predicted), or its
                                 * deepstream-app group ("primary-gie") */
  gchar *factory;
  gint uid;                     /* nvinfer's unique-id, gie-unique-id; -1 */
  /* written by gp_ds_coverage_from_table or _from_nvtx */
  gboolean covered;
  gboolean measured;            /* from an nsys nvtx_sum, not the table */
  gchar *evidence;              /* the table's range text, or the
                                 * measured ranges' names */
  const gchar *skill;           /* where the skill says otherwise, or NULL */
  gdouble nvtx_ns;              /* the measured ranges' total, NAN */
  /* written by gp_ds_coverage_add_session */
  gdouble self_ms;              /* the tracer's self time, NAN */
  gdouble busy_pct;             /* its busy share, NAN */
} GpDsElement;

/* The elements of a launch string (caps filters left out). NULL with a
 * one-line @error. */
GPtrArray *gp_ds_elements_from_launch (const gchar * launch,
    GError ** error);
/* The elements a deepstream-app config makes, group by group: each
 * enabled source a source and nvv4l2decoder, streammux, primary-gie,
 * pre-process, tracker, secondary-gieN, nvds-analytics, tiled-display,
 * osd, each enabled sink by its type. A test app's YAML (.yml, .yaml):
 * what DeepStream's sample apps make of its groups (a filesrc, h264parse
 * and decoder for `source`, a uridecodebin and decoder per `source-list`
 * URI, streammux, preprocess, primary-gie, secondary-gie*, tracker,
 * tiler, osd, msgconv, msgbroker, sink); the elements the app's code adds
 * besides (converters, queues) are not in the file. NULL with a one-line
 * @error naming @path. */
GPtrArray *gp_ds_elements_from_config (const gchar * path, GError ** error);
/* The elements a gstprof session saw at PLAYING (bins left out), the
 * inference's unique-id from its properties. */
GPtrArray *gp_ds_elements_from_session (GpSession * s);
/* TRUE when @path is a file with a deepstream-app group, or a test app's
 * YAML. */
gboolean gp_ds_is_app_config (const gchar * path);

void gp_ds_coverage_from_table (GPtrArray * elements);
/* Covered: a range of @nvtx (Total Time above 0) names it, by its
 * factory's domain (GstNvInfer: UID=<uid> ...) or by its name at the
 * start of the message (nvdsosd0_(Frame=N)). */
void gp_ds_coverage_from_nvtx (GPtrArray * elements,
    const GpNsysTable * nvtx);
/* Each element's self time in @s: by name, else the session's elements of
 * its factory in order. */
void gp_ds_coverage_add_session (GPtrArray * elements, GpSession * s);
/* The element a normalised NVTX range names, or NULL. */
GpDsElement *gp_ds_coverage_owner (GPtrArray * elements,
    const gchar * domain, const gchar * message);

/* The Markdown table. */
gchar *gp_ds_coverage_markdown (GPtrArray * elements);

G_END_DECLS

#endif /* __GP_DS_COVERAGE_H__ */
