import Foundation

/// Settings from the environment that only debug builds (the test suite's) honour, to inject
/// faults or force a fallback path: a release forge ignores them, whatever its environment says.
package enum TestHook {
    /// The variable's value in a debug build; nil in a release build or when it is not set.
    package static func value(_ name: String) -> String? {
        #if DEBUG
            return ProcessInfo.processInfo.environment[name]
        #else
            return nil
        #endif
    }

    /// Whether the variable is set to something non-empty in a debug build.
    package static func isSet(_ name: String) -> Bool {
        !(value(name) ?? "").isEmpty
    }
}
