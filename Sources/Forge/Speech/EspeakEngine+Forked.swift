import CEspeakNG
import Foundation

extension EspeakEngine {
    /// espeak-ng synthesis in which every item starts from the same state, so its samples depend only
    /// on its text and voice: never on the items spoken before it, the worker or `--jobs`.
    ///
    /// espeak-ng carries state from one `espeak_Synth` to the next that no call resets: the pitch
    /// flutter's phase (a function-local static in wavegen.c's `SetPitch2`), the wave phase, formant
    /// peaks and resonators. So right after `espeak_Initialize` the process forks a small *zygote*
    /// that never speaks. For a voice the zygote forks a *speaker*, which speaks requests for that
    /// voice into memory shared with this process; after each item it rewinds its own memory to a
    /// ``MemoryCheckpoint`` taken before its first, so every item starts from the state the zygote
    /// forked it with — as a fresh fork would, without a process (and its page faults) per item.
    /// Where the kernel cannot track writes (before Linux 6.7, or where userfaultfd is forbidden),
    /// or a rewind finds mappings it does not cover, a speaker serves one item and exits, and the
    /// zygote forks another: the same bytes either way (docs/reproducibility.md). Restoring
    /// espeak-ng's data segment alone was tried and corrupts its heap: the checkpoint covers all of
    /// the process's private memory.
    ///
    /// The zygote and its speakers run only system calls, espeak-ng and writes into shared memory:
    /// no allocation by Swift, no lock another thread could have held when the process forked.
    ///
    /// `@unchecked Sendable`: it owns a socket and a mapping that ``EspeakEngine`` uses only under its
    /// process-wide lock, one request at a time.
    final class ForkedSynthesis: @unchecked Sendable {
        private let region: UnsafeMutableRawPointer
        private let socket: Int32
        private let zygote: pid_t
        /// The last request's number.
        private var sequence: Int64 = 0

        /// The region's layout: a header of Int64 fields, the voice id, the text, events, samples.
        private static let voiceOffset = 128
        private static let voiceBytes = 128
        private static let textOffset = voiceOffset + voiceBytes
        /// The longest item text, in UTF-8 bytes with its terminating NUL.
        static let maximumTextBytes = 1 << 20
        private static let eventsOffset = textOffset + maximumTextBytes
        static let maximumEvents = 1 << 16
        private static let eventBytes = 16
        private static let samplesOffset = eventsOffset + maximumEvents * eventBytes
        /// 24 minutes of audio at 22,050 Hz: far more than an item (at most a few thousand characters).
        static let maximumSamples = 32 << 20
        private static let regionBytes = samplesOffset + maximumSamples * 2

        private enum Field: Int {
            case samples = 0
            case events, overflow, status, selected, rate, pitch, volume, flags, byLanguage, inFlight, handedBack,
                speakers, served, checkpoints
        }

        /// Whether speakers keep a memory checkpoint and serve many items: always, but in a debug
        /// build (the test suite's) whose environment sets `FORGE_SYNTHESIS_FORK_PER_ITEM`, where
        /// each item gets a fresh fork, as where the kernel cannot track writes.
        static var checkpointsAllowed: Bool { !TestHook.isSet("FORGE_SYNTHESIS_FORK_PER_ITEM") }

        /// Whether every rewind fails, as if each item left a new mapping behind: set by
        /// `FORGE_SYNTHESIS_REWIND_FAILS` in a debug build, for the test of the zygote's fallback.
        static var rewindsFail: Bool { TestHook.isSet("FORGE_SYNTHESIS_REWIND_FAILS") }

        /// After this many speakers in a row whose first rewind failed, the zygote stops taking
        /// checkpoints: each would cost a copy of the speaker's memory for one item, more than a fork.
        private static let failedRewindsBeforeForkingPerItem = 3

        /// Starts the zygote; call right after `espeak_Initialize`, before anything else uses espeak-ng.
        init?(checkpoints: Bool = ForkedSynthesis.checkpointsAllowed) {
            let mapped = mmap(
                nil, Self.regionBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            guard let mapped, mapped != MAP_FAILED else { return nil }
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                munmap(mapped, Self.regionBytes)
                return nil
            }
            let child = fork()
            if child == 0 {
                close(pair[0])
                // The zygote keeps nothing of its parent's but its socket and standard streams: an
                // inherited pipe held open kept a reader waiting for end of file as long as the
                // parent lived (a test's child process forge; a build's output lock, its manifest).
                // Only system calls here: the parent may have other threads.
                let socket: Int32 = pair[1] == 3 ? 3 : dup2(pair[1], 3)
                if pair[1] != 3 { close(pair[1]) }
                var limit = rlimit()
                let highest =
                    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
                    ? Int32(clamping: min(limit.rlim_cur, 65_536)) : 1_024
                if highest > 4 { for descriptor in 4..<highest { close(descriptor) } }
                Self.serve(region: mapped, socket: socket, checkpoints: checkpoints, rewindsFail: Self.rewindsFail)
            }
            close(pair[1])
            guard child > 0 else {
                close(pair[0])
                munmap(mapped, Self.regionBytes)
                return nil
            }
            region = mapped
            socket = pair[0]
            zygote = child
        }

        /// How many speaker processes the zygote has started: one per item without checkpoints.
        var speakersStarted: Int { Int(region.assumingMemoryBound(to: Int64.self)[Field.speakers.rawValue]) }

        /// How many memory checkpoints its speakers have taken: one per speaker where the kernel tracks writes.
        var checkpointsTaken: Int { Int(region.assumingMemoryBound(to: Int64.self)[Field.checkpoints.rawValue]) }

        deinit {
            finish()
            munmap(region, Self.regionBytes)
        }

        /// Ends the zygote and waits for it, so its CPU time (and its children's) is counted as this
        /// process's children's, as `time` and the benchmarks read it. Call once, at exit.
        func finish() {
            shutdown(socket, Int32(SHUT_RDWR))
            var status: Int32 = 0
            while waitpid(zygote, &status, 0) < 0 && errno == EINTR {}
        }

        /// What a child reported.
        enum Outcome {
            case spoken(samples: [Int16], events: [SynthesisEvent])
            case voiceNotFound
            case failed(String)
        }

        /// Speaks `text` with the installed voice `voiceID` (by language when `byLanguage` allows it,
        /// as ``EspeakEngine`` selects voices) in a fork of the zygote.
        func speak(
            _ text: [CChar], voiceID: String, byLanguage: Bool, rate: Int, pitch: Int, volume: Int, flags: UInt32
        ) -> Outcome {
            guard text.count <= Self.maximumTextBytes else {
                return .failed("the item's text is over \(Self.maximumTextBytes) bytes; split it")
            }
            let voice = Array(voiceID.utf8CString)
            guard voice.count <= Self.voiceBytes else { return .voiceNotFound }
            let header = region.assumingMemoryBound(to: Int64.self)
            for field in 0...Field.byLanguage.rawValue where field != Field.selected.rawValue { header[field] = 0 }
            header[Field.status.rawValue] = -1
            header[Field.rate.rawValue] = Int64(rate)
            header[Field.pitch.rawValue] = Int64(pitch)
            header[Field.volume.rawValue] = Int64(volume)
            header[Field.flags.rawValue] = Int64(flags)
            header[Field.byLanguage.rawValue] = byLanguage ? 1 : 0
            voice.withUnsafeBytes { (region + Self.voiceOffset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            text.withUnsafeBytes { (region + Self.textOffset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }

            // Replies name their request: a late one (a child killed after it answered) is skipped.
            sequence += 1
            var request = sequence
            guard send(socket, &request, 8, Int32(MSG_NOSIGNAL)) == 8 else {
                return .failed("the synthesis process is gone")
            }
            var reply: Int64 = 0
            repeat {
                var received = recv(socket, &reply, 8, Int32(MSG_WAITALL))
                while received < 0 && errno == EINTR { received = recv(socket, &reply, 8, Int32(MSG_WAITALL)) }
                guard received == 8 else { return .failed("the synthesis process is gone") }
            } while reply >> 1 != sequence
            guard reply & 1 == 0 else { return .failed("the synthesis process ended abnormally") }
            guard header[Field.selected.rawValue] == 1 else { return .voiceNotFound }
            guard header[Field.overflow.rawValue] == 0 else {
                return .failed("the item is longer than a synthesis can hold; split it")
            }
            guard header[Field.status.rawValue] == Int64(EE_OK.rawValue) else {
                return .failed("espeak_Synth returned \(header[Field.status.rawValue])")
            }
            let sampleCount = Int(header[Field.samples.rawValue])
            let samples = Array(
                UnsafeBufferPointer(
                    start: (region + Self.samplesOffset).assumingMemoryBound(to: Int16.self), count: sampleCount))
            let records = (region + Self.eventsOffset).assumingMemoryBound(to: Int32.self)
            var events: [SynthesisEvent] = []
            events.reserveCapacity(Int(header[Field.events.rawValue]))
            for index in 0..<Int(header[Field.events.rawValue]) {
                let record = records + index * 4
                let kind: SynthesisEvent.Kind =
                    switch record[0] {
                    case 0: .word
                    case 1: .sentence
                    default: .end
                    }
                events.append(
                    SynthesisEvent(
                        kind: kind, textPosition: Int(record[1]), length: Int(record[2]), audioMs: Int(record[3])))
            }
            return .spoken(samples: samples, events: events)
        }

        /// The zygote: forks a speaker for the voice a request names and waits for it; exits when the socket closes.
        private static func serve(region: UnsafeMutableRawPointer, socket: Int32, checkpoints: Bool, rewindsFail: Bool)
            -> Never
        {
            // The voice the zygote has loaded: loading one reads its files and dictionary (milliseconds),
            // so it is done here once per change of voice, not in every speaker. Selecting a voice
            // resets what it sets, whatever was selected before; the zygote never speaks.
            var loaded = [CChar](repeating: 0, count: voiceBytes)
            let header = region.assumingMemoryBound(to: Int64.self)
            var handedBack: Int64 = 0
            var failedFirstRewinds = 0
            while true {
                var request: Int64 = handedBack
                handedBack = 0
                if request == 0 {
                    let received = recv(socket, &request, 8, Int32(MSG_WAITALL))
                    if received < 0 && errno == EINTR { continue }
                    if received != 8 { _exit(0) }
                }
                let voice = (region + voiceOffset).assumingMemoryBound(to: CChar.self)
                if strcmp(voice, loaded) != 0 {
                    loaded.withUnsafeMutableBufferPointer { _ = strncpy($0.baseAddress!, voice, voiceBytes - 1) }
                    header[Field.selected.rawValue] =
                        select(voice, byLanguage: header[Field.byLanguage.rawValue] == 1) ? 1 : 0
                    if header[Field.selected.rawValue] == 0 { loaded[0] = 0 }
                } else {
                    header[Field.selected.rawValue] = 1
                }
                header[Field.inFlight.rawValue] = request
                header[Field.speakers.rawValue] += 1
                header[Field.served.rawValue] = 0
                let offerCheckpoint = checkpoints && failedFirstRewinds < failedRewindsBeforeForkingPerItem
                let speaker = fork()
                if speaker == 0 {
                    loaded.withUnsafeBufferPointer {
                        speak(
                            first: request, voice: $0.baseAddress!, region: region, socket: socket,
                            checkpoint: offerCheckpoint, rewindsFail: rewindsFail)
                    }
                }
                var status: Int32 = 0
                if speaker > 0 { while waitpid(speaker, &status, 0) < 0 && errno == EINTR {} }
                let exitedNormally = speaker > 0 && status & 0x7f == 0
                let exitStatus = (status >> 8) & 0xff
                if exitedNormally && exitStatus == SpeakerExit.socketClosed { _exit(0) }
                if exitedNormally && exitStatus == SpeakerExit.otherVoice {
                    handedBack = header[Field.handedBack.rawValue]
                }
                if offerCheckpoint && exitedNormally && exitStatus == SpeakerExit.spent {
                    failedFirstRewinds = header[Field.served.rawValue] <= 1 ? failedFirstRewinds + 1 : 0
                }
                // A speaker that did not get to answer (killed, crashed, never started) is answered for.
                let answeredAll =
                    exitedNormally
                    && (exitStatus == SpeakerExit.socketClosed || exitStatus == SpeakerExit.otherVoice
                        || exitStatus == SpeakerExit.spent)
                let unanswered = speaker <= 0 ? request : answeredAll ? 0 : header[Field.inFlight.rawValue]
                if unanswered != 0 {
                    var reply = unanswered << 1 | 1
                    _ = send(socket, &reply, 8, Int32(MSG_NOSIGNAL))
                }
            }
        }

        /// How a speaker ended, as its exit status.
        private enum SpeakerExit {
            /// The worker closed the socket: no more requests.
            static let socketClosed: Int32 = 0
            /// It read a request for another voice, left in the header for the zygote.
            static let otherVoice: Int32 = 3
            /// It could not return to the state it started from (or has no checkpoint): a new one is needed.
            static let spent: Int32 = 4
        }

        /// A speaker: a fork of the zygote that speaks requests for the voice the zygote loaded,
        /// starting each from the state it was forked with. After each item it rewinds its memory to
        /// a checkpoint taken before the first (``MemoryCheckpoint``), and serves the next request;
        /// where the kernel cannot track writes, or a rewind fails, it serves one item and exits, and
        /// the zygote forks another. Either way an item's samples are those a fresh fork gives.
        private static func speak(
            first request: Int64, voice: UnsafePointer<CChar>, region: UnsafeMutableRawPointer, socket: Int32,
            checkpoint wanted: Bool, rewindsFail: Bool
        ) -> Never {
            let header = region.assumingMemoryBound(to: Int64.self)
            let checkpoint = wanted ? MemoryCheckpoint.take() : nil
            if checkpoint != nil { header[Field.checkpoints.rawValue] += 1 }
            var request = request
            while true {
                header[Field.inFlight.rawValue] = request
                header[Field.served.rawValue] += 1
                speakRequest(region: region)
                // The speaker answers itself, so its rewind (or exit) overlaps the worker's next steps.
                var reply = request << 1
                _ = send(socket, &reply, 8, Int32(MSG_NOSIGNAL))
                header[Field.inFlight.rawValue] = 0
                guard let checkpoint, !rewindsFail, checkpoint.rewind() else { _exit(SpeakerExit.spent) }
                var next: Int64 = 0
                var received = recv(socket, &next, 8, Int32(MSG_WAITALL))
                while received < 0 && errno == EINTR { received = recv(socket, &next, 8, Int32(MSG_WAITALL)) }
                if received != 8 { _exit(SpeakerExit.socketClosed) }
                if strcmp((region + voiceOffset).assumingMemoryBound(to: CChar.self), voice) != 0 {
                    header[Field.handedBack.rawValue] = next
                    _exit(SpeakerExit.otherVoice)
                }
                request = next
            }
        }

        /// In a speaker: sets the request's rate, pitch and volume and speaks it into the region.
        private static func speakRequest(region: UnsafeMutableRawPointer) {
            let header = region.assumingMemoryBound(to: Int64.self)
            guard header[Field.selected.rawValue] == 1 else { return }
            espeak_SetParameter(espeakRATE, Int32(header[Field.rate.rawValue]), 0)
            espeak_SetParameter(espeakPITCH, Int32(header[Field.pitch.rawValue]), 0)
            espeak_SetParameter(espeakVOLUME, Int32(header[Field.volume.rawValue]), 0)
            espeak_SetSynthCallback(forkedSynthesisCallback)
            let text = region + textOffset
            let status = espeak_Synth(
                text, strlen(text.assumingMemoryBound(to: CChar.self)) + 1, 0, POS_CHARACTER, 0,
                UInt32(header[Field.flags.rawValue]), nil, region)
            header[Field.status.rawValue] = Int64(status.rawValue)
        }

        /// Selects an installed voice by name, else (when allowed) by the language it declares.
        private static func select(_ voice: UnsafePointer<CChar>, byLanguage: Bool) -> Bool {
            if espeak_SetVoiceByName(voice) == EE_OK { return true }
            guard byLanguage else { return false }
            var properties = espeak_VOICE()
            properties.languages = voice
            return espeak_SetVoiceByProperties(&properties) == EE_OK
        }

        /// Appends one callback's samples and events to the region (in a speaker).
        fileprivate static func take(
            _ region: UnsafeMutableRawPointer, wav: UnsafeMutablePointer<Int16>?, count: Int32,
            events: UnsafeMutablePointer<espeak_EVENT>
        ) -> Int32 {
            let header = region.assumingMemoryBound(to: Int64.self)
            if let wav, count > 0 {
                let stored = Int(header[Field.samples.rawValue])
                guard stored + Int(count) <= maximumSamples else {
                    header[Field.overflow.rawValue] = 1
                    return 1
                }
                (region + samplesOffset + stored * 2).copyMemory(from: wav, byteCount: Int(count) * 2)
                header[Field.samples.rawValue] = Int64(stored + Int(count))
            }
            let records = (region + eventsOffset).assumingMemoryBound(to: Int32.self)
            var event = events
            while event.pointee.type != espeakEVENT_LIST_TERMINATED {
                let kind: Int32 =
                    switch event.pointee.type {
                    case espeakEVENT_WORD: 0
                    case espeakEVENT_SENTENCE: 1
                    case espeakEVENT_END: 2
                    default: -1
                    }
                if kind >= 0 {
                    let index = Int(header[Field.events.rawValue])
                    guard index < maximumEvents else {
                        header[Field.overflow.rawValue] = 1
                        return 1
                    }
                    let record = records + index * 4
                    record[0] = kind
                    record[1] = max(0, event.pointee.text_position - 1)
                    record[2] = event.pointee.length
                    record[3] = event.pointee.audio_position
                    header[Field.events.rawValue] = Int64(index + 1)
                }
                event += 1
            }
            return 0
        }
    }
}

private func forkedSynthesisCallback(
    _ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let events, let region = events.pointee.user_data else { return 1 }
    return EspeakEngine.ForkedSynthesis.take(region, wav: wav, count: count, events: events)
}
