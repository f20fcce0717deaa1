/// What every run's stages share, a build's (``BuildContext``) or a narration's: the store and the
/// manifest they write, and the flag that stops them (none for a run that stops by ending).
protocol StageContext {
    var store: ObjectStore { get }
    var manifest: Manifest { get }
    var stop: CancellationFlag? { get }
}

extension BuildContext: StageContext {
    var stop: CancellationFlag? { cancellation }
}
