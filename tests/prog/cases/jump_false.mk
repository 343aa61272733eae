# -O0 as in the issue's report (every function keeps its frame and its calls), without CET's
# endbr64 so that each patch starts at the function's first byte.
$(B)/obj/cases/t_jump_false.o: CFLAGS_X := -O0 -fcf-protection=none
