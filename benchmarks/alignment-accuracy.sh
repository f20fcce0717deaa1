#!/usr/bin/env bash
# Forced alignment against espeak-ng's own word events, on the first three chapters of the
# shared corpus in the default voice: builds once with events (the reference), then re-aligns
# the same audio objects with alignment.method "forced" (jobs=1, so CPU time is per core) and
# prints the word-start error (median, share within 50 ms, maximum) and the alignment speed
# (CPU seconds per second of audio). Usage: benchmarks/alignment-accuracy.sh (VOICE=en-us by default,
# FORGE=<binary> to time another build)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
work=out/alignment-accuracy
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/forge.sh
use_forge
awk '/^Chapter 4/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt"
recipe() {
    cat <<JSON
{ "sources": ["book.txt"], "voice": { "id": "${VOICE:-en-us}" }, "build": { "jobs": $2 }, "alignment": { "method": "$1" }, "output": { "directory": "store" } }
JSON
}
cd "$work"
recipe auto 2 > events.json
recipe forced 1 > forced.json
"$forge" build events.json --json > events.log
starts() { python3 -c 'import sqlite3; [print(f"{i}|{x}|{s}") for i, x, s in sqlite3.connect("store/manifest.sqlite").execute("SELECT item_id, idx, start_ms FROM words ORDER BY item_id, idx")]'; }
starts > events.txt
/usr/bin/time -o forced.time -f "%e %U" "$forge" build forced.json --json > forced.log
starts > forced.txt
audio_ms=$(python3 -c 'import sqlite3; print(sqlite3.connect("store/manifest.sqlite").execute("SELECT SUM(duration_ms) FROM items").fetchone()[0])')
python3 - "$audio_ms" <<'PY'
import statistics, sys
audio_s = int(sys.argv[1]) / 1000
wall, user = map(float, open("forced.time").read().split())
events = {tuple(l.split("|")[:2]): int(l.split("|")[2]) for l in open("events.txt")}
errors = sorted(abs(int(l.split("|")[2]) - events[tuple(l.split("|")[:2])]) for l in open("forced.txt"))
print(f"{len(errors)} words, {audio_s:.0f} s of audio")
print(f"word-start error vs espeak-ng events: median {statistics.median(errors):.0f} ms, "
      f"within 50 ms {100 * sum(e <= 50 for e in errors) / len(errors):.1f}%, "
      f"p90 {errors[int(0.9 * len(errors))]} ms, max {errors[-1]} ms")
print(f"forced alignment, 1 job: {wall:.1f} s wall, {user:.1f} s CPU = {user / audio_s:.4f} x real time per core")
PY
