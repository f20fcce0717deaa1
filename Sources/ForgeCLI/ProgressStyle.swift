import ArgumentParser

/// `forge export --progress`: how its progress is printed on standard error.
enum ProgressStyle: String, CaseIterable, ExpressibleByArgument {
    /// Lines a person reads (the default).
    case text
    /// JSON Lines: one `exporting` event per chapter of each phase, the objects `forge build --json` prints.
    case json
    /// Nothing.
    case none
}
