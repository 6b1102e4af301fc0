/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-derive.h: `gstprof ds derive`: DeepStream's knobs from two
 * measured numbers (the inference plateau batch, the streams to serve) and
 * the source's and model's sizes, by the closed-form rules R1-R7 of
 * docs/tuning.md ("Derive: R1-R7"), each value with its one-line reason;
 * then what that changes in the configuration files given.
 */
#ifndef __GP_DS_DERIVE_H__
#define __GP_DS_DERIVE_H__

#include <glib.h>

G_BEGIN_DECLS

/* What the rules start from (the command line's). */
typedef struct
{
  guint plateau;                /* the plateau batch (gstprof ds sweep) */
  guint streams;                /* streams to serve */
  guint src_w, src_h;           /* source resolution */
  gdouble src_fps;              /* source frame rate */
  guint model_c, model_h, model_w;      /* the network input, C x H x W */
  const gchar *int8_calib;      /* an INT8 calibration file, NULL: none */
  gboolean int8_calib_exists;   /* it is there (else: FP16) */
  gdouble gpu_mem_mib;          /* free GPU memory, NAN: not given */
  gdouble plateau_fps;          /* aggregate fps at the plateau, or NAN */
  gdouble decode_fps;           /* the decoders' fps at this source, NAN */
  /* from the configurations (gp_ds_derive_scan) */
  gboolean tracker;             /* a tracker runs after the primary */
  gboolean live;                /* RTSP or camera sources */
  gboolean new_mux;             /* USE_NEW_NVSTREAMMUX=yes */
} GpDsDeriveInput;

/* "1920x1080@30" (a rate may be a fraction: 30000/1001); FALSE when not
 * that, or a size or rate of 0. */
gboolean gp_ds_derive_parse_source (const gchar * text, guint * w, guint * h,
    gdouble * fps);
/* "3x544x960" (C x H x W, as nvinfer's infer-dims=3;544;960); FALSE when
 * not that, or a 0. */
gboolean gp_ds_derive_parse_model (const gchar * text, guint * c, guint * h,
    guint * w);

typedef enum
{
  GP_DS_ELEM_MUX,               /* R1 nvstreammux */
  GP_DS_ELEM_PGIE,              /* R2 primary nvinfer (R4a its interval) */
  GP_DS_ELEM_DECODER,           /* R3 */
  GP_DS_ELEM_TRACKER,           /* R4 */
  GP_DS_ELEM_QUEUE,             /* R5 (launch lines and apps: no config
                                 * key holds them) */
  GP_DS_ELEM_CAPACITY,          /* R7 (a report, nothing to write) */
} GpDsElem;

/* One derived value. */
typedef struct
{
  const gchar *rule;            /* "R1" ... "R7" */
  GpDsElem elem;
  gchar *key;
  gchar *value;
  gchar *reason;                /* one line */
} GpDsValue;

typedef struct
{
  guint final_batch;            /* min (plateau, streams) */
  GPtrArray *values;            /* GpDsValue*, in rule order */
  guint max_streams;            /* R7: the smallest known ceiling */
  const gchar *limit;           /* what caps it: "decode", "compute",
                                 * "memory", or NULL (none given) */
  guint ceil_compute, ceil_decode, ceil_memory; /* 0: not given */
} GpDsDerivation;

GpDsDerivation *gp_ds_derive (const GpDsDeriveInput * in);
void gp_ds_derivation_free (GpDsDerivation * d);
/* The value derived for @key of @elem, NULL when none. */
const GpDsValue *gp_ds_derivation_find (const GpDsDerivation * d,
    GpDsElem elem, const gchar * key);

/* One line of the table: a key of a file, its value now and the derived
 * one.  write FALSE: shown, never written (a key the element does not
 * have, left as it is). */
typedef struct
{
  gchar *file;
  gchar *group;
  gchar *key;
  gchar *old;                   /* NULL: not in the file */
  gchar *value;
  const gchar *reason;          /* the GpDsValue's, or a note */
  gboolean write;
} GpDsChange;

typedef struct _GpDsConfigs GpDsConfigs;

/* @paths read by the config editor (deepstream/gp-ds-config.h):
 * deepstream-app INI, nvinfer INI or YAML, a test app's YAML, a tracker
 * group's.  NULL with a one-line error naming the file (and the line) when
 * one does not load or holds no DeepStream group. */
GpDsConfigs *gp_ds_configs_load (gchar ** paths, GError ** error);
void gp_ds_configs_free (GpDsConfigs * c);
/* What the files say about the pipeline: a tracker, live sources, and,
 * without --int8-calib, an nvinfer file's int8-calib-file (the string
 * stays @c's). */
void gp_ds_derive_scan (GpDsConfigs * c, GpDsDeriveInput * in);
/* Every key @d sets, in each file given: GpDsChange*. */
GPtrArray *gp_ds_derive_changes (const GpDsDerivation * d,
    const GpDsConfigs * c);
void gp_ds_change_free (GpDsChange * ch);
/* --write: every writable change that differs set in its file, and the
 * files that changed saved (FILE.bak beside, once); @wrote gets their
 * paths (owned by @c).  FALSE with the editor's one-line error. */
gboolean gp_ds_derive_write (GpDsConfigs * c, GPtrArray * changes,
    GPtrArray * wrote, GError ** error);

G_END_DECLS

#endif /* __GP_DS_DERIVE_H__ */
