#!/usr/bin/env bash
# False flags on difficult prose (issues 36, 53): clean builds verified in full from no stored
# results, where every flag is a false one. Texts (the shared corpus, rewritten by
# benchmarks/make_difficult_prose.py):
#   plain      chapters 1-24 as they are
#   difficult  chapters 1-24 with invented words, eye dialect in every quotation, run-on paragraphs
#   numbers    chapters 25-61 made difficult too, plus years, money, times, fractions, ordinals,
#              abbreviations and Roman numerals, quotation styles, dashes, one-word replies, verse
# Prints, for each text and forge: items, hours of audio, word error rate, items flagged and flags
# per hour, the flags a second hearing of the item alone cleared, verify's time, CPU/wall and peak
# memory; then the flagged items' text.
# Usage: benchmarks/verify-difficult.sh                 (this checkout's forge)
#        PREVIOUS=/path/to/older/forge benchmarks/verify-difficult.sh   (beside it, in the same run)
#        TEXTS="numbers" VOICE=en-us+klatt benchmarks/verify-difficult.sh
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
root=$PWD
work=$root/out/verify-difficult
texts=${TEXTS:-"plain difficult numbers"}
voice=${VOICE:-en-us+klatt}
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/measure.sh
source benchmarks/lib/forge.sh
use_forge
forges=("current=$forge")
[ -n "${PREVIOUS:-}" ] && forges+=("previous=$PREVIOUS")
corpus=../shared/corpus/pride-and-prejudice.txt
python3 benchmarks/make_difficult_prose.py "$corpus" 24 > "$work/difficult.txt"
python3 benchmarks/make_difficult_prose.py "$corpus" 37 --numbers --from 25 > "$work/numbers.txt"
awk '$0 == "Chapter 25" { exit } { print }' "$corpus" > "$work/plain.txt"
cd "$work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); voice $voice"
for entry in "${forges[@]}"; do
    label=${entry%%=*}
    forge=${entry#*=}
    for text in $texts; do
        out="$label-$text"
        echo "{ \"sources\": [\"$text.txt\"], \"voice\": { \"id\": \"$voice\" }, \"output\": { \"directory\": \"$out\" } }" > "$out.json"
        "$forge" build "$out.json" --json > /dev/null
        sample_every=1 allowed_status=1 measure "$forge" verify "$out" --json --max-wer 0.25
        cp stdout "$out-verify.json"
        python3 - "$label" "$text" "$out" "$wall" "$cpu" "$peak_kb" <<'PY'
import json, sqlite3, sys
label, text, out, wall, cpu, peak = sys.argv[1], sys.argv[2], sys.argv[3], *map(float, sys.argv[4:])
r = json.load(open(f"{out}-verify.json"))
db = sqlite3.connect(f"{out}/manifest.sqlite")
items = db.execute("SELECT count(*) FROM items").fetchone()[0]
hours = r["audioMs"] / 3.6e6
flagged = r["flaggedItems"]
print(f"{label:<8} {text:<10} {items:5} items {hours:5.2f} h  WER {100 * r['wordErrorRate']:4.1f}%  flagged {len(flagged):3} "
      f"({len(flagged) / hours:.2f} per hour; heard again on their own {r.get('itemsHeardAgain', 0)}, cleared {r.get('flagsCleared', 0)})  "
      f"verify {wall:6.1f} s, CPU/wall {cpu / wall:4.2f}, peak {peak / 1024:4.0f} MB")
screen = {i["id"]: "; ".join(f["description"] for f in i["findings"]) for i in (r.get("screen") or {}).get("flaggedItems", [])}
heard = {f["id"]: f for c in r["chunks"] for f in c["flaggedItems"]}
for item in flagged:
    row, = db.execute("SELECT text FROM items WHERE id = ?", (item,)).fetchone()
    why = screen.get(item) or "unheard: " + " ".join(heard.get(item, {}).get("missingWords", [])) + " extra: " + " ".join(heard.get(item, {}).get("extraWords", []))
    print(f"    flagged {item} ({why}): {row[:120]}")
PY
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
