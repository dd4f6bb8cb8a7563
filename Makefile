# growcert — the two commands: `make demo` and `make test` (and `make bench`).
# Each target first installs the Debian packages it needs (only when missing).

BUILD_PACKAGES := pkg-config libsqlite3-dev libssl-dev libmicrohttpd-dev libcurl4-openssl-dev zlib1g-dev
TEST_PACKAGES  := $(BUILD_PACKAGES) sqlite3 openssl libxml2-utils chromium fonts-noto-cjk curl python3
BENCH_PACKAGES := $(BUILD_PACKAGES) sqlite3 openssl curl

SWIFT ?= swift
DEMO_OUT ?= growcert-demo

.PHONY: all build demo test bench setup-build setup-test setup-bench clean

all: build

setup-build:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)
setup-test:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
setup-bench:
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)

build: setup-build
	$(SWIFT) build

demo: build
	rm -rf "$(DEMO_OUT)"
	$$($(SWIFT) build --show-bin-path)/growcert demo --out "$(DEMO_OUT)"

test: setup-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# The benchmarks measure the build a release would ship: optimised, with the Swift runtime and
# Foundation linked in statically (start-up then loads ~38 shared libraries instead of ~53).
BENCH_BUILD := $(SWIFT) build -c release --static-swift-stdlib

bench: setup-bench
	$(BENCH_BUILD)
	$$($(BENCH_BUILD) --show-bin-path)/growcert-bench --growcert $$($(BENCH_BUILD) --show-bin-path)/growcert --out bench/results.json

clean:
	rm -rf .build "$(DEMO_OUT)"
