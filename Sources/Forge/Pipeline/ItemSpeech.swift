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
            itemID: itemID, text: rendering.spoken, voice: voice, audio: recipe.audio, audioKey: audioKey, eventsKey: eventsKey,
            phonemeInput: rendering.usesPhonemes, engineVersion: engineVersion,
            commandEngine: recipe.engines[voice.engine])
    }
}

extension Recipe {
    /// How an item of `text` spoken by `character` is spoken, with `voice` instead of the cast's when given
    /// (the fallback). `engineVersions` maps engine names to the versions that go into keys.
    func speech(text: String, character: String?, engineVersions: [String: String], voice override: VoiceSettings? = nil) -> ItemSpeech {
        let voice = override ?? voice(forCharacter: character)
        let rendering = lexicon.render(text, phonemes: voice.capabilities.contains(.phonemeInput))
        let engineVersion = engineVersions[voice.engine] ?? ""
        let audioKey = ObjectKey.audio(
            text: rendering.spoken, voice: voice, audio: audio, engineVersion: engineVersion,
            phonemeInput: rendering.usesPhonemes)
        return ItemSpeech(voice: voice, rendering: rendering, audioKey: audioKey, eventsKey: ObjectKey.events(audioKey: audioKey), engineVersion: engineVersion)
    }
}
