# Frames without unwind information (no .debug_frame either: -g0), walked by their frame pointers (t_fds_above_program.c).
$(B)/obj/cases/t_fds_above_program.o: CFLAGS_X := -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -fno-omit-frame-pointer -g0 -fno-optimize-sibling-calls
