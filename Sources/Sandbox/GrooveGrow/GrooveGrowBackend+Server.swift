import RFC3339Time
import Foundation
import GrowClient
import HTTPCore
import StoreProof

// Server endpoints and `/_emulator` control. Called under the backend's mutex.
extension GrooveGrowEngine {
    mutating func issueToken(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireTokenRequest.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw GrooveGrowFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        guard (1...86_400).contains(request.ttlSeconds) else {
            throw GrooveGrowFailure(.invalidRequest, "'ttlSeconds' must be from 1 to 86400.")
        }
        if state.customers[request.customerId] == nil {
            state.customers[request.customerId] = GrooveGrowState.Customer()
        }
        let token = RandomText.base62(count: 43)
        let expiresAt = clock.now().addingTimeInterval(TimeInterval(request.ttlSeconds))
        state.tokens[token] = GrooveGrowState.Token(customerId: request.customerId, expiresAt: expiresAt)
        return .json(201, GrowWireIssuedToken(customerToken: token, customerId: request.customerId, projectId: projectText,
                                          environment: GrowWire.environment, expiresAt: RFC3339.format(expiresAt)))
    }

    func consoleCustomer(customerId: String) throws(GrooveGrowFailure) -> Reply {
        guard state.customers[customerId] != nil else {
            throw GrooveGrowFailure(.notFound, "No customer '\(customerId)'.")
        }
        return .json(200, holdingsBody(customerId: customerId))
    }

    // MARK: /_emulator

    mutating func putCustomer(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireEmulatorCustomer.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw GrooveGrowFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        // Entries naming another customer are kept as sent: tests use them to check that clients notice.
        let existed = state.customers[request.customerId] != nil
        var customer = state.customers[request.customerId] ?? GrooveGrowState.Customer()
        customer.memberships = request.memberships
        customer.balances = request.balances
        state.customers[request.customerId] = customer
        return .json(existed ? 200 : 201, holdingsBody(customerId: request.customerId))
    }

    mutating func createRunToken(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireEmulatorRunTokenRequest.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw GrooveGrowFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        guard (1...50).contains(request.steps.count) else {
            throw GrooveGrowFailure(.invalidRequest, "A run token needs 1 to 50 steps.")
        }
        for (index, step) in request.steps.enumerated() {
            guard step.store == GrowWireVocabulary.Store.apple || step.store == GrowWireVocabulary.Store.google else {
                throw GrooveGrowFailure(.invalidRequest, "steps[\(index)].store must be '\(GrowWireVocabulary.Store.apple)' or '\(GrowWireVocabulary.Store.google)'.")
            }
            guard Self.isValidIdentifier(step.productId) else {
                throw GrooveGrowFailure(.invalidRequest, "steps[\(index)].productId must be 1 to 128 visible ASCII characters without '/'.")
            }
            guard !step.points.isNegative else {
                throw GrooveGrowFailure(.invalidRequest, "steps[\(index)].points must not be negative.")
            }
        }
        if state.customers[request.customerId] == nil {
            state.customers[request.customerId] = GrooveGrowState.Customer()
        }
        let runToken = RandomText.base62(count: 32)
        state.runTokens[runToken] = GrooveGrowState.RunToken(customerId: request.customerId, steps: request.steps)
        return .json(201, GrowWireEmulatorRunToken(runToken: runToken))
    }

    mutating func purchase(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireEmulatorPurchaseRequest.self, from: body)
        guard var order = state.orders[request.orderId] else {
            throw GrooveGrowFailure(.notFound, "No order '\(request.orderId)'.")
        }
        if let key = order.transactionKey, let existing = state.purchases[key] {
            return .json(200, existing.wire)
        }
        let key: String
        let wire: GrowWireEmulatorPurchase
        var googleOrderId: String?
        if order.step.store == GrowWireVocabulary.Store.apple {
            key = counters.transactionId()
            let jws: String
            do {
                jws = try signer.sign(applePayload(order: order, transactionId: key))
            } catch {
                throw GrooveGrowFailure(.unavailable, "The emulator could not sign the transaction: \(error)")
            }
            wire = GrowWireEmulatorPurchase(transactionId: key, signedTransaction: jws, purchaseToken: nil)
        } else {
            key = RandomText.base62(count: 48)
            googleOrderId = counters.make("GPA.0000-0000-0000-")
            let json = googlePurchaseJSON(order: order, purchaseToken: key, googleOrderId: googleOrderId ?? "")
            do {
                wire = GrowWireEmulatorPurchase(transactionId: nil, signedTransaction: nil, purchaseToken: key,
                                            originalJson: String(decoding: json, as: UTF8.self), signature: try signer.signGoogle(json))
            } catch {
                throw GrooveGrowFailure(.unavailable, "The emulator could not sign the purchase: \(error)")
            }
        }
        state.purchases[key] = GrooveGrowState.Purchase(orderId: order.orderId, store: order.step.store,
                                                      productId: order.step.productId, wire: wire, googleOrderId: googleOrderId,
                                                      purchaseType: googleOrderId == nil ? nil : "test")
        state.purchaseOrder.append(key)
        order.transactionKey = key
        if order.status == GrowWireVocabulary.OrderStatus.created {
            order.status = GrowWireVocabulary.OrderStatus.pending
        }
        state.orders[order.orderId] = order
        return .json(201, wire)
    }

    mutating func refund(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireEmulatorRefundRequest.self, from: body)
        guard let order = applyRefund(transactionKey: request.transactionId) else {
            throw GrooveGrowFailure(.notFound, "The store has no purchase with that transactionId.")
        }
        return .json(200, wireOrder(order))
    }

    mutating func setFault(body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireEmulatorFault.self, from: body)
        do throws(RequestProblem) {
            return .json(200, try state.faults.apply(request, controlPrefix: GrowWire.Path.emulatorPrefix, examplePath: GrowWire.Path.holdings))
        } catch {
            throw GrooveGrowFailure(error)
        }
    }

    mutating func reset() -> Reply {
        state = GrooveGrowState()
        return .json(200, [String: String]())
    }

    /// A Play Billing purchase JSON for `order`, in Play's key order, saying `environment: Emulator` (Play's has none):
    /// the bytes the emulator signs.
    private func googlePurchaseJSON(order: GrooveGrowState.Order, purchaseToken: String, googleOrderId: String) -> Data {
        let accountToken = state.customers[order.customerId]?.appAccountToken ?? UUID()
        let fields: [(String, String)] = [
            ("orderId", Self.jsonString(googleOrderId)), ("packageName", Self.jsonString(bundleId)), ("productId", Self.jsonString(order.step.productId)),
            ("purchaseTime", String(RFC3339.milliseconds(clock.now()))), ("purchaseState", "0"), ("purchaseToken", Self.jsonString(purchaseToken)),
            ("obfuscatedAccountId", Self.jsonString(accountToken.uuidString.lowercased())), ("quantity", "1"), ("acknowledged", "false"),
            ("environment", Self.jsonString(StoreProofNames.emulatorEnvironment)),
        ]
        return Data(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    private func applePayload(order: GrooveGrowState.Order, transactionId: String) -> AppleTransactionPayload {
        let now = clock.now()
        let millis = RFC3339.milliseconds(now)
        let subscription = !order.step.tier.isEmpty
        let accountToken = state.customers[order.customerId]?.appAccountToken ?? UUID()
        return AppleTransactionPayload(
            transactionId: transactionId,
            originalTransactionId: transactionId,
            webOrderLineItemId: subscription ? transactionId : nil,
            bundleId: bundleId,
            productId: order.step.productId,
            subscriptionGroupIdentifier: subscription ? order.step.tier : nil,
            purchaseDate: millis,
            originalPurchaseDate: millis,
            expiresDate: subscription ? RFC3339.milliseconds(now.addingTimeInterval(Self.subscriptionPeriod)) : nil,
            quantity: 1,
            type: subscription ? AppleTransactionPayload.subscriptionType : AppleTransactionPayload.consumableType,
            appAccountToken: accountToken.uuidString.lowercased(),
            inAppOwnershipType: "PURCHASED",
            signedDate: millis,
            environment: AppleTransactionPayload.environmentName,
            transactionReason: "PURCHASE",
            storefront: "USA",
            storefrontId: "143441",
            price: 9990,
            currency: "USD"
        )
    }
}
