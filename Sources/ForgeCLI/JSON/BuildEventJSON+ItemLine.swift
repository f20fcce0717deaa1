import Forge
import Foundation

extension BuildEventJSON {
    /// An `item` event's line, written directly: exactly the bytes ``JSONOutput/line(_:)`` gives
    /// (keys sorted, `elapsedSeconds` to the millisecond as Foundation prints that double), without
    /// `JSONEncoder`, whose cost for a line per item is a visible part of a build's CPU. Nil for
    /// an item with an error or an id that would need escaping: those go through Foundation.
    static func itemLine(_ item: ItemProgress) -> Data? {
        let seconds = (item.elapsedSeconds * 1000).rounded()
        guard item.error == nil, seconds >= 0, seconds < 1e12, DirectJSON.isPlain(item.itemID, slashes: true) else {
            return nil
        }
        let milliseconds = Int(seconds)
        var elapsed = String(milliseconds / 1000)
        if milliseconds % 1000 != 0 {
            var fraction = (milliseconds % 1000).zeroPadded(to: 3)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            elapsed += "." + fraction
        }
        var json = JSONWriter(escaping: .foundation(escapingSlashes: false), capacity: 200)
        json.object { line in
            line.field("audioMs", item.audioMs)
            line.field("durationMs", ifPresent: item.durationMs)
            line.field("elapsedSeconds", number: elapsed)
            line.field("event", "item")
            line.field("finished", item.finished)
            line.field("id", item.itemID)
            line.field("ordinal", item.ordinal)
            line.field("outcome", item.outcome.rawValue)
            line.field("toFinish", item.toFinish)
        }
        json.newline()
        return Data(json.bytes)
    }
}
