import ArgumentParser
import Forge

/// `forge check --profile acx|ebu-r128|podcast`.
extension LoudnessProfile: ExpressibleByArgument {
    public init?(argument: String) {
        guard let profile = try? LoudnessProfile.named(argument) else { return nil }
        self = profile
    }

    public static var allValueStrings: [String] { LoudnessProfile.all.map(\.name) }

    public var defaultValueDescription: String { name }
}
