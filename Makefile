# tsctrace - per-call TSC timing of named functions in unmodified programs.
#
#   make            build build/libtsctrace.so
#   make demo       run the examples under the shim and print their reports
#   make check      unit tests, program tests (TSC_HOOK=auto, then inline), audits; ends
#                   with "N passed, N failed, N skipped"
#   make check SANITIZE=address,undefined   the same with ASan/UBSan
#   make check-tsan the tests that run threads, with ThreadSanitizer
#   make check-field real Debian programs (redis, nginx, python3, sqlite3, make, Go) traced
#   make bench      overhead benchmarks (ratios against a reference from the same run)
#   make install    PREFIX=/usr/local DESTDIR= LIBDIR= INCLUDEDIR=

VERSION    := 0.1.0
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR    ?=

CC      ?= cc
SANITIZE ?=
B       := build$(if $(SANITIZE),/san)
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)

BUILD_PKGS = gcc make libc6-dev uthash-dev libunwind-dev libzydis-dev libiberty-dev $(CLI_PKGS)
CHECK_PKGS = $(BUILD_PKGS) libcmocka-dev libjansson-dev jq g++ binutils python3 python3-jsonschema \
	clang-format libsqlite3-0 protobuf-compiler prometheus prometheus-node-exporter \
	python3-prometheus-client golang-go
# The field suite's programs, and what drives them (tests/field/).
FIELD_PKGS = redis-server redis-tools nginx-light apache2-utils sqlite3 python3 golang-go ltrace \
	strace curl
NEED       := sh tests/need-packages.sh

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
# -fdata-sections with the shim's --sort-section=alignment: its zeroed variables sorted by
# alignment, the small ones a start-up touches packed into a few pages (README, Start-up).
BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -fPIC -fvisibility=hidden -fno-strict-aliasing \
	-fdata-sections -ftls-model=initial-exec -DTT_VERSION='"$(VERSION)"' -Iinclude -Isrc -MMD -MP

# With SANITIZE everything but the hot path is instrumented (the hot path may not call
# anything, sanitizer runtimes included); the shim then needs libasan preloaded before it.
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

# The shim's layers are the folders of src/ (docs/architecture.md; each folder's README.md
# says what it owns and what it may call, and `make check` holds it to that). src/cli/ is
# the tsctrace command (cli.mk).
LAYERS := base hist report config hot tramp elf log x86 hook runtime wrap

# Hot-path objects: run inside the trampoline's register contract, so no SSE/x87 code and
# no calls into libc (audited by `make check`).
HOT_SRCS := $(wildcard src/hot/*.c)
HOT_FLAGS := -mgeneral-regs-only -fno-builtin -fno-tree-vectorize -fno-stack-protector

# Pure modules, unit-tested with cmocka and shared with the tsctrace command: base/, hist/,
# report/ and config/, and the pure parts of x86/ and hook/.
PURE_SRCS := $(wildcard src/base/*.c src/hist/*.c src/report/*.c src/config/*.c) src/x86/relocate.c src/x86/xref.c \
	src/x86/reloc_keep.c src/x86/emit.c src/hook/unbracketable.c src/hook/slot_code.c src/hook/build_id_files.c
SHIM_SRCS := $(wildcard $(LAYERS:%=src/%/*.c))
# tramp_body.S only defines the bodies' macros: tramp_bodies.S includes and lays them out.
ASM_SRCS  := $(filter-out src/tramp/tramp_body.S,$(wildcard $(LAYERS:%=src/%/*.S)))

PURE_OBJS := $(PURE_SRCS:src/%.c=$(B)/%.o)
SHIM_OBJS := $(SHIM_SRCS:src/%.c=$(B)/%.o) $(ASM_SRCS:src/%.S=$(B)/%.o)
LIB := $(B)/libtsctrace.so

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/unit/%)

.PHONY: all deps check-deps check format-check unit progtests audit demo examples bench install uninstall \
	clean clitests install-cli uninstall-cli

CLI_BIN :=
CLI_PKGS :=

all: deps $(LIB)

# The tsctrace command (src/cli/): its own rules, adding to CLI_BIN, CLI_PKGS, clitests,
# install-cli and uninstall-cli (after `all`, which stays the default goal).
-include src/cli/cli.mk
all: $(CLI_BIN)

deps:
	$(Q)$(NEED) $(BUILD_PKGS)

check-deps:
	$(Q)$(NEED) $(CHECK_PKGS)

$(B)/%.o: src/%.c
	@echo "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(HOT_SRCS:src/%.c=$(B)/%.o): $(B)/%.o: src/%.c
	@echo "  CC hot  $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(HOT_FLAGS) -c $< -o $@

# elfdyn.o runs before libc may be usable (see its header): no calls gcc invents either.
# The dl* wrappers (and elfdyn.o and dllock.o under them) run inside a sanitizer runtime's
# own start-up, which calls dlsym, and so does the sigaltstack wrapper (a sanitizer sets up
# its signal stack before its thread state exists): nothing there may be instrumented.
$(B)/elf/elfdyn.o: CFLAGS += -fno-tree-loop-distribute-patterns
$(B)/elf/elfdyn.o $(B)/elf/real.o $(B)/wrap/interpose.o $(B)/runtime/dllock.o \
$(B)/wrap/altstack.o: SAN_FLAGS :=
# ThreadSanitizer's own start-up also calls sigaction, which sigaction.c wraps (and stop.c and
# trap.c under it, whose signal handlers also interrupt the runtime itself); and patch.c's
# stores into code would go to shadow memory ThreadSanitizer keeps only for data.
ifneq ($(findstring thread,$(SANITIZE)),)
$(B)/runtime/signals.o $(B)/wrap/sigaction.o $(B)/hook/patch.o $(B)/hook/stop.o \
$(B)/hook/trap.o $(B)/wrap/sigmask.o: SAN_FLAGS :=
endif

$(B)/%.o: src/%.S
	@echo "  AS      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) -c $< -o $@

# The bench's ladder only (bench/ladder.sh): LADDER_STEP=N links the shim with the bodies of
# bench/ladder/tramp_ladder.S in place of tramp_bodies.S's, the timed path's last N parts
# taken out, the GOT bodies LADDER_PAD bytes on; never a tracer. Fatal warnings: a .purgem of
# a part tramp_body.S no longer has would leave that part in, with a warning only.
ifneq ($(LADDER_STEP),)
SHIM_OBJS := $(patsubst $(B)/tramp/tramp_bodies.o,$(B)/ladder/tramp_ladder.o,$(SHIM_OBJS))
$(B)/ladder/tramp_ladder.o: bench/ladder/tramp_ladder.S
	@echo "  AS      $@ (step $(LADDER_STEP), pad $(or $(LADDER_PAD),0))"
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) -Wa,--fatal-warnings -DLADDER_STEP=$(LADDER_STEP) \
		-DLADDER_PAD=$(or $(LADDER_PAD),0) -c $< -o $@
endif

$(LIB): $(SHIM_OBJS) src/libtsctrace.map
	@echo "  LD      $@"
	$(Q)$(CC) -shared $(SAN_FLAGS) -o $@ $(SHIM_OBJS) -Wl,-z,now -Wl,-z,noexecstack \
		-Wl,--sort-section=alignment \
		-Wl,--version-script=src/libtsctrace.map -Wl,-soname,libtsctrace.so -liberty -ldl -lpthread

$(B)/libtt_pure.a: $(PURE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B):
	$(Q)mkdir -p $(B)

# ---- tests --------------------------------------------------------------------------------
# Not pure, but unit-tested too: the Zydis loader (relocate.o decodes through it; the tests
# load libZydis with dlopen like the shim does), the .symtab reader, the code ranges and the
# switch to a stack of the shim's own (base/altstack_switch.S, assembly), the call frame
# rules of .eh_frame (elf/cfi.o).
# hook/sleep_wakes.o: which system calls a stopped sleeper resumes (raw system calls).
UNIT_OBJS := $(B)/x86/disasm.o $(B)/x86/slotuse.o $(B)/elf/symtab.o $(B)/elf/real.o \
	$(B)/elf/coderange.o $(B)/elf/ehframe.o $(B)/elf/cfi.o \
	$(B)/elf/elfdyn.o $(B)/base/altstack_switch.o $(B)/hook/sleep_wakes.o \
	$(B)/cli/attach_why.o

$(B)/unit/%: tests/unit/%.c $(B)/libtt_pure.a $(UNIT_OBJS)
	@echo "  CC test $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(SAN_FLAGS) $< -o $@ $(B)/libtt_pure.a $(UNIT_OBJS) \
		-lcmocka -ljansson -liberty -lm -ldl

unit: check-deps $(UNIT_BINS)
	$(Q)sh tests/run-unit.sh $(UNIT_BINS)

# The clock, serialization and accuracy tests, and two that check every line the shim says,
# run a third time as on the other CPU family (TSC_CPU, src/config/cpu_persona.h): amd-vm
# where CPUID announces rdtscp, intel-vm where not.
CPU_TESTS := empty accuracy callers_paths migration serialize_modes 'clock_*' prctl_inprocess \
	delivery_written_line delivery_not_report
OTHER_CPU = $(shell sh tests/other-cpu.sh)

progtests: check-deps $(LIB)
	$(Q)$(MAKE) -s -C tests/prog B=$(abspath $(B))/prog SANITIZE=$(SANITIZE)
	$(Q)sh tests/prog/run.sh $(abspath $(B))/prog $(abspath $(LIB)); s=$$?; \
		HOOK_ALL=inline sh tests/prog/run.sh $(abspath $(B))/prog $(abspath $(LIB)) || s=1; \
		CPU_ALL=$(OTHER_CPU) sh tests/prog/run.sh $(abspath $(B))/prog $(abspath $(LIB)) \
			$(CPU_TESTS) && [ $$s -eq 0 ]

audit: $(LIB) $(CLI_BIN)
	$(Q)sh tests/audit.sh $(B) $(LIB) src/libtsctrace.map; s=$$?; \
		python3 tests/layers.py src $(B) || s=1; \
		python3 tests/docs-check.py . || s=1; \
		sh tests/ladder-check.sh $(B) || s=1; \
		sh tests/commit-subjects.sh . || s=1; \
		sh tests/commit-subjects-selftest.sh || s=1; \
		sh tests/layers-selftest.sh && [ $$s -eq 0 ]
	$(Q)sh tests/install.sh $(abspath $(B))

# The layout of every C file is .clang-format's (tests/format-check.sh; `clang-format -i FILE`
# fixes one).
RESULTS ?= /dev/null
format-check: check-deps
	$(Q)out=$$(sh tests/format-check.sh); s=$$?; printf '%s\n' "$$out" | sed 's/^/  /'; \
	if [ $$s -ne 0 ]; then echo "FAIL format: $$(printf '%s\n' "$$out" | tail -1)"; \
	elif printf '%s' "$$out" | grep -q skipped; then echo "SKIP format: clang-format missing"; \
	else echo "PASS format"; fi >>$(RESULTS); [ $$s -eq 0 ]

# A part that stops before its tests could say anything (a test that does not build) still
# counts: one FAIL line for it.
check: check-deps all
	$(Q)rm -f $(B)/results.txt; touch $(B)/results.txt
	$(Q)for t in unit progtests audit clitests format-check; do \
		n=$$(grep -c '^FAIL' $(B)/results.txt); \
		$(MAKE) -s $$t RESULTS=$(abspath $(B))/results.txt || \
		[ "$$(grep -c '^FAIL' $(B)/results.txt)" -gt "$$n" ] || \
		echo "FAIL $$t: stopped before its tests ran (see its output above)" \
			>>$(B)/results.txt; \
	done
	$(Q)sh tests/summary.sh $(B)/results.txt

# ThreadSanitizer: the shim (all but the hot path and what a sanitizer's own start-up calls,
# as above) and the program tests built with -fsanitize=thread in build/tsan, libtsan preloaded
# ahead of the shim, on the tests that run threads, in both hook modes. A race report fails
# the test: the traced run's stderr and exit status then differ from the untraced run's.
# tests/prog/tsan.supp lists the reports that are not the shim's (glibc's loader).
# Races the hot path takes part in are not seen: it is assembly and uninstrumented C.
TSAN_B     := build/tsan
TSAN_TESTS := threads thread_churn dlopen_threads_inline 'dlstress_*' sample_threads 'stop_world_*' \
	threads_rows
.PHONY: check-tsan
check-tsan: check-deps
	$(Q)$(MAKE) -s B=$(TSAN_B) SANITIZE=thread $(TSAN_B)/libtsctrace.so
	$(Q)$(MAKE) -s -C tests/prog B=$(abspath $(TSAN_B))/prog SANITIZE=thread
	$(Q)rm -f $(TSAN_B)/results.txt
	$(Q)export SANITIZE=thread RESULTS=$(abspath $(TSAN_B))/results.txt \
		TSAN_OPTIONS="suppressions=$(abspath tests/prog/tsan.supp) $$TSAN_OPTIONS"; \
		sh tests/prog/run.sh $(abspath $(TSAN_B))/prog $(abspath $(TSAN_B))/libtsctrace.so \
			$(TSAN_TESTS); \
		HOOK_ALL=inline sh tests/prog/run.sh $(abspath $(TSAN_B))/prog \
			$(abspath $(TSAN_B))/libtsctrace.so $(TSAN_TESTS); \
		sh tests/summary.sh $(TSAN_B)/results.txt

# The field suite: real programs, untraced then traced, exact counts, every report's
# invariants, and the table of programs it has been run on (tests/field/run.sh).
.PHONY: check-field
check-field: check-deps all
	$(Q)$(NEED) $(FIELD_PKGS)
	$(Q)rm -f $(B)/field-results.txt; touch $(B)/field-results.txt
	$(Q)RESULTS=$(abspath $(B))/field-results.txt sh tests/field/run.sh $(abspath $(B)); \
		sh tests/summary.sh $(B)/field-results.txt

# ---- demo, bench --------------------------------------------------------------------------
demo: all
	$(Q)$(MAKE) -s -C examples B=$(abspath $(B))/examples LIB=$(abspath $(LIB)) demo

examples: all
	$(Q)$(MAKE) -s -C examples B=$(abspath $(B))/examples LIB=$(abspath $(LIB))

bench: all
	$(Q)$(MAKE) -s -C bench B=$(abspath $(B))/bench LIB=$(abspath $(LIB)) run

# ---- install ------------------------------------------------------------------------------
# Regenerated every time: it records PREFIX/LIBDIR, which may differ between invocations.
.PHONY: $(B)/tsctrace.pc
$(B)/tsctrace.pc: | $(B)
	$(Q)printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: tsctrace' 'Description: per-call TSC timing of named functions (LD_PRELOAD shim)' \
		'Version: $(VERSION)' 'Libs: -L$${libdir} -ltsctrace' 'Cflags: -I$${includedir}' > $@

install: all $(B)/tsctrace.pc install-cli
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(LIB) $(DESTDIR)$(LIBDIR)/libtsctrace.so
	install -m 0644 include/tsctrace.h $(DESTDIR)$(INCLUDEDIR)/tsctrace.h
	install -m 0644 $(B)/tsctrace.pc $(DESTDIR)$(PKGCONFIGDIR)/tsctrace.pc
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null && [ "$$(id -u)" = 0 ]; then \
		ldconfig; fi

uninstall: uninstall-cli
	rm -f $(DESTDIR)$(LIBDIR)/libtsctrace.so $(DESTDIR)$(INCLUDEDIR)/tsctrace.h \
		$(DESTDIR)$(PKGCONFIGDIR)/tsctrace.pc

clean:
	rm -rf build

# Defaults when src/cli/cli.mk adds nothing.
clitests::
install-cli::
uninstall-cli::

-include $(wildcard $(B)/*.d $(B)/*/*.d)
