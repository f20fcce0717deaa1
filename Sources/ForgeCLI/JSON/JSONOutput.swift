import Foundation

/// Writes what `--json` prints, with `JSONEncoder`: a one-shot command's report as one pretty
/// object, a running command's events as one compact object per line (JSON Lines). Keys are
/// sorted, so the same report is the same bytes in every run (Foundation on Linux otherwise writes
/// them in per-process hash order). docs/json.md lists every key; a test holds the two together.
enum JSONOutput {
    /// `value` as one line of JSON Lines, newline included.
    static func line(_ value: some Encodable) -> Data {
        var data = (try? encoder(pretty: false).encode(value)) ?? Data("{}".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes `value` to standard output (or `handle`) as one line of JSON Lines.
    static func writeLine(_ value: some Encodable, to handle: FileHandle = .standardOutput) {
        try? handle.write(contentsOf: line(value))
    }

    /// Prints `value` as a pretty, key-sorted object (the `--json` report of one-shot commands).
    static func printReport(_ value: some Encodable) throws {
        print(String(decoding: try encoder(pretty: true).encode(value), as: UTF8.self))
    }

    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` rounded to `places` decimals, as the reports print measures (milliseconds of a
    /// second, hundredths of a dB); JSON null when it is not finite, as -inf dBFS of silence.
    static func rounded(_ value: Double, places: Int) -> JSONNull<Double> {
        guard value.isFinite else { return JSONNull(nil) }
        let scale = pow(10, Double(places))
        return JSONNull((value * scale).rounded() / scale)
    }
}
