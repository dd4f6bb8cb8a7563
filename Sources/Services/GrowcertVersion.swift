/// growcert's version, in one place: printed by `growcert --version`, written into every report.
package enum GrowcertVersion {
    /// The version of this build.
    package static let current = "0.1.0"
}
