#!/usr/bin/env bash
# Fuzzes Forge's readers of untrusted input — the recipe loader, the plain-text, Markdown and
# script splitters, the HTML/XHTML reader, the EPUB reader and the lexicon parser — with
# libFuzzer (coverage-guided; the Swift toolchain ships it), SECONDS per target (default 30).
#   scripts/fuzz.sh [SECONDS] [TARGET…]
# Leak detection is off: ZIPFoundation leaks a 23-byte path per archive it opens (its
# fileSystemRepresentation is never freed), which would end every EPUB run at its first input.
# Findings (crashes, hangs over 10 s, memory over 2 GB) are saved as .forge/fuzz/<target>/crash-*
# with libFuzzer's report; the run exits 1 if any target found one. FUZZ_SEEDED=1 runs the
# seeded random-mutation harness instead (no instrumentation needed).
set -uo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
seconds="${1:-30}"; shift || true
targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=(recipe text markdown script html xhtml epub lexicon)
work="$PWD/.forge/fuzz"
mkdir -p "$work"

# Seeds: the shipped samples and recipes, a small EPUB and HTML, and a lexicon.
seeds="$work/seeds"; mkdir -p "$seeds"/{recipe,text,markdown,script,html,xhtml,epub,lexicon}
cp recipes/*.json "$seeds/recipe/"
head -c 20000 samples/pride-and-prejudice-ch1-3.txt > "$seeds/text/sample.txt"
printf '# Chapter 1\n\nIt is a *truth* `universally` acknowledged.\n\n## Part\n\n- a list\n- of things\n\n> quoted\n' > "$seeds/markdown/a.md"
head -c 8000 samples/hamlet-act3-scene1.script > "$seeds/script/hamlet.script"
cp samples/hamlet.lexicon "$seeds/lexicon/"
printf '<!DOCTYPE html><html lang="en"><head><title>T &amp; U</title></head><body><h1 id="c1">Chapter 1</h1><p id="p1">It is a truth&nbsp;&mdash; <b>universally</b> <span aria-hidden="true">x</span> acknowledged.<br/>Yes.</p><nav>skip</nav><div><p>Nested</p> tail</div></body></html>' > "$seeds/html/a.html"
cp "$seeds/html/a.html" "$seeds/xhtml/a.xhtml"
python3 - "$seeds/epub/book.epub" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
z.writestr("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest><spine><itemref idref="c1"/></spine></package>')
z.writestr("OEBPS/nav.xhtml", '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c1.xhtml#h">One</a></li></ol></nav></body></html>')
z.writestr("OEBPS/c1.xhtml", '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><h1 id="h">One</h1><p id="p1">It is a truth.</p></body></html>')
z.close()
PY

if [ -n "${FUZZ_SEEDED:-}" ]; then
    swift build --product forge-fuzz >/dev/null || exit 3
    binary=.build/debug/forge-fuzz
else
    swift build --scratch-path .build-fuzz --product forge-fuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFORGE_LIBFUZZER -Xswiftc -parse-as-library >/dev/null || exit 3
    binary=.build-fuzz/debug/forge-fuzz
fi

# Also at exit, where LeakSanitizer would otherwise report the same leak as a finding.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
found=0
for target in "${targets[@]}"; do
    mkdir -p "$work/$target/corpus"
    cp -n "$seeds/$target"/* "$work/$target/corpus/" 2>/dev/null
    if [ -n "${FUZZ_SEEDED:-}" ]; then
        (cd "$work/$target" && FORGE_FUZZ_TARGET=$target "$root/$binary" "$seconds" corpus/*) || found=1
    else
        log="$work/$target/libfuzzer.log"
        (cd "$work/$target" && FORGE_FUZZ_TARGET=$target "$root/$binary" corpus -max_total_time="$seconds" \
            -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -max_len="$([ "$target" = epub ] && echo 65536 || echo 4096)" -print_final_stats=1 >"$log" 2>&1) || found=1
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        crashes=$(ls "$work/$target" | grep -c '^\(crash\|timeout\|oom\|leak\)-' || true)
        echo "$target: ${runs:-?} inputs in ${seconds} s, ${cov:-cov ?}, findings: $crashes (log: $log)"
    fi
done
exit $found
