# flashstudy: the FlashAttention-2 forward pass, one CUDA variant per step of
# a published optimisation log, validated, timed and profiled by one C harness.
#
#   make run         the whole study on the first NVIDIA GPU: results/<run-id>/,
#                    reports/<run-id>.md, plots/<run-id>/
#   make test        any machine: install missing Debian packages, build every
#                    variant, host tests, render the checked-in reference run;
#                    GPU tests too where a GPU is present
#   make test-gpu    validate every variant over the shape matrix (needs a GPU)
#   make sanitize    compute-sanitizer over every variant (needs a GPU)
#   make report      report of the latest run;   make plots   its charts
#   make sass V=NN   one variant's machine code (needs cuobjdump)
#   (make and make run also dump every variant's machine code once per build,
#   build/variants/NN_slug.sass, when cuobjdump is on PATH: each run's
#   sass.txt is cut from them)
#   make readme      README.md's tables from the registry and REFERENCE_RUN
#   make fuzz        libFuzzer on the CSV reader (clang), FUZZ_SECONDS=120
#
# Variables: ARCHS="80 86 89 90" (compute capabilities to build for),
# NVCC, CC, RUN_ARGS (extra options for `flashstudy run`).

SHELL := /bin/bash
NVCC ?= nvcc
CC := gcc
ARCHS ?= 80 86 89 90
BUILD ?= build
RUN_ARGS ?=
# The checked-in run whose steps README.md shows (make readme; the test of the
# README's tables).
REFERENCE_RUN := results/20261129-1030-h200

CUDA_HOME ?= $(realpath $(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null)))/..)
CUPTI_HOME := $(firstword $(foreach d,$(CUDA_HOME) $(CUDA_HOME)/extras/CUPTI,$(if $(wildcard $(d)/include/cupti.h),$(d))))
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUPTI_LIBDIR := $(firstword $(wildcard $(CUPTI_HOME)/lib64/libcupti.so $(CUDA_LIBDIR)/libcupti.so))
CUPTI_LIBDIR := $(dir $(CUPTI_LIBDIR))

GENCODE := $(foreach a,$(ARCHS),-gencode=arch=compute_$(a),code=sm_$(a))
INCLUDES := -I. -Ivariants -Iharness -Imetrics -Ireports -I$(CUDA_HOME)/include -I$(CUPTI_HOME)/include
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L -MMD -MP $(INCLUDES)
# -ftz=true flushes fp32 denormals as Triton's kernels do, so that exp2f is
# one MUFU.EX2 instruction (step 07 depends on it).
NVCCFLAGS := -O3 -std=c++17 -ftz=true -lineinfo $(GENCODE) -Xptxas -v -Ivariants -Iharness -MMD -MP
LDLIBS := -L$(CUDA_LIBDIR) -L$(CUPTI_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -Wl,-rpath,$(CUPTI_LIBDIR) \
          -lcupti -lcudart -lstdc++ -ldl -lm -lpthread

VARIANT_SRC := $(sort $(wildcard variants/[0-9][0-9]_*.cu))
HOST_C := $(wildcard harness/*.c metrics/*.c reports/*.c) variants/registry.c
HOST_CU := $(wildcard harness/*.cu)
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out harness/main.c,$(HOST_C))) \
           $(patsubst %.cu,$(BUILD)/%.o,$(HOST_CU) $(VARIANT_SRC))
# One dump per variant object, made with it: a run copies what it needs from
# these instead of running cuobjdump over the whole binary (about 10 s).
CUOBJDUMP := $(shell command -v cuobjdump 2>/dev/null)
SASS := $(if $(CUOBJDUMP),$(patsubst variants/%.cu,$(BUILD)/variants/%.sass,$(VARIANT_SRC)))
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
GPU_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/gpu_*.c))
FS := $(BUILD)/flashstudy

.PHONY: all deps run test test-host test-gpu test-reference report plots readme sanitize sass crosscheck fuzz clean
all: $(FS) $(SASS)

comma := ,
space := $(subst ,, )
# What the build found, once (not again in recursive makes).
ifeq ($(MAKELEVEL),0)
$(info flashstudy: nvcc $(if $(CUDA_HOME),$(shell $(NVCC) --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(CUDA_HOME),NOT FOUND (put the CUDA toolkit's bin on PATH)))
$(info flashstudy: CUPTI $(if $(CUPTI_HOME),$(CUPTI_HOME),NOT FOUND)$(comma) NVTX $(if $(wildcard $(CUDA_HOME)/include/nvtx3/nvToolsExt.h),found,NOT FOUND)$(comma) gnuplot $(if $(shell command -v gnuplot),found,not found: charts will be written as scripts only)$(comma) cuobjdump $(if $(CUOBJDUMP),found,not found: no machine code per variant$(comma) runs write no sass.txt)$(comma) building for sm_$(subst $(space),$(comma) sm_,$(strip $(ARCHS))))
endif

$(FS): $(BUILD)/harness/main.o $(LIB_OBJ)
	$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# cupti_profiler_host.h includes <string>, a C++ header, although its API is
# C. An empty `string` in metrics/compat, searched first for this one file,
# lets gcc compile it as C.
$(BUILD)/metrics/cupti.o: CFLAGS += -Imetrics/compat

# Registers, shared memory and spills of every kernel, one line each.
$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	@$(NVCC) $(NVCCFLAGS) -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; exit 1; }
	@awk -f scripts/ptxas_summary.awk $@.ptxas | c++filt -p | sed 's|^|$<: |'

$(BUILD)/variants/%.sass: $(BUILD)/variants/%.o
	cuobjdump --dump-sass $< > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS) -lcmocka

# GPU tests print their own closing line and need no cmocka on the GPU machine.
$(BUILD)/tests/gpu_%: tests/gpu_%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# Installs what the tests need when it is missing and we may (root, apt).
deps:
	@bash scripts/deps.sh

run: $(FS) $(SASS)
	$(FS) run $(RUN_ARGS)
	$(FS) report
	$(MAKE) --no-print-directory plots

report: $(FS)
	$(FS) report $(RUN)

plots: $(FS)
	$(FS) plots $(RUN)

readme: $(FS)
	bash scripts/readme_tables.sh $(FS) $(or $(RUN),$(REFERENCE_RUN))

$(BUILD)/tests/test_readme: CFLAGS += -DREFERENCE_RUN='"$(REFERENCE_RUN)"'

test: deps
	$(MAKE) --no-print-directory $(FS) $(TESTS) $(GPU_TESTS)
	@bash scripts/run_tests.sh $(TESTS)
	@if nvidia-smi -L >/dev/null 2>&1; then $(MAKE) --no-print-directory test-gpu; \
	 else echo "skipped: no GPU (make test-gpu validates every variant where an NVIDIA GPU is present)"; fi

test-gpu: $(FS) $(GPU_TESTS)
	@bash scripts/run_tests.sh $(GPU_TESTS)

sanitize: $(FS)
	bash scripts/sanitize.sh $(FS)

sass: $(FS)
	@test -n "$(V)" || { echo "usage: make sass V=NN" >&2; exit 2; }
	cuobjdump --dump-sass $(wildcard $(BUILD)/variants/$(V)_*.o) | c++filt

crosscheck: $(FS)
	bash scripts/ncu_crosscheck.sh --configs scripts/ncu_crosscheck.configs $(FS)

fuzz:
	BUILD=$(BUILD) bash scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
