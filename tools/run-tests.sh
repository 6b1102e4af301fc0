#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs meson's test suite and ends with one line: "N passed, N failed".
# Every test program speaks TAP, so each GLib test case counts on its own;
# a program that dies before finishing its plan counts its missing cases
# (or itself) as failed.
#
# Test programs run side by side, two for each core idle when the suite
# starts (measured over a second from /proc/stat), at least one: most of
# them wait on live pipelines playing at real time (the suite burns about
# a quarter of one core over its length), so a 2-core machine runs four at
# once. On a machine already busy (other jobs, a build) fewer run at once,
# down to one at a time. The programs whose truth is the machine's own
# speed (density, the memory-bandwidth probe, the gate's noise) or whose
# timeouts are the subject (faults, serve) are is_parallel : false in
# meson and run alone. GP_TEST_JOBS=N runs N at once.
BUILD=${1:-build}
shift 2>/dev/null
idle_jobs() {
  python3 -c '
import os, time
def idle():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return v[3] + v[4], sum(v)
try:
    cores = len(os.sched_getaffinity(0))
    try:
        quota, period = open("/sys/fs/cgroup/cpu.max").read().split()
        if quota != "max":
            cores = min(cores, max(1, int(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    i0, t0 = idle(); time.sleep(1); i1, t1 = idle()
    print(max(1, int(2 * cores * (i1 - i0) / max(t1 - t0, 1) + 0.25)))
except (OSError, ValueError, IndexError):
    print(1)'
}
#
# Every process the suite starts carries GP_TEST_RUN=<id> in its
# environment. One still running after the suite is a test that did not end
# what it started, also when it failed (a pipeline left playing loads the
# machine under every timing that follows, here and in make test-asan after
# it): it is listed, killed, and counts as a failure.
jobs=${GP_TEST_JOBS:-$(idle_jobs)}
GP_TEST_RUN="test-$$-$(date +%s)"
export GP_TEST_RUN
echo "running the tests, $jobs at a time"
meson test -C "$BUILD" --print-errorlogs --num-processes "$jobs" "$@" >"$BUILD/test-output.txt" 2>&1
grep -E '^ *[0-9]+/[0-9]+ ' "$BUILD/test-output.txt" | awk '!seen[$0]++'
left=0
for env in /proc/[0-9]*/environ; do
  pid=${env#/proc/}; pid=${pid%/environ}
  [ "$pid" = "$$" ] && continue
  if tr '\0' '\n' 2>/dev/null <"$env" | grep -qx "GP_TEST_RUN=$GP_TEST_RUN"; then
    echo "FAILED: a process the tests left running: $pid $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null | cut -c1-160)"
    kill -KILL "$pid" 2>/dev/null || true
    left=$((left + 1))
  fi
done
GP_TESTS_LEFT=$left python3 - "$BUILD/meson-logs/testlog.json" <<'PY'
import json, os, re, sys
passed = failed = skipped = 0
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError as e:
    print(f"no test log: {e}", file=sys.stderr)
    lines = []
for line in lines:
    t = json.loads(line)
    out = t.get("stdout") or ""
    plan, ok, bad, skip = None, 0, 0, 0
    for l in out.splitlines():
        m = re.match(r"^1\.\.(\d+)", l)
        if m:
            plan = int(m.group(1))
        elif re.match(r"^ok \d+", l):
            if "# SKIP" in l:
                skip += 1
            else:
                ok += 1
        elif re.match(r"^not ok \d+", l):
            bad += 1
            print(f"FAILED: {t.get('name')}: {l}")
    seen = ok + bad + skip
    if plan is not None and seen < plan:
        bad += plan - seen
        print(f"FAILED: {t.get('name')}: {plan - seen} case(s) never reported ({t.get('result')})")
    if t.get("result") not in ("OK", "EXPECTEDFAIL", "SKIP") and bad == 0:
        bad += 1
        print(f"FAILED: {t.get('name')} ({t.get('result')})")
    if seen == 0 and t.get("result") == "OK":
        ok += 1
    if bad:
        # why it failed, here too: a clean machine's log may be all there is
        last = [l for l in out.splitlines() if l.startswith(("ok ", "not ok "))][-1:]
        why = [l for l in ((t.get("stderr") or "") + "\n" + out).splitlines()
               if "Bail out" in l or "ERROR:" in l or "CRITICAL" in l][:5]
        for l in last + why:
            print(f"  {t.get('name')}: {l[:300]}")
    passed += ok; failed += bad; skipped += skip
failed += int(os.environ.get("GP_TESTS_LEFT", "0"))
if failed:
    print(f"see {sys.argv[1].rsplit('/',1)[0]}/testlog.txt for the logs")
tail = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{tail}")
sys.exit(1 if failed or not passed else 0)
PY
