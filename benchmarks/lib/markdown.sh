# shellcheck shell=bash
# Shared by the benchmarks (sourced first, before the script reads its arguments). With
# `--markdown` among the script's arguments, what the script prints on standard output becomes a
# section for docs/benchmarks.md: a heading naming the command (with the settings it was run
# with), a line with the commit, the host and the date, and a table of its figures, one row per
# line printed. The option is taken out of the script's arguments.
markdown_script=$0
markdown_arguments=()
markdown_wanted=0
for markdown_argument in "$@"; do
    if [ "$markdown_argument" = --markdown ]; then markdown_wanted=1; else markdown_arguments+=("$markdown_argument"); fi
done
set -- ${markdown_arguments[@]+"${markdown_arguments[@]}"}
if [ "$markdown_wanted" = 1 ]; then
    # The settings the script reads from the environment (`${NAME` in its text) that are set.
    markdown_settings=$(grep -oE '\$\{[A-Z][A-Z0-9_]*[:}-]' "$markdown_script" | tr -d '${:}-' | sort -u |
        while read -r name; do [ -n "${!name+x}" ] && printf '%s=%q ' "$name" "${!name}"; done || true)
    markdown_command="${markdown_settings}${markdown_script#./}"
    [ "$#" = 0 ] || markdown_command+=" $(printf '%q ' "$@")"
    exec > >(python3 "$(dirname "${BASH_SOURCE[0]}")/markdown.py" "$markdown_command")
    markdown_filter=$!
fi
# at_exit COMMAND: what the script cleans up on exit (its temporary directory, a server), run
# before the table is closed, so that the table is whole before the script's exit is reported.
# Scripts use it instead of `trap … EXIT`, which would replace the table's closing.
markdown_cleanup=()
at_exit() { markdown_cleanup+=("$1"); }
markdown_exit() {
    for markdown_command_at_exit in ${markdown_cleanup[@]+"${markdown_cleanup[@]}"}; do
        eval "$markdown_command_at_exit"
    done
    if [ "$markdown_wanted" = 1 ]; then
        exec >&-
        wait "$markdown_filter" 2>/dev/null || true
    fi
}
trap markdown_exit EXIT
