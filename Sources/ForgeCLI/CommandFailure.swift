import Forge
import Foundation

/// An error already turned into a message and an exit code.
struct CommandFailure: Error {
    var message: String
    var code: ForgeExitCode

    init(message: String, code: ForgeExitCode) {
        self.message = message
        self.code = code
    }

    init(_ error: any Error) {
        message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        code = ForgeExitCode.forError(error)
    }
}
