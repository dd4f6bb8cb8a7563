import Foundation

/// Serves one backend's `handle` over HTTP on 127.0.0.1: what every vendor's emulator shares.
final class EmulatorHost: Sendable {
    private let server: HTTPServer
    private let requestedPort: UInt16

    /// A stopped host for `handler` on `port` (0: any free port).
    init(port: UInt16, maxBodyBytes: Int, oversizeResponse: HTTPServerResponse, sleeper: any EmulatorSleeper,
         handler: @escaping HTTPServer.Handler) {
        requestedPort = port
        server = HTTPServer(maxBodyBytes: maxBodyBytes, oversizeResponse: oversizeResponse, sleeper: sleeper, handler: handler)
    }

    /// Starts serving and returns the base URL, `http://127.0.0.1:PORT`.
    func start() throws -> URL {
        Self.url(port: try server.start(port: requestedPort))
    }

    /// Test seam, never reachable from the CLI: serves over TLS on IPv4 `address` (host order). Returns the port.
    func start(address: UInt32, certificatePEM: String, keyPEM: String) throws -> UInt16 {
        try server.start(port: requestedPort, address: address, tls: (certificatePEM, keyPEM))
    }

    /// Stops serving; waits for open connections to finish. Safe to call more than once.
    func stop() {
        server.stop()
    }

    /// The base URL while running; nil when stopped.
    var baseURL: URL? {
        server.port.map(Self.url(port:))
    }

    private static func url(port: UInt16) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        return components.url ?? URL(fileURLWithPath: "/")
    }
}
