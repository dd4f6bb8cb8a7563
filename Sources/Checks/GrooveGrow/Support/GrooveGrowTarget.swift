import Foundation
import GrowClient
import HTTPCore

/// GrooveGrow's target (`GrooveGrowSuite.Target`): client configuration, credentials, the purchase QA recorded
/// and the seams its checks replace in tests.
package struct GrooveGrowTarget: SuiteTarget {
    /// Creates the session client a check exercises, sending through the given transport.
    package typealias SessionClientFactory = @Sendable (GrowClientConfiguration, any HTTPTransport) -> any SessionClient

    /// The target and scope (base URL, project, environment `sandbox`).
    package var configuration: GrowClientConfiguration
    /// Server key and/or token provider; never stored.
    package var credentials: CheckCredentials
    /// The purchase QA made on a device (hosted targets).
    package var recordedPurchase: RecordedPurchase?
    /// On an emulator: examine `recordedPurchase` (given with --order-id/--transaction-id and found there by the
    /// pre-flight) instead of buying the suite's own purchase. Elsewhere the recorded purchase is always used.
    package var usesRecordedPurchaseOnEmulator = false
    /// Creates session clients (default: `GrowClient`).
    package var makeSessionClient: SessionClientFactory
    /// Where `switch.restart-needs-auth` looks for the old session's token on disk.
    package var diskScanRoots: [URL]

    /// A target from its parts.
    package init(configuration: GrowClientConfiguration, credentials: CheckCredentials, recordedPurchase: RecordedPurchase? = nil,
                makeSessionClient: @escaping SessionClientFactory = { GrowClient(configuration: $0, transport: $1) },
                diskScanRoots: [URL] = GrooveGrowTarget.defaultDiskScanRoots()) {
        self.configuration = configuration
        self.credentials = credentials
        self.recordedPurchase = recordedPurchase
        self.makeSessionClient = makeSessionClient
        self.diskScanRoots = diskScanRoots
    }

    /// The Sandbox's base URL, from the client configuration.
    package var baseURL: URL { configuration.baseURL }

    /// The current directory, the temporary directory and `~/.cache`: where an SDK or a
    /// test harness would most likely persist a session by mistake.
    package static func defaultDiskScanRoots() -> [URL] {
        let fm = FileManager.default
        var roots = [URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true), fm.temporaryDirectory]
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            roots.append(URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true))
        }
        return roots
    }
}
