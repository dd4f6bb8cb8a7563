/// The `environment` a signed transaction claims, one of the four growcert accepts.
///
/// Any other value is refused: a verdict must never rest on a name growcert
/// does not know.
package enum AppleEnvironment: String, Sendable, CaseIterable, Codable {
    /// The App Store Sandbox: test accounts, no money moves. Certifies when the chain verifies.
    case sandbox = "Sandbox"
    /// The live App Store: a real purchase.
    case production = "Production"
    /// StoreKit Testing in Xcode: signed on the developer's machine.
    case xcode = "Xcode"
    /// The growcert emulator: signed with growcert's own test key.
    case emulator = "Emulator"

    /// Whether transactions in this environment must chain to the trusted root.
    package var requiresStoreChain: Bool { self == .sandbox || self == .production }
}
