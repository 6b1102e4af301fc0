#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# gstprof
#
# readers-bench.sh: every reader of a file given inputs 1x, 10x and 100x
# their usual size (bench/gp-readers-gen.py), its wall time and peak
# memory (/usr/bin/time: the kernel's maxrss), and whether time grows
# linearly: each run against the one before it, where that one took 0.2 s
# or more (below, start up is most of it); more than twice the input's
# factor (x20 for 10x) is SLOW, room for a shared machine's noise. `sh bench/readers-bench.sh [BUILD]`, or `make bench-readers`.
#
# A measurement, not a test: it prints a table and LINEAR or SLOW per
# reader, and exits 0 unless it could not run at all (exit 3: no build,
# no /usr/bin/time, no python3). Results: BUILD/bench/readers-bench.txt.
#
# READERS_BENCH_ONLY=analyze,plot  runs only those readers;
# READERS_BENCH_SCALES="1 10"      other scales;
# READERS_BENCH_TIMEOUT=300        seconds one run may take (a run past it
#                                  is SLOW);
# READERS_BENCH_GSTPROF=PATH       another gstprof binary (an older build,
#                                  for figures before a change).
set -u

BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
GEN="$HERE/gp-readers-gen.py"
GSTPROF=${READERS_BENCH_GSTPROF:-"$BUILD/src/cli/gstprof"}
SCALES=${READERS_BENCH_SCALES:-"1 10 100"}
TIMEOUT=${READERS_BENCH_TIMEOUT:-300}
ONLY=${READERS_BENCH_ONLY:-}

fail () {
  echo "readers-bench: $*" >&2
  exit 3
}

[ -x "$GSTPROF" ] || fail "$GSTPROF: no gstprof built (make build)"
[ -x /usr/bin/time ] || fail "/usr/bin/time: not installed (GNU time)"
command -v python3 >/dev/null || fail "python3: not installed"
case "$TIMEOUT" in
  ''|*[!0-9]*) fail "READERS_BENCH_TIMEOUT '$TIMEOUT': not a number" ;;
esac
GSTPROF=$(cd "$(dirname "$GSTPROF")" && pwd)/$(basename "$GSTPROF")
mkdir -p "$BUILD/bench" || fail "$BUILD/bench: cannot make it"
RESULTS=$(cd "$BUILD/bench" && pwd)/readers-bench.txt
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gp-readers-bench-XXXXXX") ||
  fail "cannot make a temporary folder"
trap 'rm -rf "$WORK"' EXIT INT TERM

# reader | input kind | file suffix | the command, INPUT for the input
READERS='analyze|session|json|analyze INPUT
compare|session|json|compare INPUT INPUT
export|session|json|export --csv OUTDIR INPUT
plot-title|plot|json|plot INPUT -o OUTDIR/p.png
plot-tegrastats|tegrastats|log|plot INPUT -o OUTDIR/p.png
plot-nvsmi|nvsmi|log|plot INPUT -o OUTDIR/p.png
roofline-from|tegrastats|log|roofline --from INPUT
ds-hw-from|tegrastats|log|ds hw --from INPUT
ds-perf|perf|log|ds perf INPUT
ds-preset|preset|txt|ds preset INPUT
ds-preset-set|preset-set|txt|ds preset INPUT
ds-coverage|coverage|txt|ds coverage INPUT'

wanted () {
  [ -z "$ONLY" ] && return 0
  case ",$ONLY," in *",$1,"*) return 0 ;; esac
  return 1
}

{
  printf '%-16s %6s %10s %9s %10s %7s  %s\n' reader scale bytes wall_s \
    peak_MiB ratio verdict
  echo "$READERS" | while IFS='|' read -r name kind ext cmd; do
    wanted "$name" || continue
    prev=""
    verdict=LINEAR
    for scale in $SCALES; do
      input="$WORK/$kind-$scale.$ext"
      [ -f "$input" ] || python3 "$GEN" "$kind" "$scale" "$input" ||
        fail "$GEN $kind $scale: failed"
      out="$WORK/out-$name-$scale"
      mkdir -p "$out"
      args=$(echo "$cmd" | sed "s|INPUT|$input|g; s|OUTDIR|$out|g")
      # shellcheck disable=SC2086
      /usr/bin/time -f '%e %M' -o "$WORK/time" timeout "$TIMEOUT" \
        "$GSTPROF" $args >"$out/stdout" 2>"$out/stderr"
      code=$?
      # its last line: GNU time writes "Command exited with non-zero
      # status N" before it when the command failed
      tail -n 1 "$WORK/time" >"$WORK/time.last"
      read -r wall rss <"$WORK/time.last" || { wall=0; rss=0; }
      bytes=$(wc -c <"$input")
      ratio=-
      if [ "$code" -eq 124 ]; then
        verdict="SLOW (past ${TIMEOUT}s)"
      elif [ "$code" -ne 0 ]; then
        verdict="FAILED (exit $code: $(head -c 120 "$out/stderr"))"
      fi
      if [ -n "$prev" ]; then
        ratio=$(awk -v a="$wall" -v b="$prev" \
          'BEGIN { printf "%.1f", a / (b > 0.01 ? b : 0.01) }')
        # judged where the smaller run is past start up (0.2 s): the time
        # grown more than twice the input's factor is not linear
        factor=$(awk -v a="$scale" -v b="$prev_scale" 'BEGIN { print a / b }')
        if [ "$verdict" = LINEAR ] && awk -v r="$ratio" -v f="$factor" \
          -v p="$prev" 'BEGIN { exit !(p >= 0.2 && r > 2 * f) }'; then
          verdict="SLOW (x$ratio for ${factor}x the input)"
        fi
      fi
      printf '%-16s %5sx %10s %9s %10s %7s  %s\n' "$name" "$scale" "$bytes" \
        "$wall" "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" \
        "$ratio" "$([ "$scale" = "$(echo "$SCALES" | awk '{ print $NF }')" ] &&
          echo "$verdict")"
      prev=$wall
      prev_scale=$scale
    done
  done
} | tee "$RESULTS"
echo "results: $RESULTS"
