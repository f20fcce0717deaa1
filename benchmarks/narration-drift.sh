#!/usr/bin/env bash
# Aligns an hour-long narration made by a different voice and speed than forge's default
# (espeak-ng en-gb at 150 wpm, chapters 1-7 of the shared corpus, joined into one WAV with
# pauses), fed to `forge align narration --audio … --text` as a plain audio file, and compares every word's
# start with the synthesizer's own times: whole recording, first ten minutes, last ten minutes.
# Usage: benchmarks/narration-drift.sh   (LINES=1125 by default; needs ../shared beside the repo)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
lines=${LINES:-1125}
work=out/narration-drift
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/forge.sh
use_forge
head -n "$lines" ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt"
cat > "$work/reference.json" <<JSON
{ "sources": ["book.txt"], "voice": { "id": "en-gb", "rate": 150 },
  "exports": { "formats": ["audio", "json"], "pauses": { "sentenceMs": 300, "paragraphMs": 800, "chapterMs": 2000 } },
  "output": { "directory": "reference" } }
JSON
(cd "$work" && "$forge" build reference.json --json > build.log)
python3 benchmarks/narration_reference.py "$work/reference/exports" "$work/narration.wav" "$work/reference.jsonl"
/usr/bin/time -f "forge align: %e s wall, %U s user CPU" "$forge" align narration --audio "$work/narration.wav" --text "$work/book.txt" --output "$work/aligned" | head -3
python3 benchmarks/narration_drift.py "$work/reference.jsonl" "$work/aligned"
