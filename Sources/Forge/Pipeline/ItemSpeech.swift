/// How one item is to be spoken: its voice, the text its engine reads (the lexicon applied) and
/// the keys of the objects that speaking it makes.
struct ItemSpeech: Sendable {
    var voice: VoiceSettings
    var rendering: LexiconRendering
    var audioKey: String
    var eventsKey: String
    var engineVersion: String

    /// The job a worker runs to make this item's objects.
    func job(itemID: String, recipe: Recipe) -> SpeechJob {
        SpeechJob(
            itemID: itemID, text: rendering.spoken, voice: voice, audio: recipe.audio, audioKey: audioKey,
            eventsKey: eventsKey,
            phonemeInput: rendering.usesPhonemes, engineVersion: engineVersion,
            commandEngine: recipe.engines[voice.engine])
    }
}

extension Recipe {
    /// How an item of `text` spoken by `character` is spoken, with `voice` instead of the cast's when given
    /// (the fallback). `engineVersions` maps engine names to the versions that go into keys.
    func speech(
        text: String, character: String?, engineVersions: [String: String], voice override: VoiceSettings? = nil
    ) -> ItemSpeech {
        let voice = override ?? voice(forCharacter: character)
        let rendering = lexicon.render(text, phonemes: voice.capabilities.contains(.phonemeInput))
        let engineVersion = engineVersions[voice.engine] ?? ""
        let audioKey = ObjectKey.audio(
            text: rendering.spoken, voice: voice, audio: audio, engineVersion: engineVersion,
            phonemeInput: rendering.usesPhonemes, resampler: Self.resampler(voice: voice, audio: audio))
        return ItemSpeech(
            voice: voice, rendering: rendering, audioKey: audioKey, eventsKey: ObjectKey.events(audioKey: audioKey),
            engineVersion: engineVersion)
    }

    /// The resampler that may shape an item's audio: none for espeak-ng at its own 22,050 Hz (so
    /// those keys, most users' books, stayed the same when libsoxr replaced the old converter);
    /// other rates and command engines, whose rate is their own, name it.
    static func resampler(voice: VoiceSettings, audio: AudioSettings) -> String? {
        voice.engine == SpeechEngines.builtInName && audio.sampleRate == 22_050 ? nil : Resampler.identity
    }
}
