import Foundation
import Testing
import GrowClient

@Suite struct URLSessionTransportTests {
    @Test func aClosedLoopbackPortIsAConnectionRefusedTransportError() async throws {
        // Port 1 (tcpmux) is closed on any development or CI machine; nothing leaves 127.0.0.1.
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:1/v1/session")!, timeout: 10)
        await #expect(throws: TransportError.connectionRefused) { try await URLSessionTransport().send(request) }
    }

    @Test func aRealExchangeReturnsStatusHeadersAndBodyAndSendsOurHeaders() async throws {
        let body = #"{"error": {"code": "unavailable", "message": "m", "retryable": true}}"#
        let server = try #require(LoopbackHTTPServer(responses: [
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\ngroovegrow-sandbox-kind: emulator\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
        ]))
        var request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/v1/holdings")!, timeout: 10)
        request.headers[Wire.Header.project] = Fixture.projectHeader
        let response = try await URLSessionTransport().send(request)
        #expect(response.status == 503)
        #expect(response.sandboxKind == .emulator)
        #expect(String(decoding: response.body, as: UTF8.self) == body)
        #expect(server.receivedHeads.first?.lowercased().contains("groovegrow-project: \(Fixture.projectHeader)") == true)
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let server = try #require(LoopbackHTTPServer(responses: [
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ]))
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/v1/session")!, timeout: 10)
        let response = try await URLSessionTransport().send(request)
        #expect(response.status == 302)
        #expect(response.headers["location"] == "http://127.0.0.1:1/elsewhere")
    }
}
