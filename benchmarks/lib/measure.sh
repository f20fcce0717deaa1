# Shared by the benchmarks (sourced; needs $work, a scratch directory): time and peak memory of a command.

# Sums the memory (kB: proportional set size, else resident) of a process and all its descendants
# (forge, its workers, their synthesis processes) into $tree_kb, reading /proc with shell builtins only, so sampling costs the
# measured run next to nothing.
sample_tree_rss() {
    local pid=$1 p t index=0
    local pids=("$pid") kids=()
    tree_kb=0
    while [ "$index" -lt "${#pids[@]}" ] && [ "$index" -lt 256 ]; do
        p=${pids[$index]}
        index=$((index + 1))
        for t in /proc/"$p"/task/*/children; do
            [ -r "$t" ] || continue
            kids=()
            { read -r -a kids <"$t"; } 2>/dev/null || true
            pids+=("${kids[@]}")
        done
    done
    # Proportional set size where the kernel has it: a process tree shares its libraries (and the
    # synthesis processes their parent's pages), which summed RSS would count once per process.
    for p in "${pids[@]}"; do
        if [ -r "/proc/$p/smaps_rollup" ]; then add_field "/proc/$p/smaps_rollup" "Pss:"; else add_field "/proc/$p/status" "VmRSS:"; fi
    done
}

# Adds the kB value of the line starting with $2 in file $1 to $tree_kb.
add_field() {
    local key value unit
    [ -r "$1" ] || return 0
    while read -r key value unit; do
        if [ "$key" = "$2" ]; then
            tree_kb=$((tree_kb + value))
            return 0
        fi
    done 2>/dev/null <"$1" || true
}

# Runs a command, its output in $work/stdout and $work/stderr; sets $wall (seconds), $cpu (user +
# system seconds of it and every process it waited for: workers and their synthesis processes) and $peak_kb
# (largest summed RSS of it and its children, sampled every $sample_every seconds: 0.05 unless set).
# Walking a tree of hundreds of short-lived processes costs CPU: a timing run on 2 cores sets
# sample_every=1, or the sampler takes a core's share from the command it times. With $stop_after set, sends it
# SIGINT after that many seconds; an exit status equal to $allowed_status also counts as success.
measure() {
    local pid sampler status=0 interval=${sample_every:-0.05} stop=${stop_after:-}
    stop_after=
    peak_kb=0
    echo 0 >"$work/peak"
    /usr/bin/time -f "%e %U %S" -o "$work/cputime" "$@" >"$work/stdout" 2>"$work/stderr" &
    pid=$!
    # The sampler runs beside the command, so the time is the command's own (GNU time's), never
    # rounded up to the next sample.
    (
        peak=0
        start=$(date +%s%N)
        while kill -0 "$pid" 2>/dev/null; do
            sample_tree_rss "$pid"
            if [ "$tree_kb" -gt "$peak" ]; then peak=$tree_kb; echo "$peak" >"$work/peak"; fi
            if [ -n "$stop" ] && [ $(($(date +%s%N) - start)) -gt $((stop * 1000000000)) ]; then
                # To the command itself: GNU time, between, ignores SIGINT while it waits.
                pkill -INT -P "$pid" 2>/dev/null || kill -INT "$pid" 2>/dev/null || true
                stop=
            fi
            sleep "$interval"
        done
    ) &
    sampler=$!
    wait "$pid" || status=$?
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    peak_kb=$(cat "$work/peak")
    wall=$(awk '/^[0-9.]+ [0-9.]+ [0-9.]+$/ {printf "%.3f", $1}' "$work/cputime" 2>/dev/null)
    cpu=$(awk '/^[0-9.]+ [0-9.]+ [0-9.]+$/ {printf "%.3f", $2 + $3}' "$work/cputime" 2>/dev/null)
    wall=${wall:-0}
    cpu=${cpu:-0}
    if [ "$status" -ne 0 ] && [ "$status" -ne "${allowed_status:-0}" ]; then
        echo "command failed ($status): $*" >&2
        tail -5 "$work/stderr" >&2
        # Its last lines of output say why (a --json run's summary, flagged items), and the
        # benchmark's work directory goes when it exits: kept beside it.
        tail -5 "$work/stdout" >&2
        kept=$(mktemp "${TMPDIR:-/tmp}/failed-command.XXXXXX")
        cp "$work/stdout" "$kept" && echo "its standard output: $kept" >&2
        exit 1
    fi
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# Writes $work/recipe.json: book.txt read by paragraph, espeak-ng en-us at 175 wpm, WAV at 22,050 Hz,
# committing every item, with $1 jobs — the recipe the corpus benchmarks build.
write_corpus_recipe() {
    cat >"$work/recipe.json" <<JSON
{
  "sources": ["book.txt"],
  "split": { "unit": "paragraph", "maxCharacters": 1000 },
  "voice": { "engine": "espeak-ng", "id": "en-us", "rate": 175 },
  "audio": { "format": "wav", "sampleRate": 22050 },
  "build": { "jobs": $1 },
  "output": { "directory": "out" }
}
JSON
}
