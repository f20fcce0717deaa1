import Forge
import Foundation

/// Prints a verification report: a table for people, or one JSON object.
enum VerifyPrinter {
    static func print(_ report: VerifyReport, json: Bool) {
        if json {
            try? JSONOutput.printReport(VerifyReportJSON(report))
            return
        }
        guard report.available else {
            Swift.print("Verification unavailable: \(report.unavailableReason ?? "unknown reason")")
            return
        }
        printChunks(report)
        printTotals(report)
        if let screen = report.screen { printScreen(screen) }
        printAccepted(report)
        printVerdict(report)
    }

    /// A line per chunk: its chapter, index, time, word error rate and flagged items.
    private static func printChunks(_ report: VerifyReport) {
        // Columns padded by characters, not bytes: printf's %-14s counts the en dash in "0:00–2:00" as three.
        Swift.print(
            "chapter  chunk  " + "time".padding(toLength: 14, withPad: " ", startingAt: 0) + "     WER  flagged items")
        for chunk in report.chunks {
            let time =
                "\(Format.clock(seconds: Double(chunk.startMs) / 1000))–\(Format.clock(seconds: Double(chunk.endMs) / 1000))"
            let flagged = chunk.flaggedItems.map { item in
                let missing = item.missingWords.isEmpty ? [] : ["not heard: " + abbreviated(item.missingWords)]
                let extra = item.extraWords.isEmpty ? [] : ["said too: " + abbreviated(item.extraWords)]
                return "\(item.itemID) (\((missing + extra).joined(separator: "; ")))"
            }
            let mark = chunk.exceeds(report.maxWordErrorRate) ? " ✗" : ""
            Swift.print(
                String(format: "%7d  %5d  ", chunk.chapter, chunk.index)
                    + time.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %5.1f%%%@  %@", chunk.wordErrorRate * 100, mark as NSString,
                        flagged.joined(separator: ", ") as NSString))
        }
    }

    /// The chunks and audio covered, the time taken and the word error rate; how utterances were heard.
    private static func printTotals(_ report: VerifyReport) {
        // After a stop the chunks cover part of the book: say which part, not the whole book's length.
        let covered = Format.clock(seconds: Double(report.coveredMs) / 1000)
        let audio =
            report.coveredMs == report.audioMs
            ? covered : "\(covered) of \(Format.clock(seconds: Double(report.audioMs) / 1000))"
        Swift.print(
            String(
                format: "%d chunks (%@ of audio), %d transcribed now in %.1f s; word error rate %.1f%%",
                report.chunks.count, audio as NSString, report.transcribedChunks, report.elapsedSeconds,
                report.wordErrorRate * 100))
        if report.alignedUtterances + report.decodedUtterances > 0 {
            Swift.print(
                "Utterances: \(report.alignedUtterances) aligned to their text word for word, \(report.decodedUtterances) transcribed with the chunk's language model."
            )
        }
        if report.itemsHeardAgain > 0 {
            Swift.print(
                "Heard again on their own: \(report.itemsHeardAgain) flagged item(s), \(report.flagsCleared) of them heard right then."
            )
        }
        if report.unsampledChunks > 0 {
            Swift.print(
                "Quick check: \(report.unsampledChunks) chunk(s) outside the sample were not transcribed (forge verify without --quick hears them all)."
            )
        }
    }

    /// The quick screen of every item, and the items it flagged (the first 50).
    private static func printScreen(_ screen: ScreenReport) {
        Swift.print(
            String(
                format: "Screened %d item(s) in %.1f s: %d flagged.", screen.items, screen.elapsedSeconds,
                screen.flagged.count))
        for item in screen.flagged.prefix(50) {
            let at = Format.clock(seconds: Double(item.startMs) / 1000)
            Swift.print(
                "  chapter \(item.chapter) at \(at), \(item.itemID): \(item.findings.map(\.description).joined(separator: "; "))"
            )
        }
        if screen.flagged.count > 50 {
            Swift.print("  … and \(screen.flagged.count - 50) more (--json lists them all)")
        }
    }

    /// Items accepted after review, and how to accept the flagged ones.
    private static func printAccepted(_ report: VerifyReport) {
        if !report.acceptedItemIDs.isEmpty {
            Swift.print(
                "Accepted after review (verify.accept, for this audio): \(report.acceptedItemIDs.sorted().joined(separator: ", "))."
            )
        }
        let open = report.flaggedItemIDs.sorted()
        if !open.isEmpty, report.maxWordErrorRate != nil {
            // A flag can be answered: listen, and accept the item for this audio (checked again if it changes).
            let entries = open.prefix(10).compactMap { id in report.flaggedAudio[id].map { "\"\(id)\": \"\($0)\"" } }
            if !entries.isEmpty {
                Swift.print(
                    "After listening, accept an item that is right in the recipe: \"verify\": { \"accept\": { \(entries.joined(separator: ", "))\(open.count > 10 ? ", …" : "") } }"
                )
            }
        }
    }

    /// Chunks not transcribed yet, and whether the verification passed.
    private static func printVerdict(_ report: VerifyReport) {
        if report.missingChunks > 0 {
            Swift.print("\(report.missingChunks) chunk(s) not transcribed yet (stopped); run again to fill the gaps.")
        }
        if let maximum = report.maxWordErrorRate {
            if report.passed {
                Swift.print(String(format: "Every chunk is within %.1f%% and no item is flagged.", maximum * 100))
            } else if !report.complete {
                Swift.print("Not passed: the verification is incomplete.")
            } else {
                var reasons: [String] = []
                if !report.failingChunks.isEmpty {
                    reasons.append(
                        "\(report.failingChunks.count) chunk(s) exceed \(String(format: "%.1f%%", maximum * 100))")
                }
                if !report.flaggedItemIDs.isEmpty { reasons.append("\(report.flaggedItemIDs.count) item(s) flagged") }
                Swift.print("Not passed: " + reasons.joined(separator: "; ") + ".")
            }
        }
    }

    /// The first four words, and "…" when there are more.
    private static func abbreviated(_ words: [String]) -> String {
        words.prefix(4).joined(separator: " ") + (words.count > 4 ? " …" : "")
    }
}
