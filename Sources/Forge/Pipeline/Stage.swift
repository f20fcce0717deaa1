/// The stages a build runs, in order.
package enum Stage: String, Sendable, CaseIterable, Comparable {
    case split
    case speak
    case align

    package static func < (lhs: Stage, rhs: Stage) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
