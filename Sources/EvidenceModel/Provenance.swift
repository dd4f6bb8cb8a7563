/// Where a piece of evidence came from, and so whether it can certify a scenario.
///
/// Only `liveHosted` (fetched by growcert over HTTPS from the vendor's hosted
/// Sandbox) and `storeSignedSandbox` (a transaction signed by the App Store
/// Sandbox, chained to Apple Root CA - G3) can ever certify. Everything else
/// is recorded and reported, but is a fixture as far as certification goes.
public enum Provenance: String, Sendable, Codable, CaseIterable, Comparable {
    case liveHosted = "live-hosted"
    case liveEmulator = "live-emulator"
    /// A check that no target answered (it failed before its first exchange): it reached nothing.
    case noExchange = "no-exchange"
    case storeSignedSandbox = "store-signed-sandbox"
    case storeSignedProduction = "store-signed-production"
    case xcodeLocal = "xcode-local"
    case emulatorSigned = "emulator-signed"
    case manual = "manual"

    /// Whether evidence with this provenance can ever make a scenario CERTIFIED.
    public var canCertify: Bool {
        self == .liveHosted || self == .storeSignedSandbox
    }

    /// A short English explanation of why this provenance does or does not certify.
    public var explanation: String {
        switch self {
        case .liveHosted: return "fetched by growcert over HTTPS from the vendor's hosted Sandbox"
        case .liveEmulator: return "fetched from a local emulator or a loopback/plain-HTTP target, not the hosted Sandbox"
        case .noExchange: return "nothing was fetched: the check failed before any target answered"
        case .storeSignedSandbox: return "signed by the App Store Sandbox, chain verified to Apple Root CA - G3"
        case .storeSignedProduction: return "signed by the App Store in Production: a real purchase, not a sandbox one"
        case .xcodeLocal: return "signed by StoreKit Testing in Xcode, a local test certificate"
        case .emulatorSigned: return "signed by the growcert emulator's own key"
        case .manual: return "typed or uploaded by a person, with no store signature"
        }
    }

    public static func < (lhs: Provenance, rhs: Provenance) -> Bool { lhs.rawValue < rhs.rawValue }
}
