import Forge

/// Writes one JSON object per line with fields in the order given. Hand-written because
/// Foundation's JSONSerialization (sorting keys of `[String: Any]`) took a fifth of the
/// orchestrator's CPU when every finished item prints a line.
struct JSONLine {
    enum Value {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        case raw(String)
    }

    private var text = "{"

    init() {}

    mutating func add(_ key: String, _ value: Value) {
        if text.count > 1 { text += "," }
        text += JSONText.quoted(key)
        text += ":"
        switch value {
        case .string(let string): text += JSONText.quoted(string)
        case .int(let int): text += String(int)
        case .double(let double): text += double.isFinite ? String(double) : "null"
        case .bool(let bool): text += bool ? "true" : "false"
        case .raw(let json): text += json
        }
    }

    mutating func add(_ key: String, _ string: String) { add(key, .string(string)) }
    mutating func add(_ key: String, _ int: Int) { add(key, .int(int)) }
    mutating func add(_ key: String, _ bool: Bool) { add(key, .bool(bool)) }

    var line: String { text + "}\n" }
}
