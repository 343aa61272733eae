/*
 * debug_find.h - libdwfl's search for a separate debug file, opening only regular files.
 * libdwfl's own search (dwfl_standard_find_debuginfo) opens each place it tries with a plain
 * open(): a FIFO there, at a name a report or the file it names chose (.gnu_debuglink), would
 * hold the command forever. This one looks in the same places, in the same order, through
 * tt_open_regular, and checks what it finds as libdwfl does (build ID, else the CRC of
 * .gnu_debuglink). Only when nothing was there, and DEBUGINFOD_URLS is set, it hands over to
 * libdwfl's, for its debuginfod client.
 */
#ifndef TT_CLI_DEBUG_FIND_H
#define TT_CLI_DEBUG_FIND_H

#include <elfutils/libdwfl.h>
#include <stddef.h>

/* The debug directories, searched in order: --debug-dir's, then the system's. Set as each
 * module's user data (dwfl_module_info). */
struct tt_debug_dirs {
	const char *const *dirs;
	size_t ndirs;
};

/* Dwfl_Callbacks.find_debuginfo: the user data is a struct tt_debug_dirs. Under each
 * directory DIR: DIR/.build-id/xx/yyyy.debug for the module's build ID; then the debuglink
 * name beside the file, in its .debug/, DIR/<file's directory>/, DIR/. */
int tt_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, GElf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name);

/* Dwfl_Callbacks.find_elf: none. Every object's file is given by name (dwfl_report_elf). */
int tt_find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   char **file_name, Elf **elfp);

#endif /* TT_CLI_DEBUG_FIND_H */
