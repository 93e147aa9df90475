// SPDX-License-Identifier: GPL-2.0
/*
 * ptyrun CMD [ARG...]: run CMD with its stdout and stderr on a pseudo
 * terminal and copy what it writes to our stdout, "# " before each line,
 * as kselftest's runner.sh prefixes a test's output.
 *
 * Why a terminal: a test whose stdout is a pipe gets full buffering from
 * stdio, and one that forks (cg_run() in the cgroup selftests) without
 * kselftest.h's line buffering then prints what was buffered once in
 * each process: 6.12's test_memcontrol reported every result twice. On a
 * terminal stdio buffers by line, as on the console.
 *
 * Exit status: CMD's, or 128 + the signal that killed it. Once CMD has
 * exited, output still coming from processes it left behind is copied
 * until the terminal is quiet for a second, so a leftover process that
 * keeps it open cannot hold the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int at_line_start = 1;

static void copy(const char *buf, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++) {
		if (at_line_start)
			fputs("# ", stdout);
		putchar(buf[i]);
		at_line_start = buf[i] == '\n';
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct termios raw;
	int master, status = 0, exited = 0;
	char buf[4096];
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptyrun CMD [ARG...]\n");
		return 127;
	}
	cfmakeraw(&raw);	/* no echo, no \r added before \n */
	pid = forkpty(&master, NULL, &raw, NULL);
	if (pid < 0) {
		perror("ptyrun: forkpty");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		int r = poll(&p, 1, 1000);
		ssize_t n;

		if (r < 0 && errno == EINTR)
			continue;
		if (!exited && waitpid(pid, &status, WNOHANG) == pid)
			exited = 1;
		if (r == 0) {
			if (exited)
				break;	/* quiet after CMD exited */
			continue;
		}
		n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EIO: every writer closed the terminal */
		copy(buf, n);
	}
	if (!at_line_start)
		copy("\n", 1);
	if (!exited)
		waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
