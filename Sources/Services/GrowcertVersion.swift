/// growcert's version, in one place: printed by `growcert --version`, written into every report.
public enum GrowcertVersion {
    /// The version of this build.
    public static let current = "0.1.0"
}
