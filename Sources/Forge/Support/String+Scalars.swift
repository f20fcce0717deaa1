extension String {
    /// The text of `scalars`, written as UTF-8 into one allocation of the right size.
    ///
    /// Building a `String.UnicodeScalarView` by appending a slice of scalars grows and re-checks
    /// the string scalar by scalar: 13 times slower, and a tenth of a second of a 121k-word
    /// build's serial start and end (tokenizing items, cutting paragraphs, timing sentences).
    init(scalars: some Collection<Unicode.Scalar>) {
        var byteCount = 0
        for scalar in scalars { byteCount += UTF8.width(scalar) }
        self.init(unsafeUninitializedCapacity: byteCount) { buffer in
            var written = 0
            for scalar in scalars {
                for unit in scalar.utf8 {
                    buffer[written] = unit
                    written += 1
                }
            }
            return written
        }
    }
}
