#!/usr/bin/env bash
# Benchmark (not a test): `forge export --pack` beside `zip -0 -qr` of the same objects, alternately
# in one run, with peak RSS; the pack's entry count and an integrity check (`unzip -tq`).
#
#   benchmarks/pack.sh [output-directory]     RUNS=3; BASELINE=/path/to/an/older/forge adds its pack
#
# Without an output directory it builds the shared corpus (121k words, 2,243 items) into a temporary
# one first. For a 50-hour book see benchmarks/long-book.sh.
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
cd "$root"
source benchmarks/lib/forge.sh
use_forge
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
source "$root/benchmarks/lib/measure.sh"
if [ $# -ge 1 ]; then
    out=$(cd "$1" && pwd)
else
    cp "$root/../shared/corpus/pride-and-prejudice.txt" "$work/book.txt"
    write_corpus_recipe 2
    (cd "$work" && "$forge" build recipe.json >/dev/null)
    out=$work/out
fi
items=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM items").fetchone()[0])' "$out/manifest.sqlite")
echo "output: $out ($items items, objects $(du -sh "$out/objects" | cut -f1)), runs: $runs"
cd "$work"
declare -A times rss
run() { # name command...
    local name=$1; shift
    /usr/bin/time -f "%e %M" -o t.txt "$@" >/dev/null
    read -r seconds kb < t.txt
    times[$name]+="$seconds "; rss[$name]+="$kb "
}
for _ in $(seq "$runs"); do
    run forge "$forge" export "$out" --pack "$work/pack.zip"
    run zip zip -0 -qr "$work/objects.zip" "$out/objects"
    rm -f "$work/objects.zip"
    if [ -n "${BASELINE:-}" ]; then run baseline "$BASELINE" export "$out" --pack "$work/baseline.zip"; rm -f "$work/baseline.zip"; fi
done
entries=$(python3 -c 'import zipfile, sys; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$work/pack.zip")
unzip -tq "$work/pack.zip" >/dev/null && check="unzip -t: no errors" || check="unzip -t: ERRORS"
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
zip_median=$(echo "${times[zip]}" | median)
for name in forge zip baseline; do
    [ -n "${times[$name]:-}" ] || continue
    m=$(echo "${times[$name]}" | median); r=$(echo "${rss[$name]}" | median)
    printf '%-9s median %7.2f s (runs: %s)  peak RSS %4d MB  / zip -0: %.2f\n' "$name" "$m" "${times[$name]}" $((r / 1024)) "$(awk -v a="$m" -v b="$zip_median" 'BEGIN {print a / b}')"
done
echo "pack: $entries entries, $(du -h "$work/pack.zip" | cut -f1); $check"
