# gstprof front door. `make run` profiles the built-in demo pipeline;
# `make test` runs the whole test suite. Both install what is missing first.

BUILD   ?= build
GSTPROF := $(BUILD)/src/cli/gstprof
# A software encode pipeline with a real bottleneck: a live 1080p30 source,
# a high-quality software downscale and x264enc, all on the source's one
# streaming thread, which cannot keep up with 30 frames per second.
DEMO    ?= videotestsrc is-live=true pattern=ball ! video/x-raw,width=1920,height=1080,framerate=30/1 ! videoconvert ! videoscale method=lanczos ! video/x-raw,width=1280,height=720 ! x264enc speed-preset=veryfast tune=zerolatency ! h264parse ! fakesink sync=false
DEMO_DURATION ?= 8s
FUZZ_SECONDS ?= 120

.PHONY: all deps build run test test-tsan bench bench-readers bench-serve fuzz install clean

all: build

deps:
	@sh tools/install-deps.sh

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD) $(if $(CI),-Dwerror=true)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

run: build
	$(GSTPROF) run --duration $(DEMO_DURATION) --out demo-session "$(DEMO)"; \
	  rc=$$?; [ $$rc -le 1 ] || exit $$rc

test: build
	@sh tools/run-tests.sh $(BUILD)

# The tracer and the capture under ThreadSanitizer on the threaded tests,
# in build-tsan/ (tools/run-tsan.sh): no race reported in gstprof's code.
test-tsan: deps
	@sh tools/run-tsan.sh

fuzz: build
	@sh tests/fuzz/run-fuzz.sh $(FUZZ_SECONDS)

bench: build
	@sh bench/run-bench.sh $(BUILD)

# Every file reader at 1x, 10x and 100x its usual input: wall, peak memory,
# linear or not (bench/README.md); not part of test.
bench-readers: build
	@sh bench/readers-bench.sh $(BUILD)

# What the live panel's server costs a capture: 10 clients and a scrape a
# second against no server (bench/README.md); not part of test.
bench-serve: build
	@python3 bench/serve-cost.py $(BUILD)

# Bench pairs that verify rules (bench/pairs/RESULTS.md); not part of test.
# PAIRS="QUEUE SYNC" runs only those, PAIRS_RUNS=N sets the runs per side.
.PHONY: pairs
pairs: build
	@BUILD=$(BUILD) sh bench/pairs/run-pairs.sh $(PAIRS)

# The whole suite under ASan + UBSan with LeakSanitizer, in build-asan
# (tools/run-asan.sh: preloads, registry, suppressions); not part of test.
.PHONY: test-asan
test-asan: deps
	@sh tools/run-asan.sh build-asan

# gstprof gate held against its own baseline 20 times on real runs
# (tests/cli/test-gate.c with GP_GATE_SELF_RUNS=20: about 3 minutes);
# make test asks 3. Not part of test.
.PHONY: gate-noise
gate-noise: build
	@cd $(BUILD) && GP_GATE_SELF_RUNS=20 meson test --timeout-multiplier 4 \
	  --print-errorlogs cli-gate

# An hour of 30 fps frames through the tracer, sped up (tools/soak.sh):
# memory flat, the last window like the first; not part of test.
.PHONY: soak
soak: build
	@sh tools/soak.sh $(BUILD)

# The binary on PATH and the tracer where GStreamer finds it by itself
# (tools/install.sh: system folders as root, ~/.local otherwise; PREFIX,
# PLUGINDIR and DESTDIR as usual).
install: build
	@sh tools/install.sh $(BUILD)

clean:
	rm -rf $(BUILD)
