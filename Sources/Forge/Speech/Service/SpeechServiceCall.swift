import Foundation

/// One request to a speech service and the reading of its answer, in the shape of the service's
/// ``SpeechServiceSettings/API``. Knows nothing of retries or limits (``SpeechService``).
package struct SpeechServiceCall: Sendable {
    package let settings: SpeechServiceSettings
    /// The API key, sent in the header the API names and nowhere else.
    let key: String?

    /// The sample rate asked of ElevenLabs (`output_format=pcm_24000`: raw samples, nothing to decode).
    static let elevenLabsSampleRate = 24_000
    /// ElevenLabs' voice settings; the voice URI's other parameters go at the top of the request.
    static let elevenLabsVoiceSettings: Set<String> = [
        "stability", "similarity_boost", "style", "use_speaker_boost", "speed",
    ]

    package init(settings: SpeechServiceSettings, key: String?) {
        self.settings = settings
        self.key = key
    }

    /// The request that speaks `text` in `voice`.
    package func request(text: String, voice: VoiceSettings) -> HTTPClient.Request {
        var headers = ["Content-Type: application/json"]
        var body: [String: Any] = [:]
        let url: URL
        switch settings.api {
        case .openai:
            url = settings.url.appendingPathComponent("audio/speech")
            for (name, value) in voice.options { body[name] = Self.jsonValue(value) }
            body["model"] = settings.model
            body["voice"] = voice.id
            body["input"] = text
            body["response_format"] = "wav"
            headers.append("Accept: audio/wav")
            if let key { headers.append("Authorization: Bearer \(key)") }
        case .elevenlabs:
            let voicePath = Self.pathSegment(voice.id)
            url =
                URL(
                    string: settings.url.absoluteString.trimmingSuffix("/")
                        + "/text-to-speech/\(voicePath)/with-timestamps?output_format=pcm_\(Self.elevenLabsSampleRate)")
                ?? settings.url
            var voiceSettings: [String: Any] = [:]
            for (name, value) in voice.options {
                if Self.elevenLabsVoiceSettings.contains(name) {
                    voiceSettings[name] = Self.jsonValue(value)
                } else {
                    body[name] = Self.jsonValue(value)
                }
            }
            if !voiceSettings.isEmpty { body["voice_settings"] = voiceSettings }
            body["text"] = text
            body["model_id"] = settings.model
            headers.append("Accept: application/json")
            if let key { headers.append("xi-api-key: \(key)") }
        }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        // Audio runs about 48 kB a second at 24 kHz; a character is rarely a tenth of a second. An
        // answer far past that is not speech of this text.
        let maxBytes = (1 << 20) + text.utf8.count * 40_000
        return HTTPClient.Request(method: .post, url: url, headers: headers, body: data, maxBytes: maxBytes)
    }

    /// The request that asks whether the service has `voice`, or nil when the API has none.
    package func voiceRequest(_ voice: VoiceSettings) -> HTTPClient.Request? {
        switch settings.api {
        case .openai:
            var request = HTTPClient.Request(
                method: .get, url: settings.url.appendingPathComponent("audio/voices"), maxBytes: 1 << 20)
            if let key { request.headers.append("Authorization: Bearer \(key)") }
            return request
        case .elevenlabs:
            guard
                let url = URL(
                    string: settings.url.absoluteString.trimmingSuffix("/") + "/voices/" + Self.pathSegment(voice.id))
            else { return nil }
            var request = HTTPClient.Request(method: .get, url: url, maxBytes: 1 << 20)
            if let key { request.headers.append("xi-api-key: \(key)") }
            return request
        }
    }

    /// Reads a successful answer (2xx) as speech of `text`.
    package func speech(from response: HTTPClient.Response, text: String) throws(SpeechServiceFailure)
        -> SynthesizedSpeech
    {
        let type = (response.headers["content-type"] ?? "").lowercased()
        switch settings.api {
        case .openai:
            guard type.hasPrefix("audio/") || type.hasPrefix("application/octet-stream") || type.isEmpty else {
                throw .item("the service answered with \(type.split(separator: ";").first ?? ""), not audio")
            }
            let decoded: DecodedAudio
            do {
                decoded = try SoundFile.decode([UInt8](response.body), label: "the service's answer")
            } catch {
                throw .item("its audio could not be read: \(ErrorReason.message(error))")
            }
            return SynthesizedSpeech(
                samples: decoded.samples, sampleRate: decoded.sampleRate, events: [], wordsTimed: false)
        case .elevenlabs:
            guard type.hasPrefix("application/json") || type.isEmpty else {
                throw .item("the service answered with \(type.split(separator: ";").first ?? ""), not JSON")
            }
            return try Self.timedSpeech(from: response.body, text: text)
        }
    }

    /// The failure a status other than 2xx means, with the service's message.
    package static func failure(status: Int, body: Data, headers: [String: String]) -> SpeechServiceFailure {
        let message = "HTTP \(status)" + (serviceMessage(body).map { ": \($0)" } ?? "")
        switch status {
        case 401, 403: return .keyRefused(message)
        case 408, 409, 425, 429, 500, 502, 503, 504, 520...599:
            return .retryable(message, retryAfter: headers["retry-after"].flatMap(retryDelay))
        case 300..<400: return .item("HTTP \(status) redirect (not followed)")
        default: return .item(message)
        }
    }

    /// A transfer that failed before an answer: a timeout or a dropped connection is tried again;
    /// an answer too large or a redirect is not.
    package static func failure(_ failure: HTTPFailure) -> SpeechServiceFailure {
        switch failure {
        case .cancelled: .cancelled
        case .tooLarge, .wrongLength, .redirected: .item(failure.reason)
        case .connectTimedOut, .tooSlow, .deadlinePassed, .transport: .retryable(failure.reason, retryAfter: nil)
        }
    }

    /// The service's own message in an error answer (OpenAI's `error.message`, ElevenLabs' and
    /// FastAPI's `detail`), else the body's first line; cut to one line of at most 200 characters.
    static func serviceMessage(_ body: Data) -> String? {
        var text: String?
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            let error = object["error"] as? [String: Any]
            let detail = object["detail"] as? [String: Any]
            text =
                (error?["message"] as? String) ?? (object["error"] as? String) ?? (detail?["message"] as? String)
                ?? (object["detail"] as? String) ?? (object["message"] as? String)
        }
        if text == nil { text = String(decoding: body.prefix(4096), as: UTF8.self) }
        let line =
            (text ?? "").split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard !line.isEmpty else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    /// `Retry-After` as seconds or an HTTP date, at most five minutes.
    static func retryDelay(_ value: String) -> Duration? {
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return .milliseconds(Int(min(seconds, 300) * 1000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(Int(min(max(date.timeIntervalSinceNow, 0), 300) * 1000))
    }

    /// A voice URI parameter as JSON: a number or a truth value when it reads as one.
    static func jsonValue(_ text: String) -> Any {
        if text == "true" { return true }
        if text == "false" { return false }
        if let integer = Int(text) { return integer }
        if let number = Double(text), number.isFinite { return number }
        return text
    }

    /// A voice id as one path segment: letters, digits, `-` and `_` as they are, all else escaped
    /// (a `/` or `..` in a recipe's voice cannot reach another path of the service).
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-_")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
