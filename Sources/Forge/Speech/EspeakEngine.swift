import CEspeakNG
import Foundation
import Synchronization

/// espeak-ng, in process.
///
/// espeak-ng's state is process-global and two threads synthesizing at once crash it, so every
/// call goes through one process-wide lock: an engine is safe to share, but a process speaks one
/// item at a time. Forge gets parallelism from worker processes (see ``SpeechWorker``).
package final class EspeakEngine: SpeechEngine, Sendable {
    /// The engine's name in voice URIs, keys and the manifest.
    package static let engineName = "espeak-ng"
    package static let capabilities: SpeechCapabilities = [.wordTimings, .phonemeInput, .languageVoices, .prosody]
    package var name: String { Self.engineName }

    /// Its lock serializes every espeak-ng call of the process (and every request to ``synthesis``).
    private static let state = Mutex(())

    /// espeak-ng's sample rate and where items are spoken, from the process's one
    /// `espeak_Initialize` (nil if it failed). The zygote is forked at once, before any other
    /// espeak-ng call can change the state every item starts from. A static let runs its
    /// initializer exactly once, thread-safely.
    private static let initialized: (sampleRate: Int, synthesis: ForkedSynthesis?)? = {
        let result = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard result > 0 else { return nil }
        let synthesis = ForkedSynthesis()
        ForgeLog.debug("espeak-ng started; its synthesis zygote is forked")
        return (Int(result), synthesis)
    }()
    private static var initializedSampleRate: Int? { initialized?.sampleRate }

    /// Starts espeak-ng and forks its synthesis zygote now, if that has not happened yet (nothing
    /// happens when espeak-ng cannot start: the engine's own calls report it). A command that
    /// will use espeak-ng calls this first, while the process is small. The zygote is a fork: it
    /// keeps every page the process had when it forked, copy-on-write, so each page this process
    /// rewrites afterwards becomes the zygote's own: a process that first used espeak-ng after
    /// reading a long book would leave the zygote holding that book's pages for the whole run.
    package static func start() { _ = initialized }

    /// How many synthesis processes this process's zygote has started (for tests and benchmarks).
    package static var synthesisProcessesStarted: Int {
        state.withLock { _ in initialized?.synthesis?.speakersStarted ?? 0 }
    }

    /// How many memory checkpoints this process's synthesis processes have taken.
    package static var synthesisCheckpointsTaken: Int {
        state.withLock { _ in initialized?.synthesis?.checkpointsTaken ?? 0 }
    }

    /// Ends the synthesis zygote of a process that has spoken with espeak-ng (a worker, at exit).
    package static func finish() {
        state.withLock { _ in initialized?.synthesis?.finish() }
    }

    /// The longest voice id accepted; espeak-ng copies a variant name into a fixed 40-byte buffer
    /// (a longer one overflowed it), and every installed voice and variant is far shorter.
    package static let maximumVoiceIDLength = 40

    /// What espeak-ng has installed, read once: the names a voice id may use before `+` (voice
    /// file names and declared languages, lowercased) and the variants after it (lowercased →
    /// the file name). Voice ids are checked against these before any espeak-ng call, so a
    /// recipe string never reaches espeak-ng as a path.
    private struct Catalog {
        var bases: Set<String> = []
        var languages: Set<String> = []
        var variants: [String: String] = [:]
    }
    private static let catalog: Catalog = {
        state.withLock { _ in
            var catalog = Catalog()
            guard initializedSampleRate != nil else { return catalog }
            if let list = espeak_ListVoices(nil) {
                var index = 0
                while let voice = list[index] {
                    let languages = EspeakEngine.languages(of: voice)
                    catalog.languages.formUnion(languages)
                    catalog.bases.formUnion(languages)
                    if let identifier = voice.pointee.identifier.map({ String(cString: $0) }),
                        let file = identifier.split(separator: "/").last
                    {
                        catalog.bases.insert(file.lowercased())
                    }
                    index += 1
                }
            }
            var spec = espeak_VOICE()
            let variants = "variant".withCString { language in
                spec.languages = language
                return espeak_ListVoices(&spec)
            }
            if let variants {
                var index = 0
                while let voice = variants[index] {
                    if let identifier = voice.pointee.identifier.map({ String(cString: $0) }),
                        let file = identifier.split(separator: "/").last
                    {
                        catalog.variants[file.lowercased()] = String(file)
                    }
                    index += 1
                }
            }
            catalog.bases = catalog.bases.filter { $0.utf8.count <= maximumVoiceIDLength }
            return catalog
        }
    }()

    /// `voiceID` as espeak-ng should receive it (the variant spelled as its file is), or nil when
    /// it names no installed voice or variant, is too long, or has more than one `+`.
    static func installedVoiceID(_ voiceID: String) -> String? {
        guard !voiceID.isEmpty, voiceID.utf8.count <= maximumVoiceIDLength else { return nil }
        let parts = voiceID.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count <= 2, catalog.bases.contains(parts[0].lowercased()) else { return nil }
        guard parts.count == 2 else { return voiceID }
        guard let variant = catalog.variants[parts[1].lowercased()] else { return nil }
        return "\(parts[0])+\(variant)"
    }

    /// Installed voices close to an unknown `voiceID`: other voices for an unknown voice, the
    /// same voice with other variants for an unknown variant ("en-us+klat" → "en-us+klatt").
    package func suggestions(for voiceID: String) -> [String] {
        let parts = voiceID.split(separator: "+", maxSplits: 1).map(String.init)
        guard let base = parts.first else { return [] }
        if parts.count == 2, Self.installedVoiceID(base) != nil {
            return EditDistance.suggestions(for: parts[1], among: Self.catalog.variants.values.sorted()).map {
                "\(base)+\($0)"
            }
        }
        return EditDistance.suggestions(for: base, among: voiceNames())
    }

    /// A listed voice's languages, lowercased, most preferred first.
    private static func languages(of voice: UnsafePointer<espeak_VOICE>) -> [String] {
        var languages: [String] = []
        // `languages` is a priority byte then a NUL-terminated name, repeated until an empty name.
        if var cursor = voice.pointee.languages {
            while cursor.pointee != 0 {
                let language = String(cString: cursor + 1)
                if language.isEmpty { break }
                languages.append(language.lowercased())
                cursor += 1 + language.utf8.count + 1
            }
        }
        return languages
    }

    /// espeak-ng's version string, e.g. "1.51".
    package let version: String
    /// The sample rate espeak-ng speaks at.
    package let nativeSampleRate: Int

    /// Starts espeak-ng in synchronous (retrieval) mode; cheap after the first call in a process.
    package init() throws(SpeechError) {
        guard let rate = Self.initializedSampleRate else {
            throw .engineUnavailable("espeak_Initialize failed (is espeak-ng-data installed?)")
        }
        // Read the installed voices now, outside any call that holds the state lock.
        _ = Self.catalog
        nativeSampleRate = rate
        version = String(cString: espeak_Info(nil))
    }

    /// Whether espeak-ng accepts `voiceID` (an installed voice or language, with an optional
    /// installed `+variant`).
    package func hasVoice(_ voiceID: String) -> Bool {
        guard Self.installedVoiceID(voiceID) != nil else { return false }
        return Self.state.withLock { _ in
            return Self.select(voiceID)
        }
    }

    /// Selects a voice by file name ("en-us", "en-us+klatt"), or else by language ("en-gb", whose
    /// voice file is named "en"), as the espeak-ng command does. Only the id of an installed voice
    /// and variant reaches espeak-ng, which would otherwise read any file an id names as a path.
    /// Call under the state lock.
    private static func select(_ requested: String) -> Bool {
        guard let voiceID = installedVoiceID(requested) else { return false }
        if espeak_SetVoiceByName(voiceID) == EE_OK { return true }
        // By properties espeak-ng takes the nearest language, so only a language some installed
        // voice declares exactly is accepted ("en-uss" must stay an unknown voice).
        guard !voiceID.contains("+"), catalog.languages.contains(voiceID.lowercased()) else { return false }
        var properties = espeak_VOICE()
        return voiceID.withCString { language in
            properties.languages = language
            return espeak_SetVoiceByProperties(&properties) == EE_OK
        }
    }

    /// The installed voices (`variant: false`), or the variants (`+klatt`, `+m1` …) that combine with any voice.
    package func installedVoices(variants: Bool = false) -> [InstalledVoice] {
        Self.state.withLock { _ in
            // Copied out first: selecting a voice reuses the memory espeak_ListVoices returned.
            var listed: [(name: String, file: String, languages: [String], gender: Int32)] = []
            var spec = espeak_VOICE()
            let list: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>? =
                variants
                ? "variant".withCString { language in
                    spec.languages = language
                    return espeak_ListVoices(&spec)
                }
                : espeak_ListVoices(nil)
            guard let list else { return [] }
            var index = 0
            while let voice = list[index] {
                index += 1
                let languages = Self.languages(of: voice)
                let identifier = voice.pointee.identifier.map { String(cString: $0) } ?? ""
                let file = identifier.split(separator: "/").last.map(String.init) ?? identifier
                listed.append(
                    (
                        voice.pointee.name.map { String(cString: $0) } ?? file, file, languages,
                        Int32(voice.pointee.gender)
                    ))
            }
            var result: [InstalledVoice] = []
            // Selecting each voice makes espeak-ng print "Full dictionary is not installed for 'be'"
            // on standard error for languages with a partial dictionary: noise in `forge voices`.
            let quiet = Self.silencingStandardError()
            defer { quiet.restore() }
            for voice in listed {
                var id = "+" + voice.file
                if !variants {
                    // The id a recipe writes: the voice's language where espeak-ng selects it by that, else its file name.
                    guard
                        let usable = [voice.languages.first, voice.file.lowercased(), voice.file].compactMap({ $0 })
                            .first(where: { Self.select($0) })
                    else { continue }
                    id = usable
                }
                let gender: String? =
                    switch voice.gender {
                    case 1: "male"
                    case 2: "female"
                    default: nil
                    }
                result.append(
                    InstalledVoice(
                        engine: Self.engineName, id: id, name: voice.name, languages: variants ? [] : voice.languages,
                        gender: gender))
            }
            return result.sorted { $0.id < $1.id }
        }
    }

    /// Standard error pointed at /dev/null until `restore()`; used only around espeak-ng calls that
    /// print notices of their own (under the engine's lock, so no other espeak-ng call prints meanwhile).
    struct SilencedStandardError {
        let saved: Int32

        func restore() {
            guard saved >= 0 else { return }
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
    }

    static func silencingStandardError() -> SilencedStandardError {
        // Standard error is unbuffered: nothing waits to be written to the old descriptor.
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if saved >= 0, null >= 0 { dup2(null, STDERR_FILENO) }
        if null >= 0 { close(null) }
        return SilencedStandardError(saved: saved)
    }

    /// Names of the installed voices (languages), for suggestions.
    package func voiceNames() -> [String] {
        Self.state.withLock { _ in
            var names = Set<String>()
            if let list = espeak_ListVoices(nil) {
                var index = 0
                while let voice = list[index] {
                    // `languages` is a priority byte then a NUL-terminated name, repeated; take the first.
                    if let languages = voice.pointee.languages { names.insert(String(cString: languages + 1)) }
                    index += 1
                }
            }
            return names.sorted()
        }
    }

    /// espeak-ng's phoneme mnemonics for `text` in `language` (e.g. "h_@_l_'oU" for "hello"):
    /// phonemes separated by `_`, words by spaces, stress marks kept. Used to give the speech
    /// recognizer pronunciations for words its dictionary lacks.
    package func phonemes(for text: String, language: String) -> String? {
        Self.state.withLock { _ in
            guard Self.select(language) else { return nil }
            var pieces: [String] = []
            Self.forEachClause(of: text) { pieces.append($0) }
            let joined = pieces.joined(separator: " ").trimmingCharacters(in: .whitespaces)
            return joined.isEmpty ? nil : joined
        }
    }

    /// Hands each clause's phoneme mnemonics of `text` to `body`, in order (call with the state
    /// lock held and the voice selected).
    private static func forEachClause(of text: String, _ body: (String) -> Void) {
        let utf8 = Array(text.utf8CString)
        utf8.withUnsafeBufferPointer { buffer in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(buffer.baseAddress)
            // One call per clause; espeak-ng advances the pointer and sets it to NULL at the end.
            while let current = cursor, current.load(as: CChar.self) != 0 {
                var pointer: UnsafeRawPointer? = current
                guard
                    let phonemes = espeak_TextToPhonemes(
                        &pointer, Int32(espeakCHARS_UTF8), Int32(UInt8(ascii: "_")) << 8 | 0x01)
                else { break }
                body(String(cString: phonemes))
                if pointer == current { break }
                cursor = pointer
            }
        }
    }

    /// How espeak-ng reads `text` in `language`: its phonemes (stress and length marks aside) and
    /// its clauses, each of which it ends with a pause. What a text takes to say follows these, not
    /// its letters: "279 B. C." is 9 characters and 24 phonemes.
    package func reading(of text: String, language: String) -> SpokenReading? {
        Self.state.withLock { _ in
            guard Self.select(language) else { return nil }
            var reading = SpokenReading(phonemes: 0, clauses: 0)
            Self.forEachClause(of: text) { mnemonics in
                let counts = SpokenReading.counts(mnemonics)
                guard counts.phonemes > 0 else { return }
                reading.phonemes += counts.phonemes
                reading.fricatives += counts.fricatives
                reading.clauses += 1
            }
            return reading
        }
    }

    package func suggestionsIfUnknown(_ voice: VoiceSettings) -> [String]? {
        hasVoice(voice.id) ? nil : suggestions(for: voice.id)
    }

    package func synthesize(_ request: SpeechRequest) throws(SpeechError) -> SynthesizedSpeech {
        try synthesize(request.text, voice: request.voice, itemID: request.itemID, phonemeInput: request.phonemeInput)
    }

    /// Why `id` cannot name an espeak-ng voice, or nil when it can: letters, digits, `-` and `_`,
    /// with one optional `+variant`, at most ``maximumVoiceIDLength`` characters. Checked when a
    /// recipe or command line is read, before anything reaches espeak-ng (which would read an id
    /// such as "../../etc/passwd" as a path); the installed voices are checked before a build starts.
    package static func voiceIDProblem(_ id: String) -> String? {
        let parts = id.split(separator: "+", omittingEmptySubsequences: false)
        let valid =
            parts.count <= 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
                    }
            }
        if !valid {
            return
                "an espeak-ng voice name: letters, digits, \"-\" and \"_\", with an optional \"+variant\", e.g. \"en-us\" or \"en-us+klatt\" (`forge voices` lists them)"
        }
        if id.utf8.count > maximumVoiceIDLength {
            return "an espeak-ng voice name of at most \(maximumVoiceIDLength) characters (`forge voices` lists them)"
        }
        return nil
    }

    /// Speaks `text` (never interpreted as SSML; `[[…]]` read as phonemes only with `phonemeInput`,
    /// which a lexicon entry asks for) and returns audio and events.
    package func synthesize(_ text: String, voice: VoiceSettings, itemID: String, phonemeInput: Bool = false)
        throws(SpeechError) -> SynthesizedSpeech
    {
        let utf8 = Array(text.utf8CString)
        let flags = UInt32(espeakCHARS_UTF8) | (phonemeInput ? UInt32(espeakPHONEMES) : 0)
        // Each item is spoken in a fork of this process, which never speaks itself: every item
        // starts from the same espeak-ng state, so its samples depend on its text and voice alone.
        guard let voiceID = Self.installedVoiceID(voice.id) else { throw .unknownVoice(voice.id) }
        // By properties espeak-ng takes the nearest language, so only a language some installed
        // voice declares exactly is accepted ("en-uss" must stay an unknown voice).
        let byLanguage = !voiceID.contains("+") && Self.catalog.languages.contains(voiceID.lowercased())
        let outcome: ForkedSynthesis.Outcome = Self.state.withLock { _ in
            guard let synthesis = Self.initialized?.synthesis else {
                return .failed("no process could be forked for synthesis")
            }
            return synthesis.speak(
                utf8, voiceID: voiceID, byLanguage: byLanguage, rate: voice.rate, pitch: voice.pitch,
                volume: voice.volume, flags: flags)
        }
        switch outcome {
        case .voiceNotFound:
            throw .unknownVoice(voice.id)
        case .failed(let reason):
            throw .synthesisFailed(item: itemID, reason: reason)
        case .spoken(let samples, let events):
            guard !samples.isEmpty else { throw .noAudio(item: itemID) }
            return SynthesizedSpeech(samples: samples, sampleRate: nativeSampleRate, events: events)
        }
    }
}
