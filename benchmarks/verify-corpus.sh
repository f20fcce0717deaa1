#!/usr/bin/env bash
# Verification figures: (1) baseline word error rate on the corpus's first three chapters for
# espeak-ng's en-us and en-us+klatt voices; (2) detection: 20 items' audio replaced by other
# items' audio, how many are flagged and how many clean items/chunks are flagged too; (3) speed:
# forge verify against the pocketsphinx decoder (pocketsphinx_batch, same audio cut in the same
# 2-minute chunks, same chapter models and dictionary) on chapters 1-3, and verification of the
# whole corpus (wall time / audio duration, jobs = cores).
# Usage: benchmarks/verify-corpus.sh   (SKIP_WHOLE=1 skips the whole-corpus run)
set -euo pipefail
cd "$(dirname "$0")/.."
work=out/verify-corpus
rm -rf "$work" && mkdir -p "$work"
swift build -c release --product forge >/dev/null
command -v pocketsphinx_batch >/dev/null || apt-get install -y pocketsphinx >/dev/null
forge=$PWD/.build/release/forge
awk '/^Chapter 4/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/ch1-3.txt"
cp ../shared/corpus/pride-and-prejudice.txt "$work/book.txt"
cd "$work"
for voice in en-us en-us+klatt; do
    name=${voice//+/_}
    echo "{ \"sources\": [\"ch1-3.txt\"], \"voice\": { \"id\": \"$voice\" }, \"output\": { \"directory\": \"$name\" } }" > "$name.json"
    "$forge" build "$name.json" --json > /dev/null
    /usr/bin/time -o "$name-verify.time" -f "%e %U" "$forge" verify "$name" --json > "$name-verify.json" || true
    python3 -c "import json; r = json.load(open('$name-verify.json')); print(f'$voice: word error rate {100 * r[\"wordErrorRate\"]:.1f}% over {len(r[\"chunks\"])} chunks, chunks {min(c[\"wordErrorRate\"] for c in r[\"chunks\"]) * 100:.1f}–{max(c[\"wordErrorRate\"] for c in r[\"chunks\"]) * 100:.1f}%')"
done

# The reference decoder on the same audio: each chapter's audio (the timeline verification
# transcribes) at 16 kHz, cut at the same 2-minute marks, decoded by pocketsphinx_batch with the
# same chapter model and dictionary; once with its defaults, once with Forge's settings.
"$forge" export en-us_klatt --format audio > /dev/null
python3 - <<'PY'
import audioop, glob, json, os, subprocess, wave
os.makedirs("reference", exist_ok=True)
chunks = []
for path in sorted(glob.glob("en-us_klatt/exports/audio/chapter-*.wav")):
    stem = os.path.basename(path)[:-4]
    with wave.open(path) as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    pcm, _ = audioop.ratecv(frames, 2, 1, rate, 16000, None)
    step = 120 * 16000 * 2
    for index, start in enumerate(range(0, len(pcm), step)):
        name = f"{stem}-{index:02d}"
        open(f"reference/{name}.raw", "wb").write(pcm[start:start + step])
        chunks.append((stem, name, len(pcm[start:start + step]) / 32000))
audio = sum(c[2] for c in chunks)
dictionary = glob.glob("en-us_klatt/verify/dict-*.dict")[0]
forge_wall, forge_cpu = map(float, open("en-us_klatt-verify.time").read().split())
print(f"chapters 1-3, {audio:.0f} s of audio in {len(chunks)} chunks:")
print(f"  forge verify (2 jobs):              {forge_cpu:6.1f} s CPU  = {forge_cpu / audio:.4f} CPU s per audio s")
for label, extra in (("pocketsphinx_batch, its defaults:", []), ("pocketsphinx_batch, -fwdflat no: ", ["-fwdflat", "no"])):
    cpu = 0.0
    for stem in sorted({c[0] for c in chunks}):
        open("reference/ctl", "w").write("".join(f"{c[1]}\n" for c in chunks if c[0] == stem))
        model = glob.glob(f"en-us_klatt/verify/lm-{stem}-*.arpa")[0]
        subprocess.run(["/usr/bin/time", "-o", "reference/time", "-f", "%U", "pocketsphinx_batch", "-adcin", "yes", "-cepdir", "reference", "-cepext", ".raw",
                        "-ctl", "reference/ctl", "-hmm", "/usr/share/pocketsphinx/model/en-us/en-us", "-dict", dictionary, "-lm", model,
                        "-remove_silence", "no", "-hyp", f"reference/{stem}.hyp", "-logfn", "/dev/null"] + extra, check=True)
        cpu += float(open("reference/time").read())
    print(f"  {label}   {cpu:6.1f} s CPU  = {cpu / audio:.4f} CPU s per audio s; forge / reference = {forge_cpu / cpu:.2f}")
PY

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
