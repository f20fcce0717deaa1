/// A worker's line saying it has started speaking an item; if the worker then dies, that item
/// is the one to blame, and the others it held are retried.
package struct SpeechWorkerNotice: Sendable, Equatable, Codable {
    package var started: String

    package init(started: String) {
        self.started = started
    }

    /// Notices are told apart from results by their first bytes, without a full decode.
    static let prefix = Array(#"{"started":"#.utf8)
}
