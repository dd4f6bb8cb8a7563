import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GrowClient
import Testing
import Sandbox
import Synchronization

/// Talks to a running `GrooveGrowEmulator` over 127.0.0.1 with URLSession.
private struct Client {
    let emulator: GrooveGrowEmulator
    let base: URL
    let session = URLSession(configuration: .ephemeral)

    func send(_ method: String, _ path: String, auth: String?, body: Data? = nil, key: String = UUID().uuidString) async throws -> (Int, Data, HTTPURLResponse) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue(emulator.projectId.uuidString.lowercased(), forHTTPHeaderField: GrowWire.Header.project)
        request.setValue(GrowWire.environment, forHTTPHeaderField: GrowWire.Header.environment)
        if let auth { request.setValue("Bearer " + auth, forHTTPHeaderField: GrowWire.Header.authorization) }
        if method == "POST" {
            request.setValue(key, forHTTPHeaderField: GrowWire.Header.idempotencyKey)
            request.setValue("application/json", forHTTPHeaderField: GrowWire.Header.contentType)
            request.httpBody = body ?? Data("{}".utf8)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw UnexpectedResponse(description: "not HTTP") }
        return (http.statusCode, data, http)
    }

    func issueToken(_ customerId: String) async throws -> String {
        let body = try JSONEncoder().encode(GrowWireTokenRequest(customerId: customerId, ttlSeconds: 900))
        let (status, data, _) = try await send("POST", GrowWire.Path.customerTokens, auth: emulator.serverKey, body: body)
        guard status == 201 else { throw UnexpectedResponse(description: "token: \(status)") }
        return try JSONDecoder().decode(GrowWireIssuedToken.self, from: data).customerToken
    }
}

/// Set by one request when it completes, read by the test.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// Holds each injected delay until `open()`, instead of sleeping: a test learns when a delayed request has reached
/// the server (`waitUntilHeld`) and decides when it may finish.
private final class GateSleeper: EmulatorSleeper {
    private let held = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let recorded = Mutex<[Int]>([])

    func sleep(milliseconds: Int) {
        recorded.withLock { $0.append(milliseconds) }
        held.signal()
        gate.wait()
        gate.signal()  // once open, every later wait passes too
    }

    /// The delays asked for so far.
    var requested: [Int] { recorded.withLock { $0 } }

    /// Returns once a connection thread is held in `sleep`, without blocking a thread of the cooperative pool.
    func waitUntilHeld() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { self.held.wait(); done.resume() }
        }
    }

    /// Lets every held and later delay pass; opening again only adds a pass no one needs.
    func open() { gate.signal() }
}

@Suite struct HTTPRoundTripTests {
    @Test func emulatorServesTheContractOnLoopbackWithTheEmulatorKindHeader() async throws {
        let emulator = try GrooveGrowEmulator(configuration: .init(port: 0))
        let base = try emulator.start()
        defer { emulator.stop() }
        #expect(base.host == "127.0.0.1")
        #expect((base.port ?? 0) > 0)
        #expect(emulator.baseURL == base)

        let client = Client(emulator: emulator, base: base)
        let token = try await client.issueToken("c_1001")
        let (status, data, response) = try await client.send("GET", GrowWire.Path.session, auth: token)
        #expect(status == 200)
        #expect(response.value(forHTTPHeaderField: "GrooveGrow-Sandbox-Kind") == "emulator")
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let session = try JSONDecoder().decode(GrowWireSession.self, from: data)
        #expect(session.customerId == "c_1001")
        #expect(session.projectId == emulator.projectId.uuidString.lowercased())
    }

    @Test func unknownPathsAndOversizedBodiesGetContractErrorsOverHTTP() async throws {
        let emulator = try GrooveGrowEmulator(configuration: .init(maxBodyBytes: 4096))
        let client = Client(emulator: emulator, base: try emulator.start())
        defer { emulator.stop() }

        let (notFound, notFoundBody, notFoundResponse) = try await client.send("GET", "/v1/nothing-here", auth: nil)
        #expect(notFound == 404)
        #expect(try JSONDecoder().decode(GrowWireErrorBody.self, from: notFoundBody).error.code == "not_found")
        #expect(notFoundResponse.value(forHTTPHeaderField: "GrooveGrow-Sandbox-Kind") == "emulator")

        let huge = Data(repeating: UInt8(ascii: "a"), count: 64 * 1024)
        let (tooBig, tooBigBody, _) = try await client.send("POST", GrowWire.Path.customerTokens, auth: emulator.serverKey, body: huge)
        #expect(tooBig == 400)
        #expect(try JSONDecoder().decode(GrowWireErrorBody.self, from: tooBigBody).error.code == "invalid_request")

        // The server is still answering afterwards.
        _ = try await client.issueToken("c_after")
    }

    /// Event-driven, not timed: the delayed request is held on the server's connection thread until the test lets it go,
    /// so the other request can only complete first if the server answers connections side by side.
    @Test func aDelayedRequestDoesNotHoldUpAnotherConnection() async throws {
        let gate = GateSleeper()
        let emulator = try GrooveGrowEmulator(configuration: .init(sleeper: gate))
        let base = try emulator.start()
        defer { emulator.stop() }
        defer { gate.open() }  // never leave a connection thread held, whatever failed
        let client = Client(emulator: emulator, base: base)
        let token = try await client.issueToken("c_1001")
        let fault = try JSONEncoder().encode(GrowWireEmulatorFault(path: GrowWire.Path.holdings, delayMs: 3000, failNext: nil, status: nil))
        #expect(try await client.send("POST", GrowWire.Path.emulatorFaults, auth: emulator.serverKey, body: fault).0 == 200)

        let slowDone = Flag()
        let slow = Task {
            let other = Client(emulator: emulator, base: base)
            let result = try await other.send("GET", GrowWire.Path.holdings, auth: token)
            slowDone.set()
            return result.0
        }
        // The delayed request has reached the server and waits there (its connection thread is in the sleeper).
        await gate.waitUntilHeld()
        #expect(gate.requested == [3000])
        let fast = Client(emulator: emulator, base: base)
        let (status, _, _) = try await fast.send("GET", GrowWire.Path.session, auth: token)
        #expect(status == 200)
        #expect(!slowDone.isSet, "the session request finished only after the delayed holdings request")
        gate.open()
        #expect(try await slow.value == 200)
    }

    @Test func stopClosesThePortAndTheEmulatorCanStartAgain() async throws {
        let emulator = try GrooveGrowEmulator()
        let first = try emulator.start()
        #expect(throws: SandboxError.alreadyStarted) { try emulator.start() }
        emulator.stop()
        #expect(emulator.baseURL == nil)
        await #expect(throws: (any Error).self) {
            _ = try await Client(emulator: emulator, base: first).send("GET", GrowWire.Path.session, auth: nil)
        }
        emulator.stop()  // a second stop is harmless

        let second = try emulator.start()
        defer { emulator.stop() }
        let (status, _, _) = try await Client(emulator: emulator, base: second).send("GET", GrowWire.Path.session, auth: nil)
        #expect(status == 401)
    }

    @Test func aTakenPortIsReportedAsABindFailure() throws {
        let holder = try GrooveGrowEmulator()
        let url = try holder.start()
        defer { holder.stop() }
        let second = try GrooveGrowEmulator(configuration: .init(port: UInt16(url.port ?? 0)))
        #expect(throws: SandboxError.self) { try second.start() }
    }
}

@Suite struct HostileRequestTests {
    /// Sends raw bytes over TCP and reads until the server closes or 64 KiB arrive.
    private func rawExchange(port: UInt16, _ bytes: [UInt8]) -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return [] }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    @Test func garbageAndTruncatedRequestsLeaveTheServerAnswering() async throws {
        let emulator = try GrooveGrowEmulator()
        let base = try emulator.start()
        defer { emulator.stop() }
        let port = UInt16(base.port ?? 0)
        _ = rawExchange(port: port, Array("GARBAGE\r\n\r\n".utf8))
        _ = rawExchange(port: port, Array("POST /v1/funnels HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc".utf8))
        _ = rawExchange(port: port, [UInt8](repeating: 0xFF, count: 10_000))
        let reply = rawExchange(port: port, Array("GET /v1/session HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400"))
        #expect(text.contains("invalid_request"))
    }
}
