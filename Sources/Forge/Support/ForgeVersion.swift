/// The version of forge, recorded with every build.
package enum ForgeVersion {
    package static let current = "0.1.0"
}
