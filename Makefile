# zswap/swap mm patch stack: pinned tree -> quilt series -> kernel -> QEMU
# -> kselftests. Every target is a stage of scripts/run.sh; variables given
# on the command line (KERNEL_SRC=, KCONFIG=, ACCEL=, ...) reach the
# scripts through the environment. `make help` lists them.

RUN := scripts/run.sh
PIPELINE := deps tree series config build initramfs

.PHONY: all test vm bench check-series soak check-apply outgoing deb help deps tree series config build initramfs \
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

## make check-apply  does the series apply to KERNEL_SRC= / CHECK_VERSIONS="v1 v2"?
check-apply:
	@if [ -n "$(CHECK_VERSIONS)" ]; then scripts/fetch-other-tree.sh $(CHECK_VERSIONS); \
	else scripts/check-apply.sh; fi

## make outgoing     mail-ready postings per group in work/outgoing/ (VERSION=, SENDER=)
outgoing:
	@$(RUN) deps tree
	@scripts/outgoing.sh

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

## make clean      remove build directories (keeps the extracted tree)
clean:
	rm -rf $(or $(WORK),work)/build $(or $(WORK),work)/logs $(or $(WORK),work)/results

## make distclean  remove the whole work directory
distclean:
	rm -rf $(or $(WORK),work)

help:
	@sed -n 's/^## //p' Makefile
	@echo
	@echo "Stages: deps tree series config build initramfs kselftests host-tests lint"
	@echo
	@echo "Variables:"
	@echo "  KERNEL_SRC=DIR   use this kernel tree instead of the pinned Debian one"
	@echo "  KCONFIG=debug    add kernel-config/debug.config (KASAN, lockdep, DEBUG_VM)"
	@echo "  WORK=DIR         work directory (default ./work)"
	@echo "  ACCEL=kvm|tcg    skip the KVM probe (default auto: probe, fall back to TCG)"
	@echo "  TESTS=a,b        run only these kselftests (e.g. cgroup/test_zswap)"
	@echo "  VM_MEM=MiB VM_CPUS=N SWAP_MB=MiB VM_TIMEOUT=s   guest size and time limit"
	@echo "  EXTRA_CONFIG='f.config ...'   more config fragments"
