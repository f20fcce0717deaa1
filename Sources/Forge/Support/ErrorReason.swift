import Foundation

/// The reason a system call or Foundation file operation failed, in the operating system's own
/// words ("No such file or directory"), never a Foundation error domain and code.
package enum ErrorReason {
    /// What a person reads about `error`: its description, then what to do about it (a
    /// `LocalizedError`'s recovery suggestion), as one text.
    package static func message(_ error: any Error) -> String {
        guard let localized = error as? any LocalizedError else { return "\(error)" }
        let problem = localized.errorDescription ?? "\(error)"
        guard let fix = localized.recoverySuggestion, !fix.isEmpty else { return problem }
        return "\(problem) \(fix)"
    }

    static func text(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch nsError.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "No such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "Permission denied"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        case NSFileWriteFileExistsError: return "File exists"
        case NSFileWriteUnknownError, NSFileWriteInvalidFileNameError: return "the file could not be written"
        case NSFileReadUnknownError, NSFileReadCorruptFileError, NSFileReadInapplicableStringEncodingError:
            return "the file could not be read"
        case NSFileReadTooLargeError: return "the file is too large to read"
        default: break
        }
        let text = trimmed(nsError.localizedDescription)
        // Foundation's fallback text names only its error domain and code.
        return text.contains("ErrorDomain error") ? "the file operation failed" : text
    }

    /// `text` without a final period, so a message can add its own sentence after it.
    static func trimmed(_ text: String) -> String {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
