/*
 * patch.c - see patch.h. Cross-modifying code (Intel SDM vol. 3, 8.1.3): a thread other
 * than the writer may run the new bytes only after it executed a serializing instruction;
 * membarrier(PRIVATE_EXPEDITED_SYNC_CORE) makes every thread of the process do so before it
 * returns. Built like the hot path: raw system calls only, since the function being patched
 * may be one libc uses (mprotect, memcpy), which must not be called half-written.
 */
#include <fcntl.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <sys/mman.h>

#include "base/sys.h"
#include "hook/patch.h"

#define PAGE 4096ul

static bool sync_core;
static bool alone; /* tt_patch_write_all_alone under way */

bool tt_patch_init(void)
{
	static bool done;
	long cmds;

	if (done) /* once: before the first write, with or without the decoder */
		return sync_core;
	done = true;
	cmds = tt_syscall3(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE))
		return false;
	sync_core = tt_syscall3(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE,
				0, 0) == 0;
	return sync_core;
}

/* Threads of the process now, from /proc/self/stat (field 20, num_threads); 0 if unknown. */
static long thread_count(void)
{
	char buf[1024], *p, *end;
	long fd = tt_sys_openat(AT_FDCWD, "/proc/self/stat", O_RDONLY | O_CLOEXEC, 0), n;
	int field = 2;

	if (fd < 0)
		return 0;
	n = tt_sys_read((int)fd, buf, sizeof(buf) - 1);
	tt_sys_close((int)fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* After the command name, which may hold spaces and parentheses: its last ')'. */
	for (p = end = buf; *p; p++)
		if (*p == ')')
			end = p;
	for (p = end; *p && field < 20; p++)
		field += *p == ' ';
	for (n = 0; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (*p - '0');
	return field == 20 ? n : 0;
}

/*
 * The jump's first two bytes are stored at once, so that a thread arriving meanwhile sees
 * either the old entry or `jmp .`: atomic only within a cache line. With one thread (the
 * constructor before any pthread_create, the usual start-up), nobody else can arrive, and any
 * entry can be written. The count is read at the decision; no thread can appear before the
 * write, which follows without the program running in between.
 */
bool tt_patch_possible(const uint8_t *at)
{
	return ((uintptr_t)at & 63) != 63 || thread_count() == 1;
}

static void serialize_all(void)
{
	if (sync_core && !alone)
		tt_syscall3(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

static void store2(uint8_t *at, uint8_t b0, uint8_t b1)
{
	/* One 16-bit store: atomic for other cores when it does not cross a cache line. */
	__atomic_store_n((uint16_t *)(void *)at, (uint16_t)(b0 | (uint16_t)b1 << 8),
			 __ATOMIC_RELEASE);
}

/* Pages made writable for one round of writes, given back their protection after it. */
#define ROUND_PAGES 256

struct opened {
	uintptr_t lo, hi;
	int prot;
};

/* Make p's pages writable (and still executable) unless this round already did; 0, -errno,
 * or 1 when the round has no room left for them (p waits for the next round). */
static int open_pages(const struct tt_patch *p, struct opened *o, size_t *no)
{
	uintptr_t lo = (uintptr_t)p->at & ~(PAGE - 1);
	uintptr_t hi = ((uintptr_t)p->at + p->n + PAGE - 1) & ~(PAGE - 1);
	size_t i;
	long err;

	for (i = 0; i < *no; i++)
		if (o[i].lo == lo && o[i].hi == hi)
			return 0;
	if (*no == ROUND_PAGES)
		return 1;
	err = tt_sys_mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC);
	if (err)
		return (int)err;
	o[(*no)++] = (struct opened){ lo, hi, p->prot };
	return 0;
}

/* One round: as many patches from p as ROUND_PAGES distinct page ranges allow, each in the
 * three steps with every core serialized between them. Returns how many were taken. */
static size_t round_of(struct tt_patch *p, size_t n)
{
	struct opened o[ROUND_PAGES];
	size_t no = 0, taken, i, k;
	int r;

	for (taken = 0; taken < n; taken++) {
		r = open_pages(&p[taken], o, &no);
		if (r == 1)
			break;
		p[taken].err = r;
	}
	for (i = 0; i < taken; i++)
		if (!p[i].err)
			store2(p[i].at, 0xeb, 0xfe); /* jmp . */
	serialize_all();
	for (i = 0; i < taken; i++)
		for (k = 2; !p[i].err && k < p[i].n; k++)
			__atomic_store_n(&p[i].at[k], p[i].bytes[k], __ATOMIC_RELAXED);
	serialize_all();
	for (i = 0; i < taken; i++)
		if (!p[i].err)
			store2(p[i].at, p[i].bytes[0], p[i].bytes[1]);
	serialize_all();
	for (i = 0; i < no; i++)
		tt_sys_mprotect((void *)o[i].lo, o[i].hi - o[i].lo, o[i].prot);
	return taken;
}

size_t tt_patch_write_all(struct tt_patch *p, size_t n)
{
	uint64_t all = ~0ull, old;
	size_t done = 0, failed = 0, i;

	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	while (done < n)
		done += round_of(p + done, n - done);
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
	for (i = 0; i < n; i++)
		failed += p[i].err != 0;
	return failed;
}

size_t tt_patch_write_all_alone(struct tt_patch *p, size_t n)
{
	size_t failed;

	alone = true;
	failed = tt_patch_write_all(p, n);
	alone = false;
	return failed;
}

int tt_patch_write(uint8_t *at, const uint8_t *bytes, size_t n, int prot)
{
	struct tt_patch p = { at, bytes, n, prot, 0 };

	tt_patch_write_all(&p, 1);
	return p.err;
}
