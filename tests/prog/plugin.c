/*
 * plugin.c - libplugin.so, only ever loaded with dlopen. plugin_outer calls plugin_inner
 * through the plugin's own PLT (both exported and interposable; run.sh checks the
 * disassembly). The counters count invocations since this copy was loaded. plugin_tiny is
 * shorter than an inline hook's jump: traced through a trap (int3), set again at every load.
 */
unsigned long plugin_inner_count, plugin_outer_count;

long plugin_inner(long x);
long plugin_outer(long x);
long plugin_tiny(void);

long plugin_inner(long x)
{
	plugin_inner_count++;
	return x * 5 + 3;
}

long plugin_outer(long x)
{
	plugin_outer_count++;
	return plugin_inner(x + 1) - 2;
}

long plugin_tiny(void)
{
	return 0;
}
