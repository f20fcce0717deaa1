#!/usr/bin/env python3
"""Sorts the CPU samples of one forge build (`perf script -F pid,ip,sym,dso` over the whole
process tree) into the phases issue 34 names, and prints seconds and shares.

    cpu_breakdown.py SCRIPT_OUTPUT FREQUENCY_HZ [CLI_CPU_SECONDS]

Processes: the orchestrator is the lowest pid (perf started it); a worker is a process with
samples under `SpeechWorker`; every other process is a zygote or a speaker (espeak-ng's forks).
A sample goes to the first phase whose rule its frames match, so each is counted once.
"""
import collections
import sys


def read_samples(path):
    samples, frames, pid = [], [], None
    with open(path, errors="replace") as script:
        for line in script:
            if not line.strip():
                if pid is not None:
                    samples.append((pid, frames))
                pid, frames = None, []
            elif pid is None:
                pid = line.split()[0].split("/")[0]
            else:
                parts = line.strip().split(None, 1)
                text = parts[1] if len(parts) > 1 else ""
                symbol, _, dso = text.rpartition(" (")
                frames.append((symbol, dso.rstrip(")")))
    if pid is not None:
        samples.append((pid, frames))
    return samples


def has(frames, *names):
    return any(name in symbol for symbol, _ in frames for name in names)


# Phases by the frames that mark them, first match first: the workers', the orchestrator's manifest
# work, and the rest of the orchestrator's.
WORKER_PHASES = [
    (("sha256", "SHA256"), "hashing objects (SHA-256)"),
    (("fsync", "fdatasync"), "fsync of objects"),
    (("SoundFile", "sf_write", "sf_open"), "encoding audio (libsndfile)"),
    (("ForkedSynthesis",), "taking samples from shared memory"),
    (("ObjectStore", "DirectWriteBuffer"), "writing objects (open, write, link)"),
    (("DirectJSON", "SpeechEventsDocument", "SpeechJobResult", "SpeechJob", "readLine", "SpeechWorkerV4send"),
     "jobs and answers (JSON lines, pipes)"),
]
MANIFEST_PHASES = [
    (("synchronize",), "recording the split (SQLite)"),
    (("TimelineRecorder", "TimelineBuilder", "recordPlacements", "recordFrames", "timedWords", "placements"), "timeline (SQLite)"),
    (("ManifestC5apply_5build", "StageWork"), "saving finished items (SQLite)"),
    (("wordsByItem", "words9inChapter", "ManifestC5words"), "reading items' words (SQLite)"),
]
ORCHESTRATOR_PHASES = [
    (("Splitter", "SourceLoader", "splitSources", "Tokenizer", "PlainTextReader", "EPUBReader"), "reading and splitting the book"),
    (("TimelineRecorder", "TimelineBuilder"), "timeline (layout, sentences)"),
    (("EventAligner", "StageWork9alignment"), "word timings from events"),
    (("ProgressPrinter", "JSONOutput", "BuildEventJSON"), "progress output"),
    (("ChildProcess", "Subprocess", "WorkerPool", "ProcessThread", "AsyncStream", "ScS", "epoll_wait", "futex"),
     "workers' pipes and task hand-offs (IPC)"),
    (("StageWork", "SynthesisScheduler", "BuildPlanner"), "planning and bookkeeping"),
]


def first_match(frames, phases, otherwise):
    return next((name for names, name in phases if has(frames, *names)), otherwise)


def phase(role, frames):
    leaf_dso = frames[0][1] if frames else ""
    in_espeak = any("libespeak-ng" in dso for _, dso in frames)
    if "libespeak-ng" in leaf_dso:
        return "speakers", "espeak-ng synthesis (its own code)"
    if role == "speaker":
        # The rewind's Swift frames are inlined away; its system calls name it.
        if has(frames, "MemoryCheckpoint", "pagemap_scan", "walk_page_range", "userfaultfd", "change_protection", "sys_brk") or (
            not in_espeak and has(frames, "memmove", "memcpy")):
            return "speakers", "rewinding memory to the checkpoint"
        # A rewind also undoes lazy symbol binding: the next item binds espeak-ng's calls again.
        if has(frames, "_dl_fixup", "do_lookup_x", "_dl_runtime_resolve"):
            return "speakers", "binding symbols again after a rewind"
        if in_espeak and has(frames, "exc_page_fault", "irqentry_exit"):
            return "speakers", "write-tracking faults during synthesis"
        if in_espeak and has(frames, "forkedSynthesisCallback", "memmove", "memcpy"):
            return "speakers", "copying samples into shared memory"
        if in_espeak:
            return "speakers", "espeak-ng calls (kernel, libc)"
        return "speakers", "zygote and speaker loop (sockets, forks, scheduling)"
    if role == "worker":
        return "workers", first_match(frames, WORKER_PHASES, "other (start-up, runtime, scheduling)")
    if has(frames, "Manifest", "GRDB", "sqlite3"):
        # GRDB runs a write on its queue's thread: the Manifest method is the deepest caller left.
        return "orchestrator", first_match(frames, MANIFEST_PHASES, "SQLite, caller not seen (no frame pointers)")
    return "orchestrator", first_match(frames, ORCHESTRATOR_PHASES, "other (start-up, runtime, exit)")


def main():
    path, frequency = sys.argv[1], float(sys.argv[2])
    cli_seconds = float(sys.argv[3]) if len(sys.argv) > 3 else None
    samples = read_samples(path)
    if not samples:
        sys.exit("no samples in " + path)
    orchestrator = min((pid for pid, _ in samples), key=int)
    # A speaker's stacks rarely reach Swift frames (espeak-ng has no frame pointers), so a process
    # is a zygote or speaker when any sample is in the forked side's loop or most are in espeak-ng.
    by_pid = collections.defaultdict(lambda: [0, 0, False])
    for pid, frames in samples:
        entry = by_pid[pid]
        entry[0] += 1
        entry[1] += 1 if frames and "libespeak-ng" in frames[0][1] else 0
        entry[2] = entry[2] or has(frames, "ForkedSynthesisC5serve")
    speakers = {pid for pid, (count, espeak, serves) in by_pid.items() if pid != orchestrator and (serves or 2 * espeak > count)}

    def role(pid):
        return "orchestrator" if pid == orchestrator else "speaker" if pid in speakers else "worker"

    counts = collections.Counter(phase(role(pid), frames) for pid, frames in samples)
    total = sum(counts.values())
    seconds = lambda n: n / frequency
    synthesis = counts[("speakers", "espeak-ng synthesis (its own code)")]
    print(f"CPU of one forge build, by phase ({total} samples at {frequency:.0f} Hz, {seconds(total):.1f} s of CPU as perf saw it):")
    for group in ("speakers", "workers", "orchestrator"):
        group_total = sum(n for (g, _), n in counts.items() if g == group)
        print(f"  {group:<13} {seconds(group_total):7.2f} s  {100 * group_total / total:5.1f} %")
        for (g, name), n in sorted(counts.items(), key=lambda item: -item[1]):
            if g == group:
                print(f"    {name:<52} {seconds(n):7.2f} s  {100 * n / total:5.1f} %")
    own = total - synthesis
    print(f"  Forge's own work (all but espeak-ng's code): {seconds(own):.2f} s, {100 * own / max(synthesis, 1):.1f} % of synthesis")
    if cli_seconds:
        print(f"  the espeak-ng CLI on the same text (no perf): {cli_seconds:.2f} s of CPU; perf's own overhead inflates the samples by a few percent")


if __name__ == "__main__":
    main()
