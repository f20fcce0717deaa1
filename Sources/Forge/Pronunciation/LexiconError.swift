import Foundation

/// Why a lexicon file was refused; each message names the file and line.
package enum LexiconError: LocalizedError, Sendable, Equatable {
    case unreadable(file: String, reason: String)
    case malformedLine(file: String, line: Int, text: String, reason: String)
    case duplicate(file: String, word: String, firstLine: Int, line: Int)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .unreadable(let file, let reason):
            return ("\(file): cannot read the lexicon: \(reason).", nil)
        case .malformedLine(let file, let line, let text, let reason):
            return (
                "\(file):\(line): \"\(text)\": \(reason).",
                "Write entries as `word = respelling` or `word = [[phonemes]]`."
            )
        case .duplicate(let file, let word, let firstLine, let line):
            return ("\(file):\(line): \"\(word)\" already has an entry on line \(firstLine).", "Keep one.")
        }
    }
}

extension LexiconError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unreadable, .malformedLine, .duplicate: .badInput
        }
    }
}
