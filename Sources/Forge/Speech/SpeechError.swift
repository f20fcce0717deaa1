import Foundation

/// Why synthesis or encoding of an item failed.
package enum SpeechError: LocalizedError, Sendable, Equatable {
    case engineUnavailable(String)
    case unknownVoice(String)
    case synthesisFailed(item: String, reason: String)
    case noAudio(item: String)
    case encodingFailed(path: String, reason: String)
    case workerCrashed(item: String, detail: String)
    case workerUnavailable(String)
    case injectedFault(item: String)
    case engineFailed(item: String, engine: String, reason: String)
    case unknownEngine(String)
    /// `forge say` was given text without a word in it.
    case nothingToSay
    /// The audio could not be written where it was asked for.
    case cannotWrite(path: String, reason: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .engineUnavailable(let reason):
            return (
                "espeak-ng could not start: \(reason).",
                "Install it with `apt-get install libespeak-ng-dev espeak-ng-data`."
            )
        case .unknownVoice(let voice):
            return (
                "espeak-ng has no voice \"\(voice.prefix(80))\".", "Choose one of the installed voices and variants."
            )
        case .synthesisFailed(let item, let reason):
            return ("item \(item): espeak-ng failed to synthesize it: \(reason).", nil)
        case .noAudio(let item):
            return ("item \(item): espeak-ng produced no audio for its text.", nil)
        case .encodingFailed(let path, let reason):
            return (
                "\(path): encoding the audio failed: \(reason).",
                "Check free disk space and the audio format in the recipe."
            )
        case .workerCrashed(let item, let detail):
            return (
                "item \(item): the synthesis worker process died while speaking it (\(detail)).",
                "Rerun to retry; if it fails again, the item's text is the likely trigger."
            )
        case .workerUnavailable(let reason):
            return ("could not start a synthesis worker process: \(reason).", nil)
        case .unknownEngine(let name):
            return (
                "no speech engine is named \"\(name.prefix(80))\"; use \"\(SpeechEngines.builtInName)\" or declare it under the recipe's \"engines\".",
                nil
            )
        case .engineFailed(let item, let engine, let reason):
            return ("item \(item): engine \"\(engine)\" could not speak it: \(reason).", nil)
        case .nothingToSay:
            return ("there is nothing to say: the text has no words.", "Give a text with words in it.")
        case .cannotWrite(let path, let reason):
            return (
                "\(path): the audio cannot be written there: \(reason).",
                "Check that the folder exists and is writable, or write it elsewhere."
            )
        case .injectedFault(let item):
            return ("item \(item): failed by the FORGE_FAULT_SPEAK fault-injection setting (used by tests).", nil)
        }
    }
}

extension SpeechError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unknownVoice, .nothingToSay: .badInput
        case .engineUnavailable, .synthesisFailed, .noAudio, .encodingFailed, .workerCrashed, .workerUnavailable,
            .injectedFault, .engineFailed, .unknownEngine, .cannotWrite:
            .cannotRun
        }
    }
}
