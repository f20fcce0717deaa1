extension [Unicode.Scalar] {
    /// Whether the scalars from `offset` on begin with `text`'s scalars: how the markup readers
    /// recognise `<!--`, `<![CDATA[`, `]]>` and the like without building strings.
    func matches(_ text: String, at offset: Int) -> Bool {
        var position = offset
        for scalar in text.unicodeScalars {
            guard position >= 0, position < count, self[position] == scalar else { return false }
            position += 1
        }
        return true
    }
}
