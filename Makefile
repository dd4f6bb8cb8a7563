# growcert — the two commands: `make demo` and `make test` (and `make bench`, `make man`, `make install`).
# Each target first installs the Debian packages it needs (only when missing). A build that prints a warning fails.

BUILD_PACKAGES := libsqlite3-dev libssl-dev libmicrohttpd-dev libcurl4-openssl-dev zlib1g-dev libpq-dev
TEST_PACKAGES  := $(BUILD_PACKAGES) postgresql util-linux sqlite3 openssl libxml2-utils chromium chromium-driver fonts-noto-cjk faketime curl python3 iproute2 zsh fish mandoc groff-base man-db
BENCH_PACKAGES := $(BUILD_PACKAGES) postgresql util-linux sqlite3 openssl curl

SWIFT ?= swift
DEMO_OUT ?= growcert-demo
# make install: where to (PREFIX, and DESTDIR for packaging), and which binary (default: a release build).
PREFIX ?= /usr/local
DESTDIR ?=
BIN ?=

.PHONY: all build demo test bench man install uninstall setup-build setup-test setup-bench clean

all: build

setup-build:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)
setup-test:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
setup-bench:
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)

build: setup-build
	scripts/build-without-warnings.sh $(SWIFT) build

demo: build
	rm -rf "$(DEMO_OUT)"
	$$($(SWIFT) build --show-bin-path)/growcert demo --out "$(DEMO_OUT)/groovegrow"
	$$($(SWIFT) build --show-bin-path)/growcert demo --profile cherrysub --out "$(DEMO_OUT)/cherrysub"

test: setup-test
	scripts/build-without-warnings.sh $(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# The release build, which `make install` ships and the benchmarks measure: optimised, with the Swift runtime
# and Foundation linked in statically. Linked with the toolchain's lld: GNU ld and gold print glibc's link-time
# warning about mktemp, which static Foundation references; growcert builds without warnings. Its start-up
# (docs/performance.md, cli-add): relative relocations packed (DT_RELR, glibc 2.36 or later: 1.9 MB of
# relocation records become 16 KB) and no $ORIGIN run path (the libraries are the system's; the loader
# would first look for each of them beside the binary, 26 failed lookups). SQLite, libcrypto, zlib and the
# C++ runtime are linked from their Debian packages' static archives (STATIC_C_LIBS, written by
# scripts/static-c-libs.sh before each release build), so start-up binds none of their symbols: rebuild
# after a security update of libsqlite3-0, libssl3 or zlib1g (README, "Built on").
STATIC_C_LIBS := $(CURDIR)/.build/static-c-libs
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -L$(STATIC_C_LIBS)

# The PostgreSQL rows run against a temporary server on a Unix socket (scripts/pg-temp-server.sh), stopped after.
bench: setup-bench
	scripts/static-c-libs.sh $(STATIC_C_LIBS)
	scripts/build-without-warnings.sh $(RELEASE_BUILD)
	@set -e; pg=$$(mktemp -d /tmp/growcert-bench-pg.XXXXXX); scripts/pg-temp-server.sh start "$$pg"; \
	  GROWCERT_BENCH_PG_URL="postgresql:///bench?host=$$pg&user=postgres" $$($(RELEASE_BUILD) --show-bin-path)/growcert-bench \
	    --growcert $$($(RELEASE_BUILD) --show-bin-path)/growcert --out bench/results.json || rc=$$?; \
	  scripts/pg-temp-server.sh stop "$$pg"; exit $${rc:-0}

# The man page, generated from the command table.
man: build
	$$($(SWIFT) build --show-bin-path)/growcert man > growcert.1

# Installs $(PREFIX)/bin/growcert, its man page and bash, zsh and fish completions. BIN=path installs
# that binary instead of building a release one (the tests install their debug build this way).
install:
	@set -e; if [ -n "$(BIN)" ]; then bin="$(BIN)"; else \
	  scripts/ensure-packages.sh $(BUILD_PACKAGES) && scripts/static-c-libs.sh $(STATIC_C_LIBS) \
	  && scripts/build-without-warnings.sh $(RELEASE_BUILD) --product growcert \
	  && bin="$$($(RELEASE_BUILD) --show-bin-path)/growcert"; fi; \
	scripts/install.sh "$$bin" "$(DESTDIR)$(PREFIX)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/growcert" "$(DESTDIR)$(PREFIX)/share/man/man1/growcert.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/growcert" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_growcert" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/growcert.fish"

clean:
	rm -rf .build "$(DEMO_OUT)" growcert.1
