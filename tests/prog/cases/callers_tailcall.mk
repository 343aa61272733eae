# t_callers_tailcall also links callers_tailcall.S (a function re-entered by tail jumps).
$(B)/obj/cases/callers_tailcall.o: cases/callers_tailcall.S $(DEPS) | $(B)/obj/cases
	$(CC) $(CFLAGS_T) -c $< -o $@
$(B)/t_callers_tailcall: $(B)/obj/cases/callers_tailcall.o
