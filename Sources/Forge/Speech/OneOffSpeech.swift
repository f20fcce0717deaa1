import Foundation

/// `forge say`: speaks a text straight into an audio file, without a recipe, a manifest or an
/// output directory.
package struct OneOffSpeech: Sendable {
    package var voice: VoiceSettings
    package var sampleRate: Int

    package init(voice: VoiceSettings = VoiceSettings(), sampleRate: Int = 22050) {
        self.voice = voice
        self.sampleRate = sampleRate
    }

    /// The audio format a file name asks for by its extension (`.wav`, `.flac`, `.ogg`, `.mp3`, `.opus`).
    package static func format(for url: URL) throws(SpeechError) -> AudioSettings.Format {
        guard let format = AudioSettings.Format(rawValue: url.pathExtension.lowercased()) else {
            throw .encodingFailed(
                path: url.path,
                reason:
                    "the extension \".\(url.pathExtension)\" names no audio format Forge writes; use .wav, .flac, .ogg, .mp3 or .opus"
            )
        }
        return format
    }

    /// Speaks `text` into `url` (replaced whole, never left half-written) and returns the audio's length in milliseconds.
    @discardableResult
    package func speak(_ text: String, to url: URL) throws(SpeechError) -> Int {
        let format = try Self.format(for: url)
        guard text.unicodeScalars.contains(where: Tokenizer.isWordScalar) else {
            throw .nothingToSay
        }
        if let reason = WriteTarget.problem(url) { throw .cannotWrite(path: url.path, reason: reason) }
        let engine = try EspeakEngine()
        guard EspeakEngine.voiceIDProblem(voice.id) == nil, engine.hasVoice(voice.id) else {
            throw .unknownVoice(voice.id)
        }
        let speech = try engine.synthesize(text, voice: voice, itemID: "say")
        let samples =
            speech.sampleRate == sampleRate
            ? speech.samples : Resampler.resample(speech.samples, from: speech.sampleRate, to: sampleRate)
        let bytes: Data
        do {
            bytes = try SoundFile.encode(samples, sampleRate: sampleRate, format: format)
        } catch {
            throw .encodingFailed(path: url.path, reason: error.localizedDescription)
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try bytes.write(to: temporary)
            try WriteTarget.replace(url, with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotWrite(path: url.path, reason: ErrorReason.text(error))
        }
        return samples.count * 1000 / max(sampleRate, 1)
    }
}
