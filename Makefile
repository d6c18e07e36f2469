# warplab: one non-recursive Makefile.
#
#   make          build bin/warplab
#   make check    set-up (install script when something is missing), build, unit suites, end-to-end
#   make demo     the main job
#   make bench    emulator throughput figures
#   make asan     the unit and end-to-end suites under AddressSanitizer + UBSan
#   make slurm-check  warplab batch --slurm on a single-node Slurm the test starts
#
# Every layer under harness/ is compiled into one static library; the command-line front
# (harness/cli) and the test runner link against it.

CC      ?= cc
BUILD   ?= build
WERROR  ?= $(if $(CI),-Werror,)
OPT     ?= -O2
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
               -Wno-sign-conversion -ffp-contract=off $(WERROR) -g $(OPT) -pthread -Iharness -I.
PKG_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null)
# curses: for the feedback screen (grader/tui) only, the one part of warplab that includes it
NCURSES_CFLAGS := $(shell pkg-config --cflags ncurses 2>/dev/null)
NCURSES_LIBS   := $(shell pkg-config --libs ncurses 2>/dev/null || echo -lncurses)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)
ARCHFLAGS := $(if $(filter x86_64,$(shell uname -m)),-mpopcnt,)
CFLAGS  += $(CFLAGS_BASE) $(ARCHFLAGS) $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) $(NCURSES_LIBS) -lm -ldl -pthread

LIB_DIRS := harness/ptx harness/sim harness/metrics harness/timing harness/backend harness/measure harness/toolchain harness/run plots grader grader/tui
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(wildcard harness/cli/*.c)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/unit/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
E2E_SRC  := $(wildcard tests/e2e/*.c)
E2E_OBJ  := $(E2E_SRC:%.c=$(BUILD)/%.o)
DEPS     := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(E2E_OBJ:.o=.d)

LIB      := $(BUILD)/libwarplab.a
BIN      := bin/warplab
CHECKBIN := $(BUILD)/check_warplab
E2EBIN   := $(BUILD)/check_e2e
WARPLAB  ?= $(BIN)

.PHONY: all check unit e2e demo bench asan fuzz setup clean slurm-check
all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/grader/tui/%.o: CFLAGS += $(NCURSES_CFLAGS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# warplab-png.so beside the binary: preloaded into gnuplot for faster PNGs
# (plots/preload/png_speed.c); built without the sanitizers, as it runs inside gnuplot
PNGSO := $(dir $(BIN))warplab-png.so

$(BIN): $(CLI_OBJ) $(LIB) | $(PNGSO)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(PNGSO): plots/preload/png_speed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra $(WERROR) -O2 -shared -fPIC -o $@ $< -ldl

$(CHECKBIN): $(TEST_OBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(LDLIBS)

$(E2EBIN): $(E2E_OBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(E2E_OBJ) $(LIB) $(CHECK_LIBS) $(LDLIBS)

# set-up: run the install script only when something the build needs is missing
setup:
	@bash docker/install-deps.sh --if-missing

unit: $(CHECKBIN)
	$(CHECKBIN)

# e2e: the suite of tests/e2e, then the feedback screen driven in tmux (tests/e2e/tui.sh)
e2e: $(BIN) $(E2EBIN)
	WARPLAB=$(WARPLAB) $(E2EBIN)
	WARPLAB=$(WARPLAB) bash tests/e2e/tui.sh

check: setup
	@$(MAKE) --no-print-directory $(BIN) $(CHECKBIN) $(E2EBIN)
	@$(MAKE) --no-print-directory unit e2e

# slurm-check: `warplab batch --slurm` against a single-node Slurm the test starts on this machine
# (tests/slurm/run.sh: needs root; installs Slurm and munge when they are missing)
slurm-check: $(BIN)
	WARPLAB=$(WARPLAB) bash tests/slurm/run.sh

demo: setup
	@$(MAKE) --no-print-directory $(BIN)
	bash tests/e2e/demo.sh

bench: $(BIN)
	bash bench/emu_bench.sh

asan:
	@# -Wno-format-truncation: UBSan's inserted null checks make GCC report false positives;
	@# the regular build keeps the warning (and -Werror in CI).
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -Wno-format-truncation" \
	  BIN=build-asan/warplab build-asan/warplab build-asan/check_warplab build-asan/check_e2e
	ASAN_OPTIONS=detect_leaks=1 build-asan/check_warplab
	@# the e2e cases tagged "long" (the handouts' commands, the timing model's calibration
	@# curves) repeat what the other cases run, and under the sanitizers cost minutes more
	WARPLAB=build-asan/warplab CK_EXCLUDE_TAGS=long build-asan/check_e2e
	WARPLAB=build-asan/warplab TUI_WAIT=120 bash tests/e2e/tui.sh

# fuzz: the PTX parser and the emulator under libFuzzer (clang), ASan and UBSan, seeded with
# real nvcc output. FUZZ_SECONDS=N to run longer; new finds are kept in tests/fuzz/corpus.
FUZZ_SECONDS ?= 60
fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang ARCHFLAGS= WERROR= \
	  OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" build-fuzz/libwarplab.a
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -Iharness \
	  tests/fuzz/fuzz_ptx.c build-fuzz/libwarplab.a $(PKG_LIBS) -lm -ldl -pthread -o build-fuzz/fuzz_ptx
	@mkdir -p tests/fuzz/corpus build-fuzz/new
	build-fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=20 \
	  -print_final_stats=1 build-fuzz/new tests/fuzz/corpus tests/e2e/ptx

clean:
	rm -rf $(BUILD) build-asan build-fuzz bin

-include $(DEPS)
