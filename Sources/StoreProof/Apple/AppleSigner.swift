/// What signed a verified App Store transaction: the fact `JWSVerifier` proves from the `x5c` chain.
///
/// StoreProof says who signed; what that makes the transaction as evidence (its provenance, and so
/// whether it can certify) is for the caller that records it to decide. The raw values are the
/// names growcert has always shown for them.
package enum AppleSigner: String, Sendable, CaseIterable, Codable {
    /// The App Store Sandbox: a chain to the trusted root, environment `Sandbox`.
    case appStoreSandbox = "store-signed-sandbox"
    /// The live App Store: a chain to the trusted root, environment `Production`.
    case appStoreProduction = "store-signed-production"
    /// StoreKit Testing in Xcode: its one self-signed certificate, environment `Xcode`.
    case xcode = "xcode-local"
    /// The growcert emulator: its one self-signed certificate, environment `Emulator`.
    case emulator = "emulator-signed"
}
