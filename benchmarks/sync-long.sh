#!/usr/bin/env bash
# The sync at book scale (issue 74): the shared corpus read by espeak-ng in en-gb at 150 wpm (as
# benchmarks/sync.sh reads its chapters) with one paragraph left out (narration_reference.py --skip),
# that reading COPIES times over in one FLAC (5: 63 hours, 4.9 GB), against the corpus COPIES times
# under BOOK headings; `forge align narration` on them. Prints wall time, real-time factor, CPU/wall
# (the process tree's), the forge process's peak RSS (VmHWM) and the process tree's peak, and the
# report: words not heard, the spans. The reading is built once and kept in out/sync/long-COPIES
# (about 15 GB while it is made, 5 GB after).
#   benchmarks/sync-long.sh                 COPIES=5 FORGE=<binary>; FORGE_LOG_LEVEL=debug for the phases
#   RSS_LOG=<file> benchmarks/sync-long.sh  also writes the forge process's RSS every 2 s
#   MAKE_ONLY=1 benchmarks/sync-long.sh     makes the reading and the text, and stops
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${COPIES:-5}
source benchmarks/lib/forge.sh
use_forge --install --tests
work=out/sync/long-$copies
mkdir -p "$work"
if [ ! -f "$work/long.flac" ] || [ ! -f "$work/book.txt" ]; then
    one=$work/one
    mkdir -p "$one"
    cp ../shared/corpus/pride-and-prejudice.txt "$one/book.txt"
    cat > "$one/reference.json" <<JSON
{ "sources": ["book.txt"], "voice": { "id": "en-gb", "rate": 150 }, "build": { "jobs": 2 },
  "exports": { "formats": ["audio", "json"], "pauses": { "sentenceMs": 300, "paragraphMs": 800, "chapterMs": 2000 } },
  "output": { "directory": "reference" } }
JSON
    if [ ! -f "$one/narration.wav" ]; then
        (cd "$one" && "$forge" build reference.json --json > build.log)
        python3 benchmarks/narration_reference.py "$one/reference/exports" "$one/narration.wav.new" "$one/reference.jsonl" --skip
        mv "$one/narration.wav.new" "$one/narration.wav"
        rm -rf "$one/reference"
    fi
    names=(ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN)
    : > "$work/book.txt.new"
    : > "$work/copies.txt"
    for ((copy = 0; copy < copies; copy++)); do
        printf 'BOOK %s\n\n\n' "${names[copy % 10]}" >> "$work/book.txt.new"
        cat "$one/book.txt" >> "$work/book.txt.new"
        printf '\n\n' >> "$work/book.txt.new"
        echo "file '$PWD/$one/narration.wav'" >> "$work/copies.txt"
    done
    ffmpeg -hide_banner -loglevel error -y -f concat -safe 0 -i "$work/copies.txt" -c:a flac -f flac "$work/long.flac.new"
    rm -f "$one/narration.wav"
    mv "$work/long.flac.new" "$work/long.flac"
    mv "$work/book.txt.new" "$work/book.txt"
fi
[ -z "${MAKE_ONLY:-}" ] || exit 0
audio_s=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/long.flac")
echo "reading: $(printf %.0f "$audio_s") s in one FLAC of $(du -m "$work/long.flac" | cut -f1) MB; text: $(wc -w < "$work/book.txt") words; load $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$work/aligned" "$work/aligned.pid" "$work/aligned.hwm"
source benchmarks/lib/measure.sh
# The forge process's own high-water mark, beside the tree's sampled peak.
(
    while [ ! -s "$work/aligned.pid" ]; do sleep 0.2; done
    pid=$(cat "$work/aligned.pid")
    start=$(date +%s)
    while [ -r "/proc/$pid/status" ]; do
        read -r rss hwm < <(awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { print int(r / 1024), int(h / 1024) }' "/proc/$pid/status" 2>/dev/null || echo "0 0")
        [ -z "${RSS_LOG:-}" ] || echo "$(($(date +%s) - start)) $rss $hwm" >> "$RSS_LOG"
        [ "$hwm" = 0 ] || echo "$hwm" > "$work/aligned.hwm"
        sleep 2
    done
) &
watcher=$!
sample_every=1 allowed_status=1 measure sh -c 'echo $$ > "$1"; exec "$2" align narration --audio "$3" --text "$4" --output "$5" --json' \
    sh "$work/aligned.pid" "$forge" "$work/long.flac" "$work/book.txt" "$work/aligned"
wait "$watcher" || true
cp "$work/stdout" "$work/aligned.jsonl"
python3 - "$work" "$wall" "$cpu" "$peak_kb" "$audio_s" "$(cat "$work/aligned.hwm" 2>/dev/null || echo 0)" <<'PY'
import json, os, sys
work, wall, cpu, peak, audio_s, hwm = sys.argv[1:7]
wall, cpu, audio_s = float(wall), float(cpu), float(audio_s)
report = next(json.loads(l) for l in open(os.path.join(work, "aligned.jsonl")) if '"event":"narration"' in l)
print(f"align narration: {wall:.1f} s wall, {cpu:.1f} s CPU, CPU/wall {cpu / wall:.2f}, {audio_s / wall:.0f}x real time; "
      f"forge's peak {hwm} MB (VmHWM), the process tree's {int(peak) // 1024} MB (sampled)")
if report.get("examinedMs") is not None:
    print(f"  the acoustic model examined {report['examinedMs'] / 1000:.0f} s ({report['examinedMs'] / 1000 / audio_s:.1%})")
spans = [s for s in report["spans"] if s["kind"] != "matched"]
unheard = [s for s in spans if s["kind"] == "text-not-in-audio"]
print(f"  words not heard: {report['unmatchedWords']} of {report['words']}, in {len(unheard)} span(s) of text not heard; "
      f"{report['unmatchedSpeechMs'] / 1000:.0f} s of speech not in the text; passed {report['passed']}")
for span in spans:
    print(f"  {span['kind']:18} {span['startMs'] / 1000:9.1f}-{span['endMs'] / 1000:9.1f} s  {(span.get('text') or '')[:60]}")
PY
rm -rf "$work/aligned"
