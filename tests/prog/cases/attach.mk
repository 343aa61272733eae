# attach_jumped exported (attach_not_traced): a function GOT slots could reach, which attach,
# hooking entries only, does not trace; its report entry must say hook "none".
$(B)/t_attach: LDLIBS_X := -rdynamic
