#!/usr/bin/env bash
# Set-up command 2: install what is missing and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# Piper (about 22 s and 310 MB from PyPI, once) lets the Piper adapter's test run; without PyPI it is skipped.
if [ -z "${FORGE_SKIP_PIPER:-}" ] && [ ! -x .forge/piper/bin/python3 ]; then
    adapters/piper/install.sh .forge/piper >/dev/null || { echo "Piper could not be installed; its test will be skipped." >&2; rm -rf .forge/piper; }
fi
swift build --build-tests
swift test --skip-build "$@"
