/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zstack-util.h - what the guest programs (the bench workloads, the soak)
 * share: a monotonic clock, the PRNG that makes their page contents
 * reproducible, reading and writing sysfs/cgroup files, and the
 * program's own memcg (its directory and memory.reclaim). Header only:
 * each program is one static binary built by scripts/build.sh with
 * -I tests/lib.
 */
#ifndef ZSTACK_UTIL_H
#define ZSTACK_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A page's seed from its index: one multiply-xorshift round. */
static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* Returns 0 or -errno. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* A file's first line without its newline; returns 0 or -errno. */
static inline int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* A file holding one number, or -1 (no file, or not a number: "max"). */
static inline long long read_ll(const char *path)
{
	char buf[64], *end;
	long long v;

	if (read_str(path, buf, sizeof(buf)))
		return -1;
	v = strtoll(buf, &end, 0);
	return end == buf ? -1 : v;
}

/* Value of "key N" in a file of such lines (memory.stat, vmstat), or -1. */
static inline long long read_keyed(const char *path, const char *key)
{
	char line[256], k[128];
	long long v, ret = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %lld", k, &v) == 2 && !strcmp(k, key)) {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* The program's own cgroup v2 directory, filled by find_cgroup(). */
static char cgdir[4096] __attribute__((unused));

static inline int find_cgroup(void)
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

/* Path of FILE in the program's cgroup (a static buffer). */
static inline const char *cg_path(const char *file)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", cgdir, file);
	return path;
}

/* memory.reclaim of the program's memcg; a partial reclaim (EAGAIN) is
 * not an error.
 */
static inline void reclaim(size_t bytes)
{
	char val[32];

	snprintf(val, sizeof(val), "%zu", bytes);
	write_str(cg_path("memory.reclaim"), val);
}

#endif /* ZSTACK_UTIL_H */
