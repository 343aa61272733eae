/*
 * shim_path.h - where `tsctrace run` and `attach` find libtsctrace.so: $TSCTRACE_LIB; else
 * beside the executable (a build tree: build/tsctrace next to build/libtsctrace.so); else in
 * the library directories an install puts beside bin/: ../lib, ../lib64,
 * ../lib/x86_64-linux-gnu. Only paths relative to the executable, so a staged DESTDIR tree or
 * a moved prefix works, and nothing about PREFIX is compiled in: `make install PREFIX=...`
 * never has to rebuild the command. A LIBDIR elsewhere needs TSCTRACE_LIB.
 */
#ifndef TT_SHIM_PATH_H
#define TT_SHIM_PATH_H

/* The shim's resolved path into out (PATH_MAX bytes). 0, or -1 after one line naming cmd. */
int tt_cli_find_shim(const char *cmd, char *out);

#endif /* TT_SHIM_PATH_H */
