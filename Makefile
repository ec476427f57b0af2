# flashstudy: the FlashAttention-2 forward pass, one CUDA variant per step of
# a published optimisation log, validated, timed and profiled by one C harness.
#
#   make run         the whole study on the GPU here: results/<run-id>/, its
#                    report reports/<run-id>.md and its charts plots/<run-id>/
#   make test        any machine of ours: installs missing Debian packages,
#                    builds every variant, runs the host tests and renders the
#                    reference run; the GPU tests too where a GPU is present
#   make install     PREFIX/bin/flashstudy and its data in PREFIX/share/flashstudy/
#                    (PREFIX=/usr/local); it then runs from any working folder
#   make test-gpu    validate every variant over the shape matrix (needs a GPU)
#   make sanitize    compute-sanitizer over every variant (needs a GPU)
#   make report      the report of a run (RUN=..., default the reference run
#                    or the newest full one);  make plots  its charts
#   make sass V=NN   one variant's machine code (needs cuobjdump)
#   make step N=04   the step from 03 to 04 as a diff, header and kernel names aside
#   make phases V=51 where a block's first moments go in a step, timed from
#                    inside by clock reads (needs a GPU; scripts/phases.sh)
#   make readme      the tables of README.md and docs/ from the registry and
#                    REFERENCE_RUN, and its chart docs/waterfall.png
#   make fuzz        libFuzzer on the CSV reader (clang), FUZZ_SECONDS=120
#   make fa3-bench FA3_DIR=...  FlashAttention-3's own benchmark, on our inputs
#                    and layout, for scripts/fa3_match.sh (needs the checkout)
#   (make and make run also dump every variant's machine code once per build,
#   build/variants/NN_slug.sass, when cuobjdump is on PATH: each run's
#   sass.txt is cut from them)
#
# The build is for the GPU here: machine code for its compute capability,
# and PTX beside it, which the driver compiles for a GPU newer than any
# target. Without a GPU, PTX for 9.0 alone: nothing here could run machine
# code, and ptxas would be a third of the build's time. The goals that run
# no GPU code (report, plots, readme, and test where there is no GPU) and
# install take the build that is there as it is, so that `make test` and
# then `make report` rebuild nothing. Where there is none, those goals
# without a GPU compile the device code fast (CODE=check), to show that
# every variant builds, in half the time; install builds the measured one.
# Variables: ARCHS="80 86 89 90" or ARCHS=all (machine code for those compute
# capabilities), CODE=compute (PTX alone) or CODE=check (PTX compiled with
# nvcc -Ofc max, which flashstudy does not measure), NVCC, CC, RUN_ARGS (options for
# `flashstudy run`), RUN (the run of report, plots, readme), FA3_DIR (a
# flash-attention checkout: builds the fa3 peer from it), PREFIX, V=1
# (show the commands and every kernel's registers, shared memory and spills;
# they are also in build/**/*.o.ptxas).

SHELL := /bin/bash
comma := ,
space := $(subst ,, )
NVCC ?= nvcc
CC := gcc
BUILD ?= build
RUN_ARGS ?=
PREFIX ?= /usr/local
# The checked-in run whose steps README.md shows (make readme; the test of the
# README's tables).
REFERENCE_RUN := results/20261204-212553-nvidia-h200

# The GPU here, as its compute capability (9.0: 90); the steps need 8.0.
GPU_ARCH := $(shell a=$$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .); \
                    [ -n "$$a" ] && [ "$$a" -ge 80 ] 2>/dev/null && echo "$$a")
# The build that is there, as $(BUILD)/archs records it: "CODE ARCHS".
only = $(and $(MAKECMDGOALS),$(if $(filter-out $(1),$(MAKECMDGOALS)),,yes))
no_gpu_code := report plots readme $(if $(GPU_ARCH),,test test-build)
BUILT := $(if $(call only,$(no_gpu_code) install),$(shell cat $(BUILD)/archs 2>/dev/null))
ifneq ($(filter sm compute check,$(firstword $(BUILT))),)
CODE ?= $(firstword $(BUILT))
ARCHS ?= $(wordlist 2,$(words $(BUILT)),$(BUILT))
else ifneq ($(and $(call only,$(no_gpu_code)),$(if $(GPU_ARCH),,no_gpu)),)
CODE ?= check
endif
ARCHS ?= $(or $(GPU_ARCH),90)
override ARCHS := $(if $(filter all,$(ARCHS)),80 86 89 90,$(ARCHS))
# sm: machine code for each of ARCHS and the newest one's PTX; compute: PTX
# alone; check: PTX alone, compiled fast.
CODE ?= $(if $(GPU_ARCH),sm,compute)
$(if $(filter-out 1,$(words $(filter sm compute check,$(CODE)))),$(error CODE=$(CODE): sm (machine code and PTX), compute (PTX alone) or check (PTX compiled fast, not to be measured)))
NEWEST := $(lastword $(shell printf '%s\n' $(ARCHS) | sort -n))
GENCODE := $(if $(filter sm,$(CODE)),$(foreach a,$(ARCHS),-gencode=arch=compute_$(a),code=sm_$(a))) \
           -gencode=arch=compute_$(NEWEST),code=compute_$(NEWEST)
# A variant whose descriptor says .target = "sm_90a" (wgmma, setmaxnreg) runs
# on compute capability 9.0 alone: its machine code where 90 is built, and
# compute_90a's PTX, which no other GPU can JIT-compile.
GENCODE_90A := $(if $(and $(filter sm,$(CODE)),$(filter 90,$(ARCHS))),-gencode=arch=compute_90a$(comma)code=sm_90a) \
               -gencode=arch=compute_90a,code=compute_90a
# What the harness says of the build: which GPUs run machine code, which the
# driver's JIT (harness/validate.c).
BUILD_TARGETS := -DFS_BUILD_SASS='"$(if $(filter sm,$(CODE)),$(ARCHS))"' -DFS_BUILD_PTX=$(NEWEST) \
                 -DFS_BUILD_CHECK=$(if $(filter check,$(CODE)),1,0)

CUDA_HOME ?= $(realpath $(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null)))/..)
CUPTI_HOME := $(firstword $(foreach d,$(CUDA_HOME) $(CUDA_HOME)/extras/CUPTI,$(if $(wildcard $(d)/include/cupti.h),$(d))))
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
CUPTI_LIBDIR := $(firstword $(wildcard $(CUPTI_HOME)/lib64/libcupti.so $(CUDA_LIBDIR)/libcupti.so))
CUPTI_LIBDIR := $(dir $(CUPTI_LIBDIR))

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
NVCCFLAGS = -O3 -std=c++17 -ftz=true -lineinfo -Xptxas -v $(floor) -MMD -MP $(if $(filter check,$(CODE)),-Ofc=max)
LDLIBS := -L$(CUDA_LIBDIR) -L$(CUPTI_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -Wl,-rpath,$(CUPTI_LIBDIR) \
          -lcupti -lcudart -lstdc++ -ldl -lm -lpthread

VARIANT_SRC := $(sort $(wildcard variants/[0-9][0-9]_*.cu variants/peer_*.cu))
# The descriptor is the one place that says a variant is sm_90a.
SM90A_SRC := $(shell grep -l '^ *\.target = "sm_90a"' $(VARIANT_SRC) /dev/null)
# The code's floors (docs/architecture.md), in one list: make phases copies them.
ROOMS := core harness metrics reports cli variants
HOST_C := $(wildcard $(addsuffix /*.c,$(ROOMS)))
# CUDA code called from C: the harness's, and what variants share (variants/fp8_tensors.cu).
HOST_CU := $(wildcard harness/*.cu) $(filter-out $(VARIANT_SRC),$(wildcard variants/*.cu))
# CUDA objects first: the long nvcc jobs start at once and gcc's fill in.
LIB_OBJ := $(patsubst %.cu,$(BUILD)/%.o,$(HOST_CU) $(VARIANT_SRC)) \
           $(patsubst %.c,$(BUILD)/%.o,$(filter-out cli/main.c,$(HOST_C)))
# FlashAttention-3, the fa3 peer, when FA3_DIR names a flash-attention
# checkout (its hopper/ and csrc/cutlass/): the instantiation files of its
# plain forward pass, fp16 and bf16 at D = 64 and 128, whichever it has,
# compiled with the flags of its hopper/setup.py for that pass (-lineinfo
# added, for hot lines). Without FA3_DIR the fa3 row is skipped with what
# to do (variants/peer_fa3.c).
FA3_DIR ?=
ifneq ($(FA3_DIR),)
FA3_PAIRS := $(strip $(foreach t,fp16 bf16,$(foreach d,64 128,$(if $(wildcard $(FA3_DIR)/hopper/instantiations/flash_fwd_hdim$(d)_$(t)_sm90.cu),$(d)_$(t)))))
$(if $(FA3_PAIRS),,$(error FA3_DIR: $(FA3_DIR) is no flash-attention checkout: it has no hopper/instantiations/flash_fwd_hdim{64,128}_{fp16,bf16}_sm90.cu))
$(if $(wildcard $(FA3_DIR)/csrc/cutlass/include/cute),,$(error FA3_DIR: $(FA3_DIR) has no csrc/cutlass/include/cute: check out its cutlass submodule))
# The checkout's folder name, and its commit where it is a git work tree of
# its own (not a folder inside another one's).
FA3_SOURCE := $(notdir $(abspath $(FA3_DIR)))$(shell [ "$$(git -C '$(FA3_DIR)' rev-parse --show-toplevel 2>/dev/null)" = \
    "$$(cd '$(FA3_DIR)' 2>/dev/null && pwd -P)" ] && git -C '$(FA3_DIR)' rev-parse --short HEAD | sed 's/^/ at /')
FA3_FLAGS := -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O3 --expt-relaxed-constexpr --expt-extended-lambda \
             --use_fast_math -lineinfo -DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED -DCUTLASS_ENABLE_GDC_FOR_SM90 \
             -DCUTLASS_DEBUG_TRACE_LEVEL=0 -DNDEBUG -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ \
             -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ \
             $(addprefix -DFLASHATTENTION_DISABLE_,BACKWARD SPLIT PAGEDKV APPENDKV LOCAL SOFTCAP PACKGQA FP8 VARLEN \
                                                  HDIM96 HDIM192 HDIM256 SM8x HDIMDIFF64 HDIMDIFF192) \
             -I$(FA3_DIR)/hopper -I$(FA3_DIR)/csrc/cutlass/include $(patsubst %,-I%,$(wildcard $(CUDA_HOME)/include/cccl))
LIB_OBJ += $(FA3_PAIRS:%=$(BUILD)/fa3/flash_fwd_hdim%_sm90.o) $(BUILD)/variants/fa3/forward.o
endif
# One dump per variant object, made with it: a run copies what it needs from
# these instead of running cuobjdump over the whole binary (about 10 s).
CUOBJDUMP := $(shell command -v cuobjdump 2>/dev/null)
SASS := $(if $(CUOBJDUMP),$(patsubst variants/%.cu,$(BUILD)/variants/%.sass,$(VARIANT_SRC)))
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
GPU_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/gpu_*.c))
FS := $(BUILD)/flashstudy

.PHONY: all deps run test test-build test-gpu report plots readme sanitize sass step phases crosscheck fa3-bench fuzz install clean FORCE
all: $(FS) $(SASS)

# One short line a file; V=1 prints the commands.
ifeq ($(V),1)
quiet :=
else
quiet = @printf '  %-4s %s\n' $(1) $(2);
endif

# What the build found, once (not again in recursive makes).
ifeq ($(MAKELEVEL),0)
$(info flashstudy: nvcc $(if $(CUDA_HOME),$(shell $(NVCC) --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(CUDA_HOME),NOT FOUND (put the CUDA toolkit's bin on PATH)))
$(info flashstudy: CUPTI $(if $(CUPTI_HOME),$(CUPTI_HOME),NOT FOUND)$(comma) NVTX $(if $(wildcard $(CUDA_HOME)/include/nvtx3/nvToolsExt.h),found,NOT FOUND)$(comma) gnuplot $(if $(shell command -v gnuplot),found,not found: charts will be written as scripts only)$(comma) cuobjdump $(if $(CUOBJDUMP),found,not found: no machine code per variant$(comma) runs write no sass.txt))
$(info flashstudy: building for $(if $(GPU_ARCH),the GPU here$(comma) sm_$(GPU_ARCH),no GPU here): $(if $(filter sm,$(CODE)),machine code sm_$(subst $(space),$(comma) sm_,$(strip $(ARCHS))) and ,)PTX compute_$(NEWEST) (sm_90a steps: $(if $(findstring sm_90a,$(GENCODE_90A)),sm_90a and ,)compute_90a)$(if $(filter check,$(CODE)),$(comma) compiled fast to check that it builds (CODE=check: make builds the measured one)))
endif

# -rdynamic: a crash's call stack names our functions (core/crash.h).
$(FS): $(LIB_OBJ) $(BUILD)/cli/main.o $(BUILD)/fa3_dir
	$(call quiet,LD,$@)$(CC) -rdynamic -o $@ $(filter %.o,$^) $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) -c $< -o $@

# cupti_profiler_host.h includes <string>, a C++ header, although its API is
# C. An empty `string` in metrics/compat, searched first by the files that
# include it (through cupti_check.h), lets gcc compile it as C.
$(BUILD)/metrics/cupti.o $(BUILD)/metrics/pc_sampling.o $(BUILD)/metrics/pm_sampling.o $(BUILD)/metrics/activity.o: CFLAGS += -Imetrics/compat

# What the CUDA objects were built for, "CODE ARCHS", rewritten only when
# ARCHS or CODE changes, so that a change rebuilds them (and the harness's
# record of them).
$(BUILD)/archs: FORCE
	@mkdir -p $(dir $@)
	@[ -f $@ ] && [ "$$(cat $@)" = '$(CODE) $(ARCHS)' ] || echo '$(CODE) $(ARCHS)' > $@

$(patsubst %.cu,$(BUILD)/%.o,$(SM90A_SRC)): GENCODE = $(GENCODE_90A)
$(BUILD)/harness/validate.o: CFLAGS += $(BUILD_TARGETS)
$(BUILD)/harness/validate.o: $(BUILD)/archs

# ptxas's report (registers, shared memory and spills of every kernel) is
# kept in NAME.o.ptxas and summed up one line a kernel with V=1; warnings are
# always shown, and so are its "Potential Performance Loss" notes, which it
# files as info: wgmma serialized (C7514), a whole step's overlap lost.
$(BUILD)/%.o: %.cu $(BUILD)/archs
	@mkdir -p $(dir $@)
	$(call quiet,NVCC,$<)$(NVCC) $(NVCCFLAGS) $(GENCODE) -c $< -o $@ 2> $@.ptxas || { cat $@.ptxas; exit 1; }
	@grep -i -e warning -e 'performance loss' $@.ptxas >&2 || true
ifeq ($(V),1)
	@awk -f scripts/ptxas_summary.awk $@.ptxas | c++filt -p | sed 's|^|$<: |'
endif

ifneq ($(FA3_DIR),)
$(BUILD)/fa3/%.o: $(FA3_DIR)/hopper/instantiations/%.cu
	@mkdir -p $(dir $@)
	$(call quiet,NVCC,$<)$(NVCC) $(FA3_FLAGS) -c $< -o $@ 2> $@.log || { cat $@.log; exit 1; }
$(BUILD)/variants/fa3/forward.o: variants/fa3/forward.cu
	@mkdir -p $(dir $@)
	$(call quiet,NVCC,$<)$(NVCC) $(FA3_FLAGS) $(floor) -MMD -MP -DFS_FA3_SOURCE='"$(FA3_SOURCE)"' \
	    $(foreach p,$(FA3_PAIRS),-DFS_FA3_HDIM$(subst fp16,FP16,$(subst bf16,BF16,$(p)))=1) -c $< -o $@
# FlashAttention-3's own benchmark (the checkout's bench/bench.cu), taught
# flashstudy's inputs and layout (scripts/fa3_bench.patch: --normal, --bhnd)
# and linked with the fa3 peer's objects of the same kernels: what
# scripts/fa3_match.sh times the fa3 row against.
FA3_BENCH_OBJ := $(BUILD)/fa3/flash_fwd_hdim128_fp16_sm90.o $(BUILD)/fa3/flash_fwd_hdim64_fp16_sm90.o
$(BUILD)/fa3-bench/bench.cu: $(FA3_DIR)/bench/bench.cu scripts/fa3_bench.patch
	@mkdir -p $(dir $@)
	$(call quiet,PTCH,$<)patch -s -o $@.tmp $< < scripts/fa3_bench.patch && mv $@.tmp $@
$(BUILD)/fa3-bench/fa3_bench: $(BUILD)/fa3-bench/bench.cu $(FA3_BENCH_OBJ)
	$(call quiet,NVCC,$<)$(NVCC) $(FA3_FLAGS) -c $< -o $@.o && $(NVCC) -gencode=arch=compute_90a,code=sm_90a $@.o $(FA3_BENCH_OBJ) -o $@
endif
FA3_BENCH_SRC := $(if $(FA3_DIR),$(wildcard $(FA3_DIR)/bench/bench.cu $(FA3_DIR)/hopper/instantiations/flash_fwd_hdim*_fp16_sm90.cu))
fa3-bench: $(if $(filter 3,$(words $(FA3_BENCH_SRC))),$(BUILD)/fa3-bench/fa3_bench)
	@[ -n '$(FA3_DIR)' ] || { echo "make fa3-bench: name a flash-attention checkout with its bench/ (make FA3_DIR=...)" >&2; exit 1; }
	@[ $(words $(FA3_BENCH_SRC)) = 3 ] || { echo "make fa3-bench: $(FA3_DIR) lacks bench/bench.cu or the fp16 forward at D = 64 or 128" >&2; exit 1; }
# Which FlashAttention-3 the executable links, rewritten only when FA3_DIR
# changes, so that building with it or without relinks.
$(BUILD)/fa3_dir: FORCE
	@mkdir -p $(dir $@)
	@[ -f $@ ] && [ "$$(cat $@)" = '$(FA3_DIR)' ] || echo '$(FA3_DIR)' > $@

# The reference run that test_readme, test_report and test_cli compile in,
# rewritten only when it changes, so that a new one rebuilds them.
$(BUILD)/reference_run: FORCE
	@mkdir -p $(dir $@)
	@[ -f $@ ] && [ "$$(cat $@)" = '$(REFERENCE_RUN)' ] || echo '$(REFERENCE_RUN)' > $@

$(BUILD)/variants/%.sass: $(BUILD)/variants/%.o
	cuobjdump --dump-sass $< > $@.tmp && mv $@.tmp $@

# The host tests share tests/testkit.c (files, scratch folders, chart data),
# compiled once and kept (not an intermediate file make would delete).
.SECONDARY: $(BUILD)/tests/testkit.o
$(BUILD)/tests/%: tests/%.c $(BUILD)/tests/testkit.o $(LIB_OBJ) $(BUILD)/fa3_dir
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS) -lcmocka

# GPU tests print their own closing line and need no cmocka on the GPU machine.
$(BUILD)/tests/gpu_%: tests/gpu_%.c $(LIB_OBJ) $(BUILD)/fa3_dir
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# Installs what the tests need when it is missing and we may (root, apt).
deps:
	@bash scripts/deps.sh

# The build in parallel, then the study, and the report and charts of the
# run folder it names (even when a variant failed: the run says which, and
# its exit status is make's).
run:
	+@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) all
	@set -o pipefail; $(FS) run $(RUN_ARGS) | tee $(BUILD)/run.log; rc=$$?; \
	 dir=$$(sed -n 's/^run folder: //p' $(BUILD)/run.log); [ -n "$$dir" ] || exit $$rc; \
	 $(FS) report "$$dir" && $(FS) plots "$$dir" && exit $$rc

report: $(FS)
	$(FS) report $(RUN)

plots: $(FS)
	$(FS) plots $(RUN)

# The README's picture is the run's waterfall chart (gnuplot draws it).
readme: $(FS)
	bash scripts/readme_tables.sh $(FS) $(or $(RUN),$(REFERENCE_RUN))
	@command -v gnuplot >/dev/null || { echo "make readme: docs/waterfall.png needs gnuplot" >&2; exit 1; }
	$(FS) plots $(or $(RUN),$(REFERENCE_RUN)) --out $(BUILD)/readme-plots >/dev/null
	cp $(BUILD)/readme-plots/waterfall.png docs/waterfall.png

$(BUILD)/tests/test_readme $(BUILD)/tests/test_report $(BUILD)/tests/test_cli: CFLAGS += -DREFERENCE_RUN='"$(REFERENCE_RUN)"'
$(BUILD)/tests/test_readme $(BUILD)/tests/test_report $(BUILD)/tests/test_cli: $(BUILD)/reference_run
# Where flashstudy finds its data when it is not installed beside it
# (reports/shipped.c): this source tree, never the working folder.
$(BUILD)/reports/shipped.o: CFLAGS += -DFS_SOURCE_DIR='"$(CURDIR)"'
# Where the toolkit keeps its own cuDNN, if it has one.
$(BUILD)/tests/test_cudnn: CFLAGS += -DCUDA_LIBDIR='"$(CUDA_LIBDIR)"'

test-build: $(FS) $(TESTS) $(GPU_TESTS)
	@:

# One closing line for all: the GPU tests that could not run count as skipped.
# The longest start first, so that the cores finish together.
SLOW_TESTS := tests/install.sh $(addprefix $(BUILD)/tests/,test_report test_workers test_charts test_cli)
test: deps
	+@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) test-build
	+@if nvidia-smi -L >/dev/null 2>&1; then gpu='$(GPU_TESTS)' skip=0; else gpu= skip=$(words $(GPU_TESTS)); \
	   echo "skipped: no GPU (make test-gpu validates every variant where an NVIDIA GPU is present)"; fi; \
	 MAKE='$(MAKE)' BUILD='$(BUILD)' ARCHS='$(ARCHS)' CODE=$(CODE) REFERENCE_RUN='$(REFERENCE_RUN)' SKIPPED=$$skip \
	   bash scripts/run_tests.sh $$gpu $(SLOW_TESTS) $(filter-out $(SLOW_TESTS),$(TESTS)) \
	   tests/results_csv.py tests/slurm_contract.sh tests/make_targets.sh tests/fa3_match.sh tests/phases.sh

test-gpu: $(FS) $(GPU_TESTS)
	@bash scripts/run_tests.sh $(GPU_TESTS)

sanitize: $(FS)
	bash scripts/sanitize.sh $(FS)

sass: $(FS)
	@bash scripts/sass.sh '$(BUILD)' '$(V)'

step:
	@bash scripts/step_diff.sh '$(N)'

phases: $(FS)
	@BUILD='$(BUILD)' ROOMS='$(ROOMS)' bash scripts/phases.sh '$(V)'

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
	@$(if $(filter check,$(CODE)),echo "flashstudy: its kernels are make test's check build: it reports and draws but measures nothing (make CODE=compute install builds one that measures)" >&2)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
