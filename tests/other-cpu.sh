#!/bin/sh
# other-cpu.sh - the TSC_CPU persona of the CPU family this machine is not (src/config/cpu_persona.h):
# amd-vm (rdtscp hidden, TSC step 21) where CPUID announces rdtscp, intel-vm where it does not.
if grep -qw rdtscp /proc/cpuinfo; then
	echo amd-vm
else
	echo intel-vm
fi
