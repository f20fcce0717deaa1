/// Why the forge command plugin failed.
enum ForgePluginError: Error, CustomStringConvertible {
    case buildFailed
    case noExecutable
    case failed(status: Int32)

    var description: String {
        switch self {
        case .buildFailed: return "building the forge product failed; see the log above."
        case .noExecutable: return "the forge product built no executable."
        case .failed(let status): return "forge exited with status \(status); see its message above."
        }
    }
}
