extension String {
    /// `scalars` with every run of white space or control characters made one space, trimmed:
    /// how a heading, a title or a short inline text is spoken.
    init(foldingWhiteSpaceOf scalars: some Sequence<Unicode.Scalar>) {
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            if scalar.isSpaceOrControl {
                if let last = result.last, last != " " { result.append(" ") }
            } else {
                result.append(scalar)
            }
        }
        if result.last == " " { result.removeLast() }
        self.init(result)
    }
}

extension Unicode.Scalar {
    /// `properties.isWhitespace`, answered without the property tables for ASCII (most text):
    /// the tables' lookup was a tenth of reading a long EPUB.
    var isWhiteSpace: Bool {
        if isASCII { return value == 0x20 || (0x09...0x0D).contains(value) }
        return properties.isWhitespace
    }

    /// White space or a control character: what folds to one space in spoken text.
    var isSpaceOrControl: Bool {
        if isASCII { return value <= 0x20 || value == 0x7F }
        return properties.isWhitespace || properties.generalCategory == .control
    }

    /// `properties.isAlphabetic`, answered without the property tables for ASCII.
    var isLetter: Bool {
        if isASCII { return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
        return properties.isAlphabetic
    }

    /// A letter or a digit of any script: what makes up a word.
    var isLetterOrDigit: Bool {
        if isASCII {
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        return properties.isAlphabetic || properties.numericType != nil
    }
}
