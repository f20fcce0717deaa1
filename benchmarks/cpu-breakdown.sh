#!/usr/bin/env bash
# Benchmark (not a test): one build of a whole book under perf, its CPU sorted by phase — the
# breakdown issue 34 asks for (synthesis, the speakers' rewinds and faults, sample copies,
# hashing, writes and fsync, SQLite, timings, IPC, the orchestrator's bookkeeping) — beside the
# espeak-ng CLI's CPU for the same text.
#
#   benchmarks/cpu-breakdown.sh [book.txt]        JOBS=2 by default
#
# perf's own overhead inflates every phase by a few percent; compare shares, and the CPU ratio
# of build-corpus.sh (no perf) for the totals.
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$root/../shared/corpus/pride-and-prejudice.txt}
jobs=${JOBS:-2}
frequency=999
cd "$root"
scripts/install-deps.sh
if ! command -v perf >/dev/null; then
    if [ "$(id -u)" = 0 ]; then apt-get install -y -qq linux-perf >/dev/null; else sudo apt-get install -y -qq linux-perf >/dev/null; fi
fi
source benchmarks/lib/forge.sh
use_forge

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cp "$corpus" "$work/book.txt"
source "$root/benchmarks/lib/measure.sh"
sample_every=1
write_corpus_recipe "$jobs"
cd "$work"
echo "corpus: $corpus ($(wc -w <book.txt) words), forge jobs: $jobs, cores: $(nproc)"
measure espeak-ng -v en-us -s 175 -w "$work/espeak.wav" -f "$work/book.txt"
echo "espeak-ng CLI: ${wall} s, CPU ${cpu} s"
cli_cpu=$cpu
rm -f espeak.wav
perf record -q -g -F "$frequency" -o perf.data -- "$forge" build recipe.json --json >/dev/null
perf script -i perf.data -F pid,ip,sym,dso 2>/dev/null >samples.txt
python3 "$root/benchmarks/lib/cpu_breakdown.py" samples.txt "$frequency" "$cli_cpu"
