import Foundation

/// Where the recognizer's acoustic model and pronouncing dictionary are, and whether they exist.
package struct RecognizerModel: Sendable, Hashable {
    /// The directory holding `mdef`, `means`, `feat.params`, ….
    package var acousticModel: URL
    /// The pronouncing dictionary (CMUdict format).
    package var dictionary: URL
    /// The language the model recognizes.
    package var language: String

    /// Debian's `pocketsphinx-en-us` package, or `FORGE_POCKETSPHINX_MODEL` (a directory laid out
    /// like /usr/share/pocketsphinx/model/en-us: `en-us/` plus `cmudict-en-us.dict`).
    package static var standard: RecognizerModel {
        let root =
            ProcessInfo.processInfo.environment["FORGE_POCKETSPHINX_MODEL"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us")
        return RecognizerModel(
            acousticModel: root.appendingPathComponent("en-us"),
            dictionary: root.appendingPathComponent("cmudict-en-us.dict"),
            language: "en")
    }

    /// Checks that the model files exist; throws a message that says how to install them.
    package func checkAvailable() throws(RecognitionError) {
        let files = [acousticModel.appendingPathComponent("mdef"), dictionary]
        for file in files where !FileManager.default.fileExists(atPath: file.path) {
            throw .modelMissing(path: file.path)
        }
    }

    /// Whether this model can recognize text in `language` (a BCP 47 tag or espeak-ng voice name).
    package func supports(language other: String) -> Bool {
        other.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "+" }).first.map(String.init)
            == language
    }

    /// Identifies the model in cache keys: its location and the sizes of its defining files, so
    /// a different model (or an updated package) changes every key that depends on it.
    package var fingerprint: String {
        let files = [
            acousticModel.appendingPathComponent("mdef"), acousticModel.appendingPathComponent("means"), dictionary,
        ]
        let sizes = files.map { file -> String in
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
            return "\(size ?? -1)"
        }
        return "pocketsphinx-0.8:\(acousticModel.lastPathComponent):\(sizes.joined(separator: "/"))"
    }
}
