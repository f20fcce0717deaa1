#!/usr/bin/env bash
# Benchmark (not a test): the remote cache on loopback, side by side in one run on one book —
# a local build, a cold build that fills the cache, a warm build into an empty directory, and
# three shards run as three concurrent processes (1 job each) plus the assembling build, against
# one 2-job build. Prints walls, ratios, bytes transferred, shard balance and peak RSS.
#
#   benchmarks/remote-cache.sh [book.txt]        JOBS=2 by default; FORGE=/path/to/forge skips the build
#
# The cache is a real nginx with WebDAV PUT (as docs/remote-cache.md sets one up), started here
# on 127.0.0.1 and stopped at the end.
set -euo pipefail
source "$(dirname "$0")/lib/markdown.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-$root/../shared/corpus/pride-and-prejudice.txt}
jobs=${JOBS:-2}
cd "$root"
scripts/install-deps.sh --tests
source benchmarks/lib/forge.sh
use_forge

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/cache/root/forge" "$work/cache/body" "$work/cache/logs"
cat >"$work/cache/nginx.conf" <<CONF
$([ "$(id -u)" -eq 0 ] && echo "user root;")
daemon off;
worker_processes 2;
pid $work/cache/nginx.pid;
error_log $work/cache/logs/error.log;
events { worker_connections 256; }
http {
    access_log $work/cache/logs/access.log;
    client_body_temp_path $work/cache/body;
    server {
        listen 127.0.0.1:$port;
        client_max_body_size 0;
        location /forge/ {
            root $work/cache/root;
            dav_methods PUT;
            create_full_put_path on;
        }
    }
}
CONF
nginx -p "$work/cache" -c "$work/cache/nginx.conf" -e "$work/cache/logs/error.log" &
nginx_pid=$!
at_exit 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$work"'
sleep 0.3
cache=http://127.0.0.1:$port/forge

cp "$corpus" "$work/book.txt"
source "$root/benchmarks/lib/measure.sh"
write_corpus_recipe "$jobs"
cd "$work"
summary() { grep '"event":"summary"' "$work/stdout" | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d.get('$1', 0))"; }
mb() { awk -v b="$1" 'BEGIN {printf "%.1f MB", b / 1048576}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

echo "book: $corpus ($(wc -w <book.txt) words), jobs: $jobs, cores: $(nproc), cache: nginx on loopback"
measure "$forge" build recipe.json --json -o local
local_wall=$wall
echo "local build (no cache):              ${wall} s, peak RSS $((peak_kb / 1024)) MB, $(summary items) items"

measure "$forge" build recipe.json --json -o cold --remote-cache "$cache"
cold_wall=$wall
echo "cold build, filling the cache:       ${wall} s (×$(ratio "$wall" "$local_wall") the local build), peak RSS $((peak_kb / 1024)) MB, uploaded $(summary uploaded) items, $(mb "$(summary uploadedBytes)")"

warm=()
for run in 1 2 3; do
    rm -rf warm
    measure "$forge" build recipe.json --json -o warm --remote-cache "$cache"
    warm+=("$wall")
    echo "warm build into an empty directory: ${wall} s (×$(ratio "$wall" "$cold_wall") the cold build), peak RSS $((peak_kb / 1024)) MB, synthesized $(summary synthesized), downloaded $(summary downloaded) items, $(mb "$(summary downloadedBytes)")"
done
echo "warm/cold median: ×$(ratio "$(printf '%s\n' "${warm[@]}" | sort -n | sed -n 2p)" "$cold_wall")"

# Three shards at once, one job each, into a fresh cache path; then the assembling build.
sharded=http://127.0.0.1:$port/forge/sharded
start=$(date +%s%N)
pids=()
for index in 1 2 3; do
    "$forge" build recipe.json --json -o "shard$index" -j 1 --shard "$index/3" --remote-cache "$sharded" >"shard$index.log" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
shards_wall=$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.2f", (e - s) / 1e9}')
measure "$forge" build recipe.json --json -o assembled --remote-cache "$sharded"
assembly_wall=$wall
total=$(awk -v a="$shards_wall" -v b="$assembly_wall" 'BEGIN {printf "%.2f", a + b}')
echo "3 shards (3 processes, 1 job each):  ${shards_wall} s; assembly ${assembly_wall} s (synthesized $(summary synthesized), downloaded $(summary downloaded)); total ${total} s = ×$(ratio "$total" "$local_wall") the ${jobs}-job local build"
for index in 1 2 3; do
    if command -v sqlite3 >/dev/null; then
        words=$(sqlite3 "shard$index/manifest.sqlite" "SELECT COUNT(*) FROM words JOIN items ON items.id = words.item_id WHERE items.status = 'done' AND items.built_by IS NOT NULL AND items.origin IS NULL")
        audio=$(sqlite3 "shard$index/manifest.sqlite" "SELECT COALESCE(SUM(duration_ms), 0) / 1000 FROM items WHERE status = 'done'")
        echo "  shard $index/3: $(grep '"event":"summary"' "shard$index.log" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["synthesized"], "items")'), $words words, ${audio} s of audio"
    fi
done
echo "nginx: $(grep -c '"PUT' "$work/cache/logs/access.log") PUT, $(grep -c '"GET' "$work/cache/logs/access.log") GET requests"

# A verified, exported book (recipes/sample.json: verify + six export formats): the cold build
# uploads items and verification chunks; a warm machine downloads both and only exports.
cd "$root"
measure "$forge" build recipes/sample.json --json --allow-outside-paths -o "$work/sample-cold" --remote-cache "$cache/sample"
sample_cold=$wall
echo "sample with verify, cold:            ${wall} s, peak RSS $((peak_kb / 1024)) MB, uploaded $(summary uploaded) items and $(summary uploadedChunks) verification chunks"
measure "$forge" build recipes/sample.json --json --allow-outside-paths -o "$work/sample-warm" --remote-cache "$cache/sample"
echo "sample with verify, warm:            ${wall} s (×$(ratio "$wall" "$sample_cold") the cold build), peak RSS $((peak_kb / 1024)) MB, downloaded $(summary downloaded) items and $(summary downloadedChunks) chunks, exported $(summary exported) files, WER $(summary wordErrorRate)"
