/// What kind of failure an error is: the command line turns each kind into its documented exit code
/// (``ClassifiedFailure``). Every error enum of the library says, case by case and without a
/// `default:`, which kind each case is, so a new case does not compile until it is given one.
package enum FailureKind: Sendable, Equatable {
    /// The input is wrong (a recipe, a source, an argument, the environment): fix it and run again.
    case badInput
    /// The work could not be done here (a tool, a file, a server, the output directory).
    case cannotRun
    /// Stopped by Ctrl-C or SIGTERM.
    case cancelled
}

/// An error that says which ``FailureKind`` it is.
package protocol ClassifiedFailure: Error {
    var failureKind: FailureKind { get }
}
