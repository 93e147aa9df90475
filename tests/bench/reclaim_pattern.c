// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim_pattern - time how long memory.reclaim takes to push pages of
 * one content pattern out to swap.
 *
 * Usage: reclaim_pattern -p zero|lastword|midword|random [-s MIB] [-r ROUNDS]
 *
 * Runs inside the memcg set up by the harness (its own cgroup is read
 * from /proc/self/cgroup). Each round fills SIZE_MIB (default 64) of
 * base pages with the pattern, then writes the buffer size to the
 * memcg's memory.reclaim until memory.swap.current covers it, timing only
 * the reclaim, then faults everything back and checks it.
 *   zero      every byte zero (swap stores nothing: the zeromap case)
 *   lastword  zero but for the page's last 8-byte word (the whole page
 *             is scanned, or one word with a last-word-first check)
 *   midword   zero but for the word in the middle of the page (half the
 *             page is scanned, whatever the check order)
 *   random    incompressible data
 *
 * Output, one "key value" per line: reclaim_s (sum over rounds),
 * reclaim_us_per_mib, pages, rounds, verify_errors.
 * Exit status: 0 if all pages verified, 1 if not, 2 on setup errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "zstack-util.h"

static void fill(char *p, size_t psz, size_t idx, int pattern)
{
	uint64_t *w = (uint64_t *)p, x = idx * 0x9e3779b97f4a7c15ULL + 1;
	size_t i, n = psz / sizeof(uint64_t);

	memset(p, 0, psz);
	if (pattern == 1) {
		w[n - 1] = idx + 1;
	} else if (pattern == 3) {
		w[n / 2] = idx + 1;
	} else if (pattern == 2) {
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			w[i] = x;
		}
	}
}

int main(int argc, char **argv)
{
	size_t psz = sysconf(_SC_PAGESIZE), size = 64UL << 20, npages, i;
	char *buf, *want;
	long errors = 0;
	int rounds = 3, pattern = -1, opt, r, tries;
	double t, total = 0;

	while ((opt = getopt(argc, argv, "p:s:r:")) != -1) {
		switch (opt) {
		case 'p':
			pattern = !strcmp(optarg, "zero") ? 0 :
				  !strcmp(optarg, "lastword") ? 1 :
				  !strcmp(optarg, "random") ? 2 :
				  !strcmp(optarg, "midword") ? 3 : -1;
			break;
		case 's':
			size = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			pattern = -1;
		}
	}
	if (pattern < 0 || !size || rounds < 1) {
		fprintf(stderr, "usage: %s -p zero|lastword|midword|random [-s MIB] [-r ROUNDS]\n",
			argv[0]);
		return 2;
	}
	if (find_cgroup()) {
		fprintf(stderr, "cannot find own cgroup\n");
		return 2;
	}
	npages = size / psz;
	want = malloc(psz);
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!want || buf == MAP_FAILED) {
		perror("allocation");
		return 2;
	}
	madvise(buf, size, MADV_NOHUGEPAGE);

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < npages; i++)
			fill(buf + i * psz, psz, i, pattern);
		t = now();
		for (tries = 0; tries < 10; tries++) {
			reclaim(size);
			if (read_ll(cg_path("memory.swap.current")) >= (long)size)
				break;
		}
		total += now() - t;
		if (read_ll(cg_path("memory.swap.current")) < (long)size * 9 / 10)
			fprintf(stderr, "round %d: only %lld bytes in swap\n", r,
				read_ll(cg_path("memory.swap.current")));
		for (i = 0; i < npages; i++) {
			fill(want, psz, i, pattern);
			if (memcmp(buf + i * psz, want, psz) && errors++ < 10)
				fprintf(stderr, "round %d: page %zu differs\n", r, i);
		}
	}
	printf("reclaim_s %.3f\n", total);
	printf("reclaim_us_per_mib %.0f\n", total * 1e6 / (rounds * (size >> 20)));
	printf("pages %zu\nrounds %d\nverify_errors %ld\n", npages, rounds, errors);
	return errors ? 1 : 0;
}
