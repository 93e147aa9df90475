// SPDX-License-Identifier: GPL-2.0
/*
 * soak - data-integrity soak test for swap, zswap and memcg reclaim.
 *
 * Usage: soak [-d SECONDS] [-m MIB] [-w WORKERS] [-c MEMCGS] [-s SEED]
 *             [-f] [-p PERCENT] [-n] [-X] [-C] [-S]
 *
 *   -d  duration of the soak phase in seconds (default 60)
 *   -m  working set of each worker in MiB (default 24)
 *   -w  workers per memcg (default 2)
 *   -c  number of memcgs /sys/fs/cgroup/soak-N (default 4)
 *   -s  seed of the page contents and of the harness' choices (default 1)
 *   -f  fault injection (failslab, fail_page_alloc) for the reclaimer child
 *   -p  fault injection probability in percent (default 2)
 *   -n  dry mode: no swapoff/swapon, no zswap module parameters, no fault
 *       injection; memcgs only if /sys/fs/cgroup is a writable cgroup2
 *   -X  self-test: corrupt one page of the first worker; must find wrong=1
 *       (with -C also: keep one removed memcg alive; must find it dying)
 *   -C  churn: every other worker's buffer is MADV_HUGEPAGE; the harness
 *       also flips memory.zswap.writeback of the memcgs without a limit,
 *       moves memory.max of the others, and moves a memcg's workers to a
 *       new memcg and removes the old one while its pages are still
 *       charged to it (swapped, in zswap, being written back); at the end
 *       nr_dying_descendants of the root must come back to its value at
 *       the start (up to 128 memcgs with -c)
 *   -S  no swapoff/swapon cycles (the disk swap stays on): with many
 *       memcgs at their limit a swapoff and putting the limits back
 *       after it take minutes under TCG
 *
 * Workers (forked, one memcg each) fill an anonymous MADV_NOHUGEPAGE
 * buffer with pages whose content is a pure function of (seed, worker id,
 * page index, generation) and then loop: pick a run of pages, verify each
 * against its generation, rewrite about half of them with the next
 * generation.  The generation array is small (a uint32_t per page) and
 * mlock()ed, so it is never the thing under test.  When told to finish,
 * a worker verifies every page it filled and exits.
 *
 * The parent keeps changing the environment (memory.zswap.max, zswap's
 * compressor, enabled, max_pool_percent and shrinker_enabled, swapoff and
 * swapon of the disk swap, removal and recreation of memcgs with fresh
 * workers), while a reclaimer child writes memory.reclaim to every memcg.
 * With -f only the reclaimer has make-it-fail set: zswap_store() and the
 * writeback path allocate in the reclaiming task, so those allocations
 * fail while the workers' own page faults do not.
 *
 * Output is TAP (kselftest style).  Exit status: 0 if every check passed
 * or was skipped, 1 on failure, 4 if the whole test was skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#include "zstack-util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT		21
#endif
#define CGROUP2_SUPER_MAGIC	0x63677270

#define KSFT_PASS		0
#define KSFT_FAIL		1
#define KSFT_SKIP		4

#define MAX_MEMCGS		128
#define MAX_PER_MEMCG		8
#define MAX_SLOTS		(MAX_MEMCGS * MAX_PER_MEMCG)
#define MAX_REPORTED		10	/* wrong pages printed in full */
#define DUMP_BYTES		16	/* bytes shown of a wrong page */
#define WRITE_PCT		50	/* verified pages that are rewritten */
#define RUN_MAX			64	/* pages per sequential run */
#define PAGEOUT_EVERY		64	/* runs between two MADV_PAGEOUTs */
#define PAGEOUT_PAGES		64
#define TICK_MS			500
#define PROGRESS_S		10
#define FINAL_WAIT_MIN_S	300	/* for the workers' final verification */
#define FAULT_BUDGET		1000000000
#define NR_CHECKS		6
#define DYING_WAIT_S		120	/* for removed memcgs to be freed */

#define CG_ROOT			"/sys/fs/cgroup"
#define ZSWAP_PARAMS		"/sys/module/zswap/parameters"
#define ZSWAP_DEBUG		"/sys/kernel/debug/zswap"
#define DEBUGFS			"/sys/kernel/debug"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Options                                                             */

struct opts {
	unsigned long duration;
	unsigned long mib;
	unsigned long workers;
	unsigned long memcgs;
	unsigned long seed;
	unsigned long fault_pct;
	bool fault;
	bool dry;
	bool selftest;
	bool churn;
	bool no_swapoff;
};

static struct opts opt = {
	.duration = 60,
	.mib = 24,
	.workers = 2,
	.memcgs = 4,
	.seed = 1,
	.fault_pct = 2,
};

static size_t page_size;

/* ------------------------------------------------------------------ */
/* Output: every line goes out with one write(2), so lines from the    */
/* parent and the workers never interleave and nothing is buffered     */
/* across fork().                                                      */

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

#define diag(fmt, ...)	say("# " fmt, ##__VA_ARGS__)

enum { T_PASS, T_FAIL, T_SKIP };

static int tap_count[3], tap_n;

static void tap(int res, const char *name, const char *skip_reason)
{
	tap_n++;
	tap_count[res]++;
	if (res == T_SKIP)
		say("ok %d %s # SKIP %s", tap_n, name, skip_reason);
	else
		say("%s %d %s", res == T_PASS ? "ok" : "not ok", tap_n, name);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* a signal may cut it short: fine */
}

static inline void add64(uint64_t *p, uint64_t v)
{
	__atomic_add_fetch(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t get64(uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Page contents                                                       */

enum pattern { PAT_RANDOM, PAT_HALF, PAT_ZERO, PAT_SAME };

static const char *const pattern_name[] = {
	"random", "half-random", "zero", "same-filled",
};

/* 2/8 random, 3/8 2:1 compressible, 1/8 zero, 2/8 same-filled */
static const uint8_t pattern_pick[8] = {
	PAT_RANDOM, PAT_RANDOM, PAT_HALF, PAT_HALF,
	PAT_HALF, PAT_ZERO, PAT_SAME, PAT_SAME,
};

static uint64_t page_hash(uint32_t wid, uint64_t idx, uint32_t gen)
{
	uint64_t x = splitmix64(((uint64_t)wid << 32) | gen) ^ splitmix64(idx);

	return splitmix64(opt.seed ^ x);
}

static enum pattern page_pattern(uint32_t wid, uint64_t idx, uint32_t gen)
{
	return pattern_pick[page_hash(wid, idx, gen) >> 61];
}

/* Expected content of page idx of worker wid at generation gen. */
static void make_page(uint64_t *p, uint32_t wid, uint64_t idx, uint32_t gen)
{
	uint64_t h = page_hash(wid, idx, gen);
	uint64_t s = h | 1;	/* xorshift state must not be zero */
	size_t n = page_size / sizeof(uint64_t), nrand = 0, i;

	switch (pattern_pick[h >> 61]) {
	case PAT_RANDOM:
		nrand = n;
		break;
	case PAT_HALF:
		nrand = n / 2;
		break;
	case PAT_ZERO:
		break;
	case PAT_SAME:
		for (i = 0; i < n; i++)
			p[i] = s;	/* one non-zero word, repeated */
		return;
	}
	for (i = 0; i < nrand; i++)
		p[i] = xorshift64(&s);
	for (; i < n; i++)
		p[i] = 0;
}

/* ------------------------------------------------------------------ */
/* State shared between the parent and its children (MAP_SHARED,       */
/* mlocked by the parent).  Each slot is written by its worker only.   */

enum { SLOT_FREE, SLOT_RUNNING, SLOT_DONE };

struct slot {
	uint64_t written;	/* page writes, the initial fill included */
	uint64_t verified;	/* page checks that matched */
	uint64_t wrong;		/* page checks that did not */
	uint64_t final_verified; /* pages that matched in the exit pass */
	uint64_t filled;	/* pages written at least once */
	uint64_t npages;
	uint32_t wid;		/* worker id: part of the page contents */
	int memcg;
	int finish;		/* set by the parent: verify all and exit */
	int state;
	pid_t pid;
} __attribute__((aligned(64)));

struct shared {
	struct slot slot[MAX_SLOTS];
	uint64_t reclaim_ok;
	uint64_t reclaim_eagain;
	uint64_t reclaim_err;
	int reclaimer_stop;
	int reported;		/* wrong pages printed so far */
	uint32_t cg_gen[MAX_MEMCGS];	/* -C: memcg i is soak-i.GEN (0: soak-i) */
};

static struct shared *sh;

/* ------------------------------------------------------------------ */
/* Memcgs                                                              */

struct profile {
	bool writeback;		/* memory.zswap.writeback */
	bool tight;		/* memory.max below the working set */
	const char *zswap_max;
};

/*
 * writeback=0 memcgs get no memory.max: with nothing able to leave zswap
 * they would OOM.  The reclaimer's memory.reclaim is their pressure.
 */
static const struct profile profiles[] = {
	{ true, true, "max" },
	{ false, false, "max" },
	{ true, true, "1M" },
	{ false, false, "1M" },
};

enum { CG_ACTIVE, CG_RECYCLING };

struct memcg {
	char path[64];
	const struct profile *prof;
	bool wb;		/* memory.zswap.writeback now (-C flips it) */
	uint64_t ws;		/* bytes: working set of its workers */
	uint64_t max;		/* memory.max if tight */
	int state;
	int nlive;
	int rmdir_tries;
};

static struct memcg cgs[MAX_MEMCGS];
static bool use_cgroups;

/* The path of memcg i in its generation: workers moved on to a new one. */
static void cg_gen_path(int i, uint32_t gen, char *buf, size_t len)
{
	if (gen)
		snprintf(buf, len, CG_ROOT "/soak-%d.%u", i, gen);
	else
		snprintf(buf, len, CG_ROOT "/soak-%d", i);
}

static void cg_file(const struct memcg *cg, const char *file, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%.63s/%.60s", cg->path, file);
}

static int cg_write(const struct memcg *cg, const char *file, const char *val)
{
	char path[128];

	cg_file(cg, file, path, sizeof(path));
	return write_str(path, val);
}

/* ------------------------------------------------------------------ */
/* Worker                                                              */

struct worker {
	struct slot *slot;
	char *data;
	uint32_t *gens;
	uint64_t *expect;	/* one page: expected content */
	uint64_t *tmp;		/* one page: for diagnosing a wrong page */
	uint64_t npages;
	uint64_t nfilled;
	uint64_t rng;
	uint32_t wid;
};

static volatile sig_atomic_t child_stop;

static void on_child_signal(int sig)
{
	(void)sig;
	child_stop = 1;
}

static void child_setup(pid_t parent)
{
	struct sigaction sa = { .sa_handler = on_child_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		child_stop = 1;
}

static bool worker_should_stop(struct worker *w)
{
	return child_stop || __atomic_load_n(&w->slot->finish, __ATOMIC_RELAXED);
}

static char *page_addr(struct worker *w, uint64_t idx)
{
	return w->data + idx * page_size;
}

static void write_page(struct worker *w, uint64_t idx, uint32_t gen)
{
	make_page(w->expect, w->wid, idx, gen);
	memcpy(page_addr(w, idx), w->expect, page_size);
	w->gens[idx] = gen;
	add64(&w->slot->written, 1);
}

static void hex(char *out, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

static bool page_is_zero(const uint8_t *p)
{
	size_t i;

	for (i = 0; i < page_size; i++)
		if (p[i])
			return false;
	return true;
}

/* What a wrong page holds instead, as far as cheaply recognisable. */
static const char *guess_content(struct worker *w, uint64_t idx, uint32_t gen)
{
	const char *p = page_addr(w, idx);

	if (gen > 0) {
		make_page(w->tmp, w->wid, idx, gen - 1);
		if (!memcmp(p, w->tmp, page_size))
			return "the previous generation (stale)";
	}
	make_page(w->tmp, w->wid, idx, gen + 1);
	if (!memcmp(p, w->tmp, page_size))
		return "the next generation";
	if (page_is_zero((const uint8_t *)p))
		return "all zero";
	return "unrecognised";
}

/* w->expect holds the expected page. */
static void report_wrong(struct worker *w, uint64_t idx, uint32_t gen)
{
	const uint8_t *got = (const uint8_t *)page_addr(w, idx);
	const uint8_t *exp = (const uint8_t *)w->expect;
	char ehex[2 * DUMP_BYTES + 1], ghex[2 * DUMP_BYTES + 1];
	size_t off, ndiff = 0, i, n;

	if (__atomic_fetch_add(&sh->reported, 1, __ATOMIC_RELAXED) >=
	    MAX_REPORTED)
		return;
	for (off = 0; off < page_size && got[off] == exp[off]; off++)
		;
	for (i = off; i < page_size; i++)
		ndiff += got[i] != exp[i];
	n = page_size - off < DUMP_BYTES ? page_size - off : DUMP_BYTES;
	hex(ehex, exp + off, n);
	hex(ghex, got + off, n);
	diag("WRONG: worker %u (soak-%d, pid %d) page %" PRIu64
	     " gen %u (%s): first difference at offset %zu, %zu bytes differ;"
	     " expected %s got %s; content is %s",
	     w->wid, w->slot->memcg, (int)getpid(), idx, gen,
	     pattern_name[page_pattern(w->wid, idx, gen)], off, ndiff,
	     ehex, ghex, guess_content(w, idx, gen));
}

/* Verifies a page; a wrong one is reported, counted, then rewritten. */
static bool check_page(struct worker *w, uint64_t idx)
{
	uint32_t gen = w->gens[idx];

	make_page(w->expect, w->wid, idx, gen);
	if (!memcmp(page_addr(w, idx), w->expect, page_size)) {
		add64(&w->slot->verified, 1);
		return true;
	}
	add64(&w->slot->wrong, 1);
	report_wrong(w, idx, gen);
	write_page(w, idx, gen + 1);	/* so one bad page counts once */
	return false;
}

static int worker_map(struct worker *w)
{
	size_t len = w->npages * page_size;
	size_t mlen = 2 * page_size + w->npages * sizeof(uint32_t);

	w->data = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->data == MAP_FAILED)
		return -1;
	if (madvise(w->data, len, opt.churn && (w->wid & 1) ?
		    MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		diag("worker %u: madvise(MADV_%sHUGEPAGE): %s", w->wid,
		     opt.churn && (w->wid & 1) ? "" : "NO", strerror(errno));
	w->expect = mmap(NULL, mlen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->expect == MAP_FAILED)
		return -1;
	if (mlock(w->expect, mlen))
		diag("worker %u: mlock of its generation array: %s", w->wid,
		     strerror(errno));
	w->tmp = w->expect + page_size / sizeof(uint64_t);
	w->gens = (uint32_t *)(w->tmp + page_size / sizeof(uint64_t));
	return 0;
}

/*
 * The harness puts each new worker in its memcg before the worker starts:
 * act_migrate() moves a memcg's workers and removes the old memcg, which
 * a worker joining by itself could still be on its way into (CI,
 * 2026-12-07: "joining /sys/fs/cgroup/soak-16: No such file or
 * directory" right after a recreation).
 */
static int join_memcg(int i, pid_t who)
{
	char pid[32];
	int err;

	if (!use_cgroups)
		return 0;
	snprintf(pid, sizeof(pid), "%d", (int)who);
	err = cg_write(&cgs[i], "cgroup.procs", pid);
	if (err)
		diag("worker pid %s: joining %s: %s", pid, cgs[i].path,
		     strerror(-err));
	return err;
}

static void worker_fill(struct worker *w)
{
	for (w->nfilled = 0; w->nfilled < w->npages; w->nfilled++) {
		if (worker_should_stop(w))
			break;
		write_page(w, w->nfilled, 0);
		__atomic_store_n(&w->slot->filled, w->nfilled + 1,
				 __ATOMIC_RELAXED);
	}
}

/* -X: flip one byte behind the checker's back. */
static void worker_corrupt(struct worker *w)
{
	uint64_t idx = w->nfilled / 3;
	size_t off = 1000 % page_size;

	if (!w->nfilled)
		return;
	page_addr(w, idx)[off] ^= 0x5a;
	diag("self-test: corrupted worker %u page %" PRIu64 " offset %zu",
	     w->wid, idx, off);
}

static void worker_pageout(struct worker *w)
{
	uint64_t n = w->npages < PAGEOUT_PAGES ? w->npages : PAGEOUT_PAGES;
	uint64_t start = xorshift64(&w->rng) % (w->npages - n + 1);

	madvise(page_addr(w, start), n * page_size, MADV_PAGEOUT);
}

static void worker_run(struct worker *w)
{
	uint64_t runs = 0, r, idx, len, i;

	while (!worker_should_stop(w)) {
		r = xorshift64(&w->rng);
		idx = r % w->npages;
		len = 1 + (r >> 40) % RUN_MAX;
		for (i = 0; i < len; i++, idx = (idx + 1) % w->npages) {
			check_page(w, idx);
			if (xorshift64(&w->rng) % 100 < WRITE_PCT)
				write_page(w, idx, w->gens[idx] + 1);
		}
		if (++runs % PAGEOUT_EVERY == 0)
			worker_pageout(w);
	}
}

static void worker_final(struct worker *w)
{
	uint64_t idx;

	for (idx = 0; idx < w->nfilled; idx++)
		if (check_page(w, idx))
			add64(&w->slot->final_verified, 1);
}

static void __attribute__((noreturn)) worker_main(int si, pid_t parent)
{
	struct slot *s = &sh->slot[si];
	struct worker w = {
		.slot = s, .wid = s->wid, .npages = s->npages,
	};

	child_setup(parent);
	/* -C: 64 and more workers must leave the harness some CPU. */
	if (opt.churn && setpriority(PRIO_PROCESS, 0, 5))
		diag("worker %u: setpriority: %s", w.wid, strerror(errno));
	if (worker_map(&w))
		_exit(2);
	w.rng = splitmix64(opt.seed ^ 0x3c6ef372fe94f82bULL ^ w.wid) | 1;
	worker_fill(&w);
	if (opt.selftest && w.wid == 0)
		worker_corrupt(&w);
	if (w.nfilled == w.npages)
		worker_run(&w);
	worker_final(&w);
	__atomic_store_n(&s->state, SLOT_DONE, __ATOMIC_RELEASE);
	_exit(s->wrong ? 1 : 0);
}

/* ------------------------------------------------------------------ */
/* Reclaimer child: memory.reclaim on every memcg, round robin.  With  */
/* -f it is the only task with make-it-fail set.                       */

static void reclaim_one(int i, uint64_t *rng)
{
	uint64_t bytes = (1 << 20) + xorshift64(rng) % (cgs[i].ws / 4 + 1);
	char val[32], dir[64], path[128];
	int err;

	/* The parent's cgs[] moves on with -C: the generation is shared. */
	cg_gen_path(i, __atomic_load_n(&sh->cg_gen[i], __ATOMIC_RELAXED), dir,
		sizeof(dir));
	snprintf(path, sizeof(path), "%s/memory.reclaim", dir);
	snprintf(val, sizeof(val), "%" PRIu64, bytes & ~(uint64_t)4095);
	err = write_str(path, val);
	if (!err)
		add64(&sh->reclaim_ok, 1);
	else if (err == -EAGAIN)
		add64(&sh->reclaim_eagain, 1);	/* partial: normal */
	else if (err != -ENOENT && err != -ENODEV && err != -EINTR)
		add64(&sh->reclaim_err, 1);	/* gone memcgs don't count */
}

static void prefault_stack(void)
{
	volatile char buf[64 << 10];
	size_t i;

	for (i = 0; i < sizeof(buf); i += 1024)
		buf[i] = 0;
}

static void __attribute__((noreturn)) reclaimer_main(pid_t parent)
{
	uint64_t rng = splitmix64(opt.seed ^ 0x7ec1a1e7ULL) | 1;
	unsigned long i;

	child_setup(parent);
	/* No page faults of its own: a failed one would only retry. */
	prefault_stack();
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		diag("reclaimer: mlockall: %s", strerror(errno));
	while (!child_stop &&
	       !__atomic_load_n(&sh->reclaimer_stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < opt.memcgs && !child_stop; i++)
			reclaim_one(i, &rng);
		sleep_ms(100);
	}
	_exit(0);
}

/* ------------------------------------------------------------------ */
/* Parent: bookkeeping                                                 */

struct totals {
	uint64_t written, verified, wrong, final_verified, unverified;
	unsigned long workers, clean, killed, sigkilled, bad_exit, timed_out;
	long long oom_kills;
};

struct counts {
	unsigned long swapoff_ok, swapoff_fail, swapoff_enomem;
	unsigned long swapon_ok, swapon_fail;
	unsigned long comp_ok, comp_fail;
	unsigned long zswap_toggles, zswap_max_changes, pool_changes;
	unsigned long recreations, rmdir_fail, harness_err;
	unsigned long wb_flips, max_moves, migrations, migrate_fail;
};

struct harness {
	double t0, deadline, last_swap, last_recycle, next_progress;
	double zswap_back_at;	/* when to undo an enabled toggle */
	double swap_interval, recycle_interval;
	double quiet_end;	/* no swapoff/recycle this close to the end */
	uint64_t rng;
	int recycling;		/* memcg being recreated, or -1 */
	long long dying0;	/* nr_dying_descendants of the root at the start */
	bool limits_lifted;	/* tight memory.max lifted: */
	bool lift_swapoff;	/* for a swapoff/swapon cycle */
	bool lift_noshrink;	/* while the zswap shrinker is off (keeps_incomp) */
	bool keeps_incomp;	/* zswap keeps incompressible pages (7.x) */
	bool zswap_flipped;
	bool swap_pending;	/* swapon still to be done */
	pid_t reclaimer;
	int reclaimer_status;
	pid_t limiter;		/* putting tight limits back (update_limits) */
	uint32_t next_wid;
};

static struct totals T;
static struct counts C;
static struct harness H = { .recycling = -1, .reclaimer = -1, .limiter = -1 };
static volatile sig_atomic_t stop;
static pid_t parent_pid;

static void on_parent_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_parent_signal };

	sigaction(SIGTERM, &sa, NULL);	/* no SA_RESTART: cut sleeps */
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static bool globals_allowed(void)
{
	return !opt.dry;
}

static double remaining(void)
{
	return H.deadline - now();
}

/* ------------------------------------------------------------------ */
/* Parent: worker processes                                            */

static int spawn_worker(int si, int memcg)
{
	struct slot *s = &sh->slot[si];
	int go[2], err;
	pid_t pid;
	char c;

	if (pipe(go)) {
		diag("pipe: %s", strerror(errno));
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->npages = (opt.mib << 20) / page_size;
	s->wid = H.next_wid++;
	s->memcg = memcg;
	s->state = SLOT_RUNNING;
	pid = fork();
	if (!pid) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1 || c != '1')
			_exit(2);	/* not in its memcg */
		close(go[0]);
		worker_main(si, parent_pid);
	}
	close(go[0]);
	if (pid < 0) {
		diag("fork: %s", strerror(errno));
		close(go[1]);
		s->state = SLOT_FREE;
		return -1;
	}
	err = join_memcg(memcg, pid);
	if (write(go[1], err ? "0" : "1", 1) != 1)
		diag("worker pid %d: its start: %s", (int)pid, strerror(errno));
	close(go[1]);
	s->pid = pid;
	cgs[memcg].nlive++;
	T.workers++;
	return 0;
}

static int spawn_memcg_workers(int memcg)
{
	unsigned long k;
	int err = 0;

	for (k = 0; k < opt.workers; k++)
		err |= spawn_worker(memcg * opt.workers + k, memcg);
	return err;
}

static void finish_memcg_workers(int memcg)
{
	unsigned long k;
	struct slot *s;

	for (k = 0; k < opt.workers; k++) {
		s = &sh->slot[memcg * opt.workers + k];
		__atomic_store_n(&s->finish, 1, __ATOMIC_RELAXED);
	}
}

static const char *exit_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "status 0x%x", status);
	return buf;
}

static void classify_exit(struct slot *s, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1 &&
	    s->state == SLOT_DONE)
		T.clean++;
	else if (WIFSIGNALED(status))
		T.killed++;
	else
		T.bad_exit++;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		T.sigkilled++;
	if (s->state != SLOT_DONE)	/* its exit pass did not complete */
		T.unverified += s->filled - s->final_verified;
}

static void account_worker(struct slot *s, int status)
{
	char how[96];

	T.written += s->written;
	T.verified += s->verified;
	T.wrong += s->wrong;
	T.final_verified += s->final_verified;
	classify_exit(s, status);
	diag("worker %u (soak-%d, pid %d): %s; written=%" PRIu64
	     " verified=%" PRIu64 " wrong=%" PRIu64 " final=%" PRIu64
	     "/%" PRIu64, s->wid, s->memcg, (int)s->pid,
	     exit_text(status, how, sizeof(how)), s->written, s->verified,
	     s->wrong, s->final_verified, s->filled);
	s->state = SLOT_FREE;
	s->pid = 0;
	cgs[s->memcg].nlive--;
}

static struct slot *slot_of(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_SLOTS; i++)
		if (sh->slot[i].pid == pid)
			return &sh->slot[i];
	return NULL;
}

static void reap_one(pid_t pid, int status)
{
	struct slot *s;
	char how[96];

	if (pid == H.limiter) {
		H.limiter = -1;
		/* killed by stop_limiter(), or 1: a write failed */
		if (WIFEXITED(status) && WEXITSTATUS(status))
			C.harness_err++;
		return;
	}
	if (pid == H.reclaimer) {
		H.reclaimer = -1;
		H.reclaimer_status = status;
		if (!stop && now() < H.deadline)
			diag("reclaimer died early: %s",
			     exit_text(status, how, sizeof(how)));
		return;
	}
	s = slot_of(pid);
	if (s)
		account_worker(s, status);
}

static void reap_children(int flags)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, flags)) > 0) {
		reap_one(pid, status);
		flags |= WNOHANG;	/* block for the first one at most */
	}
}

static unsigned long live_workers(void)
{
	unsigned long i, n = 0;

	for (i = 0; i < opt.memcgs; i++)
		n += cgs[i].nlive;
	return n;
}

/* ------------------------------------------------------------------ */
/* Parent: memcg setup, limits, recreation                             */

static bool cgroup2_usable(char *why, size_t len)
{
	struct statfs sf;
	char buf[512];

	if (statfs(CG_ROOT, &sf) || sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(why, len, "%s is not a cgroup2 mount", CG_ROOT);
		return false;
	}
	if (access(CG_ROOT "/cgroup.subtree_control", W_OK)) {
		snprintf(why, len, "%s is not writable", CG_ROOT);
		return false;
	}
	if (read_str(CG_ROOT "/cgroup.controllers", buf, sizeof(buf)) ||
	    !strstr(buf, "memory")) {
		snprintf(why, len, "no memory controller in %s", CG_ROOT);
		return false;
	}
	return true;
}

static void cg_set_max(struct memcg *cg, bool lifted)
{
	char val[32] = "max";
	int err;

	if (cg->prof->tight && !lifted)
		snprintf(val, sizeof(val), "%" PRIu64, cg->max);
	err = cg_write(cg, "memory.max", val);
	if (err) {
		C.harness_err++;
		diag("%s/memory.max=%s: %s", cg->path, val, strerror(-err));
	}
}

static void cg_configure(struct memcg *cg)
{
	int err;

	err = cg_write(cg, "memory.zswap.writeback", cg->wb ? "1" : "0");
	if (err)
		diag("%s/memory.zswap.writeback: %s", cg->path, strerror(-err));
	err = cg_write(cg, "memory.zswap.max", cg->prof->zswap_max);
	if (err)
		diag("%s/memory.zswap.max: %s", cg->path, strerror(-err));
	cg_set_max(cg, H.limits_lifted);
}

static int cg_create(struct memcg *cg)
{
	if (mkdir(cg->path, 0755) && errno != EEXIST) {
		diag("mkdir %s: %s", cg->path, strerror(errno));
		return -1;
	}
	cg_configure(cg);
	return 0;
}

static void cg_collect_ooms(struct memcg *cg)
{
	char path[128];
	long long n;

	cg_file(cg, "memory.events", path, sizeof(path));
	n = read_keyed(path, "oom_kill");
	if (n > 0) {
		T.oom_kills += n;
		diag("%s: %lld OOM kill(s)", cg->path, n);
	}
}

/* Collects its OOM count and removes it; 0 on success. */
static int cg_remove(struct memcg *cg)
{
	if (!use_cgroups)
		return 0;
	if (rmdir(cg->path) && errno != ENOENT) {
		if (++cg->rmdir_tries % 20 == 0)
			diag("rmdir %s: %s (try %d)", cg->path,
			     strerror(errno), cg->rmdir_tries);
		return -1;
	}
	cg->rmdir_tries = 0;
	return 0;
}

static void cg_init(int i)
{
	struct memcg *cg = &cgs[i];

	cg_gen_path(i, 0, cg->path, sizeof(cg->path));
	cg->prof = &profiles[i % ARRAY_SIZE(profiles)];
	cg->wb = cg->prof->writeback;
	cg->ws = opt.workers * (opt.mib << 20);
	cg->max = cg->ws / 2 / page_size * page_size;
	cg->state = CG_ACTIVE;
}

static void init_memcgs(void)
{
	unsigned long i;

	for (i = 0; i < opt.memcgs; i++)
		cg_init(i);
}

/* soak-* memcgs an aborted run left (any generation). */
static void remove_leftovers(void)
{
	char path[320];
	struct dirent *d;
	DIR *dir = opendir(CG_ROOT);

	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "soak-", 5)) {
			snprintf(path, sizeof(path), CG_ROOT "/%s", d->d_name);
			rmdir(path);
		}
	closedir(dir);
}

static int setup_memcgs(void)
{
	unsigned long i;
	int err;

	if (!use_cgroups)
		return 0;
	err = write_str(CG_ROOT "/cgroup.subtree_control", "+memory");
	if (err) {
		diag("+memory in %s/cgroup.subtree_control: %s", CG_ROOT,
		     strerror(-err));
		return -1;
	}
	remove_leftovers();
	H.dying0 = read_keyed(CG_ROOT "/cgroup.stat", "nr_dying_descendants");
	for (i = 0; i < opt.memcgs; i++) {
		if (cg_create(&cgs[i]))
			return -1;
	}
	return 0;
}

static void describe_memcgs(void)
{
	const struct memcg *cg;
	unsigned long i;
	char max[64];

	for (i = 0; i < opt.memcgs && use_cgroups; i++) {
		cg = &cgs[i];
		if (cg->prof->tight)
			snprintf(max, sizeof(max), "%" PRIu64 "M",
				 cg->max >> 20);
		else
			snprintf(max, sizeof(max), "max (reclaim only)");
		diag("%s: %lu worker(s) x %lu MiB, zswap.writeback=%d"
		     " zswap.max=%s memory.max=%s", cg->path, opt.workers,
		     opt.mib, cg->prof->writeback, cg->prof->zswap_max, max);
	}
}

/* Stop the child that puts the limits back (its write returns). */
static void stop_limiter(void)
{
	if (H.limiter > 0)
		kill(H.limiter, SIGTERM);
	while (H.limiter > 0)
		reap_children(0);
}

/*
 * Tight memory.max would OOM while no swap exists, so it is lifted during
 * a swapoff/swapon cycle. On kernels whose zswap keeps the pages it cannot
 * compress, whole, and charges them to the memcg (7.x: memory.stat's
 * zswap_incomp), nothing but the zswap shrinker moves a memcg's pool to
 * the disk when zswap.max is "max": with the shrinker off the pool alone
 * fills a tight memory.max and the OOM killer rightly fires (seen on 7.3:
 * 13 of 16 MB zswap, 49 kB anon). There the soak turns the shrinker on,
 * and lifts tight limits while a flip has it off.
 *
 * Lifting is quick; putting the limits back is not: a lowered memory.max
 * reclaims in the writer until the memcg fits while its worker faults
 * back, which held the harness, and the churn with it, for 104 s (64
 * memcgs, TCG). A child does it, while act_memory_max() waits; a lift
 * stops the child first, so no late write undoes it.
 */
static void update_limits(void)
{
	bool lifted = H.lift_swapoff || H.lift_noshrink;
	unsigned long i, errs = C.harness_err;
	double t = now();
	pid_t pid = -1;

	if (H.limits_lifted == lifted || !use_cgroups)
		return;
	H.limits_lifted = lifted;
	stop_limiter();
	if (!lifted)
		pid = fork();
	if (pid > 0) {
		H.limiter = pid;
		return;
	}
	if (!pid) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
	}
	for (i = 0; i < opt.memcgs; i++)
		if (cgs[i].prof->tight)
			cg_set_max(&cgs[i], lifted);
	if (now() - t > 5)
		diag("t=%.0fs tight limits %s in %.1f s", t - H.t0,
		     lifted ? "lifted" : "back", now() - t);
	if (!pid)
		_exit(C.harness_err != errs);
}

static void set_limits_lifted(bool lifted)
{
	H.lift_swapoff = lifted;
	update_limits();
}

static void start_recycle(void)
{
	int i = xorshift64(&H.rng) % opt.memcgs;

	if (H.recycling >= 0 || remaining() < H.quiet_end ||
	    now() - H.last_recycle < H.recycle_interval)
		return;
	H.recycling = i;
	cgs[i].state = CG_RECYCLING;
	finish_memcg_workers(i);
	diag("t=%.0fs recreating soak-%d: workers verify and exit",
	     now() - H.t0, i);
}

/* Once its workers are gone: rmdir, mkdir, fresh workers. */
static void poll_recycle(void)
{
	struct memcg *cg;

	if (H.recycling < 0)
		return;
	cg = &cgs[H.recycling];
	if (cg->nlive || stop)
		return;
	if (use_cgroups) {
		cg_collect_ooms(cg);
		if (cg_remove(cg)) {
			C.rmdir_fail++;
			return;	/* retried on the next tick */
		}
		if (cg_create(cg))
			C.harness_err++;
	}
	cg->state = CG_ACTIVE;
	spawn_memcg_workers(H.recycling);
	C.recreations++;
	H.recycling = -1;
	H.last_recycle = now();
}

static void act_zswap_max(void)
{
	static const char *const vals[] = { "max", "16M", "1M", "0" };
	struct memcg *cg = &cgs[xorshift64(&H.rng) % opt.memcgs];
	/* zswap.max=0 with writeback=0 would pin everything in memory */
	unsigned long n = cg->wb ? 4 : 3;
	const char *v = vals[xorshift64(&H.rng) % n];

	if (!use_cgroups || cg->state != CG_ACTIVE)
		return;
	if (!cg_write(cg, "memory.zswap.max", v))
		C.zswap_max_changes++;
}

/*
 * -C: writeback flips only where there is no memory.max (without
 * writeback a limited memcg can only OOM); memory.max moves only where
 * there is one, between half the working set and all of it.
 */
/* A random memcg of profile parity odd (no memory.max) or even (tight). */
static struct memcg *pick_memcg(int odd)
{
	unsigned long half = (opt.memcgs + 1 - odd) / 2;

	return half ? &cgs[xorshift64(&H.rng) % half * 2 + odd] : &cgs[0];
}

static void act_writeback(void)
{
	struct memcg *cg = pick_memcg(1);

	if (!use_cgroups || cg->state != CG_ACTIVE || cg->prof->tight)
		return;
	cg->wb = !cg->wb;
	if (cg_write(cg, "memory.zswap.writeback", cg->wb ? "1" : "0"))
		C.harness_err++;
	else
		C.wb_flips++;
}

static void act_memory_max(void)
{
	struct memcg *cg = pick_memcg(0);

	if (!use_cgroups || cg->state != CG_ACTIVE || !cg->prof->tight ||
	    H.limiter > 0)
		return;
	cg->max = (cg->ws / 2 + xorshift64(&H.rng) % (cg->ws / 2 + 1)) /
		  page_size * page_size;
	cg_set_max(cg, H.limits_lifted);
	C.max_moves++;
}

/*
 * -C: a memcg's workers move to a new memcg (the next generation) and the
 * old one is removed at once. Their pages stay charged to it, in memory,
 * in zswap and on the disk: it goes offline and its object cgroup is
 * reparented while reclaim, writeback and the workers' faults work on
 * them. A fault that was charging the old memcg when its task left may
 * find it at its limit with no task to kill: the memcg OOM reports "no
 * killable processes", the fault returns VM_FAULT_OOM and is retried,
 * charging the new memcg (the kernel's way, seen on 7.3 without harm).
 */
static void act_migrate(void)
{
	int i = xorshift64(&H.rng) % opt.memcgs, tries;
	struct memcg *cg = &cgs[i], old = *cg;
	uint32_t gen = sh->cg_gen[i] + 1;
	char pid[32];
	unsigned long k;
	struct slot *s;

	if (!use_cgroups || cg->state != CG_ACTIVE || H.recycling == i ||
	    remaining() < H.quiet_end)
		return;
	cg_gen_path(i, gen, cg->path, sizeof(cg->path));
	if (cg_create(cg)) {
		*cg = old;
		C.migrate_fail++;
		return;
	}
	for (k = 0; k < opt.workers; k++) {
		s = &sh->slot[i * opt.workers + k];
		if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SLOT_RUNNING ||
		    !s->pid)
			continue;
		snprintf(pid, sizeof(pid), "%d", (int)s->pid);
		if (cg_write(cg, "cgroup.procs", pid))
			C.migrate_fail++;	/* it exited meanwhile */
	}
	__atomic_store_n(&sh->cg_gen[i], gen, __ATOMIC_RELAXED);
	cg_collect_ooms(&old);
	for (tries = 0; cg_remove(&old); tries++) {
		if (tries == 50) {
			diag("rmdir %s: %s: its memcg stays", old.path,
			     strerror(errno));
			C.rmdir_fail++;
			break;
		}
		sleep_ms(20);
	}
	C.migrations++;
}

/* ------------------------------------------------------------------ */
/* Parent: swap                                                        */

struct swapdev {
	bool present;
	char path[256];
	int prio;
};

static struct swapdev swp;

/* First (or the named) active swap device in /proc/swaps. */
static bool swap_lookup(const char *want, struct swapdev *out)
{
	char line[512], name[256], type[32];
	long long size, used;
	int prio;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %lld %lld %d", name, type, &size,
			   &used, &prio) != 5)
			continue;	/* the header */
		if (want && strcmp(want, name))
			continue;
		found = true;
		if (out) {
			snprintf(out->path, sizeof(out->path), "%s", name);
			out->prio = prio;
		}
	}
	fclose(f);
	return found;
}

static bool swap_is_on(void)
{
	return swap_lookup(swp.path, NULL);
}

static int swap_flags(void)
{
	if (swp.prio < 0)
		return 0;	/* it had an automatic priority */
	return SWAP_FLAG_PREFER |
	       ((swp.prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
}

/* Makes sure the swap device is on again; true if it is. */
static bool swap_try_on(void)
{
	if (!swap_is_on()) {
		if (swapon(swp.path, swap_flags())) {
			C.swapon_fail++;
			diag("swapon %s: %s", swp.path, strerror(errno));
			H.swap_pending = true;
			return false;
		}
		C.swapon_ok++;
	}
	H.swap_pending = false;
	set_limits_lifted(false);
	return true;
}

static void act_swap_cycle(void)
{
	double t;
	int err = 0;

	if (!globals_allowed() || !swp.present || H.swap_pending ||
	    opt.no_swapoff || remaining() < H.quiet_end ||
	    now() - H.last_swap < H.swap_interval)
		return;
	H.last_swap = now();
	set_limits_lifted(true);
	t = now();
	if (swapoff(swp.path))
		err = errno;
	if (!err) {
		C.swapoff_ok++;
	} else {
		C.swapoff_fail++;
		C.swapoff_enomem += err == ENOMEM;
	}
	diag("t=%.0fs swapoff %s: %s after %.1f s", t - H.t0, swp.path,
	     err ? strerror(err) : "ok", now() - t);
	swap_try_on();
}

/* ------------------------------------------------------------------ */
/* Parent: zswap module parameters                                     */

enum { ZK_COMP, ZK_POOL, ZK_SHRINK, ZK_ENABLED, NR_ZK };

static const char *const zk_name[NR_ZK] = {
	"compressor", "max_pool_percent", "shrinker_enabled", "enabled",
};

static char zk_orig[NR_ZK][64];
static bool zswap_present;
static const char *comps[8];
static int ncomps;

static void zk_path(int k, char *buf, size_t len)
{
	snprintf(buf, len, ZSWAP_PARAMS "/%s", zk_name[k]);
}

static int zk_read(int k, char *buf, size_t len)
{
	char path[128];

	zk_path(k, path, sizeof(path));
	return read_str(path, buf, len);
}

static int zk_write(int k, const char *val)
{
	char path[128];

	zk_path(k, path, sizeof(path));
	return write_str(path, val);
}

static void find_compressors(void)
{
	static const char *const cands[] = {
		"zstd", "lzo", "lz4", "lzo-rle", "lz4hc", "842", "deflate",
	};
	char line[256], name[64];
	bool have[ARRAY_SIZE(cands)] = { false };
	size_t i;
	FILE *f = fopen("/proc/crypto", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "name : %63s", name) != 1)
			continue;
		for (i = 0; i < ARRAY_SIZE(cands); i++)
			have[i] |= !strcmp(name, cands[i]);
	}
	if (f)
		fclose(f);
	for (i = 0; i < ARRAY_SIZE(cands); i++)
		if (have[i])
			comps[ncomps++] = cands[i];
}

static void zswap_save(void)
{
	int k;

	zswap_present = !access(ZSWAP_PARAMS "/enabled", W_OK);
	if (!zswap_present)
		return;
	for (k = 0; k < NR_ZK; k++)
		if (zk_read(k, zk_orig[k], sizeof(zk_orig[k])))
			zk_orig[k][0] = 0;	/* not in this kernel */
	find_compressors();
}

static bool zswap_can_touch(int k)
{
	return globals_allowed() && zswap_present && zk_orig[k][0];
}

static void fault_caches_arm(void);

static void act_compressor(void)
{
	const char *c;
	char cur[64];
	int err;

	if (!zswap_can_touch(ZK_COMP) || ncomps < 2 ||
	    zk_read(ZK_COMP, cur, sizeof(cur)))
		return;
	c = comps[xorshift64(&H.rng) % ncomps];
	if (!strcmp(c, cur))
		return;
	err = zk_write(ZK_COMP, c);
	if (!err) {
		C.comp_ok++;
		fault_caches_arm();	/* a new pool's caches (6.12) */
	} else {
		C.comp_fail++;	/* EINVAL/ENOENT: not usable, ignored */
		if (C.comp_fail <= 3)
			diag("compressor=%s: %s", c, strerror(-err));
	}
}

/* Flips enabled to the opposite of its saved value for 1-4 ticks. */
static void act_zswap_toggle(void)
{
	const char *flip = zk_orig[ZK_ENABLED][0] == 'Y' ? "N" : "Y";

	if (!zswap_can_touch(ZK_ENABLED) || H.zswap_flipped)
		return;
	if (zk_write(ZK_ENABLED, flip))
		return;
	C.zswap_toggles++;
	H.zswap_flipped = true;
	H.zswap_back_at = now() + (1 + xorshift64(&H.rng) % 4) * TICK_MS / 1e3;
}

static void poll_zswap_toggle(void)
{
	if (!H.zswap_flipped || now() < H.zswap_back_at)
		return;
	if (!zk_write(ZK_ENABLED, zk_orig[ZK_ENABLED]))
		H.zswap_flipped = false;
}

/* max_pool_percent among {saved, 10, 3}, or shrinker_enabled flipped. */
static void act_pool(void)
{
	const char *pools[] = { zk_orig[ZK_POOL], "10", "3" };
	char cur[16];
	int k = xorshift64(&H.rng) & 1 ? ZK_POOL : ZK_SHRINK;
	const char *v;

	if (!zswap_can_touch(k))
		return;
	if (k == ZK_POOL) {
		v = pools[xorshift64(&H.rng) % 3];
	} else {
		if (zk_read(ZK_SHRINK, cur, sizeof(cur)))
			return;
		v = cur[0] == 'Y' ? "N" : "Y";
	}
	/*
	 * Lift before the shrinker stops: the lift may wait for the limiter
	 * child, and meanwhile a tight memcg would fill with its pool (the
	 * 7.3 KCSAN kernel OOM-killed soak-0's worker in that window).
	 */
	if (k == ZK_SHRINK && H.keeps_incomp && !strcmp(v, "N")) {
		H.lift_noshrink = true;
		update_limits();
	}
	if (!zk_write(k, v))
		C.pool_changes++;
	if (k == ZK_SHRINK && H.keeps_incomp &&
	    !zk_read(ZK_SHRINK, cur, sizeof(cur))) {
		H.lift_noshrink = cur[0] != 'Y';
		update_limits();
	}
}

/* Writes back what differs; true if every saved knob reads back equal. */
static bool zswap_restore(void)
{
	char cur[64];
	bool ok = true;
	int k;

	for (k = 0; k < NR_ZK && zswap_present; k++) {
		if (!zk_orig[k][0])
			continue;
		if (!zk_read(k, cur, sizeof(cur)) && !strcmp(cur, zk_orig[k]))
			continue;
		zk_write(k, zk_orig[k]);
		if (zk_read(k, cur, sizeof(cur)) || strcmp(cur, zk_orig[k])) {
			diag("zswap %s: is '%s', was '%s'", zk_name[k], cur,
			     zk_orig[k]);
			ok = false;
		}
	}
	H.zswap_flipped = false;
	return ok;
}

/* ------------------------------------------------------------------ */
/* Parent: fault injection (reclaimer only, task-filter=Y)             */

#define MAX_FK	9

struct fault_dir {
	const char *name;
	int nknobs;
	const char *knob[MAX_FK];
	const char *val[MAX_FK];	/* [0] is probability */
	char orig[MAX_FK][32];
	bool present;
	bool armed;
	long long injected;
};

static char pct_str[16], budget_str[16];

static struct fault_dir faults[] = {
	{
		.name = "failslab", .nknobs = 8,
		.knob = { "probability", "interval", "times", "space",
			  "verbose", "task-filter", "ignore-gfp-wait",
			  "cache-filter" },
		.val = { pct_str, "1", budget_str, "0", "0", "Y", "N", "Y" },
	},
	{
		.name = "fail_page_alloc", .nknobs = 9,
		.knob = { "probability", "interval", "times", "space",
			  "verbose", "task-filter", "ignore-gfp-wait",
			  "ignore-gfp-highmem", "min-order" },
		.val = { pct_str, "1", budget_str, "0", "0", "Y", "N", "N",
			 "0" },
	},
};

static bool fault_armed_any, fault_make_it_fail;
static char fault_skip[128];

/*
 * failslab fails only zswap's and zsmalloc's caches (cache-filter=Y and
 * their /sys/kernel/slab/NAME/failslab): kmemleak's own metadata caches
 * stay out of reach, so kmemleak does not run dry and disable itself, and
 * its scan at the end of the debug run is a verdict. The kernel refuses
 * the flag on a merged cache: qemu.sh boots the debug kernel with
 * slab_nomerge. 6.12's zsmalloc makes caches per pool (zs_handle-NAME,
 * zspage-NAME), so new pools' caches are armed as the harness sees them.
 */
#define SLAB_SYSFS	"/sys/kernel/slab"
#define MAX_FCACHES	16
static const char *const fcache_prefix[] = { "zswap_entry", "zs_handle", "zspage" };
static char fcache[MAX_FCACHES][64];
static int nfcache;

static void fault_caches_arm(void)
{
	char path[300];
	struct dirent *de;
	size_t i;
	DIR *d;
	int k;

	if (!fault_armed_any || !faults[0].armed)
		return;
	d = opendir(SLAB_SYSFS);
	if (!d)
		return;
	while ((de = readdir(d)) && nfcache < MAX_FCACHES) {
		for (i = 0; i < ARRAY_SIZE(fcache_prefix); i++)
			if (!strncmp(de->d_name, fcache_prefix[i], strlen(fcache_prefix[i])))
				break;
		if (i == ARRAY_SIZE(fcache_prefix))
			continue;
		for (k = 0; k < nfcache; k++)
			if (!strcmp(fcache[k], de->d_name))
				break;
		if (k < nfcache)
			continue;
		snprintf(path, sizeof(path), SLAB_SYSFS "/%.200s/failslab", de->d_name);
		if (write_str(path, "1")) {
			diag("%s: cannot arm (a merged cache? boot with slab_nomerge)", path);
			continue;
		}
		snprintf(fcache[nfcache++], sizeof(fcache[0]), "%.63s", de->d_name);
		diag("failslab: armed cache %s", de->d_name);
	}
	closedir(d);
}

static void fault_caches_disarm(void)
{
	char path[300];
	int k;

	for (k = 0; k < nfcache; k++) {
		snprintf(path, sizeof(path), SLAB_SYSFS "/%.200s/failslab", fcache[k]);
		write_str(path, "0");	/* gone with its pool: nothing to do */
	}
}

static void fk_path(const struct fault_dir *fd, int k, char *buf, size_t len)
{
	snprintf(buf, len, DEBUGFS "/%s/%s", fd->name, fd->knob[k]);
}

static int fault_save(struct fault_dir *fd)
{
	char path[300];
	int k;

	for (k = 0; k < fd->nknobs; k++) {
		fk_path(fd, k, path, sizeof(path));
		if (read_str(path, fd->orig[k], sizeof(fd->orig[k])))
			return -1;
	}
	return 0;
}

static void fault_write(struct fault_dir *fd, int k, const char *val)
{
	char path[160];
	int err;

	fk_path(fd, k, path, sizeof(path));
	err = write_str(path, val);
	if (err)
		diag("%s=%s: %s", path, val, strerror(-err));
}

/* Probability goes to 0 first and to its value last. */
static void fault_arm_one(struct fault_dir *fd)
{
	int k;

	fd->present = !fault_save(fd);
	if (!fd->present)
		return;
	fault_write(fd, 0, "0");
	for (k = 1; k < fd->nknobs; k++)
		fault_write(fd, k, fd->val[k]);
	fault_write(fd, 0, fd->val[0]);
	fd->armed = true;
	fault_armed_any = true;
}

static void fault_arm(void)
{
	char path[64];
	size_t i;
	int err;

	if (!opt.fault)
		return;
	if (opt.dry) {
		snprintf(fault_skip, sizeof(fault_skip), "dry mode (-n)");
		return;
	}
	snprintf(pct_str, sizeof(pct_str), "%lu", opt.fault_pct);
	snprintf(budget_str, sizeof(budget_str), "%d", FAULT_BUDGET);
	for (i = 0; i < ARRAY_SIZE(faults); i++)
		fault_arm_one(&faults[i]);
	if (!fault_armed_any) {
		snprintf(fault_skip, sizeof(fault_skip),
			 "no %s/failslab or %s/fail_page_alloc (needs CONFIG_FAULT_INJECTION_DEBUG_FS)",
			 DEBUGFS, DEBUGFS);
		return;
	}
	fault_caches_arm();
	snprintf(path, sizeof(path), "/proc/%d/make-it-fail", (int)H.reclaimer);
	err = H.reclaimer > 0 ? write_str(path, "1") : -ESRCH;
	fault_make_it_fail = !err;
	if (err)
		diag("%s: %s", path, strerror(-err));
	diag("fault injection: %lu%% of the reclaimer's page allocations and of its"
	     " allocations from %d zswap/zsmalloc cache(s) (pid %d)",
	     opt.fault_pct, nfcache, (int)H.reclaimer);
}

/* Disarms, counts the injected faults, restores; false if not restored. */
static bool fault_disarm_one(struct fault_dir *fd)
{
	char path[160], cur[32];
	bool ok = true;
	int k;

	fault_write(fd, 0, "0");
	fk_path(fd, 2, path, sizeof(path));
	fd->injected = FAULT_BUDGET - read_ll(path);	/* "times" counts down */
	for (k = fd->nknobs - 1; k >= 0; k--) {
		fault_write(fd, k, fd->orig[k]);
		fk_path(fd, k, path, sizeof(path));
		if (read_str(path, cur, sizeof(cur)) || strcmp(cur, fd->orig[k])) {
			diag("%s: is '%s', was '%s'", path, cur, fd->orig[k]);
			ok = false;
		}
	}
	fd->armed = false;
	return ok;
}

static bool fault_restored = true;

static void fault_disarm(void)
{
	size_t i;

	fault_caches_disarm();
	for (i = 0; i < ARRAY_SIZE(faults); i++)
		if (faults[i].armed)
			fault_restored &= fault_disarm_one(&faults[i]);
}

/* ------------------------------------------------------------------ */
/* Parent: global counters, before and after                           */

static const char *const vm_keys[] = {
	"zswpout", "zswpin", "zswpwb", "pswpout", "pswpin", "swpout_zero",
	"swpin_zero", "oom_kill", "thp_fault_alloc", "thp_swpout",
	"thp_swpout_fallback",
};

static const char *const zd_keys[] = {
	"written_back_pages", "reject_compress_poor", "reject_compress_fail",
	"reject_alloc_fail", "reject_kmemcache_fail", "reject_reclaim_fail",
	"pool_limit_hit",
};

static long long vm0[ARRAY_SIZE(vm_keys)], zd0[ARRAY_SIZE(zd_keys)];

static long long zd_read(size_t i)
{
	char path[128];

	snprintf(path, sizeof(path), ZSWAP_DEBUG "/%s", zd_keys[i]);
	return read_ll(path);
}

static void stats_snapshot(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vm_keys); i++)
		vm0[i] = read_keyed("/proc/vmstat", vm_keys[i]);
	for (i = 0; i < ARRAY_SIZE(zd_keys); i++)
		zd0[i] = zd_read(i);
}

static void stats_print(void)
{
	char buf[768];
	size_t i, n = 0;
	long long v;

	for (i = 0; i < ARRAY_SIZE(vm_keys); i++) {
		v = read_keyed("/proc/vmstat", vm_keys[i]);
		if (v >= 0 && vm0[i] >= 0)
			n += snprintf(buf + n, sizeof(buf) - n, " %s=+%lld",
				      vm_keys[i], v - vm0[i]);
	}
	diag("vmstat:%s", n ? buf : " (none)");
	n = 0;
	for (i = 0; i < ARRAY_SIZE(zd_keys); i++) {
		v = zd_read(i);
		if (v >= 0 && zd0[i] >= 0)
			n += snprintf(buf + n, sizeof(buf) - n, " %s=+%lld",
				      zd_keys[i], v - zd0[i]);
	}
	diag("zswap debugfs:%s", n ? buf : " (not readable)");
}

/* ------------------------------------------------------------------ */
/* Parent: main loop                                                   */

static void live_sums(uint64_t *w, uint64_t *v, uint64_t *x)
{
	int i;

	*w = T.written;
	*v = T.verified;
	*x = T.wrong;
	for (i = 0; i < MAX_SLOTS; i++) {
		if (sh->slot[i].state == SLOT_FREE)
			continue;
		*w += get64(&sh->slot[i].written);
		*v += get64(&sh->slot[i].verified);
		*x += get64(&sh->slot[i].wrong);
	}
}

static void progress(bool force)
{
	uint64_t w, v, x;

	if (!force && now() < H.next_progress)
		return;
	H.next_progress = now() + PROGRESS_S;
	live_sums(&w, &v, &x);
	diag("t=%.0fs written=%" PRIu64 " verified=%" PRIu64 " wrong=%" PRIu64
	     " live=%lu reclaims=%" PRIu64 " swapoffs=%lu recreations=%lu",
	     now() - H.t0, w, v, x, live_workers(),
	     get64(&sh->reclaim_ok),
	     C.swapoff_ok + C.swapoff_fail, C.recreations);
}

enum {
	A_ZSWAP_MAX, A_COMPRESSOR, A_TOGGLE, A_POOL, A_SWAP, A_RECYCLE, A_NONE,
	A_WRITEBACK, A_MEMORY_MAX, A_MIGRATE,
};

static const int action_table[8] = {
	A_ZSWAP_MAX, A_ZSWAP_MAX, A_COMPRESSOR, A_TOGGLE,
	A_POOL, A_SWAP, A_RECYCLE, A_NONE,
};

static const int churn_table[12] = {
	A_ZSWAP_MAX, A_WRITEBACK, A_WRITEBACK, A_MEMORY_MAX, A_MEMORY_MAX,
	A_MIGRATE, A_MIGRATE, A_RECYCLE, A_COMPRESSOR, A_TOGGLE, A_POOL, A_SWAP,
};

static void harness_action(void)
{
	uint64_t r = xorshift64(&H.rng);

	switch (opt.churn ? churn_table[r % 12] : action_table[r % 8]) {
	case A_WRITEBACK:
		act_writeback();
		break;
	case A_MEMORY_MAX:
		act_memory_max();
		break;
	case A_MIGRATE:
		act_migrate();
		break;
	case A_ZSWAP_MAX:
		act_zswap_max();
		break;
	case A_COMPRESSOR:
		act_compressor();
		break;
	case A_TOGGLE:
		act_zswap_toggle();
		break;
	case A_POOL:
		act_pool();
		break;
	case A_SWAP:
		act_swap_cycle();
		break;
	case A_RECYCLE:
		start_recycle();
		break;
	}
}

static void harness_loop(void)
{
	while (!stop && now() < H.deadline) {
		sleep_ms(TICK_MS);
		reap_children(WNOHANG);
		poll_recycle();
		poll_zswap_toggle();
		if (H.swap_pending)
			swap_try_on();
		if (!stop)
			harness_action();
		if (!stop && opt.churn)	/* twice the changes */
			harness_action();
		progress(false);
	}
}

static void start_reclaimer(void)
{
	pid_t pid;

	if (!use_cgroups)
		return;
	pid = fork();
	if (pid < 0) {
		diag("fork reclaimer: %s", strerror(errno));
		return;
	}
	if (!pid)
		reclaimer_main(parent_pid);
	H.reclaimer = pid;
}

static void stop_reclaimer(void)
{
	__atomic_store_n(&sh->reclaimer_stop, 1, __ATOMIC_RELAXED);
	if (H.reclaimer > 0)
		kill(H.reclaimer, SIGTERM);	/* cuts a long memory.reclaim */
	while (H.reclaimer > 0)
		reap_children(0);
}

static void kill_live_workers(void)
{
	int i;

	for (i = 0; i < MAX_SLOTS; i++) {
		if (sh->slot[i].state == SLOT_FREE || !sh->slot[i].pid)
			continue;
		kill(sh->slot[i].pid, SIGKILL);
		T.timed_out++;
	}
}

static void wait_workers(void)
{
	double limit = opt.duration * 5 > FINAL_WAIT_MIN_S ?
		       opt.duration * 5 : FINAL_WAIT_MIN_S;
	double until = now() + limit, next = now() + 30;
	unsigned long i;

	for (i = 0; i < opt.memcgs; i++)
		finish_memcg_workers(i);
	while (live_workers()) {
		sleep_ms(200);
		reap_children(WNOHANG);
		if (now() > next) {
			diag("waiting for %lu worker(s) to verify their pages",
			     live_workers());
			next = now() + 30;
		}
		if (now() > until && live_workers()) {
			diag("workers still verifying after %.0f s: killing them",
			     limit);
			kill_live_workers();
			until = now() + 3600;
		}
	}
}

static void remove_memcgs(void)
{
	unsigned long i;
	int tries;

	for (i = 0; i < opt.memcgs && use_cgroups; i++) {
		cg_collect_ooms(&cgs[i]);
		for (tries = 0; tries < 50 && cg_remove(&cgs[i]); tries++)
			sleep_ms(100);
	}
}

/* ------------------------------------------------------------------ */
/* Parent: setup, restore, report                                      */

static bool swap_restored = true;
static bool zswap_restored = true;

/* Undo every global change; safe to call more than once. */
static void restore_globals(void)
{
	int tries;

	if (opt.dry)
		return;
	fault_disarm();
	/*
	 * The shrinker's own setting goes back, "N" by default: as for a
	 * flip (act_pool()), tight limits are lifted first and stay lifted,
	 * or the workers' final pass fills them with zswap's incompressible
	 * pages (7.3 KCSAN kernel, 2026-12-07: soak-0 OOM-killed there).
	 */
	if (H.keeps_incomp && !strcmp(zk_orig[ZK_SHRINK], "N")) {
		H.lift_noshrink = true;
		update_limits();
	}
	zswap_restored = zswap_restore();
	if (swp.present) {
		for (tries = 0; tries < 5 && !swap_try_on(); tries++)
			sleep_ms(1000);
		swap_restored = swap_is_on();
	}
	set_limits_lifted(false);
}

static int check_env(void)
{
	char why[128];

	use_cgroups = cgroup2_usable(why, sizeof(why));
	if (opt.dry) {
		if (!use_cgroups)
			diag("dry mode: no memcgs (%s)", why);
		return 0;
	}
	if (geteuid()) {
		say("1..0 # SKIP needs root");
		return -1;
	}
	if (!use_cgroups) {
		say("1..0 # SKIP %s", why);
		return -1;
	}
	swp.present = swap_lookup(NULL, &swp);
	if (!swp.present)
		diag("no active swap device: no swapoff/swapon");
	zswap_save();
	if (!zswap_present)
		diag("no %s: zswap knobs untouched", ZSWAP_PARAMS);
	return 0;
}

/* See update_limits(): the shrinker on where zswap keeps incompressible pages. */
static void shrinker_for_incomp(void)
{
	char path[128];

	if (!use_cgroups || opt.dry)
		return;
	cg_file(&cgs[0], "memory.stat", path, sizeof(path));
	H.keeps_incomp = read_keyed(path, "zswap_incomp") >= 0;
	if (!H.keeps_incomp)
		return;
	if (zswap_can_touch(ZK_SHRINK) && !zk_write(ZK_SHRINK, "Y")) {
		diag("zswap keeps incompressible pages: shrinker_enabled=Y for the run");
		return;
	}
	diag("zswap keeps incompressible pages and its shrinker cannot be turned on: tight limits lifted");
	H.lift_noshrink = true;
	update_limits();
}

static int setup_shared(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -1;
	if (mlock(sh, sizeof(*sh)))
		diag("mlock of the shared counters: %s", strerror(errno));
	return 0;
}

static void print_config(void)
{
	int i;
	char list[128] = "";

	for (i = 0; i < ncomps; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? "," : "", comps[i]);
	diag("soak: duration=%lus memcgs=%lu workers/memcg=%lu MiB/worker=%lu"
	     " total=%luMiB seed=%lu%s%s%s%s%s", opt.duration, opt.memcgs,
	     opt.workers, opt.mib, opt.memcgs * opt.workers * opt.mib,
	     opt.seed, opt.dry ? " dry" : "", opt.fault ? " faults" : "",
	     opt.selftest ? " self-test" : "", opt.churn ? " churn" : "",
	     opt.no_swapoff ? " no-swapoff" : "");
	if (swp.present)
		diag("swap: %s priority %d", swp.path, swp.prio);
	if (zswap_present)
		diag("zswap: enabled=%s compressor=%s max_pool_percent=%s"
		     " shrinker_enabled=%s; compressors to cycle: %s",
		     zk_orig[ZK_ENABLED], zk_orig[ZK_COMP], zk_orig[ZK_POOL],
		     zk_orig[ZK_SHRINK], list);
	describe_memcgs();
}

static void print_summary(void)
{
	diag("soak: written=%" PRIu64 " verified=%" PRIu64 " wrong=%" PRIu64
	     " final_verified=%" PRIu64 " unverified=%" PRIu64,
	     T.written, T.verified, T.wrong, T.final_verified, T.unverified);
	diag("soak: workers=%lu clean=%lu killed=%lu sigkilled=%lu"
	     " bad_exit=%lu timed_out=%lu oom_kills=%lld", T.workers,
	     T.clean, T.killed, T.sigkilled, T.bad_exit, T.timed_out,
	     T.oom_kills);
	diag("soak: reclaims=%" PRIu64 " reclaim_eagain=%" PRIu64
	     " reclaim_err=%" PRIu64 " swapoff_ok=%lu swapoff_failed=%lu"
	     " (enomem=%lu) swapon=%lu swapon_failed=%lu",
	     sh->reclaim_ok, sh->reclaim_eagain, sh->reclaim_err,
	     C.swapoff_ok, C.swapoff_fail, C.swapoff_enomem, C.swapon_ok,
	     C.swapon_fail);
	diag("soak: compressor_switches=%lu compressor_failed=%lu"
	     " zswap_toggles=%lu zswap_max_changes=%lu pool_changes=%lu"
	     " memcg_recreations=%lu rmdir_retries=%lu harness_errors=%lu",
	     C.comp_ok, C.comp_fail, C.zswap_toggles, C.zswap_max_changes,
	     C.pool_changes, C.recreations, C.rmdir_fail, C.harness_err);
	if (opt.churn)
		diag("churn: writeback_flips=%lu memory_max_moves=%lu"
		     " migrations=%lu migrate_failures=%lu", C.wb_flips,
		     C.max_moves, C.migrations, C.migrate_fail);
	if (opt.fault && fault_armed_any)
		diag("faults: failslab injected=%lld fail_page_alloc"
		     " injected=%lld (probability %lu%%, reclaimer only)",
		     faults[0].present ? faults[0].injected : -1,
		     faults[1].present ? faults[1].injected : -1,
		     opt.fault_pct);
	stats_print();
}

static void check_data(void)
{
	if (!opt.selftest) {
		tap(T.wrong ? T_FAIL : T_PASS, "no wrong pages", NULL);
		return;
	}
	if (T.wrong != 1)
		diag("self-test: expected wrong=1, got %" PRIu64, T.wrong);
	tap(T.wrong == 1 ? T_PASS : T_FAIL,
	    "self-test: the corrupted page is found (wrong=1)", NULL);
}

static void check_workers(void)
{
	bool ok = T.clean == T.workers && H.reclaimer_status == 0;

	if (T.killed)
		diag("%lu worker(s) killed (%lu by SIGKILL, %lld memcg OOM"
		     " kill(s), %lu by the timeout): lost work, not wrong data",
		     T.killed, T.sigkilled, T.oom_kills, T.timed_out);
	if (T.bad_exit)
		diag("%lu worker(s) failed to start or exited abnormally",
		     T.bad_exit);
	if (H.reclaimer_status)
		diag("reclaimer exit status 0x%x", H.reclaimer_status);
	tap(ok ? T_PASS : T_FAIL, "all workers exited cleanly", NULL);
}

static void check_globals(void)
{
	if (opt.dry)
		tap(T_SKIP, "swap restored at the end", "dry mode (-n)");
	else if (!swp.present)
		tap(T_SKIP, "swap restored at the end", "no swap at start");
	else
		tap(swap_restored && swap_is_on() ? T_PASS : T_FAIL,
		    "swap restored at the end", NULL);
	if (opt.dry)
		tap(T_SKIP, "zswap parameters restored", "dry mode (-n)");
	else if (!zswap_present)
		tap(T_SKIP, "zswap parameters restored", "no zswap");
	else
		tap(zswap_restored ? T_PASS : T_FAIL,
		    "zswap parameters restored", NULL);
}

/*
 * -X with -C: keep one removed memcg alive on purpose, so that the dying
 * check below must fail (a check that cannot fail proves nothing). A
 * child charges pages to soak-pin and swaps them out: a swap entry holds
 * the id of its memcg, which removal does not reparent. The child goes
 * back to our cgroup, soak-pin is removed, and the child keeps its swap
 * entries until the check is over. Returns the child, or -1.
 */
static pid_t pin_dying_memcg(void)
{
	const char *pin = CG_ROOT "/soak-pin";
	size_t i, len = 256 * page_size;
	char procs[4200], pid[32], c = 0;
	int ready[2];
	pid_t child;

	if (find_cgroup() || (mkdir(pin, 0755) && errno != EEXIST) ||
	    pipe(ready)) {
		diag("self-test: cannot set up %s: %s", pin, strerror(errno));
		return -1;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cgdir);
	child = fork();
	if (!child) {
		char *p;

		close(ready[0]);
		child_setup(parent_pid);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (write_str(CG_ROOT "/soak-pin/cgroup.procs", pid))
			_exit(1);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		madvise(p, len, MADV_NOHUGEPAGE);
		for (i = 0; i < len; i++)
			p[i] = (char)(i * 31 + i / page_size);
		madvise(p, len, MADV_PAGEOUT);
		if (write_str(procs, pid) || write(ready[1], "1", 1) != 1)
			_exit(1);
		while (!child_stop)
			pause();
		_exit(0);
	}
	close(ready[1]);
	if (child < 0 || read(ready[0], &c, 1) != 1 || rmdir(pin)) {
		diag("self-test: pinning %s failed: %s", pin, strerror(errno));
		c = 0;
	}
	close(ready[0]);
	if (c) {
		snprintf(procs, sizeof(procs), "/proc/%d/status", (int)child);
		diag("self-test: %s removed, its pages swapped out (VmSwap %lld kB)",
		     pin, read_keyed(procs, "VmSwap:"));
		return child;
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	rmdir(pin);
	return -1;
}

/*
 * -C: every memcg removed (by recreation, migration or at the end) must
 * be freed once nothing is charged to it: nr_dying_descendants of the
 * root back to its value at the start. Reclaim from the root and
 * drop_caches free what the workers left (swap cache, slab); a memcg
 * still dying after DYING_WAIT_S is a leak.
 */
static void check_dying(void)
{
	const char *name = "removed memcgs freed (nr_dying_descendants back to its start)";
	double until = now() + DYING_WAIT_S;
	pid_t pin = -1;
	long long n;

	if (!opt.churn) {
		tap(T_SKIP, name, "not requested (-C)");
		return;
	}
	if (!use_cgroups || H.dying0 < 0) {
		tap(T_SKIP, name, "no cgroup.stat nr_dying_descendants");
		return;
	}
	if (opt.selftest) {
		pin = pin_dying_memcg();
		name = "self-test: a removed memcg kept alive is found dying";
	}
	for (;;) {
		n = read_keyed(CG_ROOT "/cgroup.stat", "nr_dying_descendants");
		if (n <= H.dying0 || now() > until)
			break;
		write_str(CG_ROOT "/memory.reclaim", "1G");
		write_str("/proc/sys/vm/drop_caches", "3");
		sleep_ms(2000);
	}
	diag("nr_dying_descendants: %lld at the start, %lld at the end"
	     " (%.0f s after the memcgs' removal)", H.dying0, n,
	     now() - (until - DYING_WAIT_S));
	if (!opt.selftest) {
		tap(n <= H.dying0 ? T_PASS : T_FAIL, name, NULL);
		return;
	}
	if (pin > 0) {
		kill(pin, SIGKILL);
		waitpid(pin, NULL, 0);
	}
	tap(pin > 0 && n > H.dying0 ? T_PASS : T_FAIL, name, NULL);
}

static void check_faults(void)
{
	const char *name = "fault injection armed and restored";
	long long total = faults[0].injected + faults[1].injected;

	if (!opt.fault) {
		tap(T_SKIP, name, "not requested (-f)");
		return;
	}
	if (fault_skip[0]) {
		tap(T_SKIP, name, fault_skip);
		return;
	}
	if (!total)
		diag("no fault was injected: the reclaimer made no allocation"
		     " that failslab/fail_page_alloc could fail");
	tap(fault_make_it_fail && fault_restored ? T_PASS : T_FAIL, name,
	    NULL);
}

static void run(void)
{
	unsigned long i;

	H.t0 = now();
	H.deadline = H.t0 + opt.duration;
	H.next_progress = H.t0 + PROGRESS_S;
	H.quiet_end = opt.duration / 5.0 < 10 ? opt.duration / 5.0 : 10;
	H.swap_interval = opt.duration / 4.0 > 5 ? opt.duration / 4.0 : 5;
	H.recycle_interval = opt.duration / (2.0 * opt.memcgs);
	if (H.recycle_interval < 3)
		H.recycle_interval = 3;
	/* the first swapoff and recycle may come after half an interval */
	H.last_swap = H.t0 - H.swap_interval / 2;
	H.last_recycle = H.t0 - H.recycle_interval / 2;
	H.rng = splitmix64(opt.seed ^ 0x4a7e55ULL) | 1;
	for (i = 0; i < opt.memcgs; i++)
		spawn_memcg_workers(i);
	start_reclaimer();
	fault_arm();
	harness_loop();
	if (stop)
		diag("signal: stopping early");
	restore_globals();
	stop_reclaimer();
	wait_workers();
	restore_globals();	/* again, in case a signal cut it short */
	stop_limiter();
	remove_memcgs();
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

static void __attribute__((noreturn)) usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d SECONDS] [-m MIB] [-w WORKERS] [-c MEMCGS] [-s SEED] [-f] [-p PERCENT] [-n] [-X] [-C] [-S]\n",
		prog);
	exit(2);
}

static void parse_ul(const char *prog, const char *s, unsigned long min,
		     unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *s == '-' || *end || errno || v < min || v > max)
		usage(prog);
	*out = v;
}

static void parse_args(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "d:m:w:c:s:fp:nXCSh")) != -1) {
		switch (c) {
		case 'd':
			parse_ul(argv[0], optarg, 1, 1UL << 20, &opt.duration);
			break;
		case 'm':
			parse_ul(argv[0], optarg, 1, 1UL << 16, &opt.mib);
			break;
		case 'w':
			parse_ul(argv[0], optarg, 1, MAX_PER_MEMCG,
				 &opt.workers);
			break;
		case 'c':
			parse_ul(argv[0], optarg, 1, MAX_MEMCGS, &opt.memcgs);
			break;
		case 's':
			parse_ul(argv[0], optarg, 0, ~0UL, &opt.seed);
			break;
		case 'f':
			opt.fault = true;
			break;
		case 'p':
			parse_ul(argv[0], optarg, 1, 100, &opt.fault_pct);
			break;
		case 'n':
			opt.dry = true;
			break;
		case 'X':
			opt.selftest = true;
			break;
		case 'C':
			opt.churn = true;
			break;
		case 'S':
			opt.no_swapoff = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc)
		usage(argv[0]);
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	page_size = sysconf(_SC_PAGESIZE);
	parent_pid = getpid();
	say("TAP version 13");
	if (check_env())
		return KSFT_SKIP;
	if (setup_shared()) {
		say("Bail out! mmap of the shared counters: %s",
		    strerror(errno));
		return KSFT_FAIL;
	}
	say("1..%d", NR_CHECKS);
	init_memcgs();
	print_config();
	install_signals();
	stats_snapshot();
	if (setup_memcgs()) {
		remove_memcgs();
		say("Bail out! memcg setup failed");
		return KSFT_FAIL;
	}
	shrinker_for_incomp();
	run();
	print_summary();
	check_data();
	check_workers();
	check_globals();
	check_faults();
	check_dying();
	say("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0",
	    tap_count[T_PASS], tap_count[T_FAIL], tap_count[T_SKIP]);
	return tap_count[T_FAIL] ? KSFT_FAIL : KSFT_PASS;
}
