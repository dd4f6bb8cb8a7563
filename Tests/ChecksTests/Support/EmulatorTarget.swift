import Foundation
import GrowClient
import HTTPCore
import Sandbox
@testable import Checks

/// An in-process emulator and a check context pointed at it.
final class EmulatorTarget: Sendable {
    let emulator: GrooveGrowEmulator
    let baseURL: URL
    let configuration: GrowClientConfiguration
    let serverKey: GrowServerKey

    init() throws {
        emulator = try GrooveGrowEmulator(configuration: GrooveGrowConfiguration())
        baseURL = try emulator.start()
        configuration = try GrowClientConfiguration(baseURL: baseURL, project: emulator.projectId, requestTimeout: 10)
        serverKey = try GrowServerKey(emulator.serverKey)
    }

    deinit { emulator.stop() }

    var projectText: String { emulator.projectId.uuidString.lowercased() }

    /// A context on `transport` (default: a plain `CurlTransport`) with the server key.
    func context(transport: (any HTTPTransport)? = nil, credentials: CheckCredentials? = nil,
                 secondCustomerId: String? = nil, recordedPurchase: RecordedPurchase? = nil,
                 makeSessionClient: CheckContext.SessionClientFactory? = nil,
                 diskScanRoots: [URL]? = nil) -> CheckContext {
        CheckContext(configuration: configuration, transport: transport ?? CurlTransport(),
                     credentials: credentials ?? .serverKey(serverKey), customerId: "c_1001",
                     secondCustomerId: secondCustomerId, recordedPurchase: recordedPurchase,
                     makeSessionClient: makeSessionClient ?? { GrowClient(configuration: $0, transport: $1) },
                     diskScanRoots: diskScanRoots ?? [FileManager.default.temporaryDirectory])
    }

    /// Runs one check and returns its result.
    func runOne(_ checkId: String, context: CheckContext) async throws -> CheckResult {
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: [checkId], context: context)
        guard let result = results.first, results.count == 1 else { throw TestFailure("expected one result for \(checkId)") }
        return result
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh empty directory under the temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-checks-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// GrooveGrow's checks in catalog order, as the runner runs them (empty if the profile does not load, which fails the tests using it).
let grooveGrowCatalog: [CheckDescriptor] = (try? CheckRunner(suite: GrooveGrowSuite()).catalog) ?? []
