import Forge
import Foundation

/// The exit codes forge documents (README, `forge --help`).
enum ForgeExitCode: Int32 {
    case success = 0
    case itemsFailed = 1
    case usage = 2
    case cannotRun = 3
    case cancelled = 130

    /// The code for an error that stopped a command before or outside item work.
    static func forError(_ error: any Error) -> ForgeExitCode {
        switch error {
        case is RecipeError, is TextError, is DocumentError, is LexiconError: return .usage
        case CommandEngineError.notAllowed: return .usage
        case ExportError.cancelled: return .cancelled
        case ExportError.unsafeTarget, ExportError.badEnvironment: return .usage
        case SpeechError.unknownVoice, SpeechError.nothingToSay: return .usage
        case PipelineError.unreadableRecording: return .usage
        case PipelineError.shardWithoutCache: return .usage
        case RemoteCacheError.malformedHeader: return .usage
        default: return .cannotRun
        }
    }
}
