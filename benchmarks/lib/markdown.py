"""Turns a benchmark's printed figures (standard input) into a section for docs/benchmarks.md.

The first argument is the command as it was run. Each line printed becomes a row: a line
"label: figures" gives the label and the figures, an indented line is a detail of the row above
(its label marked with "·"), any other line fills the row alone.
"""
import datetime
import os
import platform
import subprocess
import sys

command = sys.argv[1].strip()
root = os.path.join(os.path.dirname(__file__), "..", "..")
try:
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    if subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD", "--", "Sources"]).returncode != 0:
        commit += " (sources changed)"
except (OSError, subprocess.CalledProcessError):
    commit = "unknown"
print(f"### `{command}`")
print()
print(f"Commit {commit}, {platform.node()}, {os.cpu_count()} cores, "
      f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}.")
print()
print("| figure | value |")
print("|---|---|")


def cell(text):
    return text.strip().replace("|", "\\|")


for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        continue
    detail = line.startswith((" ", "\t"))
    label, sep, figures = line.partition(": ")
    if not sep and line.endswith(":"):
        label, figures = line[:-1], ""
    elif not sep or len(label.strip()) > 60:
        label, figures = "", line
    if detail:
        label = "· " + label.strip() if label else "·"
    print(f"| {cell(label)} | {cell(figures)} |", flush=True)
print()
