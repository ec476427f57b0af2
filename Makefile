# flashstudy: the FlashAttention-2 forward pass, one CUDA variant per step of
# a published optimisation log, validated, timed and profiled by one C harness.
#
#   make run         the whole study on the first NVIDIA GPU: results/<run-id>/,
#                    reports/<run-id>.md, plots/<run-id>/
#   make test        any machine: install missing Debian packages, build every
#                    variant (for one architecture, in parallel), host tests,
#                    render the checked-in reference runs; GPU tests too where
#                    a GPU is present
#   make install     PREFIX/bin/flashstudy and its data in PREFIX/share/flashstudy/
#                    (PREFIX=/usr/local); it then runs from any working folder
#   make test-gpu    validate every variant over the shape matrix (needs a GPU)
#   make sanitize    compute-sanitizer over every variant (needs a GPU)
#   make report      report of the latest run;   make plots   its charts
#   make sass V=NN   one variant's machine code (needs cuobjdump)
#   make step N=04   the step from 03 to 04 as a diff, header and kernel names aside
#   (make and make run also dump every variant's machine code once per build,
#   build/variants/NN_slug.sass, when cuobjdump is on PATH: each run's
#   sass.txt is cut from them)
#   make readme      README.md's tables from the registry and REFERENCE_RUN
#   make fuzz        libFuzzer on the CSV reader (clang), FUZZ_SECONDS=120
#
# Variables: ARCHS="80 86 89 90" (compute capabilities to build for),
# CODE=sm (machine code; compute: PTX alone, finished by the driver), NVCC, CC, RUN_ARGS (extra options for `flashstudy run`), PREFIX, V=1 (show
# the commands and every kernel's registers, shared memory and spills; they
# are also in build/**/*.o.ptxas).

SHELL := /bin/bash
NVCC ?= nvcc
CC := gcc
ARCHS ?= 80 86 89 90
BUILD ?= build
RUN_ARGS ?=
PREFIX ?= /usr/local
# The checked-in run whose steps README.md shows (make readme; the test of the
# README's tables).
REFERENCE_RUN := results/20261201-141308-nvidia-h200

# make test builds for one architecture: ARCHS when given, else the GPU's
# here, else compute capability 9.0 (the H200's) as PTX alone. Every variant
# is still compiled (the kernels have no architecture-dependent code), at a
# quarter of the four architectures' time. Where no GPU could run it, the
# machine code is left out (CODE=compute): ptxas is a third of nvcc's time,
# and the PTX is the driver's to finish on whatever GPU loads it. The
# default build keeps machine code for the four, so that `make run` works on
# any supported GPU without waiting for the driver; $(BUILD)/archs rebuilds
# the CUDA objects when ARCHS or CODE changes between the two.
GPU_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
TEST_ARCHS = $(if $(filter-out default file,$(origin ARCHS)),$(ARCHS),$(or $(GPU_ARCH),90))
TEST_CODE = $(if $(filter-out default file,$(origin ARCHS))$(GPU_ARCH),sm,compute)
# sm: machine code (and its PTX is not kept); compute: PTX alone.
CODE ?= sm

CUDA_HOME ?= $(realpath $(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null)))/..)
CUPTI_HOME := $(firstword $(foreach d,$(CUDA_HOME) $(CUDA_HOME)/extras/CUPTI,$(if $(wildcard $(d)/include/cupti.h),$(d))))
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUPTI_LIBDIR := $(firstword $(wildcard $(CUPTI_HOME)/lib64/libcupti.so $(CUDA_LIBDIR)/libcupti.so))
CUPTI_LIBDIR := $(dir $(CUPTI_LIBDIR))

GENCODE := $(foreach a,$(ARCHS),-gencode=arch=compute_$(a),code=$(CODE)_$(a))
# The floors: each folder's include path lists itself and the floors below
# it, so that an include that runs upward does not build. core/ is the
# ground (the variant contract, the run folder's files); variants/ and
# metrics/ stand on it; harness/ (measuring) and reports/ (presenting) side
# by side above; cli/, the command, on top. Tests see every floor.
FLOOR_core := core
FLOOR_variants := core variants
FLOOR_metrics := core metrics
FLOOR_harness := core metrics harness
FLOOR_reports := core metrics reports
FLOOR_cli := core metrics harness reports cli
FLOOR_tests := core variants metrics harness reports cli tests
floor = $(addprefix -I,$(FLOOR_$(firstword $(subst /, ,$(patsubst $(BUILD)/%,%,$@)))))
CFLAGS = -std=c11 -O2 -g -Wall -Wextra -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L -MMD -MP $(floor) \
         -I$(CUDA_HOME)/include -I$(CUPTI_HOME)/include
# -ftz=true flushes fp32 denormals as Triton's kernels do, so that exp2f is
# one MUFU.EX2 instruction (step 07 depends on it).
NVCCFLAGS = -O3 -std=c++17 -ftz=true -lineinfo -Xptxas -v $(floor) -MMD -MP
LDLIBS := -L$(CUDA_LIBDIR) -L$(CUPTI_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -Wl,-rpath,$(CUPTI_LIBDIR) \
          -lcupti -lcudart -lstdc++ -ldl -lm -lpthread

VARIANT_SRC := $(sort $(wildcard variants/[0-9][0-9]_*.cu variants/peer_*.cu))
# A variant whose descriptor says .target = "sm_90a" (wgmma, setmaxnreg) is
# built for compute capability 9.0 alone; the descriptor is the one place
# that says so.
SM90A_SRC := $(shell grep -l '^ *\.target = "sm_90a"' $(VARIANT_SRC) /dev/null)
HOST_C := $(wildcard core/*.c harness/*.c metrics/*.c reports/*.c cli/*.c variants/peer_*.c) variants/registry.c
HOST_CU := $(wildcard harness/*.cu)
# CUDA objects first: the long nvcc jobs start at once and gcc's fill in.
LIB_OBJ := $(patsubst %.cu,$(BUILD)/%.o,$(HOST_CU) $(VARIANT_SRC)) \
           $(patsubst %.c,$(BUILD)/%.o,$(filter-out cli/main.c,$(HOST_C)))
# One dump per variant object, made with it: a run copies what it needs from
# these instead of running cuobjdump over the whole binary (about 10 s).
CUOBJDUMP := $(shell command -v cuobjdump 2>/dev/null)
SASS := $(if $(CUOBJDUMP),$(patsubst variants/%.cu,$(BUILD)/variants/%.sass,$(VARIANT_SRC)))
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
GPU_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/gpu_*.c))
FS := $(BUILD)/flashstudy

.PHONY: all deps run test test-build test-host test-gpu test-reference report plots readme sanitize sass step crosscheck fuzz install clean FORCE
all: $(FS) $(SASS)

# One short line a file; V=1 prints the commands.
ifeq ($(V),1)
quiet :=
else
quiet = @printf '  %-4s %s\n' $(1) $(2);
endif

comma := ,
space := $(subst ,, )
# What the build found, once (not again in recursive makes).
ifeq ($(MAKELEVEL),0)
$(info flashstudy: nvcc $(if $(CUDA_HOME),$(shell $(NVCC) --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(CUDA_HOME),NOT FOUND (put the CUDA toolkit's bin on PATH)))
$(info flashstudy: CUPTI $(if $(CUPTI_HOME),$(CUPTI_HOME),NOT FOUND)$(comma) NVTX $(if $(wildcard $(CUDA_HOME)/include/nvtx3/nvToolsExt.h),found,NOT FOUND)$(comma) gnuplot $(if $(shell command -v gnuplot),found,not found: charts will be written as scripts only)$(comma) cuobjdump $(if $(CUOBJDUMP),found,not found: no machine code per variant$(comma) runs write no sass.txt)$(comma) building for $(if $(filter test,$(MAKECMDGOALS)),$(TEST_CODE),$(CODE))_$(subst $(space),$(comma) $(if $(filter test,$(MAKECMDGOALS)),$(TEST_CODE),$(CODE))_,$(strip $(if $(filter test,$(MAKECMDGOALS)),$(TEST_ARCHS),$(ARCHS))))$(if $(filter compute,$(if $(filter test,$(MAKECMDGOALS)),$(TEST_CODE),$(CODE))), (PTX: no GPU here to run machine code)))
endif

$(FS): $(LIB_OBJ) $(BUILD)/cli/main.o
	$(call quiet,LD,$@)$(CC) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# cupti_profiler_host.h includes <string>, a C++ header, although its API is
# C. An empty `string` in metrics/compat, searched first by the files that
# include it (through cupti_check.h), lets gcc compile it as C.
$(BUILD)/metrics/cupti.o $(BUILD)/metrics/pc_sampling.o $(BUILD)/metrics/pm_sampling.o $(BUILD)/metrics/activity.o: CFLAGS += -Imetrics/compat

# The architectures the CUDA objects were built for, rewritten only when
# ARCHS changes, so that a change rebuilds them.
$(BUILD)/archs: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = '$(GENCODE)' ] || echo '$(GENCODE)' > $@

$(patsubst %.cu,$(BUILD)/%.o,$(SM90A_SRC)): GENCODE := -gencode=arch=compute_90a,code=$(CODE)_90a

# ptxas's report (registers, shared memory and spills of every kernel) is
# kept in NAME.o.ptxas and summed up one line a kernel with V=1; warnings are
# always shown.
$(BUILD)/%.o: %.cu $(BUILD)/archs
	@mkdir -p $(dir $@)
	$(call quiet,NVCC,$<)$(NVCC) $(NVCCFLAGS) $(GENCODE) -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; exit 1; }
	@grep -i warning $@.ptxas >&2 || true
ifeq ($(V),1)
	@awk -f scripts/ptxas_summary.awk $@.ptxas | c++filt -p | sed 's|^|$<: |'
endif

$(BUILD)/variants/%.sass: $(BUILD)/variants/%.o
	cuobjdump --dump-sass $< > $@.tmp && mv $@.tmp $@

# The host tests share tests/testkit.c (files, scratch folders, chart data),
# compiled once and kept (not an intermediate file make would delete).
.SECONDARY: $(BUILD)/tests/testkit.o
$(BUILD)/tests/%: tests/%.c $(BUILD)/tests/testkit.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS) -lcmocka

# GPU tests print their own closing line and need no cmocka on the GPU machine.
$(BUILD)/tests/gpu_%: tests/gpu_%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

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

$(BUILD)/tests/test_readme $(BUILD)/tests/test_report: CFLAGS += -DREFERENCE_RUN='"$(REFERENCE_RUN)"'
# Where flashstudy finds its data when it is not installed beside it
# (reports/shipped.c): this source tree, never the working folder.
$(BUILD)/reports/shipped.o: CFLAGS += -DFS_SOURCE_DIR='"$(CURDIR)"'
# Where the toolkit keeps its own cuDNN, if it has one.
$(BUILD)/tests/test_cudnn: CFLAGS += -DCUDA_LIBDIR='"$(CUDA_LIBDIR)"'

test-build: $(FS) $(TESTS) $(GPU_TESTS)
	@:

# One closing line for all: the GPU tests that could not run count as skipped.
test: deps
	+@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) ARCHS='$(TEST_ARCHS)' CODE=$(TEST_CODE) test-build
	+@if nvidia-smi -L >/dev/null 2>&1; then gpu='$(GPU_TESTS)' skip=0; else gpu= skip=$(words $(GPU_TESTS)); \
	   echo "skipped: no GPU (make test-gpu validates every variant where an NVIDIA GPU is present)"; fi; \
	 MAKE='$(MAKE)' BUILD='$(BUILD)' ARCHS='$(TEST_ARCHS)' CODE=$(TEST_CODE) REFERENCE_RUN='$(REFERENCE_RUN)' SKIPPED=$$skip \
	   bash scripts/run_tests.sh \
	   $(TESTS) tests/results_csv.py tests/install.sh $$gpu

test-gpu: $(FS) $(GPU_TESTS)
	@bash scripts/run_tests.sh $(GPU_TESTS)

sanitize: $(FS)
	bash scripts/sanitize.sh $(FS)

sass: $(FS)
	@test -n "$(V)" || { echo "usage: make sass V=NN" >&2; exit 2; }
	cuobjdump --dump-sass $(wildcard $(BUILD)/variants/$(V)_*.o) | c++filt

step:
	@bash scripts/step_diff.sh $(N)

crosscheck: $(FS)
	bash scripts/ncu_crosscheck.sh --configs scripts/ncu_crosscheck.configs $(FS)

fuzz:
	BUILD=$(BUILD) bash scripts/fuzz.sh $(FUZZ_SECONDS)

# The data files flashstudy finds beside its executable (reports/shipped.c,
# fsr_data): PREFIX/bin/flashstudy reads PREFIX/share/flashstudy/.
# The variants' sources too: the report marks the hot lines a step changed by
# a diff of two steps' files.
DATA := reports/seed_figures.csv reports/peers.csv $(wildcard plots/*.gp) \
        $(wildcard variants/[0-9][0-9]_*.cu variants/*.cuh)
install: $(FS)
	install -D -m 755 $(FS) '$(DESTDIR)$(PREFIX)/bin/flashstudy'
	@for f in $(DATA); do install -D -m 644 $$f '$(DESTDIR)$(PREFIX)/share/flashstudy/'$$f || exit 1; done
	@echo "flashstudy: installed $(DESTDIR)$(PREFIX)/bin/flashstudy and $(DESTDIR)$(PREFIX)/share/flashstudy/"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
