/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A stand-in for libnvToolsExt in tests: the calls the gstprof tracer
 * makes with nvtx=true, each written as one line to the file
 * GP_NVTX_STANDIN_LOG names (appended with one write, so lines of several
 * threads never mix):
 *
 *   domain TID NAME         nvtxDomainCreateA
 *   push TID DOMAIN NAME    nvtxDomainRangePushEx / nvtxRangePushA (-)
 *   pop TID DOMAIN          nvtxDomainRangePop / nvtxRangePop (-)
 *   name TID OS_TID NAME    nvtxNameOsThreadA(OS_TID, NAME)
 *
 * TID is the calling thread's kernel id.  Only the fields of the event
 * attributes a range needs are read (NVTX's version 2 layout). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define STANDIN_EXPORT __attribute__ ((visibility ("default")))

typedef struct
{
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t color_type;
  uint32_t color;
  int32_t payload_type;
  int32_t reserved0;
  uint64_t payload;
  int32_t message_type;
  const char *message;
} standin_attrs;

static const char standin_domain[] = "gstprof-domain";
static char standin_domain_name[64] = "-";

static void
standin_log (const char *fmt, const char *a, const char *b)
{
  const char *path = getenv ("GP_NVTX_STANDIN_LOG");
  char line[512];
  int fd, n;

  if (!path)
    return;
  n = snprintf (line, sizeof (line), fmt, (long) syscall (SYS_gettid),
      a ? a : "", b ? b : "");
  if (n <= 0)
    return;
  if (n >= (int) sizeof (line))
    n = sizeof (line) - 1;
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0)
    return;
  if (write (fd, line, n) != n)
    abort ();
  close (fd);
}

STANDIN_EXPORT void *
nvtxDomainCreateA (const char *name)
{
  snprintf (standin_domain_name, sizeof (standin_domain_name), "%s", name);
  standin_log ("domain %ld %s%s\n", name, "");
  return (void *) standin_domain;
}

STANDIN_EXPORT int
nvtxDomainRangePushEx (void *domain, const standin_attrs * a)
{
  const char *d = domain == standin_domain ? standin_domain_name : "?";

  if (a->message_type != 1 || a->size < sizeof (standin_attrs))
    standin_log ("push %ld %s (not an ASCII message)%s\n", d, "");
  else
    standin_log ("push %ld %s %s\n", d, a->message);
  return 0;
}

STANDIN_EXPORT int
nvtxDomainRangePop (void *domain)
{
  standin_log ("pop %ld %s%s\n", domain == standin_domain ?
      standin_domain_name : "?", "");
  return 0;
}

STANDIN_EXPORT int
nvtxRangePushA (const char *message)
{
  standin_log ("push %ld - %s%s\n", message, "");
  return 0;
}

STANDIN_EXPORT int
nvtxRangePop (void)
{
  standin_log ("pop %ld -%s%s\n", "", "");
  return 0;
}

STANDIN_EXPORT void
nvtxNameOsThreadA (uint32_t tid, const char *name)
{
  char t[16];

  snprintf (t, sizeof (t), "%u", tid);
  standin_log ("name %ld %s %s\n", t, name);
}
