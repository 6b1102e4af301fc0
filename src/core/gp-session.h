/* gstprof
 *
 * gp-session.h: the session model. Everything gstprof knows about one
 * capture: what ran, the graph, the whole-run summary, the per-window series,
 * the events and the findings. Written to and read from session.json
 * (schema "gstprof/1", docs/session-schema.md). Rules and reports read only
 * this model, so a saved session gives the same verdict as a live one.
 */
#ifndef __GP_SESSION_H__
#define __GP_SESSION_H__

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define GP_SESSION_SCHEMA "gstprof/1"

/* Quantiles in milliseconds; a negative value means "not measured". */
typedef struct
{
  gdouble p50, p95, p99, max;
} GpQuantiles;

typedef struct
{
  gchar *name;
  gchar *factory;
  gchar *parent;                /* "" for a top-level pipeline */
  gchar *kind;                  /* source|sink|queue|demux|mux|tee|filter|bin */
  gboolean is_bin;
  JsonObject *props;            /* real values at PLAYING, may be NULL */
} GpElement;

typedef struct
{
  gchar *id;                    /* "src_el.pad->sink_el.pad" */
  gchar *src;                   /* "element.pad" */
  gchar *sink;                  /* "element.pad" */
  gchar *caps;                  /* may be NULL */
  gchar *memory;                /* caps feature, "system" when none */
} GpLink;

/* summary.elements.<name> */
typedef struct
{
  gchar *name;
  GpQuantiles self_ms;
  guint64 buffers;
  gdouble self_total_ms;        /* sum of self time over the run */
  gdouble cpu_ms;               /* CPU self time, < 0 when not measured */
  gdouble busy_pct;             /* self_total / duration * 100 (one core) */
  gdouble share_pct;            /* of all elements' self time, queues excluded */
  GPtrArray *threads;           /* gchar*: names of the threads it ran on */
} GpElementSummary;

/* summary.queues.<name> */
typedef struct
{
  gchar *name;
  GpQuantiles residence_ms;
  gdouble level_pct_mean, level_pct_max;
  guint64 level_buffers_max;
  guint64 dropped;
  gchar *leaky;                 /* no|upstream|downstream */
  gdouble blocked_ms;           /* upstream time blocked on a full queue */
} GpQueueSummary;

/* summary.links.<id> */
typedef struct
{
  gchar *id;
  gdouble fps;                  /* buffers/s over the PLAYING time */
  gdouble bytes_per_s;
  guint64 buffers;
} GpLinkSummary;

/* summary.paths[] (to sinks) and summary.interlatency[] (to any element) */
typedef struct
{
  gchar *source;                /* origin "element.pad" */
  gchar *sink;                  /* element name */
  GpQuantiles latency_ms;
  guint64 matched, unmatched;
} GpPath;

/* summary.threads[] */
typedef struct
{
  guint64 tid;
  gchar *name;
  gdouble cpu_pct_mean;         /* % of one core, over the run */
  gdouble cpu_pct_max;          /* busiest window */
  GPtrArray *elements;          /* gchar* */
} GpThreadSummary;

/* summary.sinks.<name> */
typedef struct
{
  gchar *name;
  gdouble fps;                  /* achieved, over the PLAYING time */
  gdouble target_fps;           /* from the caps at its input, < 0 unknown */
  guint64 buffers;
} GpSinkSummary;

/* events[] */
typedef struct
{
  gdouble t;                    /* seconds since the session started */
  gchar *type;                  /* error|warning|qos|eos|state|latency|interrupt */
  gchar *source;                /* element name or "" */
  gchar *text;
} GpEvent;

/* findings[] */
typedef struct
{
  gchar *rule;                  /* HOT, BUDGET, ... */
  gchar *severity;              /* high|medium|info */
  gchar *title;
  GPtrArray *targets;           /* gchar*: element or link names */
  JsonObject *evidence;         /* rule-specific numbers */
  gchar *why;
  gchar *fix;
  JsonNode *fix_patch;          /* structured launch-string edit, or NULL */
  gboolean heuristic;
  gchar *verified_on;           /* NULL when not bench-verified */
  gdouble rank_value;           /* estimated gain (ms or fps) or share, for ordering */
} GpFinding;

typedef struct
{
  gchar *schema;                /* GP_SESSION_SCHEMA */
  /* session */
  gchar *mode;                  /* run|wrap|analyze */
  gchar *launch;                /* may be NULL */
  gchar *started;               /* ISO 8601 UTC */
  gdouble duration_s;
  gchar *gstreamer;             /* version string */
  gchar *platform;              /* jetson|dgpu|generic */
  gdouble window_s;
  gint exit_code;               /* what the run exited with */

  /* graph */
  GPtrArray *elements;          /* GpElement* */
  GPtrArray *links;             /* GpLink* */
  GPtrArray *hw_elements;       /* gchar*: hardware factories registered */

  /* summary; the hash tables own their values and index the arrays' order */
  GPtrArray *elem_summaries;    /* GpElementSummary*, by self_total desc */
  GPtrArray *queue_summaries;   /* GpQueueSummary* */
  GPtrArray *link_summaries;    /* GpLinkSummary* */
  GPtrArray *paths;             /* GpPath*, to sinks */
  GPtrArray *interlatency;      /* GpPath*, to every element */
  GPtrArray *threads;           /* GpThreadSummary*, by cpu_pct_mean desc */
  GPtrArray *sinks;             /* GpSinkSummary* */
  gdouble target_fps;           /* < 0 unknown */
  gdouble frame_period_ms;      /* < 0 unknown */

  /* series: one JsonObject per window, oldest first (docs/session-schema.md) */
  GPtrArray *series;            /* JsonObject* */

  GPtrArray *events;            /* GpEvent* */
  GPtrArray *findings;          /* GpFinding*, ranked */
} GpSession;

GpSession *gp_session_new (void);
void gp_session_free (GpSession * s);

GpElement *gp_session_add_element (GpSession * s, const gchar * name,
    const gchar * factory, const gchar * parent, const gchar * kind);
GpLink *gp_session_add_link (GpSession * s, const gchar * src,
    const gchar * sink, const gchar * caps, const gchar * memory);
GpEvent *gp_session_add_event (GpSession * s, gdouble t, const gchar * type,
    const gchar * source, const gchar * text);
GpFinding *gp_session_add_finding (GpSession * s, const gchar * rule,
    const gchar * severity, const gchar * title);

GpElement *gp_session_find_element (GpSession * s, const gchar * name);
GpElementSummary *gp_session_find_elem_summary (GpSession * s,
    const gchar * name);
GpQueueSummary *gp_session_find_queue_summary (GpSession * s,
    const gchar * name);

/* Getters for element properties as recorded at PLAYING. */
gboolean gp_element_get_prop_bool (GpElement * e, const gchar * prop,
    gboolean * out);
const gchar *gp_element_get_prop_string (GpElement * e, const gchar * prop);

/* session.json: write atomically (temp file + rename); read with a one-line
 * error naming the file (and line:column for syntax errors). */
gboolean gp_session_save (GpSession * s, const gchar * path, GError ** error);
GpSession *gp_session_load (const gchar * path, GError ** error);
JsonNode *gp_session_to_json (GpSession * s);
GpSession *gp_session_from_json (JsonNode * root, const gchar * origin,
    GError ** error);

#define GP_SESSION_ERROR (gp_session_error_quark ())
GQuark gp_session_error_quark (void);
typedef enum
{
  GP_SESSION_ERROR_IO,
  GP_SESSION_ERROR_PARSE,
  GP_SESSION_ERROR_SCHEMA,
} GpSessionError;

G_END_DECLS

#endif /* __GP_SESSION_H__ */
