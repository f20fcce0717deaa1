/// The sentence rules of a language: which words before a period are abbreviations, not
/// sentence ends. Terminators of every script (., !, ?, …, 。, ！, ？, ।, ؟) apply to all languages.
package struct SentenceRules: Sendable, Equatable {
    /// Lowercased abbreviations, without their final period.
    package var abbreviations: Set<String>

    /// The rules for a BCP 47 language tag; its primary subtag picks them, and English covers the rest.
    package init(language: String) {
        let primary =
            language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? "en"
        abbreviations = Self.shared.union(Self.byLanguage[primary] ?? Self.byLanguage["en"]!)
    }

    /// Abbreviations common to the European languages Forge's voices speak.
    static let shared: Set<String> = ["dr", "prof", "st", "etc", "vs", "cf", "ca", "no", "nr", "vol", "p", "pp", "fig"]

    static let byLanguage: [String: Set<String>] = [
        "en": [
            "mr", "mrs", "ms", "messrs", "mme", "mlle", "jr", "sr", "rev", "hon", "gen", "col", "capt", "lt", "sgt",
            "maj",
            "gov", "sen", "rep", "esq", "nos", "e.g", "i.e", "viz", "vols", "ch", "chap", "ed", "eds", "approx", "dept",
            "est",
            "inc", "ltd", "co", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
            "mt",
            "ft", "ave",
        ],
        "fr": [
            "m", "mm", "mme", "mmes", "mlle", "mlles", "me", "mgr", "av", "bd", "chap", "env", "ex", "p.ex", "c.-à-d",
            "janv", "févr", "déc",
        ],
        "de": [
            "hr", "hrn", "fr", "frl", "z.b", "u.a", "usw", "bzw", "vgl", "d.h", "s", "bd", "jh", "abs", "str", "inkl",
            "evtl",
            "ggf", "sog", "zzgl", "jan", "feb", "aug", "sept", "okt", "nov", "dez",
        ],
        "es": ["sr", "sra", "srta", "sres", "dra", "ud", "uds", "d", "dña", "pág", "núm", "av", "avda", "ej", "aprox"],
        "it": ["sig", "sigg", "sig.ra", "dott", "dott.ssa", "ing", "avv", "pag", "ecc", "es"],
        "pt": ["sr", "sra", "srta", "dra", "exa", "pág", "av", "ex"],
        "nl": ["dhr", "mevr", "mw", "blz", "bijv", "d.w.z", "o.a", "m.a.w", "enz"],
    ]
}
