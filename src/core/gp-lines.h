/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-lines.h: a text cut into its lines as it arrives, in blocks of any
 * size, for every reader of line-based files (tracer logs, the
 * queue-levels CSV, the tracer's records): whole lines only, each at most
 * a bound long (a longer one is skipped to its newline and counted), the
 * last one, when no newline ends it, said to be cut; and the one test of
 * whether a file's start is text at all.
 */
#ifndef __GP_LINES_H__
#define __GP_LINES_H__

#include <glib.h>

G_BEGIN_DECLS

/* A NUL byte among the first GP_LINES_BINARY_BYTES of a file makes it
 * binary: no text format gstprof reads holds one, and a compressed or
 * binary file shows one early. */
#define GP_LINES_BINARY_BYTES 4096

/* Whether the first bytes @head[0..@length) show binary data (a NUL among
 * the first GP_LINES_BINARY_BYTES). */
gboolean gp_lines_binary (const gchar * head, gsize length);

typedef enum
{
  GP_LINE_WHOLE = 0,
  /* longer than the bound: no text given (@length 0), the rest of it up to
   * its newline is skipped; it is given as soon as it passes the bound */
  GP_LINE_LONG = 1 << 0,
  /* the text's last line, which no newline ended (gp_lines_finish ()) */
  GP_LINE_CUT = 1 << 1
} GpLineFlags;

/* One line: @length bytes at @line without its newline, not
 * NUL-terminated, valid during the call only. FALSE stops the splitter:
 * no further line is given. */
typedef gboolean (*GpLineFunc) (const gchar * line, gsize length,
    GpLineFlags flags, gpointer user_data);

typedef struct _GpLines GpLines;

/* A splitter giving lines of at most @max_length bytes to @func. */
GpLines *gp_lines_new (gsize max_length, GpLineFunc func,
    gpointer user_data);
void gp_lines_free (GpLines * l);

/* Gives every line @data[0..@length) ends (with what earlier blocks began)
 * and keeps the unfinished rest. FALSE once @func has stopped it. */
gboolean gp_lines_feed (GpLines * l, const gchar * data, gsize length);

/* The text ended: its unfinished last line, if any, is given with
 * GP_LINE_CUT (unless it was too long, and so given already). FALSE when
 * @func stopped the splitter. */
gboolean gp_lines_finish (GpLines * l);

/* Whether a line is begun and not ended: the text so far does not end in
 * a newline. */
gboolean gp_lines_pending (const GpLines * l);

/* Lines given as GP_LINE_LONG so far. */
guint64 gp_lines_n_long (const GpLines * l);

/* What a reader that reads a file as far as it is valid left out: the
 * lines it read, the malformed ones it skipped and the first of those,
 * for the one sentence every such reader says (the telemetry logs, ds
 * perf's application log). Zeroed to start; cleared with
 * gp_lines_skips_clear (). */
typedef struct
{
  guint64 lines;                /* non-empty lines read, skipped ones too */
  guint64 skipped;
  gchar *first;                 /* "FILE:LINE: why" of the first skipped */
} GpLinesSkips;

/* One malformed line skipped; @why is "FILE:LINE: why" (kept if first,
 * made valid UTF-8). */
void gp_lines_skip (GpLinesSkips * k, const gchar * why);
/* "N of M lines skipped, first at FILE:LINE: why", or NULL when none was
 * skipped. */
gchar *gp_lines_skips_text (const GpLinesSkips * k);
void gp_lines_skips_clear (GpLinesSkips * k);

G_END_DECLS

#endif /* __GP_LINES_H__ */
