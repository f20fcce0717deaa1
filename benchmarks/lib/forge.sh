# Shared by the benchmarks (sourced): the forge binary a benchmark runs.

# use_forge [--install [install-deps.sh arguments…]]: sets $forge (and exports $FORGE) to an
# absolute path. With FORGE=<binary> in the environment (absolute, or relative to the repository)
# that binary is used as it is (another commit's build, a change under test), and nothing is
# installed or built. Otherwise scripts/install-deps.sh runs first with --install (and the
# arguments after it: --tests for the tests' packages too), and forge is built in release from this
# repository.
forge_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
use_forge() {
    local root=$forge_root
    if [ -n "${FORGE:-}" ]; then
        case $FORGE in /*) forge=$FORGE ;; *) forge=$root/$FORGE ;; esac
    else
        if [ "${1:-}" = --install ]; then
            shift
            "$root/scripts/install-deps.sh" "$@"
        fi
        (cd "$root" && swift build -c release --product forge >/dev/null)
        forge=$root/.build/release/forge
    fi
    [ -x "$forge" ] || { echo "forge is not an executable: $forge" >&2; return 1; }
    export FORGE=$forge
}
