import Foundation
import HTTPCore
import Synchronization

/// The app-side client core for CherrySub: what the AppVisionIAP SDK does, speaking the staging contract.
///
/// Customer calls carry a customer token from the broker, cached per app user and
/// refreshed when within 30 seconds of `expiresAt` (simultaneous refreshes for
/// one user share one broker call). A `401` on a customer call forces one refresh
/// and one retry of the same request; a second `401` is the caller's error.
/// Every request carries the publishable key; every `POST` an `Idempotency-Key`.
/// Time comes from the injected `now`, never from the system clock directly.
package final class CherrySubClient: Sendable {
    /// Target and publishable key of every request.
    package let configuration: CherryClientConfiguration
    private let executor: CherryRequestExecutor
    private let broker: any TokenBroker
    private let tokens: TokenCache

    private struct PendingKey: Hashable {
        let appUserId: String
        let transactionId: String
    }

    private struct Pending {
        let idempotencyKey: String
        let body: Data
    }

    // Submissions not yet accepted with a 2xx, so a retry resends the same key and body.
    private let pending = Mutex<[PendingKey: Pending]>([:])

    /// A client with no tokens.
    ///
    /// - Parameters:
    ///   - broker: the app's backend that issues and revokes customer tokens.
    ///   - now: the clock that decides when a token needs refreshing.
    ///   - makeIdempotencyKey: generates keys for POSTs the caller gives none for (default: a random UUID).
    package init(configuration: CherryClientConfiguration, transport: any HTTPTransport = CurlTransport(),
                broker: any TokenBroker, now: @escaping @Sendable () -> Date,
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        self.configuration = configuration
        self.executor = CherryRequestExecutor(configuration: configuration, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
        self.broker = broker
        self.tokens = TokenCache(broker: broker, now: now)
    }

    // MARK: Customer calls

    /// The current product set (`GET /v1/product-sets/current`), its packages sorted by `position`; nil when none is selected.
    package func currentProductSet(appUserId: String) async throws -> CherryProductSet? {
        let (answer, _): (CherryCurrentProductSet, Int) = try await customerCall(
            appUserId: appUserId, method: .get, path: CherryWire.Path.currentProductSet, query: [(CherryWire.Query.appUserId, appUserId)])
        guard var set = answer.productSet else { return nil }
        set.packages = set.packages.enumerated()
            .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
            .map(\.element)
        return set
    }

    /// The subscriber (`GET /v1/subscribers/{appUserId}`); `404 subscriber_not_found` is `.notFound`, which is no access.
    package func subscriber(appUserId: String) async throws -> CherrySubscriberLookup {
        do {
            let (subscriber, _): (CherrySubscriber, Int) = try await customerCall(
                appUserId: appUserId, method: .get, path: CherryWire.Path.subscriber(appUserId))
            return .subscriber(subscriber)
        } catch let error as CherryClientError where error.code == .subscriberNotFound {
            return .notFound
        }
    }

    /// One ledger page (`GET /v1/subscribers/{appUserId}/ledger`); `after` is an `eventId` (exclusive), `limit` 1–500.
    package func ledger(appUserId: String, after: String? = nil, limit: Int? = nil) async throws -> CherryLedgerPage {
        var query: [(String, String)] = []
        if let after { query.append((CherryWire.Query.after, after)) }
        if let limit {
            guard CherryWire.ledgerLimitRange.contains(limit) else {
                throw CherryClientError.invalidArgument(
                    "The ledger limit must be between \(CherryWire.ledgerLimitRange.lowerBound) and \(CherryWire.ledgerLimitRange.upperBound); got \(limit).")
            }
            query.append((CherryWire.Query.limit, String(limit)))
        }
        let (page, _): (CherryLedgerPage, Int) = try await customerCall(
            appUserId: appUserId, method: .get, path: CherryWire.Path.ledger(appUserId), query: query)
        return page
    }

    /// Submits a StoreKit 2 transaction's JWS (`POST /v1/apple/transactions`).
    ///
    /// `idempotencyKey` defaults to a fresh one; pass the same key to retry the same submission.
    package func submitAppleTransaction(appUserId: String, signedTransaction: String, source: CherryTransactionSource,
                                       idempotencyKey: String? = nil) async throws -> CherrySubmission {
        let key = try executor.idempotencyKey(idempotencyKey)
        let body = try executor.encode(CherryTransactionSubmission(appUserId: appUserId, signedTransaction: signedTransaction, source: source))
        return try await submit(appUserId: appUserId, body: body, idempotencyKey: key)
    }

    /// Submits a StoreKit transaction and finishes it only once CherrySub accepted it, as the SDK does.
    ///
    /// An unverified transaction is refused here (`unverifiedTransaction`) and nothing is sent.
    /// After a `2xx`, `finish()` is called. On any failure the transaction stays unfinished and
    /// the submission is kept: calling this again for the same app user and transaction sends the
    /// same `Idempotency-Key` and the same body (the first `source`), whatever `source` is given then.
    package func submitAndFinishAppleTransaction(appUserId: String, transaction: StoreTransaction,
                                                source: CherryTransactionSource) async throws -> CherrySubmission {
        guard transaction.isVerified else {
            throw CherryClientError.unverifiedTransaction(transactionId: transaction.transactionId)
        }
        let key = PendingKey(appUserId: appUserId, transactionId: transaction.transactionId)
        let fresh = Pending(
            idempotencyKey: try executor.idempotencyKey(nil),
            body: try executor.encode(CherryTransactionSubmission(appUserId: appUserId, signedTransaction: transaction.signedTransaction,
                                                                  source: source)))
        let submission = pending.withLock { all in
            if let kept = all[key] { return kept }
            all[key] = fresh
            return fresh
        }
        let answer = try await submit(appUserId: appUserId, body: submission.body, idempotencyKey: submission.idempotencyKey)
        await transaction.finish()
        pending.withLock { all in
            if all[key]?.idempotencyKey == submission.idempotencyKey { all[key] = nil }
        }
        return answer
    }

    /// The `Idempotency-Key` of a submission kept for retry (not yet accepted), if any.
    package func pendingSubmissionKey(appUserId: String, transactionId: String) -> String? {
        pending.withLock { $0[PendingKey(appUserId: appUserId, transactionId: transactionId)]?.idempotencyKey }
    }

    // MARK: Tokens

    /// Logout: forgets `appUserId`'s token and kept submissions, then revokes the token through the broker.
    ///
    /// The client holds nothing of that user afterwards, even when the revoke fails (its error is thrown);
    /// the next call for the user asks the broker for a new token.
    package func invalidate(appUserId: String) async throws {
        let dropped = await tokens.invalidate(appUserId)
        pending.withLock { all in
            for key in all.keys where key.appUserId == appUserId { all[key] = nil }
        }
        if let dropped { try await broker.revoke(tokenId: dropped.tokenId) }
    }

    /// Whether the client holds anything of `appUserId` (a token, a refresh in flight, a kept submission).
    package func holdsState(for appUserId: String) async -> Bool {
        if await tokens.holds(appUserId) { return true }
        return pending.withLock { all in all.keys.contains { $0.appUserId == appUserId } }
    }

    // MARK: Plumbing

    private func submit(appUserId: String, body: Data, idempotencyKey: String) async throws -> CherrySubmission {
        let (result, status): (CherryTransactionResult, Int) = try await customerCall(
            appUserId: appUserId, method: .post, path: CherryWire.Path.appleTransactions, body: body, idempotencyKey: idempotencyKey)
        return CherrySubmission(status: status, result: result, idempotencyKey: idempotencyKey)
    }

    /// One customer request; on `401` one forced token refresh and one retry of the same request.
    private func customerCall<Response: Decodable>(appUserId: String, method: HTTPMethod, path: String,
                                                   query: [(String, String)] = [], body: Data? = nil,
                                                   idempotencyKey: String? = nil) async throws -> (Response, Int) {
        // Fixed before the first attempt, so the retry after a 401 is the same request.
        let key = method == .post ? try executor.idempotencyKey(idempotencyKey) : nil
        var token = try await tokens.token(for: appUserId)
        var secrets = [token.customerToken]
        var response = try await executor.exchange(
            executor.request(method: method, path: path, query: query, body: body, bearer: token.customerToken, idempotencyKey: key))
        if response.status == 401 {
            token = try await tokens.replacement(for: appUserId, rejected: token)
            secrets.append(token.customerToken)
            response = try await executor.exchange(
                executor.request(method: method, path: path, query: query, body: body, bearer: token.customerToken, idempotencyKey: key))
        }
        return (try executor.decode(response, as: Response.self, secrets: secrets), response.status)
    }
}
