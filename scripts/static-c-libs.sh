#!/bin/sh
# Usage: scripts/static-c-libs.sh DIR
#
# Writes into DIR one linker script per C library the release build links at start (SQLite, OpenSSL's libcrypto,
# zlib and the C++ runtime that static Foundation's ICU needs), each naming the library's static archive from its
# Debian -dev package: `-L DIR` ahead of the system's directories then links those archives into the binary, so a
# command's start-up binds no symbols of theirs (docs/performance.md, "twelfth round"). A library whose archive the
# compiler cannot find gets no script and stays a shared library. libpq, libcurl and libmicrohttpd are not linked at
# all (CLazyLibraries opens them on first use).
set -eu
dir=${1:?usage: scripts/static-c-libs.sh DIR}
mkdir -p "$dir"
cc=$(command -v clang || command -v cc || true)
for lib in sqlite3 crypto z stdc++; do
    rm -f "$dir/lib$lib.so"
    [ -n "$cc" ] || continue
    archive=$("$cc" -print-file-name="lib$lib.a")
    if [ "${archive#/}" != "$archive" ] && [ -f "$archive" ]; then
        printf 'INPUT(%s)\n' "$archive" > "$dir/lib$lib.so"
    fi
done
