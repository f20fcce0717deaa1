extension String {
    /// `scalars` with every run of white space or control characters made one space, trimmed:
    /// how a heading, a title or a short inline text is spoken.
    init(foldingWhiteSpaceOf scalars: some Sequence<Unicode.Scalar>) {
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            if Splitter.Builder.isSpaceOrControl(scalar) {
                if let last = result.last, last != " " { result.append(" ") }
            } else {
                result.append(scalar)
            }
        }
        if result.last == " " { result.removeLast() }
        self.init(result)
    }
}
