import Foundation
import Testing
@testable import GrowClient
import HTTPCore

@Suite struct ConfigurationTests {
    @Test(arguments: ["http://sandbox.example.com", "http://10.0.0.5:8080", "http://127.0.0.1.example.com", "HTTP://api.groovegrow.dev/v1"])
    func plainHTTPToARemoteHostIsRefusedAsInsecure(_ url: String) throws {
        #expect {
            _ = try GrowClientConfiguration(baseURL: url, project: Fixture.project.uuidString)
        } throws: { error in
            guard case GrowClientError.insecureTarget = error else { return false }
            return true
        }
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://127.9.8.7", "http://localhost:9000/prefix", "http://[::1]:8080", "https://sandbox.example.com/api/"])
    func httpsAndLoopbackTargetsAreAccepted(_ url: String) throws {
        let configuration = try GrowClientConfiguration(baseURL: url, project: Fixture.project.uuidString)
        #expect(!configuration.baseURL.absoluteString.hasSuffix("/"))
    }

    @Test func plainHTTPRefusalNamesTheHostAndWhatIsAllowed() {
        let error = GrowClientError.insecureTarget(host: "sandbox.example.com")
        #expect(error.description == "Refusing plain HTTP to 'sandbox.example.com': HTTPS is required except for loopback hosts (127.0.0.1, ::1, localhost).")
    }

    @Test(arguments: ["ftp://sandbox.example.com", "https://user:pw@sandbox.example.com", "https://sandbox.example.com?x=1", "sandbox.example.com"])
    func unusableBaseURLsAreInvalidConfiguration(_ url: String) {
        #expect {
            _ = try GrowClientConfiguration(baseURL: url, project: Fixture.project.uuidString)
        } throws: { error in
            guard case GrowClientError.invalidConfiguration = error else { return false }
            return true
        }
    }

    @Test func aProjectThatIsNotAUUIDIsRejectedWithTheValueQuoted() {
        #expect(throws: GrowClientError.invalidConfiguration("'my-app' is not a project UUID. Copy the App UUID from the GrooveGrow console.")) {
            _ = try GrowClientConfiguration(baseURL: "https://sandbox.example.com", project: "my-app")
        }
    }

    @Test func requestURLsKeepTheBasePrefixAndEscapeIdentifiers() throws {
        let configuration = try Fixture.configuration("https://sandbox.example.com/api/")
        let url = configuration.url(path: GrowWire.Path.order("o/1 2"), query: [("after", "a&b")])
        #expect(url?.absoluteString == "https://sandbox.example.com/api/v1/orders/o%2F1%202?after=a%26b")
    }

    @Test func plainHTTPToLoopbackIsAllowedAndSendsRequests() async throws {
        let stub = StubTransport { _ in Fixture.json(200, Fixture.session("c_A"), kind: "emulator") }
        let client = GrowClient(configuration: try Fixture.configuration("http://127.0.0.1:8089"), transport: stub)
        _ = try await client.identify(customerToken: Fixture.tokenA)
        #expect(stub.requests.first?.url.absoluteString == "http://127.0.0.1:8089/v1/session")
    }

    @Test(arguments: [
        ("localhost", true), ("LOCALHOST.", true), ("127.0.0.1", true), ("127.255.0.9", true), ("[::1]", true), ("::1", true),
        ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true), ("128.0.0.1", false), ("127.0.0", false), ("::2", false),
        ("example.com", false), ("127.0.0.1.nip.io", false),
    ])
    func loopbackHostsAreRecognised(_ host: String, _ loopback: Bool) {
        #expect(PeerAddress.isLoopbackHost(host) == loopback)
    }
}

@Suite struct PeerAddressTests {
    @Test(arguments: [
        ("127.0.0.1", PeerAddress.Scope.loopback), ("127.8.9.10", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
        ("0.0.0.0", .unspecified), ("::", .unspecified), ("169.254.10.1", .linkLocal), ("fe80::1", .linkLocal),
        ("10.1.2.3", .privateRange), ("172.16.0.1", .privateRange), ("192.168.1.1", .privateRange), ("100.64.0.1", .privateRange),
        ("fd00::1", .privateRange), ("203.0.113.7", .publicRange), ("2001:db8::1", .publicRange), ("::ffff:203.0.113.7", .publicRange),
        ("198.51.100.9", .thisMachine),
    ])
    func addressesAreClassifiedByWhereTheyLie(_ text: String, _ scope: PeerAddress.Scope) throws {
        let address = try #require(PeerAddress(text))
        #expect(address.scope(localAddresses: [try #require(PeerAddress("198.51.100.9"))]) == scope)
    }

    @Test func thisMachinesInterfaceAddressesIncludeLoopback() {
        #expect(PeerAddress.thisMachine().contains(PeerAddress("127.0.0.1")!))
    }

    @Test(arguments: ["sandbox.example.com", "127.1", "1.2.3", ""])
    func namesAndShorthandAreNotAddresses(_ text: String) {
        #expect(PeerAddress(text) == nil)
    }
}
