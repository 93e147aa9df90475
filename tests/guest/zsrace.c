// SPDX-License-Identifier: GPL-2.0
/*
 * zsrace - parallel zswap stores, loads, writeback and faults on the same
 * pages.
 *
 * Usage: zsrace [-d SECONDS] [-r ROUNDS] [-m MIB] [-t THREADS] [-s SEED] [-X]
 *
 *   -d  how long the threads run (default 20); with -r, at most how long
 *   -r  stop each thread after ROUNDS rounds instead: the same work on
 *       kernels of different speed (the KCSAN A/B of the series against
 *       its base, where the faster kernel would do more in -d seconds)
 *   -m  each thread's slice of the shared buffer in MiB (default 4, even)
 *   -t  threads (default: twice the CPUs, at least 4, at most 64)
 *   -s  seed of the page contents (default 1)
 *   -X  self-test: flip one byte of thread 0's page 1 behind the checker's
 *       back before the final check; the first check must then find that
 *       page, and only it
 *
 * The threads share one mm and a memcg of their own. Each owns a slice
 * of an anonymous buffer; every odd thread's slice is MADV_HUGEPAGE and
 * collapsed (MADV_COLLAPSE) each round, the others are MADV_NOHUGEPAGE.
 * A thread loops: check and rewrite half of its pages with their next
 * generation, MADV_PAGEOUT its slice and its neighbour's, then read its
 * slice back and check every page. A page is 2 KiB of pseudo-random
 * bytes and 2 KiB of zeroes, so all of them compress to nearly one size
 * (one or two zsmalloc size classes): every CPU stores to and loads from
 * the same zspages at once, and a thread's faults race the neighbour's
 * pageout of the same pages (swap cache, zswap load and invalidation).
 * Meanwhile the main thread cycles the memcg, one phase a second, through
 * memory.zswap.max unlimited and a sixteenth of the working set (about
 * an eighth of the pages, compressed), with memory.zswap.writeback on and
 * off: with the limit and writeback on, stores write older entries back
 * to the disk while they are faulted in.
 *
 * Checks (TAP), on the test's own memcg (created empty, its memory.stat
 * zero at the start):
 *   1. every page read back holds what was written last
 *   2. the final pageout stored at least a quarter of the pages to zswap
 *   3. the final check loaded at least a quarter of them from zswap
 *   4. zswap wrote entries back during the run (zswpwb)
 *   5. the odd slices were collapsed to THPs (skipped when THP is off
 *      or an idle slice does not collapse: no MADV_COLLAPSE); a collapse
 *      racing the neighbour's pageout may fail, some must not
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
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

#define PAGE		4096UL
#define RANDOM_BYTES	2048	/* the rest of a page is zeroes */
#define HUGE		(2UL << 20)
#define MAX_THREADS	64
#define MAX_REPORTED	10
#define NR_PHASES	4

struct slice {
	pthread_t tid;
	int id;
	char *mem;
	uint32_t *gen;		/* each page's generation, owner only */
	unsigned long rounds, wrong, collapses;
	unsigned long first_idx, first_word;	/* the first wrong page */
	int collapse_err;	/* errno of the last failed MADV_COLLAPSE */
};

static unsigned long npages, seconds = 20, target, mib = 4, seed = 1;
static int nthreads;
static bool selftest;
static struct slice slices[MAX_THREADS];
static bool stop;
static int running;
static int reported;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* The test's memcg, and where the program came from, for the teardown. */
static char memcg[256], home_procs[4200], pidstr[32];

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
		if (!s->wrong++) {
			s->first_idx = idx;
			s->first_word = i;
		}
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
	madvise(s->mem, npages * PAGE, MADV_PAGEOUT);
}

static void collapse(struct slice *s)
{
	if (!madvise(s->mem, npages * PAGE, MADV_COLLAPSE))
		s->collapses++;
	else
		s->collapse_err = errno;
}

static void *run(void *arg)
{
	struct slice *s = arg;
	struct slice *next = &slices[(s->id + 1) % nthreads];
	unsigned long i;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && (!target || s->rounds < target)) {
		/* A page a write fault brings back is checked before it is rewritten. */
		for (i = s->rounds & 1; i < npages; i += 2) {
			check(s, i);
			s->gen[i]++;
			fill(s, i);
		}
		if (s->id % 2)
			collapse(s);
		pageout(s);
		pageout(next);
		for (i = 0; i < npages; i++)
			check(s, i);
		s->rounds++;
	}
	__atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Async-signal-safe: the strings are made by setup_memcg(). */
static void teardown_memcg(void)
{
	int fd = open(home_procs, O_WRONLY);
	ssize_t n;

	/* On failure the rmdir below fails too: nothing to say from here. */
	if (fd >= 0) {
		n = write(fd, pidstr, strlen(pidstr));
		(void)n;
		close(fd);
	}
	rmdir(memcg);
}

static void on_signal(int sig)
{
	teardown_memcg();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int setup_memcg(void)
{
	int err;

	if (find_cgroup())
		return -ENOENT;
	snprintf(home_procs, sizeof(home_procs), "%s/cgroup.procs", cgdir);
	snprintf(pidstr, sizeof(pidstr), "%d", getpid());
	/* The root can always hand the memory controller down. */
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	snprintf(memcg, sizeof(memcg), "/sys/fs/cgroup/zsrace-%d", getpid());
	if (mkdir(memcg, 0755))
		return -errno;
	snprintf(cgdir, sizeof(cgdir), "%s", memcg);
	err = write_str(cg_path("cgroup.procs"), pidstr);
	if (!err && access(cg_path("memory.stat"), R_OK))
		err = -errno;
	if (err) {
		teardown_memcg();
		return err;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	return 0;
}

static long long stat_of(const char *key)
{
	return read_keyed(cg_path("memory.stat"), key);
}

/* Phase 0: no limit, writeback on; 1: limit; 2: limit, writeback off; 3: writeback off. */
static void set_phase(int phase, const char *limit)
{
	write_str(cg_path("memory.zswap.max"), phase == 1 || phase == 2 ? limit : "max");
	write_str(cg_path("memory.zswap.writeback"), phase >= 2 ? "0" : "1");
}

static bool thp_enabled(void)
{
	char buf[128] = "";

	read_str("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	return buf[0] && !strstr(buf, "[never]");
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-d SECONDS] [-r ROUNDS] [-m MIB] [-t THREADS] [-s SEED] [-X]\n",
		argv0);
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	unsigned long wrong = 0, rounds = 0, collapses = 0, total, i;
	long long out0, in0, zswpout, zswpin, zswpwb;
	int c, t, err, phase, probe_err, collapse_err = 0;
	char enabled[8] = "", limit[32];
	size_t len;
	char *buf;
	double end;

	nthreads = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	if (nthreads < 4)
		nthreads = 4;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	while ((c = getopt(argc, argv, "d:r:m:t:s:X")) != -1) {
		switch (c) {
		case 'd':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			target = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			mib = strtoul(optarg, NULL, 0);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'X':
			selftest = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (!seconds || !mib || mib % 2 || mib > 1024 || nthreads < 2 || nthreads > MAX_THREADS)
		usage(argv[0]);
	npages = mib * (1UL << 20) / PAGE;
	total = nthreads * npages;

	ksft_print_header();
	read_str("/sys/module/zswap/parameters/enabled", enabled, sizeof(enabled));
	if (enabled[0] != 'Y')
		ksft_exit_skip("zswap is not enabled\n");
	if (read_keyed("/proc/meminfo", "SwapTotal:") <= 0)
		ksft_exit_skip("no swap device\n");
	err = setup_memcg();
	if (err)
		ksft_exit_skip("no memcg of its own with memory.stat under /sys/fs/cgroup: %s\n",
			       strerror(-err));
	atexit(teardown_memcg);
	ksft_set_plan(5);
	snprintf(limit, sizeof(limit), "%lu", total * PAGE / 16);
	ksft_print_msg("%d threads x %lu MiB, %lu s, seed %lu, memcg %s, zswap.max phases max/%s%s\n",
		       nthreads, mib, seconds, seed, memcg, limit, selftest ? ", self-test" : "");

	/* 2 MiB-aligned, so an odd thread's slice can be THPs. */
	len = total * PAGE + HUGE;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	for (t = 0; t < nthreads; t++) {
		struct slice *s = &slices[t];

		s->id = t;
		s->mem = (char *)(((uintptr_t)buf + HUGE - 1) & ~(HUGE - 1)) + t * npages * PAGE;
		s->gen = calloc(npages, sizeof(*s->gen));
		if (!s->gen)
			ksft_exit_fail_msg("calloc: %s\n", strerror(errno));
		if (madvise(s->mem, npages * PAGE, t % 2 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
			ksft_print_msg("madvise(%sHUGEPAGE): %s\n", t % 2 ? "MADV_" : "MADV_NO",
				       strerror(errno));
		for (i = 0; i < npages; i++)
			fill(s, i);
	}
	/* Whether this kernel collapses on request at all. */
	collapse(&slices[1]);
	probe_err = slices[1].collapse_err;
	running = nthreads;
	for (t = 0; t < nthreads; t++) {
		err = pthread_create(&slices[t].tid, NULL, run, &slices[t]);
		if (err)
			ksft_exit_fail_msg("pthread_create: %s\n", strerror(err));
	}
	end = now() + seconds;
	for (phase = 0; now() < end && __atomic_load_n(&running, __ATOMIC_RELAXED);
	     phase = (phase + 1) % NR_PHASES) {
		set_phase(phase, limit);
		sleep(1);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	for (t = 0; t < nthreads; t++)
		pthread_join(slices[t].tid, NULL);

	/*
	 * Every page in (and checked), out once more to an unlimited zswap,
	 * then back in: the counters of the last two steps are about all
	 * pages, none left in zswap by a neighbour's last pageout.
	 */
	set_phase(0, limit);
	for (t = 0; t < nthreads; t++)
		for (i = 0; i < npages; i++)
			check(&slices[t], i);
	out0 = stat_of("zswpout");
	in0 = stat_of("zswpin");
	for (t = 0; t < nthreads; t++)
		pageout(&slices[t]);
	zswpout = stat_of("zswpout") - out0;
	if (selftest)
		slices[0].mem[PAGE + 8] ^= 1;
	for (t = 0; t < nthreads; t++) {
		struct slice *s = &slices[t];

		for (i = 0; i < npages; i++)
			check(s, i);
		wrong += s->wrong;
		rounds += s->rounds;
		collapses += s->collapses;
		if (s->collapse_err)
			collapse_err = s->collapse_err;
	}
	zswpin = stat_of("zswpin") - in0;
	zswpwb = stat_of("zswpwb");
	ksft_print_msg("rounds %lu (thread 0: %lu), wrong pages %lu, THP collapses %lu; memcg zswpwb %lld, thp_swpout %lld, thp_swpout_fallback %lld\n",
		       rounds, slices[0].rounds, wrong, collapses, zswpwb,
		       stat_of("thp_swpout"), stat_of("thp_swpout_fallback"));
	if (target)
		ksft_print_msg("rounds: %lu a thread asked; %s\n", target,
			       rounds == target * nthreads ? "all done" :
			       "the time limit came first");
	ksft_print_msg("final pageout and check of %lu pages: zswpout %lld, zswpin %lld\n",
		       total, zswpout, zswpin);
	munmap(buf, len);

	if (selftest)
		ksft_test_result(wrong == 1 && slices[0].wrong == 1 && slices[0].first_idx == 1 &&
				 slices[0].first_word == 1,
				 "self-test: the flipped page, and only it, is found\n");
	else
		ksft_test_result(!wrong, "every page came back as written\n");
	ksft_test_result(zswpout >= (long long)total / 4,
			 "the final pageout stored %lld of %lu pages to zswap\n", zswpout, total);
	ksft_test_result(zswpin >= (long long)total / 4,
			 "the final check loaded %lld of %lu pages from zswap\n", zswpin, total);
	ksft_test_result(zswpwb > 0, "zswap wrote back %lld entries under the limit\n", zswpwb);
	if (!thp_enabled())
		ksft_test_result_skip("THP collapse: THP is off\n");
	else if (probe_err == EINVAL)
		ksft_test_result_skip("THP collapse: MADV_COLLAPSE of an idle slice: %s\n",
				      strerror(probe_err));
	else
		ksft_test_result(collapses > 0, "THP collapse: %lu of the odd slices' rounds%s%s\n",
				 collapses, collapse_err ? "; the last failure (pageout racing): " : "",
				 collapse_err ? strerror(collapse_err) : "");
	ksft_finished();
}
