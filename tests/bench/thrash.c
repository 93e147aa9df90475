// SPDX-License-Identifier: GPL-2.0
/*
 * thrash - swap/zswap thrash workload with data verification.
 *
 * Usage: thrash [-s SIZE_MIB] [-p PASSES] [-r RANDOM_PERMILLE]
 *               [-w WRITE_PERMILLE] [-H HOT_PERCENT] [-S SEED] [-T]
 *               [-m alt|seq|rand]
 *
 * Meant to run inside a memory cgroup smaller than the working set
 * (set up by the harness).  An anonymous MAP_PRIVATE buffer of SIZE_MIB
 * (default 256) is mapped with MADV_NOHUGEPAGE, so it is swapped as
 * base pages (with -T: MADV_HUGEPAGE, so that it is made of THPs, which
 * the kernel may swap out and in as large folios), and every page is
 * written once (generation 0).
 *
 * Page content is a pure function of (seed, page index, generation):
 * the first half of the page is pseudo-random 64-bit words, the second
 * half is zero, so pages compress roughly 2:1.  Generations are kept in
 * a separate uint32_t array.
 *
 * Then PASSES (default 4) passes are made, each of exactly "pages"
 * accesses.  Pass k is sequential if k is even (page 0, 1, 2, ...) and
 * random if k is odd (every access picks a page with a seeded xorshift
 * PRNG); -m seq makes every pass sequential, -m rand every pass
 * random.  In sequential passes, each step jumps to a random page instead
 * of the next one with probability RANDOM_PERMILLE/1000 (default 0).
 * With -H, a random pick goes to the first HOT_PERCENT% of the buffer nine
 * times out of ten, as in a database with a hot working set and a cold
 * rest that reclaim pushes out (default 0: uniform picks).
 * Each access rewrites the page with the next generation with
 * probability WRITE_PERMILLE/1000 (default 100); otherwise the whole page
 * is read and checked against its expected content.
 *
 * Output on stdout, one "key value" per line:
 *   pages, accesses (passes only, not the fill), verify_errors (reads
 *   that found wrong content; a bad page counts on every bad read),
 *   minflt, majflt (getrusage RUSAGE_SELF), elapsed_s (whole run),
 *   fill_s (initial fill only).
 * The first few mismatches are reported on stderr.
 *
 * Exit status: 0 if all data verified, 1 on verification failure,
 * 2 on usage or allocation error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "zstack-util.h"

#define MAX_REPORTED	10

static uint64_t seed = 1;
static size_t page_size;

static uint64_t page_seed(uint64_t idx, uint32_t gen)
{
	uint64_t s = splitmix64(seed ^ splitmix64((idx << 32) ^ gen));

	return s ? s : 1;	/* xorshift state must be non-zero */
}

static void fill_page(uint64_t *p, uint64_t idx, uint32_t gen)
{
	size_t nwords = page_size / sizeof(uint64_t);
	uint64_t s = page_seed(idx, gen);
	size_t i;

	for (i = 0; i < nwords / 2; i++)
		p[i] = xorshift64(&s);
	memset(p + nwords / 2, 0, page_size / 2);
}

/* Returns 0 if the page matches, else 1 (and reports the first few). */
static int check_page(const uint64_t *p, uint64_t idx, uint32_t gen,
		      uint64_t *nerr)
{
	size_t nwords = page_size / sizeof(uint64_t);
	uint64_t s = page_seed(idx, gen);
	uint64_t expect;
	size_t i;

	for (i = 0; i < nwords; i++) {
		expect = i < nwords / 2 ? xorshift64(&s) : 0;
		if (p[i] != expect)
			break;
	}
	if (i == nwords)
		return 0;
	if (*nerr < MAX_REPORTED)
		fprintf(stderr,
			"verify error: page %" PRIu64 " gen %" PRIu32
			" word %zu: expected 0x%016" PRIx64
			" got 0x%016" PRIx64 "\n",
			idx, gen, i, expect, p[i]);
	(*nerr)++;
	return 1;
}

static int parse_ul(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-')
		return -1;
	v = strtoul(s, &end, 0);
	if (*end || v > max)
		return -1;
	*out = v;
	return 0;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s SIZE_MIB] [-p PASSES] [-r RANDOM_PERMILLE] [-w WRITE_PERMILLE] [-H HOT_PERCENT] [-S SEED] [-T] [-m alt|seq|rand]\n",
		prog);
	exit(2);
}

/* A random page: uniform, or nine times in ten from the hot set */
static uint64_t pick(uint64_t *rng, uint64_t npages, uint64_t nhot)
{
	if (nhot && xorshift64(rng) % 10)
		return xorshift64(rng) % nhot;
	return xorshift64(rng) % npages;
}

int main(int argc, char **argv)
{
	unsigned long size_mib = 256, passes = 4, rnd_pm = 0, wr_pm = 100;
	unsigned long hot_pct = 0;
	unsigned long seed_arg = 1;
	uint64_t npages, nhot, accesses = 0, nerr = 0, idx, i, k, rng;
	uint32_t *gens;
	char *buf;
	double t0, t_fill;
	struct rusage ru;
	int opt, advice = MADV_NOHUGEPAGE;
	char mode = 'a';	/* alt: even passes sequential, odd random */

	while ((opt = getopt(argc, argv, "s:p:r:w:H:S:Tm:")) != -1) {
		switch (opt) {
		case 's':
			if (parse_ul(optarg, 1UL << 24, &size_mib) || !size_mib)
				usage(argv[0]);
			break;
		case 'p':
			if (parse_ul(optarg, 1UL << 20, &passes))
				usage(argv[0]);
			break;
		case 'r':
			if (parse_ul(optarg, 1000, &rnd_pm))
				usage(argv[0]);
			break;
		case 'w':
			if (parse_ul(optarg, 1000, &wr_pm))
				usage(argv[0]);
			break;
		case 'H':
			if (parse_ul(optarg, 100, &hot_pct))
				usage(argv[0]);
			break;
		case 'S':
			if (parse_ul(optarg, ~0UL, &seed_arg))
				usage(argv[0]);
			break;
		case 'T':
			advice = MADV_HUGEPAGE;
			break;
		case 'm':
			if (strcmp(optarg, "alt") && strcmp(optarg, "seq") &&
			    strcmp(optarg, "rand"))
				usage(argv[0]);
			mode = optarg[0];
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc)
		usage(argv[0]);

	t0 = now();
	seed = seed_arg;
	rng = splitmix64(seed ^ 0x5eedULL) | 1;
	page_size = sysconf(_SC_PAGESIZE);
	npages = ((uint64_t)size_mib << 20) / page_size;
	nhot = npages * hot_pct / 100;

	buf = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	if (madvise(buf, npages * page_size, advice))
		perror("madvise");	/* not fatal */
	gens = calloc(npages, sizeof(*gens));
	if (!gens) {
		perror("calloc");
		return 2;
	}

	for (idx = 0; idx < npages; idx++)
		fill_page((uint64_t *)(buf + idx * page_size), idx, 0);
	t_fill = now() - t0;

	for (k = 0; k < passes; k++) {
		int random_pass = mode == 'r' || (mode == 'a' && (k & 1));

		idx = 0;
		for (i = 0; i < npages; i++, accesses++) {
			uint64_t *p;

			if (random_pass)
				idx = pick(&rng, npages, nhot);
			else if (i > 0 && rnd_pm &&
				 xorshift64(&rng) % 1000 < rnd_pm)
				idx = pick(&rng, npages, nhot);
			else if (i > 0)
				idx = (idx + 1) % npages;

			p = (uint64_t *)(buf + idx * page_size);
			if (wr_pm && xorshift64(&rng) % 1000 < wr_pm)
				fill_page(p, idx, ++gens[idx]);
			else
				check_page(p, idx, gens[idx], &nerr);
		}
	}

	getrusage(RUSAGE_SELF, &ru);
	printf("pages %" PRIu64 "\n", npages);
	printf("accesses %" PRIu64 "\n", accesses);
	printf("verify_errors %" PRIu64 "\n", nerr);
	printf("minflt %ld\n", ru.ru_minflt);
	printf("majflt %ld\n", ru.ru_majflt);
	printf("elapsed_s %.3f\n", now() - t0);
	printf("fill_s %.3f\n", t_fill);
	return nerr ? 1 : 0;
}
