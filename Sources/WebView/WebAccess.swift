import Evidence
import Foundation
import Synchronization

/// Who a request is from: the holder of the serve's access token (by `Authorization: Bearer` or by the session
/// cookie the printed URL sets), or the holder of one run's share link.
enum WebPrincipal: Sendable {
    /// The access token, sent as a Bearer credential (no CSRF token needed: a browser never adds the header itself).
    case bearer
    /// A browser session; state-changing requests must carry its CSRF token.
    case session(csrf: String)
    /// A share link: adds evidence to its own run only, until it expires.
    case share(ShareLink)
}

/// A run's share link, held in memory only: its token is never written anywhere.
package struct ShareLink: Sendable, Equatable {
    /// The run it adds evidence to.
    package let runId: String
    /// The token (the secret in the link).
    package let token: String
    /// When it stops working.
    package let expiresAt: Date
    /// A short id of the link (the start of its token's SHA-256), used in the journal's actor: `share link <id>`.
    package let id: String

    /// The actor its writes are journaled as.
    package var actor: String { "share link \(id) (run \(runId))" }
}

/// The serve's secrets and sessions, in memory only (principle 4: no secrets at rest): the access token, browser
/// sessions with their CSRF tokens, and share links. Tokens are compared by their SHA-256.
final class WebAccess: Sendable {
    let accessToken: String
    private let accessHash: String
    private struct State {
        /// Session id's SHA-256 → its CSRF token.
        var sessions: [String: String] = [:]
        var sessionOrder: [String] = []
        /// Share token's SHA-256 → the link.
        var shares: [String: ShareLink] = [:]
    }
    private let state = Mutex(State())
    /// The most browser sessions kept; the oldest is dropped first.
    static let maximumSessions = 256

    init() {
        accessToken = Self.randomToken()
        accessHash = Digest.sha256Hex(Array(accessToken.utf8))
    }

    /// 32 random bytes from the system's generator, base64url without padding (43 characters).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String { Digest.sha256Hex(Array(token.utf8)) }

    func isAccessToken(_ token: String) -> Bool { Self.hash(token) == accessHash }

    /// A new browser session: its id (the cookie's value) and its CSRF token.
    func newSession() -> (id: String, csrf: String) {
        let id = Self.randomToken(), csrf = Self.randomToken()
        state.withLock { s in
            let key = Self.hash(id)
            s.sessions[key] = csrf
            s.sessionOrder.append(key)
            while s.sessionOrder.count > Self.maximumSessions { s.sessions[s.sessionOrder.removeFirst()] = nil }
        }
        return (id, csrf)
    }

    /// The CSRF token of session `id`; nil when there is no such session.
    func csrf(ofSession id: String) -> String? {
        state.withLock { $0.sessions[Self.hash(id)] }
    }

    /// A new share link for `runId`, working until `expiresAt`.
    func share(runId: String, expiresAt: Date) -> ShareLink {
        let token = Self.randomToken()
        let key = Self.hash(token)
        let link = ShareLink(runId: runId, token: token, expiresAt: expiresAt, id: String(key.prefix(8)))
        state.withLock { $0.shares[key] = link }
        return link
    }

    /// The share link whose token is `token`, if it exists and has not expired at `now` (expired links are forgotten).
    func shareLink(token: String, now: Date) -> ShareLink? {
        let key = Self.hash(token)
        return state.withLock { s in
            guard let link = s.shares[key] else { return nil }
            guard now < link.expiresAt else {
                s.shares[key] = nil
                return nil
            }
            return link
        }
    }

    /// Revokes every share link of `runId`; returns how many there were.
    func unshare(runId: String) -> Int {
        state.withLock { s in
            let keys = s.shares.filter { $0.value.runId == runId }.map(\.key)
            keys.forEach { s.shares[$0] = nil }
            return keys.count
        }
    }
}
