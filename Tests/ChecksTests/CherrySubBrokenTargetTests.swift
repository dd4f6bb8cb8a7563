import CherryClient
import Foundation
import HTTPCore
import Synchronization
import Testing
@testable import Checks

/// One way to break one CherrySub rule: a thin proxy in front of the correct emulator that bends its answers
/// (or the broker's) exactly where the rule lives.
struct CherryBreakage: Sendable, CustomTestStringConvertible {
    let checkId: String
    let name: String
    /// A fragment the failure reason must contain.
    let reason: String
    /// Makes the proxy (fresh per test, so stateful rewrites start empty).
    let transport: @Sendable () -> any HTTPTransport

    var testDescription: String { "\(checkId) fails when \(name)" }

    init(_ checkId: String, _ name: String, reason: String,
         request: @escaping BreakingTransport.RequestRewrite = { $0 },
         response: @escaping BreakingTransport.ResponseRewrite = { $1 }) {
        self.checkId = checkId
        self.name = name
        self.reason = reason
        transport = { BreakingTransport(wrapping: CurlTransport(), request: request, response: response) }
    }

    init(_ checkId: String, _ name: String, reason: String, transport: @escaping @Sendable () -> any HTTPTransport) {
        self.checkId = checkId
        self.name = name
        self.reason = reason
        self.transport = transport
    }
}

private func isSubmission(_ request: HTTPRequest) -> Bool { request.method == .post && request.path == CherryWire.Path.appleTransactions }
private func isSubscriberRead(_ request: HTTPRequest) -> Bool {
    request.method == .get && request.path.hasPrefix("/v1/subscribers/") && !request.path.hasSuffix("/ledger")
}
private func isLedgerRead(_ request: HTTPRequest) -> Bool { request.method == .get && request.path.hasSuffix("/ledger") }
private func errorResponse(_ status: Int, _ code: String, like response: HTTPResponse) -> HTTPResponse {
    HTTPResponse(status: status, headers: response.headers,
                 body: Data(#"{"error": {"code": "\#(code)", "message": "bent", "retryable": false}}"#.utf8))
}
private func jsonResponse(_ status: Int, _ body: String, like response: HTTPResponse) -> HTTPResponse {
    HTTPResponse(status: status, headers: response.headers, body: Data(body.utf8))
}
/// Every access level of a subscriber body edited by `edit`.
private func editingLevels(_ response: HTTPResponse, _ edit: @escaping (inout [String: Any]) -> Void) -> HTTPResponse {
    response.editingJSON { object in
        guard var levels = object["accessLevels"] as? [String: Any] else { return }
        for (name, value) in levels {
            guard var level = value as? [String: Any] else { continue }
            edit(&level)
            levels[name] = level
        }
        object["accessLevels"] = levels
    }
}
/// Every ledger event's `eventId` of a ledger page replaced by `edit` (kept where it gives nil).
private func editingEventIds(_ response: HTTPResponse, _ edit: @escaping (String) -> Any?) -> HTTPResponse {
    response.editingJSON { object in
        guard var events = object["events"] as? [[String: Any]] else { return }
        for i in events.indices {
            if let id = events[i]["eventId"] as? String, let edited = edit(id) { events[i]["eventId"] = edited }
        }
        object["events"] = events
    }
}
private func submittedJWS(_ request: HTTPRequest) -> String? {
    guard let body = request.body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
    return object["signedTransaction"] as? String
}
private func signingInput(_ jws: String) -> String { jws.split(separator: ".").prefix(2).joined(separator: ".") }

/// A backend that ignores a JWS's signature: it accepts a resubmitted payload whatever signature it carries
/// (the proxy puts back the signature the store gave, so the emulator accepts it).
final class SignatureBlindProxy: HTTPTransport {
    private let base = CurlTransport()
    // Guards the JWS the emulator's store issued.
    private let issued = Mutex<[String]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if isSubmission(request), let jws = submittedJWS(request),
           let original = issued.withLock({ $0.first { signingInput($0) == signingInput(jws) } }), original != jws {
            request.body = request.body.map { Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: jws, with: original).utf8) }
        }
        let response = try await base.send(request)
        if request.path == CherryWire.Path.emulatorPurchases,
           let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any], let jws = object["signedTransaction"] as? String {
            issued.withLock { $0.append(jws) }
        }
        return response
    }
}

/// A backend that forgets its idempotency record: the same key with the same body is answered 409.
final class ForgetfulReplayProxy: HTTPTransport {
    private let base = CurlTransport()
    // Guards the keys seen on submissions.
    private let keys = Mutex<Set<String>>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        guard isSubmission(request), let key = request.headers[CherryWire.Header.idempotencyKey] else { return response }
        let replay = keys.withLock { !$0.insert(key).inserted }
        return replay ? errorResponse(409, "idempotency_conflict", like: response) : response
    }
}

/// A backend whose idempotency record is not consulted: a replayed key runs the submission again (sent here under a
/// fresh key, so the emulator answers the repeat as a repeat: 200, duplicate: true) instead of returning the original answer.
final class ReexecutingReplayProxy: HTTPTransport {
    private let base = CurlTransport()
    // Guards the keys seen on submissions.
    private let keys = Mutex<Set<String>>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if isSubmission(request), let key = request.headers[CherryWire.Header.idempotencyKey], keys.withLock({ !$0.insert(key).inserted }) {
            request.headers[CherryWire.Header.idempotencyKey] = key + "-run-again"
        }
        return try await base.send(request)
    }
}

/// A backend that books a second event for a duplicate: it answers a repeat as new.
final class DuplicateBlindProxy: HTTPTransport {
    private let base = CurlTransport()
    // Guards the transactions already answered.
    private let seen = Mutex<Set<String>>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        guard isSubmission(request), (200..<300).contains(response.status),
              let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
              let id = object["transactionId"] as? String else { return response }
        let repeated = seen.withLock { !$0.insert(id).inserted }
        return repeated ? response.editingJSON { $0["duplicate"] = false } : response
    }
}

let cherryBreakages: [CherryBreakage] = [
    CherryBreakage("purchase.backend-verifies", "the ledger books the purchase twice", reason: "not exactly one", response: { request, response in
        guard isLedgerRead(request) else { return response }
        return response.editingJSON { object in
            guard var events = object["events"] as? [[String: Any]], var copy = events.first(where: { $0["type"] as? String == "purchase" }) else { return }
            copy["eventId"] = "99999999999999999999"
            events.append(copy)
            object["events"] = events
        }
    }),
    CherryBreakage("purchase.unverified-refused", "an altered signature is accepted", reason: "with an altered signature",
                   transport: { SignatureBlindProxy() }),
    CherryBreakage("purchase.local-refused", "the signature is checked before the Xcode environment", reason: "not 422 transaction_local",
                   response: { request, response in
                       guard isSubmission(request), response.status == 422 else { return response }
                       return errorResponse(422, "transaction_unverified", like: response)
                   }),
    CherryBreakage("subscriber.404-not-active", "a new app user reads as a subscriber", reason: "not 404 subscriber_not_found",
                   response: { request, response in
                       guard isSubscriberRead(request), response.status == 404 else { return response }
                       let user = request.path.split(separator: "/").last.map(String.init) ?? ""
                       return jsonResponse(200, #"{"appUserId": "\#(user)", "asOf": "2026-12-01T08:00:00Z", "accessLevels": {"pro": {"active": true, "state": "active", "productId": "p", "originalTransactionId": "1", "expiresAt": null, "willRenew": false, "revokedAt": null}}}"#, like: response)
                   }),
    CherryBreakage("productset.current", "a package of the selected set is missing", reason: "The packages read as", response: { request, response in
        guard request.method == .get, request.path == CherryWire.Path.currentProductSet, response.status == 200 else { return response }
        return response.editingJSON { object in
            guard var set = object["productSet"] as? [String: Any], var packages = set["packages"] as? [[String: Any]], !packages.isEmpty else { return }
            packages.removeLast()
            set["packages"] = packages
            object["productSet"] = set
        }
    }),
    CherryBreakage("ledger.ids-as-strings", "event ids go through a Double", reason: "character for character", response: { request, response in
        isLedgerRead(request) ? editingEventIds(response) { id in Double(id).map { String(format: "%.0f", $0) } } : response
    }),
    CherryBreakage("ledger.ids-as-strings", "event ids arrive as JSON numbers", reason: "ledger", response: { request, response in
        isLedgerRead(request) ? editingEventIds(response) { id in Int64(id).map { NSNumber(value: $0) } } : response
    }),
    CherryBreakage("duplicate.no-second-event", "a repeat is answered as new", reason: "not marked duplicate", transport: { DuplicateBlindProxy() }),
    CherryBreakage("duplicate.lost-response-retried", "a replay with the same key and body is answered 409", reason: "Could not retry the submission",
                   transport: { ForgetfulReplayProxy() }),
    CherryBreakage("duplicate.lost-response-retried", "a replay with the same key runs the submission again", reason: "a replay must return the original answer",
                   transport: { ReexecutingReplayProxy() }),
    CherryBreakage("purchase.finish-after-acceptance", "the backend never accepts the transaction again after failing", reason: "Could not submit again",
                   response: { request, response in
                       guard isSubmission(request), (200..<300).contains(response.status) else { return response }
                       return errorResponse(503, "unavailable", like: response)
                   }),
    CherryBreakage("restore.transfers-one-purchase", "the old owner keeps the transferred access", reason: "expected 'transferred' and inactive",
                   response: { request, response in
                       guard isSubscriberRead(request) else { return response }
                       return editingLevels(response) { level in
                           if level["state"] as? String == "transferred" { level["state"] = "active"; level["active"] = true }
                       }
                   }),
    CherryBreakage("restore.owner-no-change", "restoring as the owner is answered as new", reason: "not answered duplicate: true",
                   response: { request, response in
                       guard isSubmission(request), let body = request.body, String(decoding: body, as: UTF8.self).contains(#""restore""#) else { return response }
                       return response.editingJSON { $0["duplicate"] = false }
                   }),
    CherryBreakage("cancel.active-until-expiry", "access ends as soon as auto-renew is off", reason: "is not active before expiresAt",
                   response: { request, response in
                       guard isSubscriberRead(request) else { return response }
                       return editingLevels(response) { level in if level["state"] as? String == "cancelled" { level["active"] = false } }
                   }),
    CherryBreakage("expiry.access-ends", "an expired subscription stays active", reason: "is still active", response: { request, response in
        guard isSubscriberRead(request) else { return response }
        return editingLevels(response) { level in if level["state"] as? String == "expired" { level["active"] = true } }
    }),
    CherryBreakage("refund.revokes-access", "a refund leaves revokedAt null", reason: "has no revokedAt", response: { request, response in
        guard isSubscriberRead(request) else { return response }
        return editingLevels(response) { level in if level["state"] as? String == "refunded" { level["revokedAt"] = NSNull() } }
    }),
    CherryBreakage("switch.invalidate-clears", "the broker's revoke does not find the token", reason: "Could not invalidate", request: { request in
        guard request.method == .post, request.path.hasSuffix("/revoke") else { return request }
        var bent = request
        bent.url = request.url.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tok_unknown").appendingPathComponent("revoke")
        return bent
    }),
    CherryBreakage("switch.revoked-token-refused", "a revoked token is accepted", reason: "A revoked token was accepted", response: { request, response in
        guard response.status == 401, request.path == CherryWire.Path.currentProductSet else { return response }
        return jsonResponse(200, #"{"productSet": null}"#, like: response)
    }),
    CherryBreakage("switch.no-cross-user-read", "another user's subscriber reads as not found", reason: "token read the subscriber",
                   response: { request, response in
                       guard isSubscriberRead(request), response.status == 403 else { return response }
                       return errorResponse(404, "subscriber_not_found", like: response)
                   }),
    CherryBreakage("token.one-refresh-on-401", "a revoked token is answered 403", reason: "with a revoked token first", response: { request, response in
        guard response.status == 401, request.path == CherryWire.Path.currentProductSet else { return response }
        return errorResponse(403, "key_mismatch", like: response)
    }),
    CherryBreakage("token.refresh-coalesced", "the broker ignores ttlSeconds and issues 10-second tokens", reason: "30 seconds",
                   response: { request, response in
                       guard request.method == .post, request.path == CherryWire.Path.customerTokens, response.status == 201 else { return response }
                       return response.editingJSON { $0["expiresAt"] = CherryWire.formatTimestamp(Date().addingTimeInterval(10)) }
                   }),
]

@Suite("CherrySub checks against broken backends")
struct CherrySubBrokenTargetTests {
    @Test(arguments: cherryBreakages)
    func aCheckFailsWhenItsRuleIsBroken(_ breakage: CherryBreakage) async throws {
        let target = try CherryEmulatorTarget()
        let results = try await target.run([breakage.checkId], context: target.context(transport: breakage.transport()))
        let result = try #require(results.first)
        let reason = try #require(result.outcome.reason, "\(breakage.checkId) passed although \(breakage.name)")
        #expect(!result.outcome.isWaiting, "\(reason)")
        #expect(reason.contains(breakage.reason), "\(reason)")
    }

    @Test func everyCheckHasAtLeastOneBreakage() {
        #expect(Set(cherryBreakages.map(\.checkId)) == Set(cherrySubCatalog.map(\.id)))
    }
}
