import Foundation

/// Which environment variable may be sent to which host, as the command line says
/// (`--engine-key VARIABLE=HOST`): never the recipe, so that a recipe from an untrusted change
/// cannot name `GITHUB_TOKEN` as its key and its own server as the service (docs/security.md).
package struct SpeechServiceKeyGrants: Sendable, Equatable {
    private var hosts: [String: Set<String>] = [:]

    package init() {}

    /// Reads `VARIABLE=HOST` options; nil for one that is not of that form.
    package init?(_ options: [String]) {
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, Self.isVariableName(parts[0]), !parts[1].isEmpty,
                !parts[1].contains("/"), !parts[1].contains(":") || parts[1].hasPrefix("[")
            else { return nil }
            hosts[parts[0], default: []].insert(parts[1].lowercased())
        }
    }

    /// Whether `variable` may be sent to `host`.
    package func allows(_ variable: String, to host: String) -> Bool {
        hosts[variable]?.contains(host.lowercased()) ?? false
    }

    /// The key a service's settings name, read from `environment` once the grants allow it; nil
    /// for a service that takes no key.
    package func key(
        for settings: SpeechServiceSettings, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SpeechServiceError) -> String? {
        guard let variable = settings.keyVariable else { return nil }
        guard allows(variable, to: settings.host) else {
            throw .keyNotAllowed(engine: settings.name, variable: variable, host: settings.host)
        }
        guard let key = environment[variable], !key.isEmpty else {
            throw .keyMissing(engine: settings.name, variable: variable)
        }
        return key
    }

    /// A name an environment variable can have: letters, digits and `_`, not starting with a digit.
    package static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
