#!/usr/bin/env bash
# Fails, naming the files, when a Swift file differs from what `swift format` (the toolchain's, with
# the repository's .swift-format) makes of it, or when `swift format lint --strict` finds anything.
# Run by scripts/test.sh, so by .ci/run. A toolchain without `swift format` fails the check: the
# formatter ships with Swift 6, so its absence means a broken toolchain, not a reason to skip.
# To format: swift format format -i -r -p Sources Tests Plugins Package.swift
set -euo pipefail
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
    echo "swift format is not in this toolchain (it ships with Swift 6): install a complete toolchain." >&2
    exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
files=$(git ls-files '*.swift' 2>/dev/null || find Sources Tests Plugins Package.swift -name '*.swift')
for file in $files; do mkdir -p "$scratch/$(dirname "$file")"; cp "$file" "$scratch/$file"; done
(cd "$scratch" && swift format format --configuration "$OLDPWD/.swift-format" -i -p $files)
unformatted=0
for file in $files; do
    if ! cmp -s "$file" "$scratch/$file"; then
        echo "not formatted: $file" >&2
        unformatted=1
    fi
done
if [ "$unformatted" -ne 0 ]; then
    echo "Run: swift format format -i -r -p Sources Tests Plugins Package.swift" >&2
    exit 1
fi
if ! swift format lint --strict --configuration .swift-format -p $files; then
    echo "swift format lint --strict found the findings above." >&2
    exit 1
fi
