# Shared by the long-book benchmarks (sourced; needs $corpus): a long book made of the corpus.

names=(ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN)
endings=(Indeed Truly Surely Certainly Clearly Plainly Rightly Simply Really Gladly)
# Copies after the first end each paragraph with a word of their own: identical copies would be
# synthesized once (objects are content-addressed) and flatter the build ~5x.
# make_book COPIES: the corpus COPIES times, each under its own "BOOK …" heading, on stdout.
make_book() {
for ((copy = 0; copy < $1; copy++)); do
    printf 'BOOK %s\n\n\n' "${names[copy % 10]}"
    if [ "$copy" -eq 0 ]; then
        cat "$corpus"
    else
        awk -v word="${endings[copy % 10]}" '
            function flush() { if (n > 0) { if (n > 1 || lines[1] !~ /^Chapter /) lines[n] = lines[n] " " word "."; for (i = 1; i <= n; i++) print lines[i]; n = 0 } }
            /^[[:space:]]*$/ { flush(); print; next }
            { lines[++n] = $0 }
            END { flush() }' "$corpus"
    fi
    printf '\n\n'
done
}

# write_book_recipe JOBS: the long book's recipe (by paragraph, espeak-ng en-us at 175 wpm, WAV at
# 22,050 Hz, into out/) on stdout.
write_book_recipe() {
    cat <<JSON
{
  "title": "Five Books",
  "sources": ["book.txt"],
  "split": { "unit": "paragraph", "maxCharacters": 1000 },
  "voice": { "engine": "espeak-ng", "id": "en-us", "rate": 175 },
  "audio": { "format": "wav", "sampleRate": 22050 },
  "build": { "jobs": $1 },
  "output": { "directory": "out" }
}
JSON
}
