#!/usr/bin/env bash
# Runs a build command (`swift build …`) and fails when the compiler or SwiftPM printed a warning.
# The build's own output is shown as it comes; the warnings are listed again at the end.
set -uo pipefail
log=$(mktemp /tmp/growcert-build.XXXXXX)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || exit "$rc"
warnings=$(grep -E '(^|: )warning: ' "$log" | sort -u)
if [ -n "$warnings" ]; then
  printf '\nThe build printed warnings; growcert builds without any:\n%s\n' "$warnings" >&2
  exit 1
fi
