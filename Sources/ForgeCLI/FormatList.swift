import ArgumentParser
import Forge

/// One `--format` argument: a format, several joined by commas (`audio,json`), or `all`. Parsed by
/// ArgumentParser, which names the argument and lists the formats when one is unknown.
struct FormatList: ExpressibleByArgument {
    let formats: [ExportFormat]

    init?(argument: String) {
        var formats: [ExportFormat] = []
        for name in argument.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            if name == "all" {
                formats += ExportFormat.allCases
            } else if let format = ExportFormat(rawValue: name) {
                formats.append(format)
            } else {
                return nil
            }
        }
        guard !formats.isEmpty else { return nil }
        self.formats = formats
    }

    static var allValueStrings: [String] { ExportFormat.allCases.map(\.rawValue) + ["all"] }
}

extension [FormatList] {
    /// The formats of every argument, in order.
    var formats: [ExportFormat] { flatMap(\.formats) }
}

extension ExportSettings.EPUBAudioCodec: ExpressibleByArgument {}
