#!/usr/bin/env bash
# The sync's first pass alone (issue 74): Forge reads the book itself (espeak-ng en-us, its default
# voice) and warps that reading onto the narration `benchmarks/sync.sh` made (run it first with the
# same CHAPTERS and VOICE), then reports how far each sentence start lands from where the narrator
# said it (median, p90, p99, max), the warp's speed, and the path's cost in the paragraph the
# narrator skipped against the rest. No acoustic model is used.
# Usage: benchmarks/warp.sh   (CHAPTERS=3 VOICE=piper by default; FORGE=/path/to/forge; RADIUS=16)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
chapters=${CHAPTERS:-3}
voice=${VOICE:-piper}
radius=${RADIUS:-16}
work=out/sync/chapters-$chapters
[ "$voice" = espeak ] || work=out/sync/$voice-chapters-$chapters
[ -f "$work/reference.skipped.json" ] && work=$work || { [ -d "$work-skip" ] && work=$work-skip; }
[ -f "$work/narration.wav" ] || { echo "no narration in $work: run CHAPTERS=$chapters VOICE=$voice benchmarks/sync.sh first" >&2; exit 3; }
source benchmarks/lib/forge.sh
use_forge
mkdir -p "$work/warp"
cat > "$work/warp/reading.json" <<JSON
{ "sources": ["../book.txt"], "voice": "en-us", "build": { "jobs": 2 },
  "exports": { "formats": ["audio", "json"], "pauses": { "sentenceMs": 300, "paragraphMs": 800, "chapterMs": 2000 } },
  "output": { "directory": "reading" } }
JSON
start=$(date +%s.%N)
(cd "$work/warp" && "$forge" build reading.json > build.log 2>&1)
python3 benchmarks/narration_reference.py "$work/warp/reading/exports" "$work/warp/reading.wav" "$work/warp/reading.jsonl" > /dev/null
read_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
# The recording as the sync gets it: the intro and the narration, from the MP3 tracks, each
# decoded on its own (so its encoder delay and padding are trimmed, as the sync trims them).
rm -rf "$work/warp/tracks" && mkdir -p "$work/warp/tracks"
for track in "$work"/tracks/*.mp3; do
    ffmpeg -hide_banner -loglevel error -y -i "$track" -ac 1 -c:a pcm_s16le "$work/warp/tracks/$(basename "$track" .mp3).wav"
done
python3 - "$work/warp/recording.wav" "$work"/warp/tracks/*.wav <<'PY'
import sys, wave
with wave.open(sys.argv[1], "wb") as out:
    for index, path in enumerate(sys.argv[2:]):
        with wave.open(path) as part:
            if index == 0:
                out.setparams(part.getparams())
            out.writeframes(part.readframes(part.getnframes()))
PY
rm -rf "$work/warp/tracks"
python3 -c "import json; [print(json.loads(l)['startMs']) for l in open('$work/warp/reading.sentences.jsonl')]" > "$work/warp/times.txt"
source benchmarks/lib/measure.sh
measure "$forge" warp "$work/warp/reading.wav" "$work/warp/recording.wav" --times "$work/warp/times.txt" --radius "$radius"
cp "$work/stdout" "$work/warp/warped.txt"
intro_ms=$(python3 -c "import wave;w=wave.open('$work/intro.wav');print(w.getnframes()*1000//w.getframerate())")
python3 - "$work" "$wall" "$cpu" "$peak_kb" "$intro_ms" "$read_s" <<'PY'
import json, os, statistics, sys, wave
work, wall, cpu, peak, intro_ms, read_s = sys.argv[1:7]
wall, cpu, intro_ms = float(wall), float(cpu), int(intro_ms)
reading = [json.loads(l) for l in open(os.path.join(work, "warp", "reading.sentences.jsonl"))]
truth = {(s["item"], s["index"]): s["startMs"] + intro_ms for s in map(json.loads, open(os.path.join(work, "reference.sentences.jsonl")))}
lines = open(os.path.join(work, "warp", "warped.txt")).read().splitlines()
warped = [line.split() for line in lines if not line.startswith("#")]
spans = [line.split()[1:] for line in lines if line.startswith("#")]
skipped_path = os.path.join(work, "reference.skipped.json")
skipped = json.load(open(skipped_path))["item"] if os.path.exists(skipped_path) else None
errors, skipped_costs, costs = [], [], []
for sentence, (at, placed, cost) in zip(reading, warped):
    key = (sentence["item"], sentence["index"])
    if sentence["item"] == skipped:
        skipped_costs.append(float(cost))
        continue
    costs.append(float(cost))
    if key in truth:
        errors.append(abs(int(placed) - truth[key]))
errors.sort()
w = wave.open(os.path.join(work, "warp", "recording.wav"))
audio_s = w.getnframes() / w.getframerate()
q = lambda p: errors[min(len(errors) - 1, int(p * len(errors)))]
print(f"warp: {audio_s:.0f} s of recording, {wall:.1f} s wall ({audio_s / wall:.0f}x real time), CPU/wall {cpu / wall:.2f}, "
      f"peak {int(peak) // 1024} MB; Forge's own reading made in {read_s} s")
print(f"sentence starts ({len(errors)}): median {statistics.median(errors):.0f} ms, p90 {q(0.9)} ms, p99 {q(0.99)} ms, max {errors[-1]} ms; "
      f"within 0.5 s {sum(e <= 500 for e in errors) / len(errors):.1%}, within 1 s {sum(e <= 1000 for e in errors) / len(errors):.1%}")
for kind, start, end, _, at in spans:
    print(f"  {kind}: reference {int(start) / 1000:.1f}-{int(end) / 1000:.1f} s, recording at {int(at) / 1000:.1f} s" if kind == "text-without-audio"
          else f"  {kind}: recording {int(start) / 1000:.1f}-{int(end) / 1000:.1f} s, reference at {int(at) / 1000:.1f} s")
if skipped:
    info = json.load(open(skipped_path))
    print(f"  (the narrator skipped {info['words']} words at {info['atMs'] / 1000 + intro_ms / 1000:.1f} s of the recording; the intro is {intro_ms} ms)")
if skipped_costs:
    print(f"path cost at sentence starts: skipped paragraph median {statistics.median(skipped_costs):.2f}, "
          f"elsewhere median {statistics.median(costs):.2f}, p99 {sorted(costs)[int(0.99 * len(costs))]:.2f}")
PY
