import Foundation

/// Why the remote cache could not be used. Messages name the cache (its URL, never the
/// authorization header), what happened, and what to do.
package enum RemoteCacheError: Error, LocalizedError, Sendable, Equatable {
    /// The server could not be reached, timed out or answered 5xx.
    case unavailable(cache: String, reason: String)
    /// The server refused a request (401, 403, 405, 413…).
    case refused(cache: String, method: String, path: String, status: Int)
    /// A blob's bytes do not have the digest its entry names (never trusted, never stored).
    case digestMismatch(cache: String, item: String, role: String, expected: String, found: String)
    /// A blob whose size is not the one its entry names (announced or received; never trusted, never stored).
    case blobSize(cache: String, item: String, role: String, detail: String)
    /// An answer of a size the request cannot take (an entry over ``RemoteCache/entryLimit``, a
    /// blob of another size than asked for): read no further than that, and discarded.
    case badAnswer(cache: String, path: String, reason: String)
    /// An entry that is not one of forge's, or does not describe the item it is filed under.
    case malformedEntry(cache: String, item: String, reason: String)
    /// `FORGE_REMOTE_CACHE_HEADER` is set but is not `Name: value`.
    case malformedHeader(variable: String)
    /// This directory's store failed while exchanging objects with the cache (not the cache's fault).
    case localStore(reason: String)
    /// `cache.required` and the cache failed.
    case required(cache: String, reason: String)
    /// A command needs the samples of audio a build left in the cache, and the cache could not give
    /// them (`lost` of them it no longer has; those items are pending again).
    case audioNotFetched(cache: String, items: Int, lost: Int, reason: String)

    /// What went wrong, without the cache's name (for a message that names it already).
    package var detail: String {
        switch self {
        case .unavailable(_, let reason): reason
        case .refused(_, let method, let path, let status): "\(method) \(path) was refused with HTTP \(status)"
        default: errorDescription ?? ""
        }
    }

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .unavailable(let cache, let reason):
            return ("The remote cache \(cache) is unavailable: \(reason).", nil)
        case .refused(let cache, let method, let path, let status):
            return (
                "The remote cache \(cache) refused \(method) \(path) with HTTP \(status)\(status == 401 || status == 403 ? ": check the header in \(RemoteCacheSettings.headerVariable)" : "").",
                nil
            )
        case .digestMismatch(let cache, let item, let role, let expected, let found):
            return (
                "Item \(item): the \(role) blob from the remote cache \(cache) has SHA-256 \(found.prefix(12))…, not the \(expected.prefix(12))… its entry names; it was discarded and the item is synthesized here.",
                nil
            )
        case .blobSize(let cache, let item, let role, let detail):
            return (
                "Item \(item): the \(role) blob from the remote cache \(cache) is not the size its entry names (\(detail)); it was discarded and the item is synthesized here.",
                nil
            )
        case .badAnswer(let cache, let path, let reason):
            return ("The remote cache \(cache) answered GET \(path) with \(reason); it was discarded.", nil)
        case .malformedEntry(let cache, let item, let reason):
            return (
                "Item \(item): the remote cache \(cache) holds an entry forge cannot use (\(reason)); the item is synthesized here and the entry replaced.",
                nil
            )
        case .malformedHeader(let variable):
            return (
                "\(variable) must be one header as \"Name: value\" on one line, without line breaks or other control characters (for example \"Authorization: Bearer <token>\"); the value is not shown.",
                nil
            )
        case .localStore(let reason):
            return ("\(reason).", "Check the output directory's store.")
        case .required(let cache, let reason):
            return (
                "The remote cache \(cache) is required (cache.required) but failed: \(reason).",
                "Start the cache server, or build without \"required\" to build locally."
            )
        case .audioNotFetched(let cache, let items, let lost, let reason):
            return (
                "The audio of \(items) items is in the remote cache \(cache) only (the build left it there) and could not be fetched: \(reason).",
                lost > 0
                    ? "The cache no longer has the audio of \(lost) of them, now pending: build the recipe again to make them."
                    : "Try again when the cache answers, or build the recipe with every item's audio downloaded (cache.downloadAll)."
            )
        }
    }
}

extension RemoteCacheError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .malformedHeader: .badInput
        case .unavailable, .refused, .digestMismatch, .blobSize, .badAnswer, .malformedEntry, .localStore, .required,
            .audioNotFetched:
            .cannotRun
        }
    }
}
