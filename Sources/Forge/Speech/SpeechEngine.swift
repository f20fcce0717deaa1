/// A speech synthesizer Forge drives: espeak-ng in process (``EspeakEngine``) or an external
/// program speaking Forge's command-engine protocol (``CommandEngine``).
///
/// The pipeline knows engines only through this protocol and ``SpeechEngines``, which names the
/// engine a voice asks for; what differs between engines is said by ``capabilities``, never by
/// checking an engine's name. An engine is used from one thread at a time.
package protocol SpeechEngine: AnyObject {
    /// What engines of this type can do beyond turning text into audio; known before one is started,
    /// because audio keys depend on it.
    static var capabilities: SpeechCapabilities { get }
    /// The name voices use to choose the engine, the part of a voice URI before `:`.
    var name: String { get }
    /// The engine's version as it goes into audio keys: another version makes other audio.
    var version: String { get }
    /// Nil when the engine speaks `voice`; otherwise voices it has that are close, for the message.
    func suggestionsIfUnknown(_ voice: VoiceSettings) -> [String]?
    /// Speaks one request at the engine's own sample rate.
    func synthesize(_ request: SpeechRequest) throws(SpeechError) -> SynthesizedSpeech
}
