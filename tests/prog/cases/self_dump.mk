# Every call of sd_inner a real call, none turned into a jump (t_self_dump.c).
$(B)/obj/cases/t_self_dump.o: CFLAGS_X := -fno-optimize-sibling-calls
