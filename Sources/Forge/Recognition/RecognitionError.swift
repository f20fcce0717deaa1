import Foundation

/// Why the speech recognizer (forced alignment, transcription) could not run.
package enum RecognitionError: LocalizedError, Sendable, Equatable {
    case modelMissing(path: String)
    case decoderFailed(String)
    case unsupportedLanguage(String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .modelMissing(let path):
            return (
                "the speech recognizer's model is missing (\(path)).",
                "Install it with `apt-get install libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us`, or point FORGE_POCKETSPHINX_MODEL at a model directory."
            )
        case .decoderFailed(let reason):
            return ("speech recognizer: \(reason).", nil)
        case .unsupportedLanguage(let language):
            return (
                "the speech recognizer has no model for language \"\(language)\"; only English (en) is installed.",
                "Use alignment.method \"auto\" with an engine that gives word events (espeak-ng does), and set verify.required to false."
            )
        }
    }
}

extension RecognitionError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .modelMissing, .decoderFailed, .unsupportedLanguage: .cannotRun
        }
    }
}
