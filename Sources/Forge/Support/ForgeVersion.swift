/// The version of forge, recorded with every build.
public enum ForgeVersion {
    public static let current = "0.1.0"
}
