// SPDX-License-Identifier: GPL-2.0
/*
 * mixwin - swap-in of memory whose readahead windows mix the swap disk
 * and zswap, page by page.
 *
 * Usage: mixwin [-s MIB] [-d DISK_PERCENT] [-r ROUNDS] [-m seq|rand]
 *               [-u USE_PERCENT]
 *
 * Runs as root inside the memcg set up by the harness (no memory.max
 * pressure, writeback on, zswap shrinker off): it switches zswap's
 * "enabled" parameter itself, and leaves it enabled. Fills SIZE_MIB
 * (default 64) of 2:1 compressible base pages, then ROUNDS times
 * (default 4):
 *  - MADV_PAGEOUT every page in address order, on one CPU, so that the
 *    pages take consecutive swap slots, with zswap disabled for the pages
 *    meant for the disk and enabled for the others: DISK_PERCENT (default
 *    70, a multiple of 10) of every ten pages, spread (page i when
 *    (3 * i) % 10 < DISK_PERCENT / 10). Readahead windows mix the two
 *    kinds of entry whether they follow virtual addresses (VMA-based
 *    readahead) or swap offsets (cluster readahead, which the kernel uses
 *    when a swap device is rotational);
 *  - once the disk writes are done, memory.reclaim of the buffer, which
 *    drops the clean swap cache folios the disk pages leave behind;
 *  - read every page once, in address order (seq) or in a seeded random
 *    order (rand), and check its bytes; with -u, only USE_PERCENT
 *    (default 100) of the pages, a fixed seeded choice, as a task that
 *    uses part of its memory.
 * The first round also asks mincore() before each read whether the page
 * is in the swap cache already: read ahead by an earlier fault
 * (ra_disk_pages, ra_zswap_pages by where the page was), and after the
 * reads, which pages that were not read are there: read ahead for
 * nothing (unused_ra_disk_pages, unused_ra_zswap_pages). It is not
 * timed, so ROUNDS must be at least 2.
 *
 * Output, one "key value" per line: read_s (the read phases of the
 * other rounds, summed), read_majflt, read_minflt (theirs),
 * ra_disk_pages, ra_zswap_pages, unused_ra_disk_pages,
 * unused_ra_zswap_pages, resident_before_read (pages mincore()
 * found resident before a read phase, summed: should be 0), disk_pages
 * and zswap_pages (per round), elapsed_s, pages, verify_errors.
 * Exit status: 0 if all pages verified, 1 if not, 2 on setup errors.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "zstack-util.h"

#define ZSWAP_ENABLED "/sys/module/zswap/parameters/enabled"

/* Pseudo-random first half, zero second half: about 2:1 for zstd */
static void fill(char *p, size_t psz, size_t idx, unsigned int round)
{
	uint64_t *w = (uint64_t *)p, s = splitmix64(idx * 131 + round) | 1;
	size_t i, n = psz / sizeof(uint64_t);

	for (i = 0; i < n / 2; i++)
		w[i] = xorshift64(&s);
	memset(w + n / 2, 0, psz / 2);
}

int main(int argc, char **argv)
{
	size_t psz = sysconf(_SC_PAGESIZE), size = 64UL << 20, npages, i, j, k;
	long errors = 0, resident = 0, disk = 0, ra_disk = 0, ra_zswap = 0;
	long unused_disk = 0, unused_zswap = 0;
	unsigned long use_pct = 100;
	unsigned int disk_tenths = 7, rounds = 4, r;
	double t0, read_s = 0, t;
	struct rusage a, b;
	long majflt = 0, minflt = 0;
	unsigned char *vec, *used;
	size_t *order;
	char *buf, *want;
	uint64_t rng = 1;
	int opt, rand_order = 0;
	cpu_set_t cpus;

	while ((opt = getopt(argc, argv, "s:d:r:m:u:")) != -1) {
		switch (opt) {
		case 's':
			size = strtoul(optarg, NULL, 0) << 20;
			break;
		case 'd':
			disk_tenths = strtoul(optarg, NULL, 0);
			disk_tenths = disk_tenths % 10 || disk_tenths > 100 ?
				      11 : disk_tenths / 10;
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			use_pct = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			rand_order = !strcmp(optarg, "rand");
			if (!rand_order && strcmp(optarg, "seq"))
				size = 0;
			break;
		default:
			size = 0;
		}
	}
	if (!size || rounds < 2 || disk_tenths > 10 || !use_pct || use_pct > 100) {
		fprintf(stderr, "usage: %s [-s MIB] [-d DISK_PERCENT] [-r ROUNDS] [-m seq|rand] [-u USE_PERCENT]\n",
			argv[0]);
		return 2;
	}
	if (find_cgroup()) {
		fprintf(stderr, "cannot find own cgroup\n");
		return 2;
	}
	npages = size / psz;
	want = malloc(psz);
	vec = malloc(npages);
	order = malloc(npages * sizeof(*order));
	if (!want || !vec || !order)
		return 2;
	for (i = 0; i < npages; i++)
		order[i] = i;
	for (i = npages - 1; rand_order && i > 0; i--) {
		j = xorshift64(&rng) % (i + 1);
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	for (i = 0; i < npages; i++)
		disk += (3 * i) % 10 < disk_tenths;
	/* The pages read: a fixed choice, marked in used[] */
	used = malloc(npages);
	if (!used)
		return 2;
	for (i = 0; i < npages; i++)
		used[i] = splitmix64(i ^ 0x5eed) % 100 < use_pct;
	/* Touched now and locked, so that the reads fault on nothing else */
	if (mlockall(MCL_CURRENT))
		perror("mlockall");
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	madvise(buf, size, MADV_NOHUGEPAGE);
	/* One CPU's swap cluster: consecutive pages, consecutive slots */
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		perror("sched_setaffinity");

	t0 = now();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < npages; i++)
			fill(buf + i * psz, psz, i, r);

		for (i = 0; i < npages; i++) {
			int to_disk = (3 * i) % 10 < disk_tenths;

			if ((!i || to_disk != ((3 * (i - 1)) % 10 < disk_tenths)) &&
			    write_str(ZSWAP_ENABLED, to_disk ? "N" : "Y")) {
				fprintf(stderr, "cannot switch zswap\n");
				return 2;
			}
			if (madvise(buf + i * psz, psz, MADV_PAGEOUT)) {
				perror("MADV_PAGEOUT");
				return 2;
			}
		}
		if (write_str(ZSWAP_ENABLED, "Y")) {
			fprintf(stderr, "cannot enable zswap\n");
			return 2;
		}
		/* A folio under writeback would stay in the swap cache */
		for (i = 0; i < 100 && read_keyed(cg_path("memory.stat"),
						  "writeback") > 0; i++)
			usleep(20000);
		reclaim(2 * size);
		if (mincore(buf, size, vec)) {
			perror("mincore");
			return 2;
		}
		for (i = 0; i < npages; i++)
			resident += vec[i] & 1;

		getrusage(RUSAGE_SELF, &b);
		t = now();
		for (i = 0; i < npages; i++) {
			j = order[i];
			if (!used[j])
				continue;
			if (!r && !mincore(buf + j * psz, psz, vec) &&
			    (vec[0] & 1)) {
				if ((3 * j) % 10 < disk_tenths)
					ra_disk++;
				else
					ra_zswap++;
			}
			fill(want, psz, j, r);
			if (memcmp(buf + j * psz, want, psz) && errors++ < 10)
				fprintf(stderr, "round %u: page %zu differs\n",
					r, j);
		}
		getrusage(RUSAGE_SELF, &a);
		if (!r) {
			if (mincore(buf, size, vec)) {
				perror("mincore");
				return 2;
			}
			for (i = 0; i < npages; i++) {
				if (used[i] || !(vec[i] & 1))
					continue;
				if ((3 * i) % 10 < disk_tenths)
					unused_disk++;
				else
					unused_zswap++;
			}
			continue;
		}
		read_s += now() - t;
		majflt += a.ru_majflt - b.ru_majflt;
		minflt += a.ru_minflt - b.ru_minflt;
	}

	printf("read_s %.3f\nread_majflt %ld\nread_minflt %ld\n",
	       read_s, majflt, minflt);
	printf("ra_disk_pages %ld\nra_zswap_pages %ld\n", ra_disk, ra_zswap);
	printf("unused_ra_disk_pages %ld\nunused_ra_zswap_pages %ld\n",
	       unused_disk, unused_zswap);
	printf("resident_before_read %ld\n", resident);
	printf("disk_pages %ld\nzswap_pages %ld\n", disk, (long)npages - disk);
	printf("elapsed_s %.3f\npages %zu\nverify_errors %ld\n",
	       now() - t0, npages, errors);
	return errors ? 1 : 0;
}
