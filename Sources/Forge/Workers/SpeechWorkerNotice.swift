import Foundation

/// A worker's line saying it has started speaking an item; if the worker then dies, that item
/// is the one to blame, and the others it held are retried.
package struct SpeechWorkerNotice: Sendable, Equatable, Codable {
    package var started: String

    package init(started: String) {
        self.started = started
    }

    /// Notices are told apart from results by their first bytes, without a full decode.
    static let prefix = Array(#"{"started":"#.utf8)

    /// The notice as one JSON line, ending in a newline (written directly for a plain item id:
    /// one per item of a build).
    var line: Data? {
        if DirectJSON.isPlain(started, slashes: true) {
            var json = JSONWriter(escaping: .canonical, capacity: started.utf8.count + 16)
            json.object { $0.field("started", started) }
            json.newline()
            return Data(json.bytes)
        }
        return DirectJSON.foundationLine(self)
    }

    /// Reads a notice line (without its newline); nil when it is not one.
    static func decode(line: [UInt8]) -> SpeechWorkerNotice? {
        direct(line: line) ?? (try? JSONDecoder().decode(SpeechWorkerNotice.self, from: Data(line)))
    }

    /// Reads a line as ``line`` writes a plain item id's notice directly; nil for anything else.
    static func direct(line: [UInt8]) -> SpeechWorkerNotice? {
        line.withUnsafeBytes { bytes -> SpeechWorkerNotice? in
            var reader = DirectJSON.Reader(bytes: bytes)
            guard reader.expect(#"{"started":""#), let started = reader.plainString(slashes: true), reader.expect("}"),
                reader.isAtEnd
            else { return nil }
            return SpeechWorkerNotice(started: started)
        }
    }
}
