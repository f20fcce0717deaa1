import Forge

/// `forge check --json`: each chapter's levels against a loudness profile, and the book's.
struct ConformanceReportJSON: Encodable {
    var profile: String
    var passed: Bool
    var measuredChapters: Int
    var elapsedSeconds: JSONNull<Double>
    var book: Levels
    var chapters: [Chapter]

    struct Chapter: Encodable {
        var chapter: Int
        var title: String
        var file: String
        var passed: Bool
        var violations: [String]
        var levels: Levels
    }

    /// Measures in hundredths; a level of silence (-inf) is null.
    struct Levels: Encodable {
        var integratedLUFS: JSONNull<Double>
        var loudnessRangeLU: JSONNull<Double>
        var samplePeakDBFS: JSONNull<Double>
        var truePeakDBTP: JSONNull<Double>
        var rmsDBFS: JSONNull<Double>
        var noiseFloorDBFS: JSONNull<Double>
        var headSilenceMs: Int
        var tailSilenceMs: Int
        var durationMs: Int

        init(_ levels: AudioLevels) {
            func hundredths(_ value: Double) -> JSONNull<Double> { JSONOutput.rounded(value, places: 2) }
            integratedLUFS = hundredths(levels.integratedLoudness)
            loudnessRangeLU = hundredths(levels.loudnessRange)
            samplePeakDBFS = hundredths(levels.samplePeak)
            truePeakDBTP = hundredths(levels.truePeak)
            rmsDBFS = hundredths(levels.rms)
            noiseFloorDBFS = hundredths(levels.noiseFloor)
            headSilenceMs = levels.headSilenceMs
            tailSilenceMs = levels.tailSilenceMs
            durationMs = levels.durationMs
        }
    }

    init(_ report: ConformanceReport) {
        profile = report.profile.name
        passed = report.passed
        measuredChapters = report.measuredChapters
        elapsedSeconds = JSONOutput.rounded(report.elapsedSeconds, places: 3)
        book = Levels(report.book)
        chapters = report.chapters.map {
            Chapter(
                chapter: $0.ordinal, title: $0.title, file: $0.fileStem, passed: $0.passed, violations: $0.violations,
                levels: Levels($0.levels))
        }
    }
}
