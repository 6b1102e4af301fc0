#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs meson's test suite and ends with one line: "N passed, N failed".
# Every test program speaks TAP, so each GLib test case counts on its own;
# a program that dies before finishing its plan counts its missing cases
# (or itself) as failed.
#
# One test program at a time: most of them hold a measurement to a planted
# truth (a sleep, a rate, GStreamer's latency tracer), and one beside them
# encoding with x264 on a shared 2-core machine made a sleep oversleep past
# its bound in one fresh run out of two. Serial, the suite takes about six
# minutes instead of four; GP_TEST_JOBS=N runs N at once.
BUILD=${1:-build}
shift 2>/dev/null
meson test -C "$BUILD" --print-errorlogs --num-processes "${GP_TEST_JOBS:-1}" "$@" >"$BUILD/test-output.txt" 2>&1
grep -E '^ *[0-9]+/[0-9]+ ' "$BUILD/test-output.txt" | awk '!seen[$0]++'
python3 - "$BUILD/meson-logs/testlog.json" <<'PY'
import json, re, sys
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
if failed:
    print(f"see {sys.argv[1].rsplit('/',1)[0]}/testlog.txt for the logs")
tail = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{tail}")
sys.exit(1 if failed or not passed else 0)
PY
