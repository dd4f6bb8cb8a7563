import Evidence
import Foundation
import Sandbox
import StoreProof
import Synchronization

/// What `growcert serve` serves, and how.
package struct WebServerSettings: Sendable {
    /// The evidence database (a SQLite path or a `postgresql://` URL without password).
    package var database: String
    /// The IPv4 address to listen on (`127.0.0.1` unless the user binds another).
    package var bindAddress: String
    /// The port (0: any free port).
    package var port: UInt16
    /// The most connections served at once (one thread each); more wait in the listen queue.
    package var connectionLimit: Int
    /// growcert's version, shown in the pages' footers.
    package var version: String
    /// The masking key for writes (nil: the store's key file).
    package var maskKey: MaskKey?
    /// Verifies App Store JWS sent through a share link, as `evidence add transaction` does.
    package var jwsVerifier: JWSVerifier
    /// The clock (share links expire by it).
    package var clock: Clock

    /// Settings with the defaults: loopback, any free port, 32 connections.
    package init(database: String, bindAddress: String = "127.0.0.1", port: UInt16 = 0, connectionLimit: Int = 32, version: String,
                maskKey: MaskKey? = nil, jwsVerifier: JWSVerifier = JWSVerifier(), clock: @escaping Clock = { Date() }) {
        self.database = database
        self.bindAddress = bindAddress
        self.port = port
        self.connectionLimit = connectionLimit
        self.version = version
        self.maskKey = maskKey
        self.jwsVerifier = jwsVerifier
        self.clock = clock
    }

    /// Whether the address is a loopback one (only this machine can connect).
    package var isLoopback: Bool { bindAddress.hasPrefix("127.") }
}

/// The web view of an evidence database: read-only pages and their JSON twins for the holder of the access token,
/// and per-run share links that only add evidence. On libmicrohttpd, through the emulator's `HTTPServer` kit.
package final class WebServer: Sendable {
    let router: WebRouter
    private let server: HTTPServer

    /// A stopped server over `settings`.
    package init(settings: WebServerSettings) throws {
        guard settings.bindAddress != "0.0.0.0" else { throw WebError.unspecifiedAddress }
        let router = WebRouter(settings: settings)
        self.router = router
        server = HTTPServer(maxBodyBytes: WebRouter.largestBody, oversizeResponse: router.oversize(), bodyLimit: WebRouter.bodyLimit) { request in
            router.handle(request)
        }
    }

    /// Starts listening; returns the base URL (`http://ADDRESS:PORT/`).
    @discardableResult
    package func start() throws -> String {
        let settings = router.settings
        let port: UInt16
        do {
            port = try server.start(port: settings.port, bindAddress: settings.bindAddress, connectionLimit: settings.connectionLimit)
        } catch SandboxError.bindFailed(_, let reason) {
            throw WebError.cannotListen(address: settings.bindAddress, port: settings.port, reason: reason)
        } catch let e as SandboxError {
            throw WebError.cannotListen(address: settings.bindAddress, port: settings.port, reason: "\(e)")
        }
        router.port.withLock { $0 = port }
        return baseURL
    }

    /// Stops listening and waits for the connections' threads to end.
    package func stop() { server.stop() }

    /// `http://ADDRESS:PORT/`.
    package var baseURL: String { router.baseURL }

    /// The access token: every request needs it (as a Bearer credential, or through the session cookie set by
    /// opening `loginURL` once). Held in memory only.
    package var accessToken: String { router.access.accessToken }

    /// The URL that, opened once in a browser, sets the session cookie.
    package var loginURL: String { baseURL + "?token=" + accessToken }

    /// A new share link of run `runId`, working for `seconds`: the run must exist.
    package func share(runId: String, seconds: Int) throws -> (link: ShareLink, url: String) {
        try router.share(runId: runId, seconds: seconds)
    }

    /// Revokes every share link of `runId`; returns how many there were.
    package func unshare(runId: String) -> Int { router.access.unshare(runId: runId) }
}
