# src/cli/cli.mk - the tsctrace command, included by the top Makefile (which defines B, CC,
# BASE_CFLAGS, CFLAGS, SAN_FLAGS, Q, PREFIX, LIBDIR, DESTDIR, RESULTS and $(B)/libtt_pure.a).
#
#   $(B)/tsctrace          the command: src/cli/*.c + the shim's pure modules + jansson
#   make clitests          tests/cli/run.sh (PASS/FAIL lines appended to $(RESULTS))
#   make install-cli       bin/tsctrace, man1/tsctrace.1, man7/libtsctrace.7 under PREFIX
#   make uninstall-cli     removes them

# This file is included before the top Makefile's first target: without this, its first rule
# would become what a bare `make` builds.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif

CLI_SRCS := $(wildcard src/cli/*.c)
CLI_OBJS := $(CLI_SRCS:src/cli/%.c=$(B)/cli/%.o)
CLI_BIN  += $(B)/tsctrace
CLI_PKGS += libjansson-dev libdw-dev
MANDIR   ?= $(PREFIX)/share/man
CLI_MANS := docs/man/tsctrace.1 docs/man/libtsctrace.7

$(B)/cli:
	$(Q)mkdir -p $@

# The shorter stem makes this rule win over the top Makefile's $(B)/%.o: src/%.c.
$(B)/cli/%.o: src/cli/%.c | $(B)/cli
	@echo "  CC cli  $@"
	$(Q)$(CC) $(BASE_CFLAGS) -Isrc/cli $(CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(B)/tsctrace: $(CLI_OBJS) $(B)/libtt_pure.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $(CLI_OBJS) $(B)/libtt_pure.a -ljansson -liberty -ldw -lelf -lm

clitests:: $(CLI_BIN) $(LIB)
	$(Q)SANITIZE='$(SANITIZE)' sh tests/cli/run.sh $(abspath $(B))

install-cli:: $(CLI_BIN) $(CLI_MANS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 0755 $(B)/tsctrace $(DESTDIR)$(PREFIX)/bin/tsctrace
	install -m 0644 docs/man/tsctrace.1 $(DESTDIR)$(MANDIR)/man1/tsctrace.1
	install -m 0644 docs/man/libtsctrace.7 $(DESTDIR)$(MANDIR)/man7/libtsctrace.7

uninstall-cli::
	rm -f $(DESTDIR)$(PREFIX)/bin/tsctrace $(DESTDIR)$(MANDIR)/man1/tsctrace.1 \
		$(DESTDIR)$(MANDIR)/man7/libtsctrace.7

-include $(wildcard $(B)/cli/*.d)
