#!/usr/bin/env bash
# Benchmark (not a test): real books as people download them, against the chapter lists the books
# themselves give. Runs `forge plan` and `forge split` on every file of every book folder of the
# corpus (Tests/ForgeTests/Resources/books by default: 43 public-domain books cut to fixtures by
# benchmarks/books/cut.py, each with its truth.json) and prints per case: the encoding read, chapters
# expected / found, titles matching, exact or not, chapters under 10 s that the book's contents do
# not list, words of licence, contents or colophon spoken, words left unspoken; then the totals.
#
#   benchmarks/books.sh                     the committed fixtures
#   benchmarks/books.sh --corpus DIR        whole books in the same layout (a folder per book with truth.json)
#   benchmarks/books.sh --markdown          a table for docs/benchmarks.md, with the commit, host and date
#   benchmarks/books.sh --details           the titles missing and extra in every case not exact
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source benchmarks/lib/forge.sh
use_forge --install
if [[ " $* " == *" --markdown "* ]]; then
    echo "### Real books (\`benchmarks/books.sh $*\`)"
    echo
    echo "Commit $(git rev-parse --short HEAD), $(uname -n), $(nproc) cores, $(date -u +%Y-%m-%d)."
    echo
fi
exec python3 benchmarks/books.py --forge "$FORGE" "$@"
