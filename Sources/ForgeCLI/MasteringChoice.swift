import ArgumentParser
import Forge

/// `--mastering`: one of the mastering profiles, or `none` (the chapters as the build made them).
enum MasteringChoice: ExpressibleByArgument {
    case none
    case profile(MasteringSettings)

    init?(argument: String) {
        if argument.lowercased() == "none" {
            self = .none
        } else if let settings = MasteringSettings.profile(named: argument) {
            self = .profile(settings)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { MasteringSettings.profiles.map(\.profile) + ["none"] }

    /// The export settings' mastering this choice gives.
    var settings: MasteringSettings? {
        switch self {
        case .none: nil
        case .profile(let settings): settings
        }
    }
}
