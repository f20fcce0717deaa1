import Foundation

/// What the stages of a narration's import share and none changes: the recording (its reader,
/// read a block at a time, and its digest), the store and the manifest, the build's number, and
/// the aligner.
struct NarrationContext: StageContext {
    let audioFile: URL
    /// The recording, read once to align and once to cut: never held whole (hours of samples are gigabytes).
    let reader: SoundFile.Reader
    let audioHash: String
    let store: ObjectStore
    let manifest: Manifest
    let buildID: Int64
    let model: RecognizerModel
    let language: String
    let method: NarrationMethod
    /// A narration's import stops by ending the process: what it finished is saved as it goes.
    var stop: CancellationFlag? { nil }
    /// The aligner's identity, part of every key the import makes.
    var identity: String { Self.identity(model: model, method: method) }

    static func identity(model: RecognizerModel, method: NarrationMethod) -> String {
        switch method {
        case .windows: ForcedAligner.identity(model: model) + "/narration-11"
        case .warp: ForcedAligner.identity(model: model) + "/narration-11/warp-1"
        }
    }
}
