import Evidence
import Foundation
import Testing
import TestSupport
@testable import Checks
@testable import GrowClient
@testable import HTTPCore

/// The insider's ways of making this machine pass for the hosted Sandbox (issue 9, findings 1 and 8), each as the attack.
@Suite(.serialized) struct SandboxIdentityAttackTests {
    static let name = "sandbox.groovegrow.example"
    static let project = UUID()

    /// A stub answering every request `hosted`, as the insider's 40-line proxy did, with a certificate for the Sandbox's name.
    static func hostedStub() throws -> (TestPKI, TLSStub) {
        let pki = try TestPKI.make(names: [name], addresses: ["127.0.0.1", "0.0.0.0"])
        let session = #"{"customerId": "c_1001", "projectId": "\#(project.uuidString.lowercased())", "environment": "sandbox", "expiresAt": "2099-01-01T00:00:00Z"}"#
        let stub = try TLSStub(pki: pki, responses: ["/v1/session": TLSStub.response(kind: "hosted", body: session)])
        return (pki, stub)
    }

    static func context(url: String, transport: any HTTPTransport, pins: [String] = []) throws -> CheckContext {
        let configuration = try GrowClientConfiguration(baseURL: URL(string: url)!, project: project, requestTimeout: 10)
        return CheckContext(configuration: configuration, transport: transport,
                            credentials: .tokenProvider { _, _ in IssuedCustomerToken(customerToken: "tok_stub_token_1", expiresAt: "2099-01-01T00:00:00Z") },
                            customerId: "c_1001", sandboxPins: pins, diskScanRoots: [FileManager.default.temporaryDirectory])
    }

    static func identify(url: String, resolve: [String], pki: TestPKI, pins: [String] = []) async throws -> CheckResult {
        let transport = CurlTransport(pins: pins, caFile: pki.caFile, resolve: resolve)
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identify"], context: try context(url: url, transport: transport, pins: pins))
        return try #require(results.first)
    }

    @Test func aSandboxNameThatResolvesToLoopbackIsNeverLiveHosted() async throws {
        let (pki, stub) = try Self.hostedStub()
        let result = try await Self.identify(url: "https://\(Self.name):\(stub.port)", resolve: ["\(Self.name):\(stub.port):127.0.0.1"], pki: pki)
        // The stub really answered over verified TLS, hosted: only the measured peer gives it away.
        #expect(result.outcome == .passed)
        let facts = try #require(result.transcript.first?.connection)
        #expect(facts.tlsVerified)
        #expect(facts.spkiPin == pki.spkiPin)
        #expect(facts.leafSHA256 == pki.leafSHA256)
        #expect(facts.issuer == "/CN=growcert test CA")
        #expect(result.identity.sandboxKind == .hosted)
        #expect(!result.identity.isLiveHosted)
        #expect(result.identity.notLiveReason == "the probe GET /v1/session reached 127.0.0.1, which is this machine (loopback)")
        #expect(CheckRecorder.evidence(for: result, runId: "R1").first?.provenance == .liveEmulator)
    }

    @Test func thisMachinesOwnInterfaceAddressIsNeverLiveHosted() async throws {
        // Not the veth address a concurrent HostedNamespaceTests may be adding or removing (10.233.0.0/16).
        let own = PeerAddress.thisMachine().filter { $0.bytes.count == 4 && $0.scope(localAddresses: []) != .loopback && !($0.bytes[0] == 10 && $0.bytes[1] == 233) }
            .map(\.description).sorted().first
        let address = try #require(own, "this machine has no non-loopback IPv4 address to test with")
        let (pki, stub) = try Self.hostedStub()
        let result = try await Self.identify(url: "https://\(Self.name):\(stub.port)", resolve: ["\(Self.name):\(stub.port):\(address)"], pki: pki)
        #expect(result.transcript.first?.connection?.peerAddress == address)
        #expect(!result.identity.isLiveHosted)
        #expect(result.identity.notLiveReason?.hasPrefix("the probe GET /v1/session reached \(address), which is this machine") == true)
    }

    @Test(arguments: [true, false])
    func theUnspecifiedAddressIsNeverLiveHosted(_ throughName: Bool) async throws {
        let (pki, stub) = try Self.hostedStub()
        let result = throughName
            ? try await Self.identify(url: "https://\(Self.name):\(stub.port)", resolve: ["\(Self.name):\(stub.port):0.0.0.0"], pki: pki)
            : try await Self.identify(url: "https://0.0.0.0:\(stub.port)", resolve: [], pki: pki)
        #expect(result.transcript.first?.status == 200)
        #expect(!result.identity.isLiveHosted)
        #expect(result.identity.notLiveReason?.contains("which is this machine") == true)
    }

    @Test func aProbeAnsweredEmulatorTaintsEveryCheckThatRanUnderIt() async throws {
        // The proxy answers the unauthenticated probe `emulator` (so the checks seed their own customers and buy
        // through /_emulator) and everything else `hosted`, over what looks like verified TLS to a public address.
        let target = try EmulatorTarget()
        let proxy = InsiderProxy(emulatorBaseURL: target.baseURL) { InsiderProxy.isProbe($0) ? nil : "hosted" }
        var context = target.context(transport: proxy)
        context.grooveGrow?.configuration = try GrowClientConfiguration(baseURL: URL(string: "https://\(Self.name)")!, project: target.emulator.projectId)
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identify", "holdings.match-console", "holdings.single-customer"], context: context)
        #expect(results.count == 3)
        for result in results {
            #expect(result.transcript.allSatisfy { $0.sandboxKind == "hosted" }, "the check's own exchanges all said hosted")
            #expect(!result.identity.isLiveHosted)
            #expect(result.identity.notLiveReason == "the probe GET /v1/session answered GrooveGrow-Sandbox-Kind: emulator")
            let item = CheckRecorder.evidence(for: result, runId: "R1").first
            #expect(item?.provenance == .liveEmulator)
            #expect(item?.details["probe"]?.arrayValue?.first?["sandboxKind"]?.stringValue == "emulator", "the probe is in the check's evidence")
        }
    }

    @Test func theSameForgedTargetAnsweringHostedThroughoutIsWhatLiveHostedLooksLike() async throws {
        // The control for the test above: only the probe differs.
        let target = try EmulatorTarget()
        let proxy = InsiderProxy(emulatorBaseURL: target.baseURL) { _ in "hosted" }
        var context = target.context(transport: proxy)
        context.grooveGrow?.configuration = try GrowClientConfiguration(baseURL: URL(string: "https://\(Self.name)")!, project: target.emulator.projectId)
        context.grooveGrow?.credentials = .tokenProvider { customerId, ttl in
            let server = GrowServerClient(configuration: target.configuration, serverKey: target.serverKey, transport: CurlTransport())
            let issued = try await server.issueCustomerToken(customerId: customerId, ttlSeconds: ttl ?? 900)
            return IssuedCustomerToken(customerToken: issued.customerToken, expiresAt: issued.expiresAt)
        }
        let result = try #require(try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identify"], context: context).first)
        #expect(result.identity.isLiveHosted)
    }

    @Test func aCheckThatSentNothingClaimsNoTarget() async throws {
        // Finding 8: a hosted target and a check that fails before its first request (no --second-customer).
        let target = try EmulatorTarget()
        let proxy = InsiderProxy(emulatorBaseURL: target.baseURL) { _ in "hosted" }
        var context = target.context(transport: proxy)
        context.grooveGrow?.configuration = try GrowClientConfiguration(baseURL: URL(string: "https://\(Self.name)")!, project: target.emulator.projectId)
        let result = try #require(try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["switch.late-response-dropped"], context: context).first)
        #expect(result.transcript.isEmpty)
        #expect(result.outcome == .failed(reason: "This check needs a second customer."))
        #expect(result.need == .secondCustomer)
        #expect(result.identity.notLiveReason == "no exchange: the check sent nothing that a target answered")
        let item = try #require(CheckRecorder.evidence(for: result, runId: "R1").first)
        #expect(item.provenance == .noExchange)
        #expect(!item.provenance.canCertify)
        #expect(item.details["notLiveHosted"]?.stringValue == "no exchange: the check sent nothing that a target answered")
    }

    @Test func aMismatchedPinIsRefusedBeforeAnythingIsSentAndSaysPinMismatch() async throws {
        let (pki, stub) = try Self.hostedStub()
        let url = "https://\(Self.name):\(stub.port)"
        let otherPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let transport = CurlTransport(pins: [otherPin], caFile: pki.caFile, resolve: ["\(Self.name):\(stub.port):127.0.0.1"])
        let request = HTTPRequest(method: .get, url: URL(string: url + "/v1/session")!)
        await #expect(throws: TransportError.tlsFailure(.pinMismatch(seen: pki.spkiPin))) { try await transport.send(request) }
        await #expect {
            _ = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identify"], context: try Self.context(url: url, transport: transport, pins: [otherPin]))
        } throws: { error in
            (error as? CheckError)?.description == "The Sandbox at '\(url)' is unreachable: The TLS connection failed: the server's public key \(pki.spkiPin) matches none of the configured Sandbox pins (pin mismatch). Nothing was sent; certificate checks are never bypassed. No check was run; check the campaign's base URL and the network, then run again."
        }
    }

    @Test func aMatchingPinIsAllowedAndRecordedAsTheTrustBasis() async throws {
        let (pki, stub) = try Self.hostedStub()
        let result = try await Self.identify(url: "https://\(Self.name):\(stub.port)", resolve: ["\(Self.name):\(stub.port):127.0.0.1"],
                                             pki: pki, pins: [pki.spkiPin])
        #expect(result.outcome == .passed)
        #expect(result.transcript.first?.connection?.pinsEnforced == true)
        #expect(result.identity.trustBasis == .pinned)
        let item = try #require(CheckRecorder.evidence(for: result, runId: "R1").first)
        #expect(item.details["trustBasis"]?.stringValue == "pinned: the server's public key matched a configured Sandbox pin")
        #expect(item.details["peer"]?.stringValue == "127.0.0.1:\(stub.port)")
    }

    @Test func anUntrustedChainSaysSo() async throws {
        let (_, stub) = try Self.hostedStub()
        let transport = CurlTransport(pins: [], caFile: nil, resolve: ["\(Self.name):\(stub.port):127.0.0.1"])
        let request = HTTPRequest(method: .get, url: URL(string: "https://\(Self.name):\(stub.port)/v1/session")!)
        await #expect(throws: TransportError.tlsFailure(.untrustedChain("unable to get local issuer certificate"))) { try await transport.send(request) }
    }

    @Test func aCertificateForAnotherNameSaysNameMismatch() async throws {
        let (pki, stub) = try Self.hostedStub()
        let transport = CurlTransport(pins: [], caFile: pki.caFile, resolve: ["other.example:\(stub.port):127.0.0.1"])
        let request = HTTPRequest(method: .get, url: URL(string: "https://other.example:\(stub.port)/v1/session")!)
        await #expect(throws: TransportError.tlsFailure(.nameMismatch)) { try await transport.send(request) }
    }

    @Test func aPinConfiguredButNotSeenIsNotLiveHosted() {
        let pin = "sha256//" + Data(repeating: 9, count: 32).base64EncodedString()
        #expect(identity([entry(kind: "hosted")], pins: [pin]).notLiveReason
            == "the probe GET /v1/session presented a public key matching none of the configured Sandbox pins")
        #expect(identity([entry(kind: "hosted")], pins: [remoteTLS.spkiPin!]).isLiveHosted)
    }

    @Test func aPrivateRangePeerCertifiesWithAWarning() throws {
        var facts = remoteTLS
        facts.peerAddress = "10.20.30.40"
        let result = identity(probe: [entry(kind: "hosted", status: 401, path: "/v1/session", connection: facts)],
                              [entry(kind: "hosted", connection: facts)])
        #expect(result.isLiveHosted)
        #expect(result.privatePeers == ["10.20.30.40:443 is in a private range"])
    }
}
