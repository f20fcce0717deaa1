#!/usr/bin/env bash
# Verification figures, in one run (2 cores; quote ratios, the machine is shared):
# (1) speed on the whole corpus (en-us+klatt, about 12 h of audio): the espeak-ng CLI speaking the same
#     text (the reference), then `forge verify --quick` and `forge verify` from no stored results —
#     wall time, ratio to the CLI, CPU/wall, peak memory of forge and its children, word error rate,
#     chunks transcribed, items flagged on this clean build;
# (2) detection: faults seeded into chapters 1-3 as a faulty engine would make them
#     (benchmarks/lib/seed_faults.py: another item's audio, silence, the first half, espeak-ng's German
#     voice, reversed — 3 items each — and the last chapter as noise), caught by each mode;
# (3) the anchor: pocketsphinx_batch on the same 2-minute chunks of chapters 1-3 with the same models,
#     with its defaults and with -fwdflat no, CPU seconds per audio second beside forge's.
# Usage: benchmarks/verify-corpus.sh   (SKIP_FULL=1 skips the whole corpus's full verification)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
root=$PWD
work=$root/out/verify-corpus
rm -rf "$work" && mkdir -p "$work"
source benchmarks/lib/measure.sh
source benchmarks/lib/forge.sh
use_forge
command -v pocketsphinx_batch >/dev/null || apt-get install -y pocketsphinx >/dev/null
python3 -c "import numpy" 2>/dev/null || apt-get install -y python3-numpy >/dev/null
awk '/^Chapter 4/ { exit } { print }' ../shared/corpus/pride-and-prejudice.txt > "$work/ch1-3.txt"
cp ../shared/corpus/pride-and-prejudice.txt "$work/book.txt"
cd "$work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# No verify block: the build would verify; each verify below runs from no stored results with --max-wer.
recipe() { echo "{ \"sources\": [\"$1\"], \"voice\": { \"id\": \"en-us+klatt\" }, \"output\": { \"directory\": \"$2\" } }"; }
forget_chunks() { python3 -c "import sqlite3, sys; d = sqlite3.connect(sys.argv[1] + '/manifest.sqlite'); d.execute('DELETE FROM chunks'); d.commit()" "$1"; rm -rf "$1/verify"; }
summary() { # $1 label, $2 report JSON
    python3 - "$1" "$2" "$wall" "$cpu" "$peak_kb" "$cli_wall" <<'PY'
import json, sys
label, path, wall, cpu, peak, cli = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
r = json.load(open(path))
screen = r.get("screen", {})
print(f"  {label:<22} {wall:7.1f} s = {wall / cli:5.2f}x the CLI  CPU/wall {cpu / wall:4.2f}  peak {peak / 1024:4.0f} MB  "
      f"WER {100 * r['wordErrorRate']:4.1f}%  chunks transcribed {r['transcribedChunks']}/{r['transcribedChunks'] + r.get('unsampledChunks', 0)}  "
      f"screen {screen.get('elapsedSeconds', 0):.1f} s, {len(screen.get('flaggedItems', []))} of {screen.get('items', 0)} items flagged  "
      f"items flagged in all {len(r.get('flaggedItems', []))}  utterances aligned {r.get('alignedUtterances', 0)}, transcribed {r.get('decodedUtterances', 0)}  "
      f"({r['audioMs'] / wall / 1000:.0f}x real time; 49 h would take {49 * 3600 * wall / (r['audioMs'] / 1000) / 60:.1f} min)")
PY
}

# (1) Speed on the whole corpus.
recipe book.txt whole > whole.json
"$forge" build whole.json --json > /dev/null || true
sample_every=1 measure espeak-ng -v en-us+klatt -f book.txt -w cli.wav
cli_wall=$wall
rm -f cli.wav
echo "whole corpus, espeak-ng CLI: $cli_wall s (the reference)"
forget_chunks whole
sample_every=1 allowed_status=1 measure "$forge" verify whole --quick --json --max-wer 0.25
cp stdout quick.json
summary "forge verify --quick" quick.json
if [ "${SKIP_FULL:-}" != 1 ]; then
    forget_chunks whole
    sample_every=1 allowed_status=1 measure "$forge" verify whole --json --max-wer 0.25
    cp stdout full.json
    summary "forge verify" full.json
fi

# (2) Detection on chapters 1-3.
recipe ch1-3.txt sample > sample.json
"$forge" build sample.json --json > /dev/null || true
rm -rf faulty && cp -a sample faulty
python3 "$root/benchmarks/lib/seed_faults.py" faulty 3 > faults.json
for mode in quick full; do
    forget_chunks faulty
    "$forge" verify faulty --json --max-wer 0.25 $([ $mode = quick ] && echo --quick) > "faulty-$mode.json" || true
done
python3 - <<'PY'
import json
faults = json.load(open("faults.json"))
seeded = {item for items in faults.values() for item in items}
for mode in ("quick", "full"):
    r = json.load(open(f"faulty-{mode}.json"))
    flagged = set(r["flaggedItems"])
    screen = {i["id"] for i in r["screen"]["flaggedItems"]}
    rates = ", ".join(f"{name} {len(set(items) & flagged)}/{len(items)} (screen {len(set(items) & screen)})" for name, items in faults.items())
    print(f"detection, {mode:5}: {rates}; clean items flagged {len(flagged - seeded)}; chunks transcribed {r['transcribedChunks']}")
PY

# (3) The reference decoder on the same audio: each chapter's timeline at 16 kHz, cut at the same
# 2-minute marks, decoded by pocketsphinx_batch with the same chunk model and dictionary.
forget_chunks sample
/usr/bin/time -o sample-verify.time -f "%e %U" "$forge" verify sample --json > sample-verify.json || true
"$forge" export sample --format audio > /dev/null
python3 - <<'PY'
import glob, json, os, subprocess, wave
import numpy as np
os.makedirs("reference", exist_ok=True)
chunks = []
for path in sorted(glob.glob("sample/exports/audio/chapter-*.wav")):
    stem = os.path.basename(path)[:-4]
    with wave.open(path) as w:
        rate, pcm = w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    pcm = np.interp(np.arange(0, len(pcm), rate / 16000), np.arange(len(pcm)), pcm).astype(np.int16)
    step = 120 * 16000
    for index, start in enumerate(range(0, len(pcm), step)):
        name = f"{stem}-{index:02d}"
        pcm[start:start + step].tofile(f"reference/{name}.raw")
        chunks.append((stem, name, len(pcm[start:start + step]) / 16000))
audio = sum(c[2] for c in chunks)
dictionary = glob.glob("sample/verify/dict-*.dict")[0]
forge_wall, forge_cpu = map(float, open("sample-verify.time").read().split())
report = json.load(open("sample-verify.json"))
print(f"anchor, chapters 1-3, {audio:.0f} s of audio in {len(chunks)} chunks:")
print(f"  forge verify (full):                {forge_cpu:6.1f} s CPU = {forge_cpu / audio:.4f} CPU s per audio s, WER {100 * report['wordErrorRate']:.1f}%")
for label, extra in (("pocketsphinx_batch, its defaults:", []), ("pocketsphinx_batch, -fwdflat no: ", ["-fwdflat", "no"])):
    cpu = 0.0
    for stem, name, _ in chunks:
        open("reference/ctl", "w").write(f"{name}\n")
        model = f"sample/verify/lm-{stem}-chunk-{int(name.rsplit('-', 1)[1]):03d}.arpa"
        subprocess.run(["/usr/bin/time", "-o", "reference/time", "-f", "%U", "pocketsphinx_batch", "-adcin", "yes", "-cepdir", "reference", "-cepext", ".raw",
                        "-ctl", "reference/ctl", "-hmm", "/usr/share/pocketsphinx/model/en-us/en-us", "-dict", dictionary, "-lm", model,
                        "-remove_silence", "no", "-hyp", f"reference/{name}.hyp", "-logfn", "/dev/null"] + extra, check=True)
        cpu += float(open("reference/time").read())
    print(f"  {label}   {cpu:6.1f} s CPU = {cpu / audio:.4f} CPU s per audio s; forge / reference = {forge_cpu / cpu:.2f}")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
