/*
 * floors.c - what the kernel and the CPU charge for the steps a traced start-up and its report
 * cannot do without, each timed alone on this machine (startup.sh prints them beside the
 * shim's phases, so that what is left of the start-up can be told from what cannot go):
 *
 *   cpuid      one CPUID leaf (an exit to the hypervisor in a VM): the report names the CPU
 *   mprotect   making a page of code writable and executable again (an inline hook's write)
 *   fault      the first touch of a fresh anonymous page (each page the shim uses costs one)
 *   populate8  eight fresh pages made present by one madvise(MADV_POPULATE_WRITE), then
 *              touched: what a fault costs besides its trap (zeroing, the hypervisor's
 *              backing), against eight first touches (touch8)
 *   mmap       an anonymous mapping and its unmapping
 *   newfile    a report of 400 bytes to a new file beside DIR: create, write, close, rename
 *   syscall    the cheapest system call (getppid), the toll of every other
 *
 * floors DIR [ROUNDS]: for each, "name=ns" with the median of ROUNDS (default 200) timings in
 * nanoseconds (CLOCK_MONOTONIC), one per line.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "now_ns.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* A page of code to write into: a copy of a `ret`, executable. */
static uint8_t *code_page(void)
{
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	p[0] = 0xc3;
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		return NULL;
	return p;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	int rounds = argc > 2 ? atoi(argv[2]) : 200, i;
	uint64_t *t, t0;
	uint8_t *code = code_page();
	char path[4096], tmp[4200], body[400];
	unsigned int a, b, c, d;

	if (rounds < 1 || !code || !(t = calloc((size_t)rounds, sizeof(*t)))) {
		fprintf(stderr, "usage: floors DIR [ROUNDS]\n");
		return 2;
	}
	memset(body, 'x', sizeof(body));

	for (i = 0; i < rounds; i++) {
		t0 = now_ns();
		__cpuid(0x80000002, a, b, c, d);
		t[i] = now_ns() - t0;
	}
	(void)a, (void)b, (void)c, (void)d;
	printf("cpuid=%llu\n", (unsigned long long)median(t, rounds));

	for (i = 0; i < rounds; i++) {
		t0 = now_ns();
		if (mprotect(code, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0 ||
		    (code[1] = 0xcc, mprotect(code, 4096, PROT_READ | PROT_EXEC)) != 0)
			return 1;
		t[i] = now_ns() - t0;
	}
	printf("mprotect=%llu\n", (unsigned long long)median(t, rounds));

	for (i = 0; i < rounds; i++) {
		volatile uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		t0 = now_ns();
		p[0] = 1;
		t[i] = now_ns() - t0;
		munmap((void *)p, 4096);
	}
	printf("fault=%llu\n", (unsigned long long)median(t, rounds));

	for (int populate = 0; populate < 2; populate++) {
		bool ok = true;

		for (i = 0; i < rounds && ok; i++) {
			volatile uint8_t *p = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE,
						   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				return 1;
			t0 = now_ns();
			/* Before Linux 5.14 there is no such advice: that row is left out. */
			ok = !populate || madvise((void *)p, 8 * 4096, MADV_POPULATE_WRITE) == 0;
			for (int k = 0; k < 8; k++)
				p[k * 4096] = 1;
			t[i] = now_ns() - t0;
			munmap((void *)p, 8 * 4096);
		}
		if (ok)
			printf("%s=%llu\n", populate ? "populate8" : "touch8",
			       (unsigned long long)median(t, rounds));
	}

	for (i = 0; i < rounds; i++) {
		void *p;

		t0 = now_ns();
		p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		munmap(p, 65536);
		t[i] = now_ns() - t0;
	}
	printf("mmap=%llu\n", (unsigned long long)median(t, rounds));

	for (i = 0; i < rounds; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/floors.%d.txt", dir, i);
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		t0 = now_ns();
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 || write(fd, body, sizeof(body)) != (ssize_t)sizeof(body) ||
		    close(fd) != 0 || rename(tmp, path) != 0) {
			perror(tmp);
			return 1;
		}
		t[i] = now_ns() - t0;
	}
	for (i = 0; i < rounds; i++) {
		snprintf(path, sizeof(path), "%s/floors.%d.txt", dir, i);
		unlink(path);
	}
	printf("newfile=%llu\n", (unsigned long long)median(t, rounds));

	for (i = 0; i < rounds; i++) {
		t0 = now_ns();
		syscall(SYS_getppid);
		t[i] = now_ns() - t0;
	}
	printf("syscall=%llu\n", (unsigned long long)median(t, rounds));
	return 0;
}
