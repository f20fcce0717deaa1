import Foundation

extension Mastering {
    /// The loudness the limiter takes away (LU) as a power of how far (dB) it is driven past
    /// engaging, fitted to the tried passes: the exponent through the last two that lost any
    /// (clamped to 1…2.5), else ``defaultExponent`` through the one; no loss without one.
    struct LossModel {
        static let defaultExponent = 1.45
        var exponent: Double
        var scale: Double
        var engaged: Double

        init(_ tried: [Pass], unlimitedLoudness: Double, engaged: Double) {
            let losses = tried.compactMap { pass -> (past: Double, loss: Double)? in
                let (past, loss) = (pass.drive - engaged, unlimitedLoudness + pass.drive - pass.loudness)
                return past > 0.1 && loss > 0.05 ? (past, loss) : nil
            }
            var exponent = Self.defaultExponent
            if losses.count >= 2 {
                let (first, second) = (losses[losses.count - 2], losses[losses.count - 1])
                let ratio = log(second.past / first.past)
                if abs(ratio) > 0.02 { exponent = max(1, min(2.5, log(second.loss / first.loss) / ratio)) }
            }
            self.exponent = exponent
            self.scale = losses.last.map { $0.loss / pow($0.past, exponent) } ?? 0
            self.engaged = engaged
        }

        /// The loss the model expects at `drive`.
        func loss(atDrive drive: Double) -> Double {
            let past = drive - engaged
            return past > 0 ? scale * pow(past, exponent) : 0
        }
    }
}
