// SPDX-License-Identifier: GPL-2.0
/*
 * zsrace - parallel zswap stores, loads and faults on the same pages.
 *
 * Usage: zsrace [-d SECONDS] [-m MIB] [-t THREADS] [-s SEED] [-X]
 *
 *   -d  how long the threads run (default 20)
 *   -m  each thread's slice of the shared buffer in MiB (default 4, even)
 *   -t  threads (default: twice the CPUs, at least 4)
 *   -s  seed of the page contents (default 1)
 *   -X  self-test: flip one byte behind the checker's back before the
 *       final check; the test must then count exactly one wrong page
 *
 * The threads share one mm and one memcg of their own. Each owns a slice
 * of an anonymous buffer: every odd thread's slice is MADV_HUGEPAGE, the
 * others MADV_NOHUGEPAGE. A thread loops: rewrite half of its pages with
 * their next generation, MADV_PAGEOUT its slice and its neighbour's, then
 * read its slice back and check every page. Each page is 2 KiB of
 * pseudo-random bytes and 2 KiB of zeroes, so all of them compress to
 * nearly one size: every CPU stores to and loads from the same zsmalloc
 * size class at once, and a thread's faults race the neighbour's pageout
 * of the same pages (swap cache, zswap load and invalidation). That is
 * the concurrency a KCSAN kernel needs to watch (make test KCONFIG=kcsan
 * runs this); on any kernel the bytes must come back.
 *
 * Checks (TAP): every page read back holds what was written last; the
 * test's memcg stored to zswap and loaded from it (its own memory.stat,
 * zswpout and zswpin, 0 when it was created).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "kselftest.h"
#include "zstack-util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#define PAGE		4096UL
#define RANDOM_BYTES	2048	/* the rest of a page is zeroes */
#define HUGE		(2UL << 20)
#define MAX_THREADS	64
#define MAX_REPORTED	10

struct slice {
	pthread_t tid;
	int id;
	char *mem;
	uint32_t *gen;		/* each page's generation, owner-written */
	unsigned long rounds, pageouts, wrong;
};

static unsigned long npages, seconds = 20, mib = 4, seed = 1;
static int nthreads;
static bool selftest;
static struct slice slices[MAX_THREADS];
static volatile bool stop;
static int reported;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t page_seed(int id, unsigned long idx, uint32_t gen)
{
	return splitmix64(seed ^ ((uint64_t)id << 48) ^ ((uint64_t)idx << 20) ^ gen) | 1;
}

static void fill(struct slice *s, unsigned long idx)
{
	uint64_t *p = (uint64_t *)(s->mem + idx * PAGE);
	uint64_t x = page_seed(s->id, idx, s->gen[idx]);
	size_t i;

	for (i = 0; i < RANDOM_BYTES / 8; i++)
		p[i] = xorshift64(&x);
	memset(p + RANDOM_BYTES / 8, 0, PAGE - RANDOM_BYTES);
}

static void check(struct slice *s, unsigned long idx)
{
	const uint64_t *p = (const uint64_t *)(s->mem + idx * PAGE);
	uint64_t x = page_seed(s->id, idx, s->gen[idx]);
	size_t i;

	for (i = 0; i < PAGE / 8; i++) {
		uint64_t want = i < RANDOM_BYTES / 8 ? xorshift64(&x) : 0;

		if (p[i] == want)
			continue;
		s->wrong++;
		pthread_mutex_lock(&report_lock);
		if (reported++ < MAX_REPORTED)
			ksft_print_msg("wrong page: thread %d page %lu gen %" PRIu32
				       " word %zu: %#" PRIx64 ", expected %#" PRIx64 "\n",
				       s->id, idx, s->gen[idx], i, p[i], want);
		pthread_mutex_unlock(&report_lock);
		return;
	}
}

static void pageout(struct slice *s)
{
	if (!madvise(s->mem, npages * PAGE, MADV_PAGEOUT))
		s->pageouts++;
}

static void *run(void *arg)
{
	struct slice *s = arg;
	struct slice *next = &slices[(s->id + 1) % nthreads];
	unsigned long i;

	while (!stop) {
		for (i = s->rounds & 1; i < npages; i += 2) {
			s->gen[i]++;
			fill(s, i);
		}
		pageout(s);
		pageout(next);
		for (i = 0; i < npages; i++)
			check(s, i);
		s->rounds++;
	}
	return NULL;
}

static int setup_memcg(void)
{
	char path[256], pid[32];

	/* The root can always hand the memory controller down. */
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	snprintf(path, sizeof(path), "/sys/fs/cgroup/zsrace-%d", getpid());
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(cgdir, sizeof(cgdir), "%s", path);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_str(cg_path("cgroup.procs"), pid);
}

static void teardown_memcg(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_str("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(cgdir);
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-d SECONDS] [-m MIB] [-t THREADS] [-s SEED] [-X]\n", argv0);
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	unsigned long wrong = 0, rounds = 0, pageouts = 0, i;
	long long zswpout, zswpin;
	char enabled[8] = "";
	char *buf;
	int c, t, err;

	nthreads = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	if (nthreads < 4)
		nthreads = 4;
	while ((c = getopt(argc, argv, "d:m:t:s:X")) != -1) {
		switch (c) {
		case 'd': seconds = strtoul(optarg, NULL, 0); break;
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 't': nthreads = atoi(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'X': selftest = true; break;
		default: usage(argv[0]);
		}
	}
	if (!seconds || !mib || mib % 2 || nthreads < 2 || nthreads > MAX_THREADS)
		usage(argv[0]);
	npages = mib * (1UL << 20) / PAGE;

	ksft_print_header();
	read_str("/sys/module/zswap/parameters/enabled", enabled, sizeof(enabled));
	if (enabled[0] != 'Y')
		ksft_exit_skip("zswap is not enabled\n");
	if (read_keyed("/proc/meminfo", "SwapTotal:") <= 0)
		ksft_exit_skip("no swap device\n");
	err = setup_memcg();
	if (err)
		ksft_exit_skip("no memcg of its own under /sys/fs/cgroup: %s\n", strerror(-err));
	ksft_set_plan(3);
	ksft_print_msg("%d threads x %lu MiB, %lu s, seed %lu, memcg %s%s\n", nthreads, mib,
		       seconds, seed, cgdir, selftest ? ", self-test" : "");

	/* 2 MiB-aligned, so an odd thread's slice can be a THP. */
	buf = mmap(NULL, nthreads * npages * PAGE + HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	buf = (char *)(((uintptr_t)buf + HUGE - 1) & ~(HUGE - 1));
	for (t = 0; t < nthreads; t++) {
		struct slice *s = &slices[t];

		s->id = t;
		s->mem = buf + t * npages * PAGE;
		s->gen = calloc(npages, sizeof(*s->gen));
		if (!s->gen)
			ksft_exit_fail_msg("calloc: %s\n", strerror(errno));
		madvise(s->mem, npages * PAGE, t % 2 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		for (i = 0; i < npages; i++)
			fill(s, i);
	}
	for (t = 0; t < nthreads; t++) {
		err = pthread_create(&slices[t].tid, NULL, run, &slices[t]);
		if (err)
			ksft_exit_fail_msg("pthread_create: %s\n", strerror(err));
	}
	sleep(seconds);
	stop = true;
	for (t = 0; t < nthreads; t++)
		pthread_join(slices[t].tid, NULL);

	/* Everything out once more, then every page back in. */
	for (t = 0; t < nthreads; t++)
		pageout(&slices[t]);
	if (selftest)
		slices[0].mem[PAGE + 8] ^= 1;
	for (t = 0; t < nthreads; t++) {
		struct slice *s = &slices[t];

		for (i = 0; i < npages; i++)
			check(s, i);
		wrong += s->wrong;
		rounds += s->rounds;
		pageouts += s->pageouts;
	}
	zswpout = read_keyed(cg_path("memory.stat"), "zswpout");
	zswpin = read_keyed(cg_path("memory.stat"), "zswpin");
	ksft_print_msg("rounds %lu, pageouts %lu, pages checked %lu per round, wrong %lu; memcg zswpout %lld zswpin %lld\n",
		       rounds, pageouts, nthreads * npages, wrong, zswpout, zswpin);
	teardown_memcg();

	if (selftest)
		ksft_test_result(wrong == 1, "self-test: the flipped page is found (wrong=1)\n");
	else
		ksft_test_result(!wrong, "every page came back as written\n");
	ksft_test_result(zswpout > 0, "the memcg stored to zswap (zswpout %lld)\n", zswpout);
	ksft_test_result(zswpin > 0, "the memcg loaded from zswap (zswpin %lld)\n", zswpin);
	ksft_finished();
}
