/// What the split stage did: the manifest now holds the book's chapters and items, or a stop
/// left it as it was.
struct SplitOutcome: Sendable {
    var items = 0
    var changedItems = 0
    var cancelled = false
}
