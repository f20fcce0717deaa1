extension Duration {
    /// The duration in seconds, for reports.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
