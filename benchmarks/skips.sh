#!/usr/bin/env bash
# Narrators who leave paragraphs out: the shared corpus's first CHAPTERS chapters (4) read by the
# espeak-ng command line in voices and paces Forge does not use (VOICES), one WAV each, with every
# EVERY-th paragraph of at least 8 words left out (25: a skip every few minutes, of one sentence to
# a long paragraph). Each is aligned with `forge align narration --audio … --text` by FORGE (the
# change) and, when set, BEFORE (another build), on the same files. Prints per voice and build:
# the skipped paragraphs reported (a text-not-in-audio span over any of their words), the words
# reported unheard outside them (each is a word the sync says the narrator left out, wrongly), the
# spans that are not a skip, time and peak memory.
# Usage: FORGE=<binary> BEFORE=<binary> benchmarks/skips.sh   (needs ../shared beside the repo)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
chapters=${CHAPTERS:-4}
every=${EVERY:-25}
voices=${VOICES:-en-gb:165 en-us:185 en-gb-scotland:150 en-us+f3:170}
work=out/skips
mkdir -p "$work"
source benchmarks/lib/forge.sh
use_forge
awk -v last="$((chapters + 1))" '$0 == "Chapter " last { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/book.txt"
python3 - "$work" "$every" <<'PY'
import json, sys
work, every = sys.argv[1], int(sys.argv[2])
paragraphs = [" ".join(p.split()) for p in open(f"{work}/book.txt").read().split("\n\n") if p.strip()]
long_enough = [i for i, p in enumerate(paragraphs) if len(p.split()) >= 8 and not p.startswith("Chapter ")]
skipped = set(long_enough[every // 2::every])
open(f"{work}/read.txt", "w").write("\n\n".join(p for i, p in enumerate(paragraphs) if i not in skipped) + "\n")
json.dump([{"text": p, "skipped": i in skipped} for i, p in enumerate(paragraphs)], open(f"{work}/paragraphs.json", "w"))
print(f"book: {len(paragraphs)} paragraphs, {sum(len(p.split()) for p in paragraphs)} words; left out: {len(skipped)} paragraphs "
      f"of {', '.join(str(len(paragraphs[i].split())) for i in sorted(skipped))} words")
PY
source benchmarks/lib/measure.sh
for voice in $voices; do
    name=${voice%%:*} rate=${voice##*:}
    wav="$work/read-$name-$rate.wav"
    [ -f "$wav" ] || espeak-ng -v "$name" -s "$rate" -f "$work/read.txt" -w "$wav"
    seconds=$(python3 -c "import wave;w=wave.open('$wav');print(w.getnframes()//w.getframerate())")
    for build in FORGE BEFORE; do
        binary=${!build:-}
        [ "$build" = FORGE ] && binary=$forge
        [ -n "$binary" ] || continue
        rm -rf "$work/aligned"
        allowed_status=1 measure "$binary" align narration --audio "$wav" --text "$work/book.txt" --output "$work/aligned" --json
        python3 - "$work" "$name $rate wpm, $seconds s" "$build" "$wall" "$peak_kb" <<'PY'
import json, sqlite3, sys
work, voice, build, wall, peak = sys.argv[1:6]
report = next(json.loads(l) for l in open(f"{work}/stdout") if '"event":"narration"' in l)
db = sqlite3.connect(f"{work}/aligned/manifest.sqlite")
items = db.execute("SELECT id, text FROM items ORDER BY ordinal").fetchall()
order = {item: n for n, (item, _) in enumerate(items)}
paragraphs = json.load(open(f"{work}/paragraphs.json"))
# Items are matched to paragraphs in order: an item is skipped when the paragraph holding it was left out.
skipped_items, paragraph_of, at, offset = set(), {}, 0, 0
for item, text in items:
    text = " ".join(text.split())
    for ahead in range(at, min(len(paragraphs), at + 3)):
        found = paragraphs[ahead]["text"].find(text, offset if ahead == at else 0)
        if found >= 0:
            at, offset = ahead, found + len(text)
            paragraph_of[item] = at
            if paragraphs[at]["skipped"]:
                skipped_items.add(item)
            break
counts = dict(db.execute("SELECT item_id, COUNT(*) FROM words GROUP BY item_id").fetchall())
reported, wrong_words, wrong_spans = set(), 0, 0
for span in report["spans"]:
    if span["kind"] != "text-not-in-audio":
        continue
    first, last = order[span["firstItem"]], order[span["lastItem"]]
    hit = False
    for n in range(first, last + 1):
        item = items[n][0]
        lo = span["firstWord"] if n == first else 0
        hi = span["lastWord"] if n == last else counts.get(item, 0) - 1
        if item in skipped_items:
            hit = True
            reported.add(item)
        else:
            wrong_words += hi - lo + 1
    wrong_spans += 0 if hit else 1
found = len({paragraph_of[item] for item in reported})
skipped = [p for p in paragraphs if p["skipped"]]
unplaced = len(items) - len(paragraph_of)
other = [s for s in report["spans"] if s["kind"] == "audio-without-text"]
print(f"{voice} | {build}: {float(wall):.1f} s, peak {int(peak) // 1024} MB; skips reported {found} of {len(skipped)}; "
      f"words wrongly unheard {wrong_words} of {report['words']}; false spans {wrong_spans} text, {len(other)} audio" + (f" ({unplaced} items not matched to a paragraph)" if unplaced else ""))
PY
    done
done
