/// How a heading set in capitals is titled: "BOOK ONE" is "Book One", "PART II" is "Part II" (Roman
/// numerals keep their capitals); a heading not all in capitals is left as it is.
enum HeadingCase {
    static func titled(_ heading: String) -> String {
        guard heading == heading.uppercased() else { return heading }
        return heading.split(separator: " ").map { word in
            word.allSatisfy({ "IVXLCDM.:,;".contains($0) })
                ? String(word) : word.prefix(1) + word.dropFirst().lowercased()
        }.joined(separator: " ")
    }
}
