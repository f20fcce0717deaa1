import Foundation

/// Problems with the output directory, its objects or its manifest.
package enum StoreError: LocalizedError, Sendable, Equatable {
    case cannotCreate(path: String, reason: String)
    case notWritable(path: String)
    case writeFailed(path: String, reason: String)
    case busy(path: String, holder: String)
    case manifestUnreadable(path: String, reason: String)
    case manifestTooNew(path: String, found: String)
    case notAnOutputDirectory(path: String)
    case linkInOutput(path: String)
    case notForgesFile(path: String, expected: String)
    case readFailed(path: String, reason: String)
    /// The output directory was renamed or replaced while a build held it.
    case outputMoved(path: String)

    package var errorDescription: String? { message.problem }

    /// What to do about it, when there is something to do.
    package var recoverySuggestion: String? { message.fix }

    private var message: (problem: String, fix: String?) {
        switch self {
        case .cannotCreate(let path, let reason):
            return ("\(path): cannot create the output directory: \(reason).", "Choose another output directory.")
        case .notWritable(let path):
            return (
                "\(path): the output directory is not writable.",
                "Fix its permissions or choose another output directory."
            )
        case .writeFailed(let path, let reason):
            return (
                "\(path): writing failed: \(reason). Nothing partial was kept.",
                "Free space or fix permissions, then rerun."
            )
        case .busy(let path, let holder):
            return (
                "\(path): another forge (\(holder)) is building into this output directory.",
                "Wait for it to finish, or stop it first."
            )
        case .manifestUnreadable(let path, let reason):
            return (
                "\(path): the manifest cannot be read (\(reason)).",
                "Objects are intact: move the file aside (mv manifest.sqlite manifest.sqlite.bad) and rerun the build; it rebuilds the manifest from the store without re-synthesizing."
            )
        case .manifestTooNew(let path, let found):
            return (
                "\(path): the manifest was written by a newer forge (schema \(found)).", "Upgrade forge to read it."
            )
        case .notAnOutputDirectory(let path):
            return (
                "\(path): not a forge output directory (no manifest.sqlite).",
                "Build a recipe into it first, or name the directory a build wrote."
            )
        case .linkInOutput(let path):
            return (
                "\(path): a symbolic link where forge keeps its own files. Forge never follows links inside its output directory, so nothing was read, written or deleted through it.",
                "Remove the link (`rm \(path)`; what it points to is not touched) and rerun."
            )
        case .notForgesFile(let path, let expected):
            return (
                "\(path): forge expects \(expected) of its own here but found something else.",
                "Move it out of the output directory and rerun."
            )
        case .outputMoved(let path):
            return (
                "\(path) was moved or replaced while forge was writing it; forge stopped, and wrote nothing at the new \(path).",
                "What was finished is in the directory where it now is: move it back to \(path) and build again."
            )
        case .readFailed(let path, let reason):
            return ("\(path): reading failed: \(reason).", "Check the store (the output directory's objects).")
        }
    }
}

extension StoreError: ClassifiedFailure {
    /// Which kind of failure each case is (the exit code the command line gives it).
    package var failureKind: FailureKind {
        switch self {
        case .cannotCreate, .notWritable, .writeFailed, .busy, .manifestUnreadable, .manifestTooNew,
            .notAnOutputDirectory, .linkInOutput, .notForgesFile, .readFailed, .outputMoved:
            .cannotRun
        }
    }
}
