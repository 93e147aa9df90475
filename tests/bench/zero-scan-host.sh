#!/bin/bash
# Host microbenchmark for the zero-filled patch group: ns per 4 KiB page
# for 6.12's open-coded zero check vs memchr_inv() (compiled from the
# tree's own lib/string.c) with and without the last-word check, on
# cache-resident pages, scalar code as in the kernel (no vectorizing).
# Usage: tests/bench/zero-scan-host.sh [KERNEL_SRC]   (default: the TREE= pinned tree)
set -eu
src=${1:-$(bash -c '. "$1/scripts/lib.sh"; echo "$KERNEL_SRC"' _ "$(dirname "$0")/../..")}
# The benchmark's own code, after the tree's check_bytes8() and memchr_inv().
bench_c() {
	cat <<'EOF'
static int old_check(unsigned long *data)	/* 6.12 is_folio_zero_filled() */
{
	unsigned int pos, last_pos = PAGE_SIZE / sizeof(*data) - 1;

	if (data[last_pos])
		return 0;
	for (pos = 0; pos < last_pos; pos++)
		if (data[pos])
			return 0;
	return 1;
}

static int new_check(unsigned long *data)	/* the patch */
{
	return !data[PAGE_SIZE / sizeof(*data) - 1] && !memchr_inv(data, 0, PAGE_SIZE);
}

static int no_last(unsigned long *data)		/* without the last-word check */
{
	return !memchr_inv(data, 0, PAGE_SIZE);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	size_t n = 256, i, it, iters = 20000;
	char *buf = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	const char *pn[] = { "zero", "lastword", "midword", "firstword" };
	int (*fn[])(unsigned long *) = { old_check, new_check, no_last };
	const char *fname[] = { "old loop", "mem_is_zero+last", "mem_is_zero only" };

	for (int p = 0; p < 4; p++) {
		memset(buf, 0, n * PAGE_SIZE);
		for (i = 0; i < n; i++) {
			unsigned long *w = (unsigned long *)(buf + i * PAGE_SIZE);
			int at[] = { -1, 511, 256, 0 };

			if (at[p] >= 0)
				w[at[p]] = 1;
		}
		for (int f = 0; f < 3; f++) {
			volatile long s = 0;
			double best = 1e9;

			for (int rep = 0; rep < 5; rep++) {
				double t = now();

				for (it = 0; it < iters; it++)
					for (i = 0; i < n; i++)
						s += fn[f]((unsigned long *)(buf + i * PAGE_SIZE));
				t = (now() - t) * 1e9 / (iters * n);
				if (t < best)
					best = t;
			}
			printf("%-10s %-18s %7.1f ns/page\n", pn[p], fname[f], best);
		}
	}
	return 0;
}
EOF
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	printf '#include <stdio.h>\n#include <stdint.h>\n#include <string.h>\n#include <stdlib.h>\n#include <time.h>\n'
	printf '#define PAGE_SIZE 4096\ntypedef uint8_t u8;\ntypedef uint64_t u64;\n'
	sed -n '/^static void \*check_bytes8/,/^}/p' "$src/lib/string.c"
	echo '__attribute__((noinline))'
	sed -n '/^void \*memchr_inv(/,/^}/p' "$src/lib/string.c" |
		sed 's/#if defined(CONFIG_ARCH_HAS_FAST_MULTIPLIER) && BITS_PER_LONG == 64/#if 1/'
	bench_c
} >"$tmp/b.c"
gcc -O2 -fno-builtin -fno-tree-vectorize -fno-strict-aliasing -o "$tmp/b" "$tmp/b.c"
"$tmp/b"
