#!/usr/bin/env bash
# Verification figures: (1) baseline word error rate on the corpus's first three chapters for
# espeak-ng's en-us and en-us+klatt voices; (2) detection: 20 items' audio replaced by other
# items' audio, how many are flagged and how many clean items/chunks are flagged too; (3) speed:
# verification of the whole corpus (wall time / audio duration, jobs = cores).
# Usage: benchmarks/verify-corpus.sh   (SKIP_WHOLE=1 skips the whole-corpus run)
set -euo pipefail
cd "$(dirname "$0")/.."
work=out/verify-corpus
rm -rf "$work" && mkdir -p "$work"
swift build -c release --product forge >/dev/null
forge=$PWD/.build/release/forge
awk '/^Chapter 4/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/ch1-3.txt"
cp ../shared/corpus/pride-and-prejudice.txt "$work/book.txt"
cd "$work"
for voice in en-us en-us+klatt; do
    name=${voice//+/_}
    echo "{ \"sources\": [\"ch1-3.txt\"], \"voice\": { \"id\": \"$voice\" }, \"output\": { \"directory\": \"$name\" } }" > "$name.json"
    "$forge" build "$name.json" --json > /dev/null
    "$forge" verify "$name" --json > "$name-verify.json" || true
    python3 -c "import json; r = json.load(open('$name-verify.json')); print(f'$voice: word error rate {100 * r[\"wordErrorRate\"]:.1f}% over {len(r[\"chunks\"])} chunks, chunks {min(c[\"wordErrorRate\"] for c in r[\"chunks\"]) * 100:.1f}–{max(c[\"wordErrorRate\"] for c in r[\"chunks\"]) * 100:.1f}%')"
done

export FORGE="$forge"
# Detection: swap 20 items' audio (spread over the chapters) for other items' audio.
python3 - <<'PY'
import json, random, shutil, sqlite3, subprocess, sys, os
random.seed(7)
db = sqlite3.connect("en-us_klatt/manifest.sqlite")
items = db.execute("SELECT i.id, o.path FROM items i JOIN objects o ON o.key = i.audio_key JOIN (SELECT item_id, COUNT(*) n FROM words GROUP BY item_id) w ON w.item_id = i.id WHERE w.n >= 12 ORDER BY i.ordinal").fetchall()
victims = random.sample(items, 20)
victim_ids = {v[0] for v in victims}
donors = [i for i in items if i[0] not in victim_ids]
for (item, path), (donor, donor_path) in zip(victims, random.sample(donors, 20)):
    target = os.path.join("en-us_klatt", path)
    os.remove(target)
    shutil.copyfile(os.path.join("en-us_klatt", donor_path), target)
report = json.loads(subprocess.run([os.environ["FORGE"], "verify", "en-us_klatt", "--json"], capture_output=True, text=True).stdout)
flagged_items = {f["id"] for c in report["chunks"] for f in c["flaggedItems"]}
print(f"detection: {len(flagged_items & victim_ids)} of 20 swapped items flagged; {len(flagged_items - victim_ids)} clean items flagged")
clean_flagged_chunks = [c for c in report["chunks"] if c["flaggedItems"] and not ({f["id"] for f in c["flaggedItems"]} & victim_ids)]
print(f"chunks flagged without a swapped item: {len(clean_flagged_chunks)} of {len(report['chunks'])}")
PY

[ "${SKIP_WHOLE:-}" = 1 ] && exit 0
# Speed: the whole corpus.
echo '{ "sources": ["book.txt"], "voice": { "id": "en-us+klatt" }, "output": { "directory": "whole" } }' > whole.json
"$forge" build whole.json --json > /dev/null
/usr/bin/time -o whole.time -f "%e %U" "$forge" verify whole --json > whole-verify.json || true
python3 -c "
import json
r = json.load(open('whole-verify.json')); wall, user = map(float, open('whole.time').read().split())
print(f'whole corpus: {r[\"audioMs\"] / 3600000:.2f} h of audio, {len(r[\"chunks\"])} chunks, word error rate {100 * r[\"wordErrorRate\"]:.1f}%')
print(f'verification: {wall:.0f} s wall, {user:.0f} s CPU: wall / audio = {wall / (r[\"audioMs\"] / 1000):.4f}')
"
