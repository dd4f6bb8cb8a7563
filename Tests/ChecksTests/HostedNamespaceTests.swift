import Evidence
import Foundation
import Testing
@testable import Checks
@testable import GrowClient
@testable import Sandbox

/// A network namespace joined to this one by a veth pair, `10.233.X.1/30` here and `10.233.X.2/30` inside.
///
/// The only traffic is between this machine and the namespace. `remove()` deletes both (the veth goes with the namespace).
final class NetworkNamespace: Sendable {
    let name: String
    let hostSide: String
    let outsideAddress: String
    let insideAddress: String

    /// Root and a working `ip netns`: tried once by making and removing a namespace.
    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
        let probe = "gcprobe\(getpid())"
        guard (try? ip(["netns", "add", probe])) != nil else { return false }
        _ = try? ip(["netns", "del", probe])
        return true
    }()

    init() throws {
        let tag = Int(getpid() % 200) + 20
        name = "growcert\(getpid())"
        hostSide = "gch\(getpid() % 100000)"
        let peer = "gcn\(getpid() % 100000)"
        outsideAddress = "10.233.\(tag).1"
        insideAddress = "10.233.\(tag).2"
        try Self.ip(["netns", "add", name])
        do {
            try Self.ip(["link", "add", hostSide, "type", "veth", "peer", "name", peer])
            try Self.ip(["link", "set", peer, "netns", name])
            try Self.ip(["addr", "add", "\(outsideAddress)/30", "dev", hostSide])
            try Self.ip(["link", "set", hostSide, "up"])
            try Self.ip(["netns", "exec", name, "ip", "addr", "add", "\(insideAddress)/30", "dev", peer])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", peer, "up"])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes the namespace and the veth pair; safe to call twice.
    func remove() {
        _ = try? Self.ip(["netns", "del", name])
        _ = try? Self.ip(["link", "del", hostSide])
    }

    /// Runs `body` on a new thread that has joined the namespace, so sockets it makes live there.
    func inside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let name = self.name
        let thread = Thread {
            defer { done.signal() }
            result.withLock { $0 = Result { try Self.join(name); return try body() } }
        }
        thread.start()
        done.wait()
        return try result.withLock { $0 }!.get()
    }

    private static func join(_ name: String) throws {
        let fd = open("/var/run/netns/\(name)", O_RDONLY)
        guard fd >= 0 else { throw TestFailure("cannot open namespace \(name)") }
        defer { close(fd) }
        // setns(2) through dlsym: Glibc's Swift module does not declare it.
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "setns") else {  // nil: RTLD_DEFAULT
            throw TestFailure("setns is unavailable")
        }
        let setns = unsafeBitCast(symbol, to: SetNS.self)
        guard setns(fd, 0x4000_0000 /* CLONE_NEWNET */) == 0 else { throw TestFailure("setns failed: \(String(cString: strerror(errno)))") }
    }

    @discardableResult
    static func ip(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("ip \(arguments.joined(separator: " ")) failed") }
        return process.terminationStatus
    }
}

import Synchronization

/// An honest hosted run: a hosted-mode Sandbox on an address that is not this machine's, behind TLS with a test CA.
@Suite struct HostedNamespaceTests {
    @Test(.enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestHostedSandboxOnAnotherAddressIsRecordedLiveHosted() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let host = "sandbox.hosted.test"
        let pki = try TestPKI.make(names: [host])
        var configuration = SandboxConfiguration()
        configuration.declaredKind = "hosted"
        let emulator = try SandboxEmulator(configuration: configuration)
        defer { emulator.stop() }
        let certificate = try String(contentsOfFile: pki.certificateFile, encoding: .utf8)
        let key = try String(contentsOfFile: pki.keyFile, encoding: .utf8)
        let inside = try #require(PeerAddress(namespace.insideAddress))
        let address = inside.bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let port = try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }

        let transport = CurlTransport(pins: [], caFile: pki.caFile, resolve: ["\(host):\(port):\(namespace.insideAddress)"])
        let context = CheckContext(
            configuration: try GrowClientConfiguration(baseURL: URL(string: "https://\(host):\(port)")!, project: emulator.projectId, requestTimeout: 10),
            transport: transport, credentials: .serverKey(try ServerKey(emulator.serverKey)), customerId: "c_1001",
            diskScanRoots: [FileManager.default.temporaryDirectory])
        #expect(!context.localAddresses.contains(inside), "the namespace's address is not one of this machine's")
        let ids = ["session.identify", "session.rejects-invalid", "session.rejects-cross-scope", "holdings.single-customer", "switch.reset-clears"]
        let results = try await CheckRunner().run(checkIds: ids, context: context)
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
        }
    }
}
