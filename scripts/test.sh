#!/usr/bin/env bash
# Set-up command 2: install what is missing and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
swift build --build-tests
swift test --skip-build "$@"
