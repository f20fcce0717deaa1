/// One flag per 10 ms frame of a recording, a bit each (not a `Bool`'s byte): which frames hold
/// speech while a recording of any length is aligned, beside its searches.
struct FrameFlags: Sendable {
    private var bits: [UInt64]
    /// How many frames there are.
    let count: Int

    /// `count` frames, none set.
    init(count: Int) {
        self.count = max(0, count)
        bits = [UInt64](repeating: 0, count: (self.count + 63) / 64)
    }

    /// The flags of `flags`, a bit each.
    init(_ flags: [Bool]) {
        self.init(count: flags.count)
        for (frame, flag) in flags.enumerated() where flag { self[frame] = true }
    }

    /// How many frames are set.
    var setCount: Int { bits.reduce(0) { $0 + $1.nonzeroBitCount } }

    subscript(frame: Int) -> Bool {
        get { bits[frame >> 6] & (1 << UInt64(frame & 63)) != 0 }
        set {
            if newValue {
                bits[frame >> 6] |= 1 << UInt64(frame & 63)
            } else {
                bits[frame >> 6] &= ~(1 << UInt64(frame & 63))
            }
        }
    }

    /// The flags as a `Bool` each, leaving none here (for the alignment's last step, when the
    /// searches' memory is free again).
    mutating func drained() -> [Bool] {
        let flags = (0..<count).map { self[$0] }
        bits = []
        return flags
    }
}
