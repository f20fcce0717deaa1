#!/usr/bin/env bash
# Benchmark (not a test): a 50-hour book. Builds a long book — the shared corpus COPIES times (5 by
# default, ~600k words), each copy under its own "BOOK …" heading — and prints, from one run, the
# build's wall-time ratio to the espeak-ng CLI on the same text, the no-op and one-edit rebuilds,
# and the time and peak RSS (forge and its workers) of every command: build, split, plan, status,
# fsck, each export format, the pack (beside `zip -0 -r` of the same objects) and verify (stopped
# with SIGINT after VERIFY_SECONDS, default 120: all of verify's per-book memory is taken before
# its first chunk).
#
#   benchmarks/long-book.sh [corpus.txt]     COPIES=5 JOBS=2 FORGE=<binary> FORMATS="audio json …"
#   GROWTH=1 benchmarks/long-book.sh          no-op and edit rebuilds at ~120k, ~365k, ~610k words only
#
# Needs ~35 GB free under $TMPDIR for WAV objects, their exports and the pack.
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$root/../shared/corpus/pride-and-prejudice.txt}
copies=${COPIES:-5}
jobs=${JOBS:-2}
formats=${FORMATS:-"json vtt srt html audio epub m4b"}
verify_seconds=${VERIFY_SECONDS:-120}
cd "$root"
source benchmarks/lib/forge.sh
use_forge --install

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
source "$root/benchmarks/lib/book.sh"
make_book "$copies" >"$work/book.txt"
write_book_recipe "$jobs" >"$work/recipe.json"

source "$root/benchmarks/lib/measure.sh"

row() { printf '%-34s %9s s %8s MB   %s\n' "$1" "$wall" "$((peak_kb / 1024))" "${2:-}"; }

# Three rebuilds, each after one paragraph two fifths into the book is edited: their times in $edits.
edit_rebuilds() {
    edits=()
    for run in 1 2 3; do
        line=$(awk -v n="$run" -v from="$(($(wc -l <book.txt) * 2 / 5))" \
            'NR > from && prev == "" && $0 != "" {c++; if (c == n) {print NR; exit}} {prev = $0}' book.txt)
        sed -i "${line}s/\$/ Indeed, edit ${run}./" book.txt
        measure "$forge" build recipe.json
        edits+=("$wall")
    done
}

cd "$work"
# --growth: no-op and one-paragraph-edit rebuilds at 1, 3 and 5 copies (~120k, ~365k, ~610k words)
# in one run, with the load average beside each: the times should not grow with the book.
if [ "${GROWTH:-}" = 1 ]; then
    printf '%-10s %8s %12s %14s %s\n' "copies" "words" "no-op (med)" "edit (med)" "load average (1/5/15 min)"
    for size in 1 3 5; do
        rm -rf out
        make_book "$size" >book.txt
        "$forge" build recipe.json >/dev/null 2>&1
        noop=()
        for run in 1 2 3 4 5; do measure "$forge" build recipe.json; noop+=("$wall"); done
        edit_rebuilds
        printf '%-10s %8s %10s s %12s s   %s\n' "$size" "$(wc -w <book.txt)" "$(median "${noop[@]}")" "$(median "${edits[@]}")" "$(cut -d' ' -f1-3 /proc/loadavg)"
    done
    exit 0
fi
words=$(wc -w <book.txt)
echo "book: $copies × $(basename "$corpus") = $words words; forge: $forge; jobs: $jobs; cores: $(nproc)"
echo
printf '%-34s %11s %11s\n' "command" "wall" "peak RSS"
measure espeak-ng -v en-us -s 175 -w "$work/espeak.wav" -f book.txt
espeak_wall=$wall
row "espeak-ng CLI -w (reference)"
rm -f espeak.wav
measure "$forge" build recipe.json
build_wall=$wall
row "forge build" "ratio to espeak-ng CLI $(awk -v f="$wall" -v e="$espeak_wall" 'BEGIN {printf "%.3f", f / e}')"
build_lines=$(wc -l <stdout)
noop=()
for run in 1 2 3 4 5; do
    measure "$forge" build recipe.json
    noop+=("$wall")
done
row "forge build (no-op)" "median of 5: $(median "${noop[@]}") s (runs: ${noop[*]})"
edit_rebuilds
row "forge build (one paragraph edited)" "median of 3: $(median "${edits[@]}") s (runs: ${edits[*]})"
measure "$forge" split recipe.json
row "forge split"
measure "$forge" plan recipe.json
row "forge plan"
measure "$forge" status out
row "forge status"
measure "$forge" fsck out
row "forge fsck"
for format in $formats; do
    measure "$forge" export out --format "$format"
    row "forge export --format $format" "$(du -sh out/exports | cut -f1) under exports/"
    rm -rf out/exports
done
# Pack and zip alternate twice and the second runs are compared: the exports above push the
# objects out of the page cache, and whichever read them first would pay for it.
packs=()
zips=()
for run in 1 2; do
    measure zip -0 -qr objects.zip out/objects
    zips+=("$wall")
    zip_peak_kb=$peak_kb
    rm -f objects.zip
    measure "$forge" export out --pack pack.zip
    packs+=("$wall")
    pack_size=$(du -h pack.zip | cut -f1)
    rm -f pack.zip
done
wall=${packs[1]}
row "forge export --pack" "$pack_size (runs: ${packs[*]})"
wall=${zips[1]}
peak_kb=$zip_peak_kb
row "zip -0 -r objects/ (reference)" "pack / zip: $(awk -v p="${packs[1]}" -v z="${zips[1]}" 'BEGIN {printf "%.2f", p / z}') (runs: ${zips[*]})"
stop_after=$verify_seconds allowed_status=130 measure "$forge" verify out
row "forge verify (SIGINT at ${verify_seconds} s)"
echo
echo "build printed $build_lines line(s) to a pipe"
