/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup-bench.h - what the benchmark workloads share: a clock, the
 * workload's own cgroup directory, and memory.reclaim on it. Each
 * workload is one static program; this header is included by those that
 * reclaim their own memcg (reclaim_pattern.c, wboff_walk.c).
 */
#ifndef CGROUP_BENCH_H
#define CGROUP_BENCH_H

#include <stdio.h>
#include <string.h>
#include <time.h>

static char cgdir[4096];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int find_cgroup(void)
{
	char line[2048];
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(cgdir, sizeof(cgdir), "/sys/fs/cgroup%s", line + 3);
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

/* Write to memory.reclaim; a partial reclaim (EAGAIN) is not an error. */
static void reclaim(size_t bytes)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.reclaim", cgdir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%zu", bytes);
	fclose(f);
}

#endif /* CGROUP_BENCH_H */
