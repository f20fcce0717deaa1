/// A parsed JSON value, with object keys kept in document order so that error messages
/// and suggestions can refer to what the author wrote.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A short description of the value's kind and content, for "found …" in error messages.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? "the number \(Int(value))" : "the number \(value)"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "the string \"\(shown)\""
        case .array(let items): return "an array of \(items.count) element\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }
}
