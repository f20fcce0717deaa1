#!/usr/bin/env bash
# Set-up command 1: install what is missing, build forge, and build the shipped sample recipe.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product forge
.build/release/forge build recipes/sample.json "$@"
.build/release/forge status out/sample
