import ArgumentParser
import Forge

extension ValidationError {
    /// Refuses `value` for `option` unless `range` (the settings type's own) contains it; the
    /// message quotes the range, so it never drifts from what the recipe accepts.
    static func check<Value: Comparable>(_ option: String, _ value: Value?, in range: ClosedRange<Value>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be from \(range.lowerBound) to \(range.upperBound); found \(value).")
    }


    /// Refuses a `--mastering` value that is neither a profile nor `none`.
    static func checkMastering(_ value: String?) throws {
        guard let value, value != "none", MasteringSettings.profile(named: value) == nil else { return }
        throw ValidationError("--mastering must be one of \(MasteringSettings.profiles.map(\.profile).joined(separator: ", ")) or none; found \(value).")
    }
}
