import CEspeakNG
import Foundation
import Synchronization

/// espeak-ng, in process. Its state is process-global, so a process has one engine, used from
/// one thread at a time; Forge gets parallelism from worker processes (see ``SpeechWorker``).
public final class EspeakEngine {
    /// The engine's name in keys and the manifest.
    public static let name = "espeak-ng"

    /// espeak-ng's version string, e.g. "1.51".
    public let version: String
    /// The sample rate espeak-ng speaks at.
    public let nativeSampleRate: Int
    private var currentVoice: VoiceSettings?

    /// espeak-ng's sample rate once `espeak_Initialize` has run in this process, else nil.
    private static let initializedSampleRate = Mutex<Int?>(nil)

    /// Starts espeak-ng in synchronous (retrieval) mode; cheap after the first call in a process.
    public init() throws(SpeechError) {
        let rate: Int? = Self.initializedSampleRate.withLock { sampleRate in
            if sampleRate == nil {
                let result = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, nil, Int32(espeakINITIALIZE_DONT_EXIT))
                if result > 0 {
                    espeak_SetSynthCallback(espeakCallback)
                    sampleRate = Int(result)
                }
            }
            return sampleRate
        }
        guard let rate else { throw .engineUnavailable("espeak_Initialize failed (is espeak-ng-data installed?)") }
        nativeSampleRate = rate
        version = String(cString: espeak_Info(nil))
    }

    /// Whether espeak-ng accepts `voiceID` (a language name with an optional `+variant`).
    public func hasVoice(_ voiceID: String) -> Bool {
        currentVoice = nil
        return espeak_SetVoiceByName(voiceID) == EE_OK
    }

    /// Names of the installed voices (languages) and variants, for suggestions.
    public func voiceNames() -> [String] {
        var names: [String] = []
        if let list = espeak_ListVoices(nil) {
            var index = 0
            while let voice = list[index] {
                if let languages = voice.pointee.languages {
                    // `languages` is a priority byte then a NUL-terminated name, repeated; take the first.
                    names.append(String(cString: languages + 1))
                }
                index += 1
            }
        }
        return Array(Set(names)).sorted()
    }

    /// Speaks `text` (never interpreted as SSML or phoneme input) and returns audio and events.
    public func synthesize(_ text: String, voice: VoiceSettings, itemID: String) throws(SpeechError) -> SynthesizedSpeech {
        try apply(voice)
        let collector = SpeechCollector()
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        let utf8 = Array(text.utf8CString)
        let status = utf8.withUnsafeBufferPointer { buffer in
            espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, userData)
        }
        guard status == EE_OK else { throw .synthesisFailed(item: itemID, reason: "espeak_Synth returned \(status.rawValue)") }
        withExtendedLifetime(collector) {}
        guard !collector.samples.isEmpty else { throw .noAudio(item: itemID) }
        return SynthesizedSpeech(samples: collector.samples, sampleRate: nativeSampleRate, events: collector.events)
    }

    private func apply(_ voice: VoiceSettings) throws(SpeechError) {
        if currentVoice == voice { return }
        guard espeak_SetVoiceByName(voice.id) == EE_OK else { throw .unknownVoice(voice.id) }
        espeak_SetParameter(espeakRATE, Int32(voice.rate), 0)
        espeak_SetParameter(espeakPITCH, Int32(voice.pitch), 0)
        espeak_SetParameter(espeakVOLUME, Int32(voice.volume), 0)
        currentVoice = voice
    }
}

/// Gathers what the callback delivers during one synchronous `espeak_Synth` call.
private final class SpeechCollector {
    var samples: [Int16] = []
    var events: [SynthesisEvent] = []
}

private func espeakCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let collector = Unmanaged<SpeechCollector>.fromOpaque(userData).takeUnretainedValue()
    if let wav, count > 0 {
        collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        let kind: SynthesisEvent.Kind?
        switch event.pointee.type {
        case espeakEVENT_WORD: kind = .word
        case espeakEVENT_SENTENCE: kind = .sentence
        case espeakEVENT_END: kind = .end
        default: kind = nil
        }
        if let kind {
            collector.events.append(
                SynthesisEvent(
                    kind: kind, textPosition: max(0, Int(event.pointee.text_position) - 1),
                    length: Int(event.pointee.length), audioMs: Int(event.pointee.audio_position)))
        }
        event += 1
    }
    return 0
}
