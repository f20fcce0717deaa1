import Foundation
import Synchronization

/// A speech service in use by a build: its requests held to the recipe's limits
/// (``SpeechServiceLimiter``), each refusal for the moment tried again with backoff and jitter
/// (honouring `Retry-After`), and what was sent counted (``SpeechServiceUsage``). Shared by the
/// build's tasks; every transfer is bounded in time and size by ``HTTPClient``.
package final class SpeechService: Sendable {
    package let settings: SpeechServiceSettings
    private let call: SpeechServiceCall
    private let client: HTTPClient
    private let limiter: SpeechServiceLimiter
    private let counts: Mutex<SpeechServiceUsage>

    /// The longest a retry waits, however many came before it.
    static let longestRetryDelay = Duration.seconds(60)

    /// `key`: the API key, read from the environment after ``SpeechServiceKeyGrants`` allowed it.
    package init(settings: SpeechServiceSettings, key: String?) {
        self.settings = settings
        call = SpeechServiceCall(settings: settings, key: key)
        let timeout = settings.timeoutSeconds
        client = HTTPClient(
            limits: HTTPLimits(
                connectTimeoutSeconds: min(10, timeout), lowSpeedSeconds: max(5, timeout / 2),
                minimumBytesPerSecond: 512, deadlineSeconds: timeout))
        limiter = SpeechServiceLimiter(
            requestsPerMinute: settings.requestsPerMinute, charactersPerMinute: settings.charactersPerMinute)
        counts = Mutex(SpeechServiceUsage(engine: settings.name))
    }

    /// What the build has asked of the service so far.
    package var usage: SpeechServiceUsage { counts.withLock { $0 } }

    /// Speaks `request`: its text in pieces of at most ``SpeechServiceSettings/maxCharacters`` cut
    /// at sentence ends, joined into one item's speech, which must be as long as speech of its text
    /// can be.
    package func synthesize(_ request: SpeechRequest) async -> Result<SynthesizedSpeech, SpeechServiceFailure> {
        var joined: SynthesizedSpeech?
        var timed = true
        for piece in Self.pieces(of: request.text, maxCharacters: settings.maxCharacters) {
            let speech: SynthesizedSpeech
            do {
                speech = try await send(piece.text, voice: request.voice)
            } catch {
                if error != .cancelled { counts.withLock { $0.failedItems += 1 } }
                return .failure(error)
            }
            timed = timed && speech.wordsTimed == true
            joined = Self.join(joined, speech, textOffset: piece.offset)
        }
        guard var speech = joined, !speech.samples.isEmpty else {
            counts.withLock { $0.failedItems += 1 }
            return .failure(.item("the service returned no audio"))
        }
        if !timed {
            speech.events = []
            speech.wordsTimed = false
        }
        if let problem = Self.lengthProblem(durationMs: speech.durationMs, text: request.text) {
            counts.withLock { $0.failedItems += 1 }
            return .failure(.item(problem))
        }
        return .success(speech)
    }

    /// Nil when the service has `voice` or cannot say; otherwise why not.
    package func voiceProblem(_ voice: VoiceSettings) async -> String? {
        guard let request = call.voiceRequest(voice) else { return nil }
        guard let response = try? await client.send(request) else { return nil }
        switch settings.api {
        case .openai:
            guard response.status == 200,
                let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                let voices = object["voices"] as? [Any]
            else { return nil }
            let names = voices.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["id"] as? String) }
            guard !names.isEmpty, !names.contains(voice.id) else { return nil }
            return "the service has no voice \"\(voice.id)\" (it has: \(names.prefix(12).joined(separator: ", ")))"
        case .elevenlabs:
            return response.status == 404 ? "the service has no voice \"\(voice.id)\"" : nil
        }
    }

    /// One piece of text sent until it is spoken, refused for good, or out of retries.
    private func send(_ text: String, voice: VoiceSettings) async throws(SpeechServiceFailure) -> SynthesizedSpeech {
        var retries = 0
        while true {
            do {
                try await limiter.admit(characters: text.count)
            } catch {
                throw .cancelled
            }
            counts.withLock {
                $0.requests += 1
                $0.characters += text.count
            }
            let failure: SpeechServiceFailure
            switch await attempt(text, voice: voice) {
            case .success(let speech): return speech
            case .failure(let error): failure = error
            }
            guard case .retryable(_, let retryAfter) = failure, retries < settings.retries else {
                if case .retryable(let reason, _) = failure, settings.retries > 0 {
                    throw .retryable("\(reason) (after \(settings.retries) retries)", retryAfter: nil)
                }
                throw failure
            }
            retries += 1
            counts.withLock { $0.retries += 1 }
            let delay = retryAfter ?? backoff(retry: retries)
            if let retryAfter { await limiter.pause(for: retryAfter) }
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw .cancelled
            }
        }
    }

    /// One request for `text`, and its answer read.
    private func attempt(_ text: String, voice: VoiceSettings) async -> Result<SynthesizedSpeech, SpeechServiceFailure>
    {
        let response: HTTPClient.Response
        do throws(HTTPFailure) {
            response = try await client.send(call.request(text: text, voice: voice))
        } catch {
            return .failure(SpeechServiceCall.failure(error))
        }
        guard (200..<300).contains(response.status) else {
            return .failure(
                SpeechServiceCall.failure(status: response.status, body: response.body, headers: response.headers))
        }
        return Result { () throws(SpeechServiceFailure) in try call.speech(from: response, text: text) }
    }

    /// The delay before retry `retry` (1, 2, …): the first delay doubled each time, at most a
    /// minute, with jitter so that many requests refused at once do not return at once.
    private func backoff(retry: Int) -> Duration {
        let base = Duration.milliseconds(settings.retryDelayMs) * (1 << min(retry - 1, 16))
        let capped = min(base, Self.longestRetryDelay)
        return capped * Double.random(in: 0.5...1.0)
    }

    /// Why audio of `durationMs` cannot be speech of `text`, or nil: far too long (another
    /// text's audio, or a voice gone wrong) or, for text long enough to tell, far too short.
    static func lengthProblem(durationMs: Int, text: String) -> String? {
        let characters = text.count
        if durationMs > 5000 + characters * 250 {
            return "its audio is \(durationMs) ms long, too long for \(characters) characters"
        }
        if characters >= 40 && durationMs < characters * 15 {
            return "its audio is \(durationMs) ms long, too short for \(characters) characters"
        }
        return nil
    }
}
