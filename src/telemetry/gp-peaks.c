/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-peaks: the peaks table and its lookups (gp-peaks.h). */
#include "gp-peaks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (gp-peaks-error-quark, gp_peaks_error)

/* Dense tensor throughput per SM per clock, FMA = 2 ops: the corrected
 * table (../shared/reference/deepstream-roofline.md §5.2), each line held
 * to a datasheet figure there. FP32 is the CUDA cores × 2. */
typedef struct
{
  guint major, minor;
  gdouble fp32, fp16, fp16_geforce, int8;
  const gchar *arch;
} GpPeaksOpsRow;

static const GpPeaksOpsRow gp_peaks_ops_table[] = {
  /* no tensor cores: FP16 at twice the FP32 rate, no INT8 */
  {5, 3, 256, 512, 512, NAN, "Maxwell (Tegra X1)"},
  {6, 2, 256, 512, 512, NAN, "Pascal (Tegra X2)"},
  {7, 0, 128, 1024, 1024, NAN, "Volta"},
  {7, 2, 128, 1024, 1024, 2048, "Volta (Xavier)"},
  {7, 5, 128, 1024, 1024, 2048, "Turing"},
  {8, 0, 128, 2048, 2048, 4096, "Ampere (A100)"},
  {8, 6, 256, 1024, 512, 2048, "Ampere (GA10x)"},
  {8, 7, 256, 2048, 2048, 4096, "Ampere (Orin)"},
  {8, 9, 256, 1024, 512, 2048, "Ada"},
  {9, 0, 256, 4096, 4096, 8192, "Hopper"},
  /* Blackwell: not in the corrected table's checks (its rates are
   * recalled, docs/roofline.md); data-centre and Thor at twice Hopper,
   * the GB20x workstation and GeForce parts at Ada's */
  {10, 0, 256, 8192, 8192, 16384, "Blackwell (B200)"},
  {11, 0, 256, 8192, 8192, 16384, "Blackwell (Thor)"},
  {12, 0, 256, 1024, 512, 2048, "Blackwell (GB20x)"},
};

#define J GP_PEAKS_JETSON
#define D GP_PEAKS_DGPU
#define CT GP_PEAKS_CIRCULAR_TENSOR
#define CB GP_PEAKS_CIRCULAR_BW

static const GpPeaksRow gp_peaks_table[] = {
  /* Jetson: SMs and clocks of NVIDIA's module tables; INT8 as the sparse
   * figure those tables print; LPDDR data rate / 2 as the memory clock */
  {"Jetson Nano", J, 5, 3, FALSE, 1, 921.6, 0, 1600, 64, 4,
      {"nano", "nano 4gb", NULL}, "0.24", "0.47", NULL, "25.6", 0,
      "128 CUDA cores, LPDDR4 3200 MT/s"},
  {"Jetson TX2", J, 6, 2, FALSE, 2, 1300, 0, 1866, 128, 8,
      {"tx2", "quill", NULL}, "0.67", "1.33", NULL, "59.7", 0,
      "256 CUDA cores, LPDDR4 3733 MT/s"},
  {"Jetson AGX Xavier", J, 7, 2, FALSE, 8, 1377, 0, 2133, 256, 32,
      {"agx xavier", "agx", "xavier", NULL}, "1.4", "11", "22", "136.5", 0,
      "512 cores, 64 tensor cores; 11 TFLOPS FP16 and 22 TOPS INT8 as "
        "NVIDIA prints them [recall]"},
  {"Jetson Xavier NX", J, 7, 2, FALSE, 6, 1100, 0, 1866, 128, 8,
      {"xavier nx", NULL}, "0.85", NULL, NULL, "59.7", 0,
      "384 cores, 48 tensor cores; NVIDIA's 21 TOPS include the DLAs"},
  {"Jetson Orin Nano 4GB", J, 8, 7, FALSE, 4, 625, 0, 2133, 64, 4,
      {"orin nano", "orin nano 4gb", NULL}, "0.6", NULL, "20 sparse", "34", 0,
      "512 cores, LPDDR5 4266 MT/s"},
  {"Jetson Orin Nano 8GB", J, 8, 7, FALSE, 8, 625, 0, 2133, 128, 8,
      {"orin nano", "orin nano 8gb", NULL}, "1.3", NULL, "40 sparse", "68", 0,
      "1024 cores, LPDDR5 4266 MT/s"},
  {"Jetson Orin Nano 4GB Super", J, 8, 7, FALSE, 4, 1020, 0, 3200, 64, 4,
      {"orin nano super", "orin nano 4gb super", NULL}, NULL, NULL,
      "34 sparse", "51", 0, "the Super power mode (JetPack 6.2)"},
  {"Jetson Orin Nano 8GB Super", J, 8, 7, FALSE, 8, 1020, 0, 3200, 128, 8,
      {"orin nano super", "orin nano 8gb super", NULL}, "2.1", NULL,
      "67 sparse", "102", 0, "the Super power mode (JetPack 6.2)"},
  {"Jetson Orin NX 8GB", J, 8, 7, FALSE, 8, 765, 0, 3200, 128, 8,
      {"orin nx", "orin nx 8gb", NULL}, "1.6", NULL, "50 sparse", "102.4", 0,
      "1024 cores, LPDDR5 6400 MT/s; NVIDIA's 70 TOPS include the DLA"},
  {"Jetson Orin NX 16GB", J, 8, 7, FALSE, 8, 918, 0, 3200, 128, 16,
      {"orin nx", "orin nx 16gb", NULL}, "1.9", NULL, "60 sparse", "102.4", 0,
      "1024 cores; NVIDIA's 100 TOPS include the DLAs"},
  {"Jetson AGX Orin 32GB", J, 8, 7, FALSE, 14, 930, 0, 3200, 256, 32,
      {"agx orin", "agx orin 32gb", NULL}, "3.3", NULL, "108 sparse",
      "204.8", 0, "1792 cores; NVIDIA's 200 TOPS include the DLAs; the "
        "first developer kit (32 GB, 12 CPUs) has the 64GB module's GPU"},
  {"Jetson AGX Orin 64GB", J, 8, 7, FALSE, 16, 1300, 0, 3200, 256, 64,
      {"agx orin", "agx orin 64gb", "agx orin industrial", NULL}, "5.3", NULL,
      "170 sparse", "204.8", 0, "2048 cores; NVIDIA's 275 TOPS include the "
        "DLAs"},
  {"Jetson AGX Thor", J, 11, 0, FALSE, 20, 1575, 0, 4266, 256, 128,
      {"agx thor", "thor", "t5000", NULL}, NULL, NULL, "2070 fp4 sparse",
      "273", 0, "2560 cores (20 SMs) at 1575 MHz, LPDDR5X 8533 MT/s and "
        "NVIDIA's 2070 TFLOPS FP4 sparse (FP4 at twice INT8's rate) "
        "[recall]"},

  /* data-centre: boost clocks and memory clocks as nvidia-smi reports
   * them (clocks.max.memory), datasheet figures as NVIDIA prints them */
  {"T4", D, 7, 5, FALSE, 40, 1590, 0, 5001, 256, 16,
      {"t4", NULL}, "8.1", "65", "130", "320", 0, "GDDR6"},
  {"A10", D, 8, 6, FALSE, 72, 1695, 0, 6251, 384, 24,
      {"a10", NULL}, "31.2", "125", "250", "600", 0, "GDDR6"},
  {"A100 40GB", D, 8, 0, FALSE, 108, 1410, 0, 1215, 5120, 40,
      {"a100", "a100 40gb", "a100 sxm4 40gb", "a100 pcie 40gb", NULL},
      "19.5", "312", "624", "1555", 0, "HBM2"},
  {"A100 80GB", D, 8, 0, FALSE, 108, 1410, 0, 1593, 5120, 80,
      {"a100", "a100 80gb", "a100 sxm4 80gb", "a100 80gb pcie", NULL},
      "19.5", "312", "624", "2039", 0, "HBM2e (SXM; the PCIe card's memory "
        "clock is lower, nvidia-smi says by how much)"},
  {"L4", D, 8, 9, FALSE, 58, 2040, 0, 6251, 192, 24,
      {"l4", NULL}, "30.3", "121", "242", "300", 0, "GDDR6; 58 SMs"},
  {"L40S", D, 8, 9, FALSE, 142, 2520, 0, 9001, 384, 48,
      {"l40s", NULL}, "91.6", "362", "733", "864", 0, "GDDR6; 733 TOPS is "
        "the dense INT8 figure"},
  {"H100 SXM", D, 9, 0, FALSE, 132, 1980, 1830, 2619, 5120, 80,
      {"h100", "h100 sxm", "h100 80gb hbm3", "h100 sxm5 80gb", NULL},
      "67", "989", "1979", "3350", 0, "HBM3; tensor figures at 1830 MHz, "
        "FP32 at 1980 MHz (clocks.max.sm)"},
  {"H100 PCIe", D, 9, 0, FALSE, 114, 1755, 1620, 1563, 5120, 80,
      {"h100", "h100 pcie", NULL}, "51", "756", "1513", "2000", CT | CB,
      "HBM2e; tensor clock and memory clock worked back from the "
        "datasheet's figures"},
  {"H200", D, 9, 0, FALSE, 132, 1980, 1830, 3125, 6144, 141,
      {"h200", "h200 sxm", NULL}, "67", "989", "1979", "4800", CB,
      "HBM3e 6144-bit; memory clock worked back from 4.8 TB/s (nvidia-smi's "
        "clocks.max.memory not verified)"},

  /* workstation and GeForce */
  {"RTX 3060 Ti", D, 8, 6, TRUE, 38, 1665, 0, 7001, 256, 8,
      {"rtx 3060 ti", NULL}, "16.2", NULL, NULL, "448", 0, "GDDR6"},
  {"RTX 3090", D, 8, 6, TRUE, 82, 1695, 0, 9751, 384, 24,
      {"rtx 3090", NULL}, "35.6", "71", "284", "936", 0, "GDDR6X; FP16 "
        "with FP32 accumulate (142 with FP16 accumulate)"},
  {"RTX 4090", D, 8, 9, TRUE, 128, 2520, 0, 10501, 384, 24,
      {"rtx 4090", NULL}, "82.6", "165", "660", "1008", 0, "GDDR6X; FP16 "
        "with FP32 accumulate (330 with FP16 accumulate)"},
  {"RTX PRO 6000 Blackwell", D, 12, 0, FALSE, 188, 2617, 0, 14001, 512, 96,
      {"rtx pro 6000 blackwell", "rtx pro 6000", NULL}, "125", NULL, NULL,
      "1792", 0, "GDDR7; 188 SMs at 2617 MHz and 125 TFLOPS FP32 "
        "[recall]; tensor rates not verified"},
};

#undef J
#undef D
#undef CT
#undef CB

/* Words after a name that make it another part: "RTX 3090 Ti" is not an
 * RTX 3090, "H200 NVL" not an H200. */
static const gchar *const gp_peaks_variants[] = {
  "ti", "super", "nvl", "max", "q", "laptop", "mobile", "d", "lite", NULL
};

/* Words that name no part. */
static const gchar *const gp_peaks_noise[] = {
  "nvidia", "geforce", "tesla", "jetson", "developer", "kit", "module",
  "engineering", "reference", NULL
};

const GpPeaksRow *
gp_peaks_rows (guint * n)
{
  *n = G_N_ELEMENTS (gp_peaks_table);
  return gp_peaks_table;
}

gboolean
gp_peaks_ops_per_clock (guint major, guint minor, gboolean geforce,
    GpPeaksOps * out)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_peaks_ops_table); i++) {
    const GpPeaksOpsRow *o = &gp_peaks_ops_table[i];

    if (o->major != major || o->minor != minor)
      continue;
    out->fp32 = o->fp32;
    out->fp16 = geforce ? o->fp16_geforce : o->fp16;
    out->int8 = o->int8;
    out->arch = o->arch;
    return TRUE;
  }
  return FALSE;
}

gdouble
gp_peaks_bandwidth (gdouble mem_mhz, guint bus_bits)
{
  if (!(mem_mhz > 0) || bus_bits == 0)
    return NAN;
  return 2.0 * mem_mhz * 1e6 * bus_bits / 8.0;
}

gchar *
gp_peaks_normalise (const gchar * name)
{
  gchar *low, **words;
  GString *out = g_string_new (NULL);
  guint i;

  low = g_ascii_strdown (name ? name : "", -1);
  g_strdelimit (low, "-_,()[]\t", ' ');
  words = g_strsplit (low, " ", -1);
  for (i = 0; words[i]; i++) {
    if (*words[i] == '\0' || g_strv_contains (gp_peaks_noise, words[i]))
      continue;
    if (out->len)
      g_string_append_c (out, ' ');
    g_string_append (out, words[i]);
  }
  g_strfreev (words);
  g_free (low);
  return g_string_free (out, FALSE);
}

/* @name as an error quotes it: escaped (one line of printable ASCII
 * whatever a tool printed), at most 60 bytes. */
static gchar *
gp_peaks_quote (const gchar * name)
{
  gchar *esc = g_strescape (name ? name : "", NULL);

  if (strlen (esc) > 60)
    strcpy (esc + 57, "...");
  return esc;
}

/* Whether @name names @row: exactly (1 + its length, to prefer the
 * longest), as a prefix followed by a word that is no variant (its
 * length), or not at all (0). */
static gsize
gp_peaks_match (const GpPeaksRow * row, const gchar * norm)
{
  gchar *own = gp_peaks_normalise (row->name);
  gsize best = 0;
  guint i;

  for (i = 0; i <= G_N_ELEMENTS (row->names); i++) {
    const gchar *n = i == 0 ? own : row->names[i - 1];
    gsize len;

    if (n == NULL)
      break;
    len = strlen (n);
    if (strcmp (n, norm) == 0) {
      best = MAX (best, len + 1);
    } else if (g_str_has_prefix (norm, n) && norm[len] == ' ') {
      const gchar *next = norm + len + 1;
      gchar *word = g_strndup (next, strcspn (next, " "));

      if (!g_strv_contains (gp_peaks_variants, word))
        best = MAX (best, len);
      g_free (word);
    }
  }
  g_free (own);
  return best;
}

/* Among rows of one family, the one whose nominal memory is nearest
 * @memory_mib; NULL on a tie or without @memory_mib. */
static const GpPeaksRow *
gp_peaks_by_memory (GPtrArray * rows, gdouble memory_mib)
{
  const GpPeaksRow *best = NULL;
  gdouble best_d = INFINITY;
  gboolean tie = FALSE;
  guint i;

  if (!(memory_mib > 0))
    return NULL;
  for (i = 0; i < rows->len; i++) {
    const GpPeaksRow *r = g_ptr_array_index (rows, i);
    /* in log terms: 30697 MiB is a 32 GB board, 7.4 GiB an 8 GB one */
    gdouble d = fabs (log (memory_mib / 1024.0 / r->mem_gib));

    if (d < best_d - 1e-9) {
      best = r;
      best_d = d;
      tie = FALSE;
    } else if (fabs (d - best_d) <= 1e-9) {
      tie = TRUE;
    }
  }
  return tie ? NULL : best;
}

const GpPeaksRow *
gp_peaks_find (const gchar * name, gdouble memory_mib, GError ** error)
{
  gchar *norm = gp_peaks_normalise (name);
  GPtrArray *cands = g_ptr_array_new ();
  const GpPeaksRow *found = NULL;
  gsize best = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_peaks_table); i++) {
    gsize m = *norm ? gp_peaks_match (&gp_peaks_table[i], norm) : 0;

    if (m == 0 || m < best)
      continue;
    if (m > best)
      g_ptr_array_set_size (cands, 0);
    best = m;
    g_ptr_array_add (cands, (gpointer) & gp_peaks_table[i]);
  }
  if (cands->len == 1)
    found = g_ptr_array_index (cands, 0);
  else if (cands->len > 1)
    found = gp_peaks_by_memory (cands, memory_mib);

  if (found == NULL && cands->len == 0) {
    gchar *quoted = gp_peaks_quote (name);

    g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_UNKNOWN,
        "'%s' is no GPU of the peaks table (gstprof roofline --list shows "
        "them; --peak-ops and --peak-bw give the peaks)", quoted);
    g_free (quoted);
  } else if (found == NULL) {
    GString *list = g_string_new (NULL);

    for (i = 0; i < cands->len; i++)
      g_string_append_printf (list, "%s'%s'", i ? ", " : "",
          ((const GpPeaksRow *) g_ptr_array_index (cands, i))->name);
    gchar *quoted = gp_peaks_quote (name);

    g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_AMBIGUOUS,
        "'%s' is one of %s%s", quoted, list->str, memory_mib > 0 ?
        "" : ": name the variant, or give the memory size");
    g_string_free (list, TRUE);
    g_free (quoted);
  }
  g_ptr_array_unref (cands);
  g_free (norm);
  return found;
}

const GpPeaksRow *
gp_peaks_guess_jetson (guint n_cpus, gdouble ram_mib, GError ** error)
{
  /* Only CPU counts that one GPU has: 4 the Nano's, 12 AGX Orin's full
   * GPU (the 64GB module, and the first 32 GB developer kit), 14 Thor's.
   * Six or eight CPUs are several boards (TX2, Xavier NX, Orin Nano and
   * NX; AGX Xavier, Orin NX 16GB, AGX Orin 32GB), RAM does not part them. */
  static const struct
  {
    guint cpus;
    const gchar *row;
  } guesses[] = {
    {4, "Jetson Nano"}, {12, "Jetson AGX Orin 64GB"}, {14, "Jetson AGX Thor"},
  };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (guesses); i++) {
    if (guesses[i].cpus != n_cpus)
      continue;
    for (j = 0; j < G_N_ELEMENTS (gp_peaks_table); j++)
      if (strcmp (gp_peaks_table[j].name, guesses[i].row) == 0)
        return &gp_peaks_table[j];
  }
  g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_AMBIGUOUS,
      "a Jetson with %u CPUs and %.0f MB of RAM could be several boards: "
      "name it with --target", n_cpus, ram_mib);
  return NULL;
}

static void
gp_peaks_fill (GpPeaks * p, guint major, guint minor, gboolean geforce,
    guint sms, gdouble sm_mhz, gdouble tensor_mhz, gdouble mem_mhz,
    guint bus_bits)
{
  GpPeaksOps ops = { NAN, NAN, NAN, NULL };

  p->fp32 = p->fp16 = p->int8 = NAN;
  if (sms > 0 && sm_mhz > 0
      && gp_peaks_ops_per_clock (major, minor, geforce, &ops)) {
    p->fp32 = sms * sm_mhz * 1e6 * ops.fp32;
    p->fp16 = sms * tensor_mhz * 1e6 * ops.fp16;
    p->int8 = sms * tensor_mhz * 1e6 * ops.int8;
  }
  p->sm_mhz = sm_mhz > 0 ? sm_mhz : NAN;
  p->tensor_mhz = tensor_mhz > 0 ? tensor_mhz : NAN;
  p->mem_mhz = mem_mhz > 0 ? mem_mhz : NAN;
  p->bw = gp_peaks_bandwidth (mem_mhz, bus_bits);
  p->how = g_strdup_printf ("%u SMs x %.0f MHz (cc %u.%u, %s), memory "
      "2 x %.0f MHz x %u bit", sms, sm_mhz, major, minor,
      ops.arch ? ops.arch : "unknown architecture", mem_mhz, bus_bits);
}

GpPeaks *
gp_peaks_for_row (const GpPeaksRow * row, gdouble max_sm_mhz,
    gdouble max_mem_mhz)
{
  GpPeaks *p = g_new0 (GpPeaks, 1);
  gdouble sm = row->boost_mhz;
  gdouble tensor = row->tensor_mhz > 0 ? row->tensor_mhz : row->boost_mhz;
  gdouble mem = row->mem_mhz;

  if (max_sm_mhz > 0) {
    sm = MIN (sm, max_sm_mhz);
    tensor = MIN (tensor, max_sm_mhz);
  }
  if (max_mem_mhz > 0)
    mem = max_mem_mhz;
  p->row = row;
  p->target = g_strdup (row->name);
  gp_peaks_fill (p, row->cc_major, row->cc_minor, row->geforce, row->sms,
      sm, tensor, mem, row->bus_bits);
  return p;
}

GpPeaks *
gp_peaks_from_nvsmi (const gchar * name, const gchar * compute_cap,
    gdouble max_sm_mhz, gdouble max_mem_mhz, gdouble memory_mib, guint sms,
    guint bus_bits, GError ** error)
{
  const GpPeaksRow *row = NULL;
  GError *find_err = NULL;
  guint major = 0, minor = 0;
  GpPeaks *p;

  if (name != NULL)
    row = gp_peaks_find (name, memory_mib, &find_err);
  if (row != NULL) {
    g_clear_error (&find_err);
    return gp_peaks_for_row (row, max_sm_mhz, max_mem_mhz);
  }
  if (compute_cap != NULL) {
    gchar *end = NULL;

    major = (guint) g_ascii_strtoull (compute_cap, &end, 10);
    if (end && *end == '.')
      minor = (guint) g_ascii_strtoull (end + 1, NULL, 10);
  }
  p = g_new0 (GpPeaks, 1);
  p->target = g_strdup (name ? name : "this GPU");
  gp_peaks_fill (p, major, minor, name && strstr (name, "GeForce"), sms,
      max_sm_mhz, max_sm_mhz, max_mem_mhz, bus_bits);
  if (isnan (p->fp32) && isnan (p->bw)) {
    g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING,
        "%s; nvidia-smi prints neither the SM count nor the memory bus "
        "width: give --peak-ops and --peak-bw (or --sms and --bus-bits with "
        "compute_cap, clocks.max.sm and clocks.max.memory)",
        find_err ? find_err->message : "no GPU name");
    g_clear_error (&find_err);
    gp_peaks_free (p);
    return NULL;
  }
  g_clear_error (&find_err);
  return p;
}

void
gp_peaks_override (GpPeaks * p, gdouble ops_per_s, gdouble bytes_per_s)
{
  gchar *how;

  if (ops_per_s > 0)
    p->fp32 = p->fp16 = p->int8 = ops_per_s;
  if (bytes_per_s > 0)
    p->bw = bytes_per_s;
  if (ops_per_s > 0 || bytes_per_s > 0) {
    how = g_strdup_printf ("%s%s%s", ops_per_s > 0 ? "compute given" : "",
        ops_per_s > 0 && bytes_per_s > 0 ? ", " : "",
        bytes_per_s > 0 ? "bandwidth given" : "");
    if (p->how && *p->how) {
      gchar *both = g_strdup_printf ("%s; %s", how, p->how);

      g_free (how);
      how = both;
    }
    g_free (p->how);
    p->how = how;
  }
}

gdouble
gp_peaks_ops (const GpPeaks * p, const gchar * precision)
{
  if (g_ascii_strcasecmp (precision, "int8") == 0)
    return p->int8;
  if (g_ascii_strcasecmp (precision, "fp16") == 0)
    return p->fp16;
  if (g_ascii_strcasecmp (precision, "fp32") == 0)
    return p->fp32;
  return NAN;
}

void
gp_peaks_free (GpPeaks * p)
{
  if (p == NULL)
    return;
  g_free (p->target);
  g_free (p->how);
  g_free (p);
}

gdouble
gp_peaks_datasheet (const gchar * figure, gdouble * half_unit)
{
  const gchar *dot, *end;
  gchar *stop = NULL;
  gdouble v, half, scale = 1.0;
  guint decimals = 0;

  if (figure == NULL) {
    if (half_unit)
      *half_unit = NAN;
    return NAN;
  }
  v = g_ascii_strtod (figure, &stop);
  end = stop;
  dot = memchr (figure, '.', end - figure);
  if (dot)
    decimals = end - dot - 1;
  half = 0.5 * pow (10.0, -(gdouble) decimals);
  if (strstr (end, "fp4 sparse"))
    scale = 4.0;                /* FP4 twice INT8's rate, sparse twice dense */
  else if (strstr (end, "sparse"))
    scale = 2.0;
  if (half_unit)
    *half_unit = half / scale;
  return v / scale;
}

gboolean
gp_peaks_check (gdouble derived, const gchar * figure)
{
  gdouble half, ds = gp_peaks_datasheet (figure, &half);

  if (isnan (ds) || isnan (derived))
    return FALSE;
  return fabs (derived - ds) <= MAX (GP_PEAKS_TOLERANCE * ds, half);
}
