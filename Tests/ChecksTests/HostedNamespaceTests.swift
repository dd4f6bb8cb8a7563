import Evidence
import Foundation
import Testing
import TestSupport
@testable import Checks
@testable import GrowClient
@testable import HTTPCore
@testable import Sandbox

import Synchronization

/// An honest hosted run: a hosted-mode Sandbox on an address that is not this machine's, behind TLS with a test CA.
@Suite struct HostedNamespaceTests {
    static let host = "sandbox.hosted.test"

    /// A Sandbox emulator that declares itself hosted, and a test PKI whose certificate names `host`.
    static func hostedEmulator() throws -> (GrooveGrowEmulator, TestPKI) {
        let pki = try TestPKI.make(names: [host])
        var configuration = GrooveGrowConfiguration()
        configuration.declaredKind = "hosted"
        return (try GrooveGrowEmulator(configuration: configuration), pki)
    }

    /// Starts `emulator` behind TLS with `pki`'s certificate on `namespace`'s inside address; returns its port.
    static func start(_ emulator: GrooveGrowEmulator, pki: TestPKI, in namespace: NetworkNamespace) throws -> UInt16 {
        let certificate = try String(contentsOfFile: pki.certificateFile, encoding: .utf8)
        let key = try String(contentsOfFile: pki.keyFile, encoding: .utf8)
        guard let inside = PeerAddress(namespace.insideAddress) else { throw SupportFailure("not an address: \(namespace.insideAddress)") }
        let address = inside.bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
    }
    @Test(.enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestHostedSandboxOnAnotherAddressIsRecordedLiveHosted() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let host = Self.host
        let (emulator, pki) = try Self.hostedEmulator()
        defer { emulator.stop() }
        let inside = try #require(PeerAddress(namespace.insideAddress))
        let port = try Self.start(emulator, pki: pki, in: namespace)

        // The test's veth stands in for a cable to another machine.
        let transport = CurlTransport(pins: [], caFile: pki.caFile, resolve: ["\(host):\(port):\(namespace.insideAddress)"],
                                      cables: [namespace.hostSide])
        let context = CheckContext(
            configuration: try GrowClientConfiguration(baseURL: URL(string: "https://\(host):\(port)")!, project: emulator.projectId, requestTimeout: 10),
            transport: transport, credentials: .serverKey(try GrowServerKey(emulator.serverKey)), customerId: "c_1001",
            diskScanRoots: [FileManager.default.temporaryDirectory])
        #expect(!context.localAddresses.contains(inside), "the namespace's address is not one of this machine's")
        let ids = ["session.identify", "session.rejects-invalid", "session.rejects-cross-scope", "holdings.single-customer", "switch.reset-clears"]
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ids, context: context)
        #expect(results.map(\.checkId) == ids)
        #expect(results.allSatisfy { $0.outcome.isPassed }, "\(results.map { "\($0.checkId): \($0.outcome)" })")
        for result in results {
            #expect(result.identity.isLiveHosted, "\(result.checkId): \(result.identity.notLiveReason ?? "")")
            #expect(result.identity.peers == ["\(namespace.insideAddress):\(port)"])
            #expect(result.identity.spkiPins == [pki.spkiPin])
            #expect(result.identity.privatePeers == ["\(namespace.insideAddress):\(port) is in a private range"])
            let item = try #require(CheckRecorder.evidence(for: result, runId: "R1").first)
            #expect(item.provenance == .liveHosted)
            #expect(item.details["identityWarning"]?.stringValue
                == "\(namespace.insideAddress):\(port) is in a private range (a proxy or internal host, not a public one)")
            // What verify re-derives: the recorded chain re-validates for the recorded name on a machine trusting the CA.
            let details = CheckResultDetails(json: item.details)
            #expect(details.transcript.allSatisfy { !$0.certificateChain.isEmpty && $0.host == host })
            #expect(RecordedIdentity.unvalidated(exchanges: details.probe + details.transcript, pins: [],
                                                 trust: ServerChainTrust(caFile: pki.caFile)) == nil)
        }
    }

    /// Issue 21, finding 4: the insider's fake "hosted" Sandbox in a network namespace of the QA machine itself, at a
    /// public-range address, behind a certificate from the insider's own CA that only the QA process trusts.
    @Test(.enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aFakeHostedSandboxInANamespaceOfThisMachineIsNotLiveHosted() async throws {
        let namespace = try NetworkNamespace(publicRange: true)
        defer { namespace.remove() }
        let host = Self.host
        let (emulator, pki) = try Self.hostedEmulator()
        defer { emulator.stop() }
        let inside = try #require(PeerAddress(namespace.insideAddress))
        #expect(inside.scope(localAddresses: PeerAddress.thisMachine()) == .publicRange)
        let port = try Self.start(emulator, pki: pki, in: namespace)

        // No stand-in: the veth is what it is, a link whose other end is in this kernel.
        let transport = CurlTransport(pins: [], caFile: pki.caFile, resolve: ["\(host):\(port):\(namespace.insideAddress)"])
        let context = CheckContext(
            configuration: try GrowClientConfiguration(baseURL: URL(string: "https://\(host):\(port)")!, project: emulator.projectId, requestTimeout: 10),
            transport: transport, credentials: .serverKey(try GrowServerKey(emulator.serverKey)), customerId: "c_1001",
            diskScanRoots: [FileManager.default.temporaryDirectory])
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identify"], context: context)
        let result = try #require(results.first)
        #expect(result.outcome.isPassed, "\(result.outcome)")
        #expect(!result.identity.isLiveHosted)
        #expect(result.identity.notLiveReason == "the probe GET /v1/session reached \(namespace.insideAddress) through \(namespace.hostSide) (veth, this kernel), a virtual link whose other end is in this kernel: this machine")
        let item = try #require(CheckRecorder.evidence(for: result, runId: "R1").first)
        #expect(item.provenance == .liveEmulator)

        // Relabelled offline as live-hosted, its own recorded link contradicts it, and its chain (the insider's CA) does
        // not re-validate on a machine that does not trust that CA.
        let details = CheckResultDetails(json: item.details)
        var relabelled = details.identity
        relabelled.liveHosted = true
        relabelled.reason = nil
        let why = RecordedIdentity.contradiction(identity: relabelled, exchanges: details.probe + details.transcript, pins: [])
        #expect(why?.contains("through \(namespace.hostSide) (veth, this kernel), a virtual link whose other end is in the recording machine's kernel") == true, "\(why ?? "")")
        let elsewhere = RecordedIdentity.unvalidated(exchanges: details.probe + details.transcript, pins: [], trust: ServerChainTrust())
        #expect(elsewhere?.contains("its certificate chain does not validate on this machine for 'sandbox.hosted.test'") == true, "\(elsewhere ?? "")")
    }
}
