import Foundation

/// The book's title and author as a Project Gutenberg file's header gives them ("Title: Dracula",
/// "Author: Bram Stoker", a long title going on in lines indented under it), in its plain text
/// and its HTML: truer than the file's name or an HTML title such as "The Project Gutenberg eBook
/// of Dracula, by Bram Stoker."
struct GutenbergHeader: Sendable, Equatable {
    var title: String?
    var author: String?

    /// The header's fields in the first few kilobytes of a file (`head`, HTML tags and all), or
    /// nil when they are no Gutenberg header (a field before the book's start marker, the project named).
    init?(head: String) {
        guard head.range(of: "Project Gutenberg", options: .caseInsensitive) != nil else { return nil }
        let lines = Self.text(of: head).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var fields: [String: String] = [:]
        var current: String?
        var byline: (title: String, author: String)?
        for line in lines {
            if GutenbergMarkers.isStart(line.uppercased()) { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let name = current, line.first?.isWhitespace == true, !trimmed.isEmpty {
                fields[name, default: ""] += Self.continuation(after: fields[name] ?? "", trimmed)
                continue
            }
            byline = byline ?? Self.byline(trimmed)
            current = nil
            guard let colon = trimmed.firstIndex(of: ":") else { continue }
            let name = trimmed[..<colon].lowercased()
            guard name == "title" || name == "author", fields[name] == nil else { continue }
            fields[name] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            current = name
        }
        func field(_ name: String) -> String? {
            guard let value = fields[name]?.split(whereSeparator: \.isWhitespace).joined(separator: " "),
                !value.isEmpty, value.count <= 300
            else { return nil }
            return value
        }
        title = field("title") ?? byline?.title
        author = field("author") ?? byline?.author
        if title == nil && author == nil { return nil }
    }

    /// A title's next line as it joins the title: a subtitle after a colon ("A Tale of Two
    /// Cities: A Story of the French Revolution"), an alternative after a semicolon
    /// ("Frankenstein; or The Modern Prometheus"), a line that goes on a phrase after a space.
    private static func continuation(after text: String, _ line: String) -> String {
        guard let last = text.last, !",;:-–—(".contains(last), let first = line.first else { return " " + line }
        if first.isUppercase || first.isNumber { return ": " + line }
        return line.hasPrefix("or ") ? "; " + line : " " + line
    }

    /// The title and author a header's first line names when its fields are missing or garbled:
    /// "The Project Gutenberg EBook of Dracula, by Bram Stoker", "Project Gutenberg's The Yellow
    /// Wallpaper, by Charlotte Perkins Gilman".
    private static func byline(_ line: String) -> (title: String, author: String)? {
        guard let project = line.range(of: "project gutenberg", options: .caseInsensitive) else { return nil }
        let rest = line[project.upperBound...]
        for lead in ["'s ", "’s ", " ebook of ", " e-text of ", " etext of ", " e-book of "] {
            guard let found = rest.range(of: lead, options: [.caseInsensitive, .anchored]),
                let by = rest.range(of: ", by ", options: [.caseInsensitive, .backwards]),
                found.upperBound < by.lowerBound
            else { continue }
            let title = rest[found.upperBound..<by.lowerBound].trimmingCharacters(in: .whitespaces)
            let author = rest[by.upperBound...].trimmingCharacters(
                in: .whitespaces.union(CharacterSet(charactersIn: ".")))
            guard !title.isEmpty, !author.isEmpty else { return nil }
            return (title, author)
        }
        return nil
    }

    /// `head` without its markup: tags dropped, the few entities a header uses decoded.
    private static func text(of head: String) -> String {
        guard head.contains("<") else { return head }
        var text = ""
        var inTag = false
        for character in head {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        for (entity, value) in [("&amp;", "&"), ("&rsquo;", "’"), ("&#8217;", "’"), ("&nbsp;", " "), ("&#160;", " ")] {
            text = text.replacingOccurrences(of: entity, with: value)
        }
        return text
    }
}
