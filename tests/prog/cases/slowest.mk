# slowest: t_slowest calls libslowfn.so (cases/slowfn.c), through its PLT.
$(B)/obj/cases/slowfn.o: cases/slowfn.c $(DEPS) | $(B)/obj/cases
	$(CC) $(CFLAGS_T) $(SAN) -I. -fPIC -c $< -o $@
$(B)/libslowfn.so: $(B)/obj/cases/slowfn.o
	$(CC) $(SOFLAGS) $(SAN) -o $@ $< -Wl,-soname,libslowfn.so
$(B)/t_slowest: $(B)/libslowfn.so
$(B)/t_slowest: LDLIBS_X := -lslowfn
