import ArgumentParser
import Forge

extension ValidationError {
    /// Refuses `value` for `option` unless `range` (the settings type's own) contains it; the
    /// message quotes the range, so it never drifts from what the recipe accepts.
    static func check<Value: Comparable>(_ option: String, _ value: Value?, in range: ClosedRange<Value>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be from \(range.lowerBound) to \(range.upperBound); found \(value).")
    }
}
