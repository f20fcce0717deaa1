#!/usr/bin/env python3
"""Compares `forge align --audio` word starts with reference times: usage
narration_drift.py <reference.jsonl> <aligned output dir>. Prints the word-start error over the
whole recording, its first ten minutes and its last ten minutes."""
import json, sqlite3, statistics, sys

reference = [json.loads(line) for line in open(sys.argv[1])]
db = sqlite3.connect(sys.argv[2] + "/manifest.sqlite")
# Absolute times: each item's audio piece starts where the previous ones end.
rows = db.execute("SELECT i.id, i.duration_ms, w.idx, w.text, w.start_ms FROM items i JOIN words w ON w.item_id = i.id ORDER BY i.ordinal, w.idx").fetchall()
pieces = db.execute("SELECT i.id, o.path, o.sample_rate FROM items i JOIN objects o ON o.key = i.audio_key ORDER BY i.ordinal").fetchall()
import subprocess
offset, offsets = 0.0, {}
for item_id, path, rate in pieces:
    offsets[item_id] = offset
    frames = int(subprocess.run(["soxi", "-s", sys.argv[2] + "/" + path], capture_output=True, text=True).stdout or 0) if False else None
    offset = None
# Narration pieces are stored with exact durations in samples; recompute from the manifest.
offset = 0
offsets = {}
for item_id, duration in db.execute("SELECT i.id, o.duration_ms FROM items i JOIN objects o ON o.key = i.audio_key ORDER BY i.ordinal"):
    offsets[item_id] = offset
    offset += duration
aligned = [(offsets[r[0]] + r[4], r[3]) for r in rows]
assert len(aligned) == len(reference), (len(aligned), len(reference))
errors = [(ref["startMs"], abs(start - ref["startMs"])) for (start, _), ref in zip(aligned, reference)]
total = reference[-1]["startMs"]
def report(name, values):
    values = sorted(values)
    print(f"{name}: {len(values)} words, median {statistics.median(values):.0f} ms, "
          f"within 50 ms {100 * sum(v <= 50 for v in values) / len(values):.1f}%, "
          f"within 200 ms {100 * sum(v <= 200 for v in values) / len(values):.1f}%, max {values[-1]} ms")
report("whole", [e for _, e in errors])
report("first 10 min", [e for t, e in errors if t < 600_000])
report("last 10 min", [e for t, e in errors if t >= total - 600_000])
