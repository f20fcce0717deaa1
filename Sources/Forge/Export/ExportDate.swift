import Foundation

/// The one date an export carries (zip entries' times, an EPUB's `dcterms:modified`): never the
/// wall clock, so two exports of one build are the same bytes.
package enum ExportDate {
    /// The environment variable that fixes it, as reproducible-builds.org defines it: seconds
    /// since 1970 as decimal digits.
    package static let variable = "SOURCE_DATE_EPOCH"

    /// `SOURCE_DATE_EPOCH` when set, else when the build the manifest records last started (1970
    /// for a manifest without one).
    package static func resolve(
        _ manifest: Manifest, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Date {
        if let text = environment[variable] {
            guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (48...57).contains($0) }),
                let seconds = Int(text)
            else {
                throw ExportError.badEnvironment(
                    variable: variable, problem: "must be whole seconds since 1970 in decimal digits")
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        guard let started = try manifest.lastBuild()?.startedAt, let date = try? Date(started, strategy: .iso8601)
        else {
            return Date(timeIntervalSince1970: 0)
        }
        return date
    }
}
