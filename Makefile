# zswap/swap mm patch stack: pinned tree -> quilt series -> kernel -> QEMU
# -> kselftests. Every target is a stage of scripts/pipeline.sh; variables given
# on the command line (TREE=, KERNEL_SRC=, KCONFIG=, ACCEL=, ...) reach the
# scripts through the environment. `make help` lists them.

# Which tree and series: patches/$(TREE)/ (7.3, the upstream-facing
# series, or 6.12, the backport for Debian's 6.12 kernel).
TREE ?= 7.3
export TREE

# A setting given on the command line that make help does not list is a
# typo (VM_MEMORY=2048 for VM_MEM=): refused, instead of a run with the
# default.
SETTINGS := $(shell sed -n 's/^\#h //p' $(firstword $(MAKEFILE_LIST)) | grep -oE '\<[A-Z][A-Z0-9_]*=' | tr -d =)
UNKNOWN := $(filter-out $(SETTINGS),$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))
ifneq ($(UNKNOWN),)
$(error $(UNKNOWN): no such setting; make help lists them)
endif

RUN := scripts/pipeline.sh
PIPELINE := deps tree series config build initramfs

.PHONY: all test vm bench check-series soak fuzz check-apply origins outgoing deb deb-boot refresh repin clean-tree help deps tree series config build initramfs \
	kselftests host-tests lint clean distclean gitlab-ci gitlab-ci-yml

## make            build the patched kernel, boot it, run the kselftests
all:
	@$(RUN) $(PIPELINE) kselftests

## make test       host-side script tests, series checks, then kselftests
test:
	@$(RUN) deps tree series host-tests lint config build initramfs kselftests $(if $(filter kcsan,$(KCONFIG)),kcsan-ab)

## make bench      A/B benchmark: base vs series (BENCH_BASE=, BENCH_UPTO=, BENCH_VARIANT=, BENCH_N=)
bench:
	@scripts/pipeline.sh deps
	@scripts/bench.sh

## make check-series  build, boot and test every point of the series (FROM=, TO=)
check-series:
	@$(RUN) deps
	@scripts/check-series.sh

## make soak      the data-integrity soak alone, long (SOAK_ARGS=-d,600,-m,24)
soak:
	@$(RUN) $(PIPELINE) soak

## make fuzz      trinity on the mm syscalls while reclaim and zswap churn
##                 (KCONFIG=debug; FUZZ_MINUTES=3, FUZZ_SEED=1, or a campaign: FUZZ_SEEDS='1 2 3 4')
fuzz:
	@$(RUN) $(PIPELINE) fuzz

## make check-apply  does the series apply to the pinned tree and the other
##                 Debian builds tree.env names? (or KERNEL_SRC=, CHECK_VERSIONS="[pkg=]v ...")
check-apply:
	@if [ -n "$(CHECK_VERSIONS)" ]; then scripts/check-apply-others.sh $(CHECK_VERSIONS); \
	elif [ -n "$(KERNEL_SRC)" ]; then scripts/check-apply.sh; \
	else scripts/pipeline.sh tree && rc=0 && { scripts/check-apply.sh || rc=1; } && \
		{ scripts/check-apply-others.sh --others || rc=1; } && exit $$rc; fi

## make origins      each patch's origin, upstream status and what make outgoing does with it
origins:
	@scripts/origins.sh

## make outgoing     what goes upstream, by origin, in work/TREE/outgoing/ (VERSION=, SENDER=)
outgoing:
	@scripts/outgoing.sh --settings
	@$(RUN) deps tree
	@scripts/outgoing.sh

## make refresh P=NAME  after fixing patch NAME by hand in the tree (quilt push -f,
##                 edit), write it back to patches/TREE/NAME as a mail
refresh:
	@scripts/refresh-patch.sh

## make repin VERSION=V  move TREE's pin to Debian version V of its source package
##                 (when the archive dropped the pinned one), then check-apply
repin:
	@scripts/repin.sh

## make deb       Debian packages of the patched kernel, Debian's config (DEB_FLAVOUR=)
deb:
	@$(RUN) deps tree series
	@scripts/deb.sh

## make deb-boot  install the package (DEB_FLAVOUR=, default guest) in a Debian
##                 root file system with dpkg, boot its vmlinuz and initrd, run the
##                 tests there; then dpkg -r and boot the previous kernel
deb-boot:
	@$(RUN) $(PIPELINE)
	@DEB_FLAVOUR=$${DEB_FLAVOUR:-guest} scripts/deb.sh
	@DEB_FLAVOUR=$${DEB_FLAVOUR:-guest} scripts/deb-boot.sh

## make gitlab-ci  run jobs of .gitlab-ci.yml here with gitlab-ci-local (JOBS='check-series:7.3:20 report';
##                 unset: list them; GITLAB_CI_FAKE=1: a stub instead of make, no kernel)
gitlab-ci:
	@scripts/gitlab-ci-local.sh

## make gitlab-ci-yml  write .gitlab-ci.yml again from the series (after adding or removing a patch)
gitlab-ci-yml:
	@scripts/gitlab-ci-gen.sh

## make vm         boot the patched kernel with an interactive serial console
##                 (ROOTFS=debian: on a debootstrapped Debian; VM_RUN='cmd' runs cmd)
vm:
	@$(RUN) $(PIPELINE) vm

# Single stages: see the #h lines at the end (make help).
deps tree series config build initramfs kselftests host-tests lint:
	@$(RUN) $@

## make clean      remove the tree's build/, logs/ and results/ (keeps the extracted tree)
clean:
	@scripts/clean.sh clean

## make clean-tree remove the extracted tree of TREE only (make re-extracts it;
##                 keeps downloads, builds, the outgoing base, the other tree)
clean-tree:
	@scripts/clean.sh clean-tree

## make distclean  remove WORK_ROOT whole (both trees, downloads); the clean targets
##                 refuse a directory the project did not make (no .zswap-stack-work)
distclean:
	@scripts/clean.sh distclean

.DEFAULT:
	@echo "error: no target '$@' (make help lists them)" >&2; exit 1

help:
	@sed -n 's/^## //p' Makefile
	@echo
	@sed -n 's/^#h \{0,1\}//p' Makefile

#h Single stages, in pipeline order (each assumes the ones before it ran):
#h   deps        install missing Debian packages (root), else print the command
#h   tree        download and extract the pinned Debian kernel tree of TREE
#h   series      apply patches/TREE/series with quilt at fuzz 0 (only what changed)
#h   config      merge kernel-config/ fragments into the build's .config
#h   build       bzImage, the kselftests and the guest programs (ccache, O= dir)
#h   initramfs   pack the guest initramfs (busybox, tests, stress-ng)
#h   kselftests  boot the kernel in QEMU, run the tests, print the results table
#h   host-tests  the scripts' and the docs' own tests (tests/host/test-*.sh), no kernel build needed
#h   lint        shellcheck over the scripts; each patch mail's form, its origin fields (DEP-3) and checkpatch.pl --strict
#h
#h Variables (on the command line: make test TREE=6.12 VM_MEM=2048):
#h   Tree and build
#h     TREE=7.3|6.12      which pinned tree and series (default 7.3; patches/TREE/)
#h     KERNEL_SRC=DIR     use this kernel tree instead of the pinned one (writes .pc/ and .series/ into it)
#h     KCONFIG=debug      add kernel-config/debug.config (KASAN, lockdep, DEBUG_VM, kmemleak)
#h     KCONFIG=kcsan      add kernel-config/kcsan.config (data races); make test then runs the
#h                        same on the unpatched tree and fails a race the series' own or the base's not
#h     KCSAN_BASE_RUNS=n  make test KCONFIG=kcsan: the unpatched runs at most (3), while one of the
#h                        series' races is not seen on the base
#h     EXTRA_CONFIG='f.config ...'  more config fragments
#h     WORK=DIR           the tree's work directory (default ./work/TREE)
#h     WORK_ROOT=DIR      what the trees share: downloads, tarballs, rootfs (default ./work)
#h     P=NAME             make refresh: the patch to write back from the tree
#h   Guest (checked before anything runs)
#h     ACCEL=auto|kvm|tcg probe KVM and fall back to TCG (auto), or force one
#h     VM_MEM=MiB (1024) VM_CPUS=N (2, at most 255) SWAP_MB=MiB (1024)
#h     VM_TIMEOUT=s (2400)  hard limit of a run; VM_SILENCE=s (600) without output = hung
#h     SWAP_BPS=bytes/s   throttle the guest's swap disk (a slow disk)
#h     SWAP=zram          swap on /dev/zram0 (zstd, SWAP_MB) instead of the disk
#h     TESTS=a,b          run only these tests of tests/kselftests*.list (cgroup/test_zswap, or the runner's cgroup:test_zswap)
#h     APPEND='...'       extra kernel parameters (e.g. ksft.swap_ssd=1)
#h     KERNEL_IMAGE=FILE  boot another bzImage (it must exist) with this build's initramfs
#h     QEMU_SHOW=1        print QEMU's command line instead of booting
#h     ROOTFS=debian      make vm on a Debian root file system (ROOTFS_REBUILD=1 remakes it)
#h     VM_RUN='cmd'       make vm: run cmd in the guest and power off
#h     SOAK_ARGS=-d,600,-m,24  make soak: the soak's arguments
#h     FUZZ_MINUTES=m FUZZ_SEED=s  make fuzz (and the debug run's guest/fuzz): minutes (3), trinity's seed (1)
#h     FUZZ_SEEDS='s ...' make fuzz: a campaign, one boot per seed (FUZZ_MINUTES each), a table at the end
#h   Series checks and bench
#h     FROM=, TO=         check-series: first and last patch (number or name part)
#h     SERIES_UPTO=K      only the first K patches of the series (with WORK=DIR: a tree of its own)
#h     CHECK_VERSIONS='[pkg=]v ...'  check-apply on other Debian versions
#h     BENCH_BASE=K BENCH_UPTO=K  bench: compare the series at K patches (0 = base, or a patch name part)
#h     BENCH_VARIANT=NAME  bench: the second point also takes patches/TREE/variants/NAME.patch (an alternative design)
#h     BENCH_N=n          bench: runs per kernel (3; 5 with a build workload)
#h     BENCH_WORKLOADS=a,b  bench: workloads of tests/bench/workloads.list or debian.list (build, build-light, build-wb)
#h     BENCH_SRC_PKG=p BENCH_SRC_MAKE='args'  bench: the build workload's Debian source package (lua5.4)
#h   Packages and mail
#h     DEB_FLAVOUR=F      make deb: Debian's config flavour (amd64_none_amd64; amd64_none_cloud-amd64),
#h                        or guest (the project's own config; make deb-boot's default)
#h     DEB_CONFIG_VERSION=v  make deb: Debian's config of this build of linux-config-X.Y (default: the pin's,
#h                        or another build of its release when the archive dropped it)
#h     DEB_PREVIOUS=pkg   make deb-boot: Debian's kernel installed before ours (linux-image-cloud-amd64)
#h     VERSION=n SENDER='Name <mail>' PREFIX='RFC PATCH'  make outgoing
#h     DEBIAN_MIRROR=URL DEBIAN_SECURITY_MIRROR=URL  override the mirrors read from the system's apt sources
#h   CI (.ci/run)
#h     CI_ALL_POINTS_BEFORE=s  check-series of every point only when the steps before took under s (1200)
#h     CI_MIN_MB=MiB      free disk space .ci/run needs before it starts (10240)
#h   GitLab CI (make gitlab-ci, docs/gitlab-ci.md)
#h     JOBS='pattern ...' the jobs to run, named with colons (check-series:7.3:20, test:6.12:debug,
#h                        report); all: the whole pipeline; unset: list them
#h     GITLAB_CI_FAKE=1   the jobs run tests/host/fake-make.sh instead of make (fixture results)
#h     REPORT_ARGS=--all  the report job's: require a result of every point (the pipeline's default)
#h
#h Exit status: 0 on success; through make a failure is 2 (the script's own is 1).
