# dlmopen_ns: libdlmns.so is only ever dlmopen'd, by its path beside t_dlmopen_ns.
$(B)/obj/cases/dlmns.o: cases/dlmns.c $(DEPS) | $(B)/obj/cases
	$(CC) $(CFLAGS_T) $(SAN) -fPIC -c $< -o $@
$(B)/libdlmns.so: $(B)/obj/cases/dlmns.o
	$(CC) $(SOFLAGS) $(SAN) -o $@ $< -Wl,-soname,libdlmns.so
$(B)/t_dlmopen_ns: $(B)/libdlmns.so
