import Synchronization
import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Checks

/// One way to break one check's rule: a transport that bends the Sandbox, or a flawed client.
struct Breakage: Sendable, CustomTestStringConvertible {
    let checkId: String
    let name: String
    /// A fragment the failure reason must contain.
    let reason: String
    var transport: @Sendable (EmulatorTarget) -> any HTTPTransport = { _ in CurlTransport() }
    var flaws: BrokenClient.Flaws? = nil

    var testDescription: String { "\(checkId) fails when \(name)" }

    static func bending(request: @escaping BreakingTransport.RequestRewrite = { $0 },
                        response: @escaping BreakingTransport.ResponseRewrite = { $1 }) -> @Sendable (EmulatorTarget) -> any HTTPTransport {
        { _ in BreakingTransport(wrapping: CurlTransport(), request: request, response: response) }
    }
}

private func isGet(_ request: HTTPRequest, _ path: String) -> Bool { request.method == .get && request.path.hasSuffix(path) }
private func errorBody(_ code: String) -> Data { Data(#"{"error": {"code": "\#(code)", "message": "bent", "retryable": false}}"#.utf8) }

let breakages: [Breakage] = [
    Breakage(checkId: "session.identify", name: "the session names another customer", reason: "names customer 'c_other'",
             transport: Breakage.bending(response: { request, response in
                 isGet(request, GrowWire.Path.session) ? response.editingJSON { $0["customerId"] = "c_other" } : response
             })),
    Breakage(checkId: "session.rejects-invalid", name: "an invalid token gets 200", reason: "accepted a malformed token",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.session), response.status == 401 else { return response }
                 let body = #"{"customerId": "c_1001", "projectId": "\#(request.headers[GrowWire.Header.project] ?? "")", "environment": "sandbox", "expiresAt": "2099-01-01T00:00:00Z"}"#
                 return HTTPResponse(status: 200, headers: response.headers, body: Data(body.utf8))
             })),
    Breakage(checkId: "session.rejects-expired", name: "an expired token gets token_invalid", reason: "got 401 token_invalid instead of 401 token_expired",
             transport: Breakage.bending(response: { request, response in
                 guard response.status == 401 else { return response }
                 return HTTPResponse(status: 401, headers: response.headers, body: errorBody("token_invalid"))
             })),
    Breakage(checkId: "session.rejects-cross-scope", name: "another project's scope is accepted", reason: "accepted a valid token under another project",
             transport: { target in
                 let project = target.projectText
                 return BreakingTransport(wrapping: CurlTransport(), request: { request in
                     var request = request
                     request.headers[GrowWire.Header.project] = project
                     return request
                 })
             }),
    Breakage(checkId: "session.rejects-cross-scope", name: "environment production is accepted", reason: "under environment 'production'",
             transport: Breakage.bending(request: { request in
                 var request = request
                 request.headers[GrowWire.Header.environment] = "sandbox"
                 return request
             })),
    Breakage(checkId: "holdings.match-console", name: "the console detail differs by 0.01", reason: "12.50 in readHoldings, 12.51 in the console",
             transport: Breakage.bending(response: { request, response in
                 guard request.path.contains("/v1/server/customers/") else { return response }
                 var text = String(decoding: response.body, as: UTF8.self)
                 text = text.replacingOccurrences(of: "\"12.50\"", with: "\"12.51\"")
                 return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
             })),
    Breakage(checkId: "holdings.match-console", name: "holdings say 12.500001 where the console says 12.50", reason: "12.500001 in readHoldings",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.holdings) else { return response }
                 let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\"12.50\"", with: "\"12.500001\"")
                 return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
             })),
    Breakage(checkId: "holdings.match-console", name: "holdings lack a membership the console shows", reason: "is in the console but not in readHoldings",
             transport: Breakage.bending(response: { request, response in
                 isGet(request, GrowWire.Path.holdings) ? response.editingJSON { $0["memberships"] = [] as [Any] } : response
             })),
    Breakage(checkId: "holdings.single-customer", name: "a membership names another customer", reason: "names 'c_intruder'",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.holdings) else { return response }
                 return response.editingJSON { object in
                     guard var memberships = object["memberships"] as? [[String: Any]], !memberships.isEmpty else { return }
                     memberships[0]["customerId"] = "c_intruder"
                     object["memberships"] = memberships
                 }
             })),
    Breakage(checkId: "switch.reset-clears", name: "the client keeps its data after reset", reason: "After reset() the client still holds the customer token, the session, the holdings snapshot",
             flaws: [.keepsDataOnReset]),
    Breakage(checkId: "switch.reset-clears", name: "the client still sends customer calls after reset", reason: "readHoldings sent 1 request(s) to the Sandbox",
             flaws: [.sendsAfterReset]),
    Breakage(checkId: "switch.late-response-dropped", name: "the client applies late responses", reason: "late holdings response was returned as a success",
             flaws: []),
    Breakage(checkId: "switch.restart-needs-auth", name: "a fresh client restores the old token from disk", reason: "A freshly created client already holds the customer token",
             flaws: [.writesTokenToDisk, .restoresTokenFromDisk]),
    Breakage(checkId: "switch.restart-needs-auth", name: "the token is written to disk", reason: "customer token was written to disk",
             flaws: [.writesTokenToDisk]),
    Breakage(checkId: "network.failure-is-retryable", name: "a 503 is turned into a 200 with stale data", reason: "A 503 from the Sandbox was reported as success",
             transport: { target in
                 let stale = Mutex<Data?>(nil)
                 return BreakingTransport(wrapping: CurlTransport(), response: { request, response in
                     guard isGet(request, GrowWire.Path.holdings) else { return response }
                     if response.status == 200 { stale.withLock { $0 = response.body } }
                     guard response.status == 503, let body = stale.withLock({ $0 }) else { return response }
                     return HTTPResponse(status: 200, headers: response.headers, body: body)
                 })
             }),
    Breakage(checkId: "network.failure-is-retryable", name: "the client turns a refused connection into stale success", reason: "A refused connection was reported as success",
             flaws: [.swallowsFailures]),
    Breakage(checkId: "network.retry-replays-original", name: "the retry reaches the Sandbox under a new key", reason: "Could not retry POST /v1/funnels with the same key and body: The resource, run token or order was not found",
             transport: Breakage.bending(request: { request in
                 guard request.method == .post, request.path.hasSuffix(GrowWire.Path.funnels) else { return request }
                 var request = request
                 request.headers[GrowWire.Header.idempotencyKey] = UUID().uuidString
                 return request
             })),
    Breakage(checkId: "purchase.delivered-once", name: "the ledger holds a duplicate grant", reason: "The ledger has 2 grants",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.ledger) else { return response }
                 return response.editingJSON { object in
                     guard var entries = object["entries"] as? [[String: Any]],
                           var grant = entries.first(where: { $0["kind"] as? String == "grant" }) else { return }
                     grant["eventId"] = "99999999999999999999"
                     entries.append(grant)
                     object["entries"] = entries
                 }
             })),
    Breakage(checkId: "purchase.delivered-once", name: "the order is not delivered", reason: "is 'pending', not delivered",
             transport: Breakage.bending(response: { request, response in
                 request.method == .get && request.path.contains("/v1/orders/") ? response.editingJSON { $0["status"] = "pending" } : response
             })),
    Breakage(checkId: "purchase.resubmit-idempotent", name: "a resubmission returns a new receiptId", reason: "returned receipt 'r_forged'",
             transport: Breakage.bending(response: { request, response in
                 request.method == .post && request.path.hasSuffix("/receipts") ? response.editingJSON { $0["receiptId"] = "r_forged" } : response
             })),
    Breakage(checkId: "restore.no-double-grant", name: "recover reports newlyGranted true", reason: "newlyGranted: true",
             transport: Breakage.bending(response: { request, response in
                 guard request.path.hasSuffix(GrowWire.Path.relayRecover) else { return response }
                 return response.editingJSON { object in
                     object["recovered"] = (object["recovered"] as? [[String: Any]] ?? []).map { var o = $0; o["newlyGranted"] = true; return o }
                 }
             })),
    Breakage(checkId: "relay.requires-double-auth", name: "the relay accepts the customer token alone", reason: "accepted a recover request with only the customer token",
             transport: { target in
                 let key = target.emulator.serverKey
                 return BreakingTransport(wrapping: CurlTransport(), request: { request in
                     guard request.path.hasSuffix(GrowWire.Path.relayRecover), request.headers[GrowWire.Header.serverKey] == nil else { return request }
                     var request = request
                     request.headers[GrowWire.Header.serverKey] = key
                     return request
                 })
             }),
    Breakage(checkId: "refund.revokes-and-records", name: "the refunded order stays delivered", reason: "is 'delivered', not refunded",
             transport: Breakage.bending(response: { request, response in
                 request.method == .get && request.path.contains("/v1/orders/") ? response.editingJSON { $0["status"] = "delivered" } : response
             })),
    Breakage(checkId: "refund.revokes-and-records", name: "the refund books a positive amount", reason: "which is not a negative amount",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.ledger) else { return response }
                 return response.editingJSON { object in
                     object["entries"] = (object["entries"] as? [[String: Any]] ?? []).map { entry in
                         guard entry["kind"] as? String == "refund", let amount = entry["amount"] as? String else { return entry }
                         var entry = entry
                         entry["amount"] = String(amount.drop { $0 == "-" })
                         return entry
                     }
                 }
             })),
    Breakage(checkId: "refund.revokes-and-records", name: "the membership is not revoked", reason: "no membership in holdings is revoked",
             transport: Breakage.bending(response: { request, response in
                 guard isGet(request, GrowWire.Path.holdings) else { return response }
                 return response.editingJSON { object in
                     object["memberships"] = (object["memberships"] as? [[String: Any]] ?? []).map { var m = $0; m["status"] = "active"; return m }
                 }
             })),
]

@Suite struct BrokenTargetTests {
    @Test(arguments: breakages)
    func aCheckFailsWhenItsRuleIsBroken(_ breakage: Breakage) async throws {
        let target = try EmulatorTarget()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("session-token")
        var factory: CheckContext.SessionClientFactory?
        if let flaws = breakage.flaws {
            factory = { configuration, transport in
                BrokenClient(configuration: configuration, transport: transport, flaws: flaws, tokenFile: tokenFile)
            }
        }
        let context = target.context(transport: breakage.transport(target), makeSessionClient: factory, diskScanRoots: [directory])
        let result = try await target.runOne(breakage.checkId, context: context)
        let reason = try #require(result.outcome.reason, "\(breakage.checkId) passed although \(breakage.name)")
        #expect(reason.contains(breakage.reason), "\(reason)")
    }

    @Test func everyCheckHasAtLeastOneBreakage() {
        #expect(Set(breakages.map(\.checkId)) == Set(grooveGrowCatalog.map(\.id)))
    }

    @Test func holdingsThatSpellAnAmountDifferentlyStillMatchTheConsole() async throws {
        let target = try EmulatorTarget()
        let transport = BreakingTransport(wrapping: CurlTransport(), response: { request, response in
            guard isGet(request, GrowWire.Path.holdings) else { return response }
            let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\"12.50\"", with: "\"12.5\"")
            return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
        })
        let result = try await target.runOne("holdings.match-console", context: target.context(transport: transport))
        #expect(result.outcome == .passed)
        #expect(result.transcript.contains { $0.responseBody?.contains("\"12.5\"") == true })
    }
}
