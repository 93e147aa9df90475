// SPDX-License-Identifier: GPL-2.0
/*
 * pmadvise PID SEED COUNT: process_madvise() on another process's
 * memory, for the fuzz test's churner (tests/guest/tests/fuzz). Debian
 * 12's trinity does not know process_madvise(), so this calls it on the
 * fuzzer's own children: COUNT times, a random advice (MADV_COLD,
 * MADV_PAGEOUT, MADV_WILLNEED) on a random page range of a random
 * writable private mapping of PID, from /proc/PID/maps. Prints
 * "pmadvise: N calls, N ok, N failed"; a vanished process is no error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

#define MAX_MAPS 512

struct range {
	unsigned long start, end;
};

static int read_maps(int pid, struct range *r)
{
	char path[64], line[512], perm[8];
	unsigned long s, e;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < MAX_MAPS && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &s, &e, perm) != 3)
			continue;
		/* Anonymous-like: writable and private (heap, stack, mmaps). */
		if (perm[1] == 'w' && perm[3] == 'p') {
			r[n].start = s;
			r[n].end = e;
			n++;
		}
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	static const int advice[] = { MADV_COLD, MADV_PAGEOUT, MADV_WILLNEED };
	static struct range r[MAX_MAPS];
	long page = sysconf(_SC_PAGESIZE);
	int pid, count, n, pidfd, i, ok = 0, failed = 0;
	unsigned int seed;

	if (argc != 4) {
		fprintf(stderr, "usage: pmadvise PID SEED COUNT\n");
		return 2;
	}
	pid = atoi(argv[1]);
	seed = strtoul(argv[2], NULL, 0);
	count = atoi(argv[3]);
	srandom(seed);
	n = read_maps(pid, r);
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (n <= 0 || pidfd < 0) {
		printf("pmadvise: pid %d gone\n", pid);
		return 0;
	}
	for (i = 0; i < count; i++) {
		struct range *m = &r[random() % n];
		unsigned long pages = (m->end - m->start) / page;
		unsigned long first = random() % pages;
		unsigned long len = 1 + random() % (pages - first);
		struct iovec iov = {
			.iov_base = (void *)(m->start + first * page),
			.iov_len = len * page,
		};
		int adv = advice[random() % 3];

		if (syscall(SYS_process_madvise, pidfd, &iov, 1, adv, 0) >= 0)
			ok++;
		else if (errno == ESRCH)
			break;
		else
			failed++;
	}
	close(pidfd);
	printf("pmadvise: %d calls, %d ok, %d failed\n", ok + failed, ok, failed);
	return 0;
}
