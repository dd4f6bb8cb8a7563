/// Where a piece of evidence came from.
///
/// Which provenance certifies which kind of evidence is the profile's to say (`VerdictRules`: the check results',
/// the receipts', and the store proofs a scenario accepts and which of them certify). This type only knows the
/// floor no profile can lower: a fixture (`isFixture`: a local emulator, a local or Production signature, a
/// person's typing) never certifies, whatever a profile names.
package enum Provenance: String, Sendable, Codable, CaseIterable, Comparable {
    case liveHosted = "live-hosted"
    case liveEmulator = "live-emulator"
    /// A check that no target answered (it failed before its first exchange): it reached nothing.
    case noExchange = "no-exchange"
    case storeSignedSandbox = "store-signed-sandbox"
    case storeSignedProduction = "store-signed-production"
    /// A Google Play purchase whose Play Billing signature verified with the campaign's Play license key.
    case storeSignedGoogle = "store-signed-google"
    case xcodeLocal = "xcode-local"
    case emulatorSigned = "emulator-signed"
    case manual = "manual"

    /// Whether this provenance is a fixture as far as certification goes: made or signed on machines the QA
    /// insider controls, or real money. A profile that names a fixture as certifying is refused.
    package var isFixture: Bool {
        switch self {
        case .liveHosted, .storeSignedSandbox, .storeSignedGoogle: return false
        case .liveEmulator, .noExchange, .storeSignedProduction, .xcodeLocal, .emulatorSigned, .manual: return true
        }
    }

    /// Whether evidence with this provenance can make a scenario CERTIFIED under some profile (not a fixture);
    /// whether it does under a campaign's is that profile's `VerdictRules`.
    package var canCertify: Bool { !isFixture }

    /// A short English explanation of why this provenance does or does not certify.
    package var explanation: String {
        switch self {
        case .liveHosted: return "fetched by growcert over HTTPS from the vendor's hosted Sandbox"
        case .liveEmulator: return "fetched from a local emulator or a loopback/plain-HTTP target, not the hosted Sandbox"
        case .noExchange: return "nothing was fetched: the check failed before any target answered"
        case .storeSignedSandbox: return "signed by the App Store Sandbox, chain verified to Apple Root CA - G3"
        case .storeSignedProduction: return "signed by the App Store in Production: a real purchase, not a sandbox one"
        case .storeSignedGoogle: return "signed by Google Play, verified with the campaign's Play license key"
        case .xcodeLocal: return "signed by StoreKit Testing in Xcode, a local test certificate"
        case .emulatorSigned: return "signed by the growcert emulator's own key"
        case .manual: return "typed or uploaded by a person, with no store signature"
        }
    }

    /// By raw value, so that lists of provenances sort alphabetically.
    package static func < (lhs: Provenance, rhs: Provenance) -> Bool { lhs.rawValue < rhs.rawValue }
}
