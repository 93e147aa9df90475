# zswap/swap mm patch stack: pinned tree -> quilt series -> kernel -> QEMU
# -> kselftests. Every target is a stage of scripts/run.sh; variables given
# on the command line (TREE=, KERNEL_SRC=, KCONFIG=, ACCEL=, ...) reach the
# scripts through the environment. `make help` lists them.

# Which tree and series: patches/$(TREE)/ (7.3, the upstream-facing
# series, or 6.12, the backport for Debian's 6.12 kernel).
TREE ?= 7.3
export TREE
TREE_WORK = $(or $(WORK),$(or $(WORK_ROOT),work)/$(TREE))

RUN := scripts/run.sh
PIPELINE := deps tree series config build initramfs

.PHONY: all test vm bench check-series soak check-apply outgoing deb refresh help deps tree series config build initramfs \
	kselftests host-tests lint clean distclean

## make            build the patched kernel, boot it, run the kselftests
all:
	@$(RUN) $(PIPELINE) kselftests

## make test       host-side script tests, series checks, then kselftests
test:
	@$(RUN) deps tree host-tests series lint config build initramfs kselftests

## make bench      A/B benchmark: base vs series (BENCH_BASE=, BENCH_UPTO=, BENCH_N=)
bench:
	@scripts/run.sh deps
	@scripts/bench.sh

## make check-series  build, boot and test every point of the series (FROM=, TO=)
check-series:
	@$(RUN) deps
	@scripts/check-series.sh

## make soak      the data-integrity soak alone, long (SOAK_ARGS=-d,600,-m,24)
soak:
	@$(RUN) $(PIPELINE)
	@TESTS=guest/soak VM_TIMEOUT=$(or $(VM_TIMEOUT),3600) \
		APPEND="$(APPEND) ksft.timeout=3000 ksft.soak=$(or $(SOAK_ARGS),-d,600,-m,24)" \
		scripts/qemu.sh test

## make check-apply  does the series apply to the pinned tree and the other
##                 Debian builds tree.env names? (or KERNEL_SRC=, CHECK_VERSIONS="[pkg=]v ...")
check-apply:
	@if [ -n "$(CHECK_VERSIONS)" ]; then scripts/fetch-other-tree.sh $(CHECK_VERSIONS); \
	elif [ -n "$(KERNEL_SRC)" ]; then scripts/check-apply.sh; \
	else scripts/run.sh tree && rc=0 && { scripts/check-apply.sh || rc=1; } && \
		{ scripts/fetch-other-tree.sh --others || rc=1; } && exit $$rc; fi

## make outgoing     mail-ready postings per group in work/outgoing/ (VERSION=, SENDER=)
outgoing:
	@$(RUN) deps tree
	@scripts/outgoing.sh

## make refresh P=NAME  after fixing patch NAME by hand in the tree (quilt push -f,
##                 edit), write it back to patches/TREE/NAME as a mail
refresh:
	@scripts/refresh-patch.sh

## make deb       Debian packages of the patched kernel, Debian's config (DEB_FLAVOUR=)
deb:
	@$(RUN) deps tree series
	@scripts/deb.sh

## make vm         boot the patched kernel with an interactive serial console
##                 (ROOTFS=debian: on a debootstrapped Debian; VM_RUN='cmd' runs cmd)
vm:
	@$(RUN) $(PIPELINE)
	@if [ -n "$(ROOTFS)" ]; then scripts/mkrootfs.sh; fi
	@scripts/qemu.sh shell

## Single stages (each assumes the ones before it have run):
## make deps       install missing Debian packages (root), else print the command
deps tree series config build initramfs kselftests host-tests lint:
	@$(RUN) $@

## make clean      remove the tree's build directories (keeps the extracted tree)
clean:
	rm -rf $(TREE_WORK)/build $(TREE_WORK)/logs $(TREE_WORK)/results

## make distclean  remove the whole work directory (both trees, downloads)
distclean:
	rm -rf $(or $(WORK_ROOT),work)

help:
	@sed -n 's/^## //p' Makefile
	@echo
	@echo "Stages: deps tree series config build initramfs kselftests host-tests lint"
	@echo
	@echo "Variables:"
	@echo "  TREE=7.3|6.12    which pinned tree and series (default 7.3; patches/TREE/)"
	@echo "  KERNEL_SRC=DIR   use this kernel tree instead of the pinned Debian one"
	@echo "  KCONFIG=debug    add kernel-config/debug.config (KASAN, lockdep, DEBUG_VM)"
	@echo "  WORK=DIR         the tree's work directory (default ./work/TREE)"
	@echo "  ACCEL=kvm|tcg    skip the KVM probe (default auto: probe, fall back to TCG)"
	@echo "  TESTS=a,b        run only these kselftests (e.g. cgroup/test_zswap)"
	@echo "  VM_MEM=MiB VM_CPUS=N SWAP_MB=MiB VM_TIMEOUT=s   guest size and time limit"
	@echo "  EXTRA_CONFIG='f.config ...'   more config fragments"
