#!/usr/bin/env python3
"""Joins a build's chapter audio exports into one narration WAV and writes its reference word
times (from the synthesizer's events, chapter offsets added) as JSON lines: usage
narration_reference.py <exports dir> <out.wav> <out-reference.jsonl>"""
import json, sys, wave, glob, os

exports, out_wav, out_ref = sys.argv[1:4]
chapters = sorted(glob.glob(os.path.join(exports, "json", "chapter-*.json")))
offset_ms = 0
with wave.open(out_wav, "wb") as joined, open(out_ref, "w") as ref:
    for index, path in enumerate(chapters):
        chapter = json.load(open(path))
        audio = os.path.join(exports, "json", chapter["audio"])
        with wave.open(audio, "rb") as part:
            if index == 0:
                joined.setparams(part.getparams())
            frames = part.readframes(part.getnframes())
            joined.writeframes(frames)
            length_ms = part.getnframes() * 1000 // part.getframerate()
        for item in chapter["items"]:
            for word in item["words"]:
                ref.write(json.dumps({"item": item["id"], "text": word["text"], "startMs": word["startMs"] + offset_ms}) + "\n")
        offset_ms += length_ms
print(f"{len(chapters)} chapters, {offset_ms / 1000:.1f} s")
