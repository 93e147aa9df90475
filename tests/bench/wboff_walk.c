// SPDX-License-Identifier: GPL-2.0
/*
 * wboff_walk - reclaim a memcg whose zswap is full and writeback is off,
 * then count the faults a walk of the memory takes.
 *
 * Usage: wboff_walk [-s MIB] [-r ROUNDS] [-z EVERY]
 *
 * Runs inside the memcg set up by the harness (memory.zswap.writeback=0
 * and a memory.zswap.max well below the buffer). Fills SIZE_MIB (default
 * 96) of base pages, 2:1 compressible except every EVERY-th page (default
 * 8, 0 for none), which is zero-filled; writes the buffer size to the
 * memcg's memory.reclaim ROUNDS times (default 5); records what zswap
 * holds for the memcg; then reads every page once and checks it.
 *
 * Output, one "key value" per line: walk_minflt, walk_majflt,
 * walk_faults (their sum), zswapped_pages (memory.stat zswapped in
 * pages, before the walk), zero_pages, expected_faults (stored plus
 * zero-filled pages out, from memory.stat swpout_zero), swapcached_pages
 * (before the walk), reclaim_s, walk_s, elapsed_s, pages,
 * verify_errors.
 * Exit status: 0 if all pages verified, 1 if not, 2 on setup errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "zstack-util.h"

/* A "key value" line of the memcg's memory.stat, or -1 */
#define memstat_key(key) ((long)read_keyed(cg_path("memory.stat"), (key)))

/* Pseudo-random first half, zero second half: about 2:1 for zstd */
static void fill(char *p, size_t psz, size_t idx, size_t every)
{
	uint64_t *w = (uint64_t *)p, x = (idx + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i, n = psz / sizeof(uint64_t);

	memset(p, 0, psz);
	if (every && idx % every == every - 1)
		return;
	for (i = 0; i < n / 2; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

int main(int argc, char **argv)
{
	size_t psz = sysconf(_SC_PAGESIZE), size = 96UL << 20, npages, i;
	size_t every = 8;
	long errors = 0, zero0, stored, zero, swapcached;
	int rounds = 5, opt, r;
	double t0, t1, t2, t3;
	struct rusage a, b;
	char *buf, *want;

	while ((opt = getopt(argc, argv, "s:r:z:")) != -1) {
		switch (opt) {
		case 's':
			size = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'z':
			every = strtoul(optarg, NULL, 0);
			break;
		default:
			size = 0;
		}
	}
	if (!size || rounds < 1) {
		fprintf(stderr, "usage: %s [-s MIB] [-r ROUNDS] [-z EVERY]\n",
			argv[0]);
		return 2;
	}
	if (find_cgroup()) {
		fprintf(stderr, "cannot find own cgroup\n");
		return 2;
	}
	npages = size / psz;
	/* Touched now and locked, so that the walk faults on nothing else */
	want = malloc(psz);
	if (!want)
		return 2;
	memset(want, 0, psz);
	if (mlockall(MCL_CURRENT))
		perror("mlockall");
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	madvise(buf, size, MADV_NOHUGEPAGE);

	t0 = now();
	for (i = 0; i < npages; i++)
		fill(buf + i * psz, psz, i, every);
	zero0 = memstat_key("swpout_zero");
	t1 = now();
	for (r = 0; r < rounds; r++)
		reclaim(size);
	t2 = now();
	stored = memstat_key("zswapped");
	zero = memstat_key("swpout_zero");
	swapcached = memstat_key("swapcached");
	if (zero0 < 0 || stored < 0 || zero < 0 || swapcached < 0) {
		fprintf(stderr, "cannot read memory.stat\n");
		return 2;
	}
	stored /= psz;
	zero -= zero0;

	getrusage(RUSAGE_SELF, &b);
	for (i = 0; i < npages; i++) {
		fill(want, psz, i, every);
		if (memcmp(buf + i * psz, want, psz) && errors++ < 10)
			fprintf(stderr, "page %zu differs\n", i);
	}
	getrusage(RUSAGE_SELF, &a);
	t3 = now();

	printf("walk_minflt %ld\n", a.ru_minflt - b.ru_minflt);
	printf("walk_majflt %ld\n", a.ru_majflt - b.ru_majflt);
	printf("walk_faults %ld\n", a.ru_minflt - b.ru_minflt +
	       a.ru_majflt - b.ru_majflt);
	printf("zswapped_pages %ld\nzero_pages %ld\n", stored, zero);
	printf("expected_faults %ld\n", stored + zero);
	printf("swapcached_pages %ld\n", swapcached / (long)psz);
	printf("reclaim_s %.3f\nwalk_s %.3f\nelapsed_s %.3f\n",
	       t2 - t1, t3 - t2, t3 - t0);
	printf("pages %zu\nverify_errors %ld\n", npages, errors);
	return errors ? 1 : 0;
}
