import Foundation

/// The opening and closing credits an audiobook is spoken with: the texts the recipe or the
/// command line gives, else the book's title, author and narrator in the book's language
/// ("Dracula, by Bram Stoker. Read by eSpeak NG."), as audiobook stores ask of every book.
package struct BookCredits: Sendable, Equatable {
    /// Spoken before the first chapter; nil for none.
    package var opening: String?
    /// Spoken after the last chapter; nil for none.
    package var closing: String?

    /// The credits `settings` speak: none unless ``ExportSettings/credits``; a text given takes the
    /// default's place, an empty one leaves that credit out.
    package init(_ settings: ExportSettings) {
        guard settings.credits else { return }
        let wording = Self.wording(language: settings.language)
        let author = Self.nonEmpty(settings.author)
        let narrator = Self.nonEmpty(settings.narrator.map(Self.narratorName))
        let book = author.map { wording.titleBy(settings.title, $0) } ?? settings.title
        let reader = narrator.map(wording.readBy) ?? ""
        opening = Self.chosen(settings.openingCredit, default: "\(book). \(reader)")
        closing = Self.chosen(settings.closingCredit, default: wording.closing(book, narrator))
    }

    /// The credits as an export names them, with their texts in order.
    package var texts: [String] { [opening, closing].compactMap { $0 } }

    private static func chosen(_ given: String?, default text: String) -> String? {
        guard let given else { return text.trimmingCharacters(in: .whitespaces) }
        return nonEmpty(given)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// How a voice's engine is named where the narrator is a voice (`espeak-ng:en-us?rate=175…`):
    /// by its engine, as listeners know it. Any other narrator is named as given.
    static func narratorName(_ narrator: String) -> String {
        let trimmed = narrator.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let colon = trimmed.firstIndex(of: ":"), !trimmed.contains(" "),
            trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        else { return trimmed }
        let engine = String(trimmed[..<colon])
        return engineNames[engine] ?? engine
    }

    private static let engineNames = ["espeak-ng": "eSpeak NG", "piper": "Piper"]

    /// The credits' words in one language.
    struct Wording {
        var titleBy: (String, String) -> String
        var readBy: (String) -> String
        var closing: (String, String?) -> String
    }

    /// The wording for a BCP 47 language tag: English, French, German, Spanish, Italian, Dutch or
    /// Portuguese; any other language hears only the title, author and narrator's name.
    static func wording(language: String) -> Wording {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        func words(_ by: String, _ read: String, _ end: String, _ listened: String) -> Wording {
            Wording(
                titleBy: { "\($0), \(by) \($1)" }, readBy: { "\(read) \($0)." },
                closing: { book, narrator in
                    "\(end). \(listened) \(book)" + (narrator.map { ", \(read.lowercased()) \($0)." } ?? ".")
                })
        }
        switch primary {
        case "en": return words("by", "Read by", "The end", "You have been listening to")
        case "fr": return words("de", "Lu par", "Fin", "Vous venez d'écouter")
        case "de": return words("von", "Gelesen von", "Ende", "Sie hörten")
        case "es": return words("de", "Leído por", "Fin", "Ha escuchado")
        case "it": return words("di", "Letto da", "Fine", "Avete ascoltato")
        case "nl": return words("door", "Voorgelezen door", "Einde", "U luisterde naar")
        case "pt": return words("de", "Lido por", "Fim", "Você ouviu")
        default:
            return Wording(
                titleBy: { "\($0). \($1)" }, readBy: { "\($0)." },
                closing: { book, narrator in "\(book)." + (narrator.map { " \($0)." } ?? "") })
        }
    }
}
