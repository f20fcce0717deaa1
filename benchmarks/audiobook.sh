#!/usr/bin/env bash
# The audiobook on a whole book: builds it (default: ../shared/corpus/pride-and-prejudice.txt,
# default voice, 2 jobs, WAV) unless already built, then prints, side by side in one run:
#   - each chapter's levels before mastering and after (the ACX MP3 set), against ACX and
#     against −18 LUFS ±1 LU with true peak ≤ −1 dBTP;
#   - `forge export --format m4b` (unmastered, and mastered to acx) against ffmpeg encoding the same
#     concatenated chapter audio to AAC directly with the same coder (`-aac_coder fast`), wall
#     time and peak RSS, and their ratio, on the book's first M4B_LINES lines (default 1400, about
#     an hour; the whole corpus takes ffmpeg about 3 minutes a run);
#   - libebur128's measuring speed (forge check of the unmastered chapters), in × real time.
#   benchmarks/audiobook.sh [book.txt]
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
cd "$(dirname "$0")/.."
book="$(realpath "${1:-../shared/corpus/pride-and-prejudice.txt}")"
source benchmarks/lib/forge.sh
use_forge
work=".forge/bench-audiobook"; mkdir -p "$work"; touch "$work/.forge-project"
cp "$book" "$work/book.txt"
cat > "$work/recipe.json" <<JSON
{ "version": 1, "title": "Pride and Prejudice", "author": "Jane Austen", "sources": ["book.txt"],
  "build": { "jobs": 2 }, "output": { "directory": "out" } }
JSON
(cd "$work" && "$forge" build recipe.json >/dev/null)
cd "$work"
measure() { /usr/bin/time -f "%e %M" -o .time "$@" >/dev/null 2>&1 || true; cat .time | tail -1; }

echo "== Levels before mastering (chapter timelines as exported) =="
read -r check_s check_kb < <(measure "$forge" check out --profile acx --json)
"$forge" check out --profile acx --json > before.json || true
echo "== After: the ACX set (exports/acx, mastered to acx) =="
rm -rf out/exports/acx out/exports/m4b
read -r acx_s acx_kb < <(measure "$forge" export out --format acx)
"$forge" check --profile acx --json out/exports/acx/*.mp3 > after.json || true
python3 - before.json after.json <<'PY'
import json, sys
def load(p): return json.load(open(p))
for label, path in (("before", sys.argv[1]), ("after (ACX MP3s)", sys.argv[2])):
    r = load(path); ch = r["chapters"]
    acx = sum(c["passed"] for c in ch)
    r18 = sum(1 for c in ch if c["levels"]["integratedLUFS"] is not None and -19 <= c["levels"]["integratedLUFS"] <= -17 and (c["levels"]["truePeakDBTP"] or 0) <= -1)
    def span(k): v = [c["levels"][k] for c in ch if c["levels"][k] is not None]; return f"{min(v):.1f}…{max(v):.1f}"
    print(f"{label:18s} {len(ch)} chapters: ACX pass {acx}/{len(ch)}, −18 LUFS ±1 & TP ≤ −1: {r18}/{len(ch)}; "
          f"LUFS {span('integratedLUFS')}, RMS {span('rmsDBFS')}, peak {span('samplePeakDBFS')}, TP {span('truePeakDBTP')}, "
          f"head {min(c['levels']['headSilenceMs'] for c in ch)}…{max(c['levels']['headSilenceMs'] for c in ch)} ms, "
          f"tail {min(c['levels']['tailSilenceMs'] for c in ch)}…{max(c['levels']['tailSilenceMs'] for c in ch)} ms")
PY
audio_ms=$(python3 -c "import json; print(sum(c['levels']['durationMs'] for c in json.load(open('before.json'))['chapters']))")
echo "forge check (libebur128 with true peak, plus RMS/noise/room tone) on $((audio_ms / 1000)) s of audio: ${check_s} s, $(python3 -c "print(round($audio_ms/1000/$check_s))")× real time, peak RSS $((check_kb / 1024)) MB"
echo "forge export --format acx (mastering + 44.1 kHz MP3 per chapter): ${acx_s} s, peak RSS $((acx_kb / 1024)) MB"

echo "== M4B: forge against ffmpeg on the same audio =="
mkdir -p m4b-bench && touch m4b-bench/.forge-project
head -n "${M4B_LINES:-1400}" book.txt > m4b-bench/book.txt
sed 's#"out"#"out"#' recipe.json > m4b-bench/recipe.json
cd m4b-bench
"$forge" build recipe.json >/dev/null
rm -rf out/exports/audio out/exports/m4b
"$forge" export out --format audio >/dev/null
ls out/exports/audio/chapter-*.wav | sed "s/.*/file '&'/" > concat.txt
ffmpeg -v error -y -f concat -safe 0 -i concat.txt -c copy whole.wav
for run in 1 2 3; do
    rm -rf out/exports/m4b
    read -r f_s f_kb < <(measure "$forge" export out --format m4b)
    read -r g_s g_kb < <(measure ffmpeg -v error -y -i whole.wav -c:a aac -aac_coder fast -b:a 64k -f mp4 direct.m4b)
    echo "run $run: forge m4b ${f_s} s (peak RSS $((f_kb / 1024)) MB), ffmpeg ${g_s} s (peak RSS $((g_kb / 1024)) MB), ratio $(python3 -c "print(round($f_s/$g_s, 2))")"
done
rm -rf out/exports/m4b
read -r m_s m_kb < <(measure "$forge" export out --format m4b --mastering acx)
echo "forge m4b mastered to acx: ${m_s} s (peak RSS $((m_kb / 1024)) MB)"
chapters=$(ffprobe -v error -show_chapters -of json out/exports/m4b/*.m4b | python3 -c "import json,sys; print(len(json.load(sys.stdin)['chapters']))")
echo "M4B chapters: $chapters"
