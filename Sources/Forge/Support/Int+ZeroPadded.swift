extension Int {
    /// The number in decimal with leading zeros to `width` digits (`7.zeroPadded(to: 3)` is
    /// `007`): file names that sort in order (`chapter-007`, `lm-chapter-007-chunk-002`) and clock times.
    package func zeroPadded(to width: Int) -> String {
        let digits = String(self)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
