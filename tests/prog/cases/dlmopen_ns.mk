# dlmopen_ns: libdlmns.so is only ever dlmopen'd, by its path beside t_dlmopen_ns. Built
# without SANITIZE: an instrumented library would bring a second ASan runtime into its new
# namespace, which refuses to start there.
$(B)/obj/cases/dlmns.o: cases/dlmns.c $(DEPS) | $(B)/obj/cases
	$(CC) $(CFLAGS_T) -fPIC -c $< -o $@
$(B)/libdlmns.so: $(B)/obj/cases/dlmns.o
	$(CC) $(SOFLAGS) -o $@ $< -Wl,-soname,libdlmns.so
$(B)/t_dlmopen_ns: $(B)/libdlmns.so
