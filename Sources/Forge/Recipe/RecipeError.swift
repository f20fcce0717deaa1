import Foundation

/// Why a recipe was refused. Every message names the recipe file, the JSON path of the
/// offending field, what was found and what is allowed.
package enum RecipeError: LocalizedError, Sendable, Equatable {
    case unreadable(file: String, reason: String)
    case tooLarge(file: String, bytes: Int, limit: Int)
    case syntax(file: String, line: Int, column: Int, message: String)
    case wrongType(file: String, path: String, expected: String, found: String)
    case unknownKey(file: String, path: String, key: String, suggestion: String?, allowed: [String])
    case missingKey(file: String, path: String, expected: String)
    case invalidValue(file: String, path: String, found: String, allowed: String)
    case missingSource(file: String, path: String, resolved: String)
    case unreadableSource(file: String, path: String, resolved: String, reason: String)
    case unknownVoice(file: String, path: String, found: String, suggestions: [String])
    case outsideProject(file: String, path: String, resolved: String, project: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .unreadable(let file, let reason):
            return ("\(file): cannot read the recipe: \(reason).", "Check the path and its permissions.")
        case .tooLarge(let file, let bytes, let limit):
            return (
                "\(file): the recipe is \(bytes) bytes; recipes are limited to \(limit) bytes.",
                "Put long text in source files and name them in \"sources\"."
            )
        case .syntax(let file, let line, let column, let message):
            return ("\(file):\(line):\(column): malformed JSON: \(message).", nil)
        case .wrongType(let file, let path, let expected, let found):
            return ("\(file): \(Self.display(path)): expected \(expected), found \(found).", nil)
        case .unknownKey(let file, let path, let key, let suggestion, let allowed):
            let place = path.isEmpty ? "the top level" : path
            var text = "\(file): \(Self.join(path, key)): unknown key \"\(key)\" in \(place)."
            if let suggestion { text += " Did you mean \"\(suggestion)\"?" }
            text += " Allowed keys: \(allowed.joined(separator: ", "))."
            return (text, nil)
        case .missingKey(let file, let path, let expected):
            return ("\(file): \(path): this key is required; add \(expected).", nil)
        case .invalidValue(let file, let path, let found, let allowed):
            return ("\(file): \(path): found \(found); allowed: \(allowed).", nil)
        case .missingSource(let file, let path, let resolved):
            return (
                "\(file): \(path): the source file \(resolved) does not exist.",
                "Paths are relative to the recipe's folder."
            )
        case .unreadableSource(let file, let path, let resolved, let reason):
            return ("\(file): \(path): cannot read the source file \(resolved): \(reason).", nil)
        case .outsideProject(let file, let path, let resolved, let project):
            return (
                "\(file): \(path): \(resolved) is outside the project \(project) (through \"..\" or a symbolic link).",
                "Move it inside, or allow paths outside the project if you trust this recipe."
            )
        case .unknownVoice(let file, let path, let found, let suggestions):
            var text = "\(file): \(path): espeak-ng has no voice \"\(found)\"."
            if !suggestions.isEmpty {
                text += " Did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: " or "))?"
            }
            return (
                text,
                "Choose one of the installed voices and variants (a variant is added as \"+name\", e.g. \"en-us+klatt\")."
            )
        }
    }

    /// The recipe file the error is about.
    package var file: String {
        switch self {
        case .unreadable(let file, _), .tooLarge(let file, _, _), .syntax(let file, _, _, _),
            .wrongType(let file, _, _, _),
            .unknownKey(let file, _, _, _, _), .missingKey(let file, _, _), .invalidValue(let file, _, _, _),
            .missingSource(let file, _, _),
            .unreadableSource(let file, _, _, _), .unknownVoice(let file, _, _, _), .outsideProject(let file, _, _, _):
            return file
        }
    }

    /// The line of the recipe the error is on, when the JSON itself is wrong there.
    package var line: Int? {
        if case .syntax(_, let line, _, _) = self { return line }
        return nil
    }

    /// The JSON path the error is about, e.g. `voice.rate`, or nil for whole-file errors.
    package var path: String? {
        switch self {
        case .unreadable, .tooLarge, .syntax: return nil
        case .wrongType(_, let path, _, _), .missingKey(_, let path, _), .invalidValue(_, let path, _, _),
            .missingSource(_, let path, _), .unreadableSource(_, let path, _, _), .unknownVoice(_, let path, _, _),
            .outsideProject(_, let path, _, _):
            return path
        case .unknownKey(_, let path, let key, _, _): return Self.join(path, key)
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private static func display(_ path: String) -> String { path.isEmpty ? "the recipe" : path }
}

extension RecipeError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .unreadable, .tooLarge, .syntax, .wrongType, .unknownKey, .missingKey, .invalidValue, .missingSource,
            .unreadableSource, .unknownVoice, .outsideProject:
            .badInput
        }
    }
}
