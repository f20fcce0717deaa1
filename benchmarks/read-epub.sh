#!/usr/bin/env bash
# Benchmark (not a test): how fast forge reads a long EPUB — `forge plan` on an EPUB 3 of the corpus
# COPIES times (one XHTML document per chapter, paragraphs with ids, &mdash; entities), with peak RSS;
# and, as the anchor, `forge plan` on the same book as plain text (reading it, splitting and planning
# without markup). BASELINE=/path/to/an/older/forge times that binary too, alternately in one run.
#
#   benchmarks/read-epub.sh        COPIES=5 (~616k words); RUNS=3
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus/pride-and-prejudice.txt
runs=${RUNS:-3}
cd "$root"
source benchmarks/lib/forge.sh
use_forge
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
source "$root/benchmarks/lib/measure.sh"
source "$root/benchmarks/lib/book.sh"
make_book "${COPIES:-5}" >"$work/book.txt"
python3 "$root/benchmarks/make_epub.py" "$work/book.epub" <"$work/book.txt"
for source in txt epub; do
    sed "s/book.txt/book.$source/" <<<"$(write_book_recipe 2)" >"$work/$source.json"
done
echo "book: $(wc -w <"$work/book.txt") words; EPUB $(du -h "$work/book.epub" | cut -f1), $(unzip -l "$work/book.epub" | tail -1 | awk '{print $2}') files; runs: $runs"
declare -A times peaks
names=(epub txt)
[ -n "${BASELINE:-}" ] && names+=(baseline)
for _ in $(seq "$runs"); do
    for name in "${names[@]}"; do
        case $name in
            epub) measure "$forge" plan "$work/epub.json" ;;
            txt) measure "$forge" plan "$work/txt.json" ;;
            baseline) measure "$BASELINE" plan "$work/epub.json" ;;
        esac
        times[$name]+="$wall "
        peaks[$name]+="$peak_kb "
    done
done
grep -m1 -i "items" "$work/stdout" || true
txt=$(median ${times[txt]})
for name in "${names[@]}"; do
    m=$(median ${times[$name]})
    printf '%-9s plan median %6.2f s (runs: %s)  peak RSS %4d MB  / plain text: %.2f\n' "$name" "$m" "${times[$name]}" \
        $(($(median ${peaks[$name]}) / 1024)) "$(awk -v a="$m" -v b="$txt" 'BEGIN {print a / b}')"
done
