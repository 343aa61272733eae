/*
 * names.c - see names.h. The demangling itself is the report formatter's (report_names.c),
 * so the command and the shim's text report agree.
 */
#include "cli/names.h"

#include "report/report_names.h"

const char *tt_cli_display_name(const char *name, char *buf, size_t size)
{
	return tt_report_demangled(name, buf, size);
}
