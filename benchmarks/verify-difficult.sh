#!/usr/bin/env bash
# False flags on difficult prose (issue 36): the first $CHAPTERS chapters of the corpus (24 unless
# set) as they are, and made difficult by benchmarks/make_difficult_prose.py (invented words, eye
# dialect in speech, run-on paragraphs), each built at en-us+klatt and verified in full from no stored
# results. Prints, for each: items, word error rate, items flagged (a clean build: every flag is a
# false one) and their share, verify's time and peak memory; then the flagged items' text.
# Usage: benchmarks/verify-difficult.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/out/verify-difficult
chapters=${CHAPTERS:-24}
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/measure.sh
swift build -c release --product forge >/dev/null
forge=$root/.build/release/forge
python3 benchmarks/make_difficult_prose.py ../shared/corpus/pride-and-prejudice.txt "$chapters" > "$work/difficult.txt"
awk -v last="$((chapters + 1))" '$0 == "Chapter " last { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/plain.txt"
cd "$work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for text in plain difficult; do
    echo "{ \"sources\": [\"$text.txt\"], \"voice\": { \"id\": \"en-us+klatt\" }, \"output\": { \"directory\": \"$text\" } }" > "$text.json"
    "$forge" build "$text.json" --json > /dev/null
    sample_every=1 allowed_status=1 measure "$forge" verify "$text" --json --max-wer 0.25
    cp stdout "$text-verify.json"
    python3 - "$text" "$wall" "$cpu" "$peak_kb" <<'PY'
import json, sqlite3, sys
label, wall, cpu, peak = sys.argv[1], *map(float, sys.argv[2:])
r = json.load(open(f"{label}-verify.json"))
db = sqlite3.connect(f"{label}/manifest.sqlite")
items = db.execute("SELECT count(*) FROM items WHERE kind = 'paragraph' OR kind = 'heading'").fetchone()[0]
flagged = r["flaggedItems"]
print(f"{label:<10} {items:5} items  WER {100 * r['wordErrorRate']:4.1f}%  flagged {len(flagged):3} ({100 * len(flagged) / items:.2f}%)  "
      f"verify {wall:6.1f} s, CPU/wall {cpu / wall:4.2f}, peak {peak / 1024:4.0f} MB")
for item in flagged:
    text, = db.execute("SELECT text FROM items WHERE id = ?", (item,)).fetchone()
    print(f"    flagged {item}: {text[:150]}")
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
