# t_shortfn_data also links shortfn_data.S (a 3-byte function, then data in .text).
$(B)/obj/cases/shortfn_data.o: cases/shortfn_data.S $(DEPS) | $(B)/obj/cases
	$(CC) $(CFLAGS_T) -c $< -o $@
$(B)/t_shortfn_data: $(B)/obj/cases/shortfn_data.o
