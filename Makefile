# ferrocl: `make run` and `make test` do all set-up on a fresh Debian 12 machine.

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

APT_PACKAGES := clang-19 llvm-19-dev llvm-19-tools libclang-19-dev liblld-19-dev llvm-spirv-15 ocl-icd-opencl-dev opencl-headers clinfo pocl-opencl-icd
LIB := $(CURDIR)/target/release/libferrocl.so
# Where ferrocl is registered for the user: Debian's loader reads the
# directory named by OCL_ICD_VENDORS.
VENDORS_DIR ?= $(HOME)/.local/etc/OpenCL/vendors
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build register run test check lint bench bench-corpus bench-dpnp test-clients test-ffmpeg clean

all: build

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	cargo build --release

# Registers ferrocl (and every system-wide vendor, so they stay visible side
# by side) in the user's vendors directory.
register: build
	@mkdir -p $(VENDORS_DIR)
	@echo $(LIB) > $(VENDORS_DIR)/ferrocl.icd
	@for f in /etc/OpenCL/vendors/*.icd; do [ -e "$$f" ] && ln -sf "$$f" $(VENDORS_DIR)/ || true; done
	@echo "ferrocl registered in $(VENDORS_DIR); use: export OCL_ICD_VENDORS=$(VENDORS_DIR)"

run: register
	OCL_ICD_VENDORS=$(VENDORS_DIR) clinfo
	@mkdir -p target/examples
	cc -O2 -Wall -o target/examples/events_demo examples/events_demo.c -lOpenCL -lpthread
	OCL_ICD_VENDORS=$(LIB) target/examples/events_demo

# Formatting, clippy (Cargo.toml's [lints] deny unsafe blocks without a
# SAFETY line, also inside unsafe fns), builtins/lib against what its
# generators produce today, and the main crate's layers pointing one way.
lint:
	cargo fmt --all --check
	cargo clippy --release --workspace --all-targets -- -D warnings
	bash builtins/gen/check.sh
	bash tools/check_layers.sh

test: register lint
	cargo test --release --workspace
	OCL_ICD_VENDORS=$(LIB) bash cts-subset/run.sh
	$(MAKE) --no-print-directory test-ffmpeg

# A real program: FFmpeg's OpenCL video filters on ferrocl, their frames
# compared with PoCL's (clients/ffmpeg.sh; Debian's ffmpeg has them).
test-ffmpeg: build
	@command -v ffmpeg >/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq ffmpeg; }
	FERROCL_LIB=$(LIB) bash clients/ffmpeg.sh

# benches/run.sh once per set: sched (scheduling), kernels, sync (collectives,
# device enqueue, atomics). `make bench BENCHES=sync` runs one.
BENCHES ?= sched kernels sync
bench: register
	@for b in $(BENCHES); do FERROCL_LIB=$(LIB) BENCH=$$b bash benches/run.sh || exit 1; done

# The kernel corpus from public suites (benches/corpus) on ferrocl, PoCL and,
# with INTEL_OCL_LIB set, Intel's CPU runtime: per-kernel ratios, geomean.
# `make bench-corpus CORPUS_ARGS='--only rodinia'` runs some.
bench-corpus: build
	@python3 -c 'import ensurepip, venv' 2>/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv; }
	@[ -e /etc/OpenCL/vendors/pocl.icd ] || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq pocl-opencl-icd; }
	FERROCL_LIB=$(LIB) bash benches/corpus/run.sh $(CORPUS_ARGS)

# NumPy's operations through dpnp (Intel's NumPy on SYCL, benches/dpnp) on
# ferrocl and, with INTEL_OCL_LIB set, Intel's CPU runtime: ms and ratios.
# `make bench-dpnp DPNP_OPS='sum sort'` runs some.
bench-dpnp: build
	@python3 -c 'import ensurepip, venv' 2>/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv; }
	FERROCL_LIB=$(LIB) bash benches/dpnp/run.sh $(DPNP_OPS)

# PyOpenCL's own test suite on ferrocl (clients/pyopencl.sh: a venv with
# pinned versions and the sdist's test/ under target/clients). Not part of
# `make test` yet. `make test-clients PYTEST_ARGS='-k test_array'` runs some.
test-clients: build
	@python3 -c 'import ensurepip, venv' 2>/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv; }
	FERROCL_LIB=$(LIB) bash clients/pyopencl.sh $(PYTEST_ARGS)

clean:
	cargo clean
