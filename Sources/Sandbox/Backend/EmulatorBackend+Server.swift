import Foundation
import GrowClient

// Server endpoints and `/_emulator` control. Called with the backend's lock held.
extension EmulatorBackend {
    func issueToken(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireTokenRequest.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw APIFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        guard (1...86_400).contains(request.ttlSeconds) else {
            throw APIFailure(.invalidRequest, "'ttlSeconds' must be from 1 to 86400.")
        }
        if state.customers[request.customerId] == nil {
            state.customers[request.customerId] = EmulatorState.Customer()
        }
        let token = RandomText.base62(count: 43)
        let expiresAt = clock.now().addingTimeInterval(TimeInterval(request.ttlSeconds))
        state.tokens[token] = EmulatorState.Token(customerId: request.customerId, expiresAt: expiresAt)
        return .json(201, WireIssuedToken(customerToken: token, customerId: request.customerId, projectId: projectText,
                                          environment: Wire.environment, expiresAt: RFC3339.format(expiresAt)))
    }

    func consoleCustomer(customerId: String) throws(APIFailure) -> Reply {
        guard state.customers[customerId] != nil else {
            throw APIFailure(.notFound, "No customer '\(customerId)'.")
        }
        return .json(200, holdingsBody(customerId: customerId))
    }

    // MARK: /_emulator

    func putCustomer(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireEmulatorCustomer.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw APIFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        // Entries naming another customer are kept as sent: tests use them to check that clients notice.
        let existed = state.customers[request.customerId] != nil
        var customer = state.customers[request.customerId] ?? EmulatorState.Customer()
        customer.memberships = request.memberships
        customer.balances = request.balances
        state.customers[request.customerId] = customer
        return .json(existed ? 200 : 201, holdingsBody(customerId: request.customerId))
    }

    func createRunToken(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireEmulatorRunTokenRequest.self, from: body)
        guard Self.isValidIdentifier(request.customerId) else {
            throw APIFailure(.invalidRequest, "'customerId' must be 1 to 128 visible ASCII characters without '/'.")
        }
        guard (1...50).contains(request.steps.count) else {
            throw APIFailure(.invalidRequest, "A run token needs 1 to 50 steps.")
        }
        for (index, step) in request.steps.enumerated() {
            guard step.store == Vocabulary.Store.apple || step.store == Vocabulary.Store.google else {
                throw APIFailure(.invalidRequest, "steps[\(index)].store must be '\(Vocabulary.Store.apple)' or '\(Vocabulary.Store.google)'.")
            }
            guard Self.isValidIdentifier(step.productId) else {
                throw APIFailure(.invalidRequest, "steps[\(index)].productId must be 1 to 128 visible ASCII characters without '/'.")
            }
            guard !step.points.isNegative else {
                throw APIFailure(.invalidRequest, "steps[\(index)].points must not be negative.")
            }
        }
        if state.customers[request.customerId] == nil {
            state.customers[request.customerId] = EmulatorState.Customer()
        }
        let runToken = RandomText.base62(count: 32)
        state.runTokens[runToken] = EmulatorState.RunToken(customerId: request.customerId, steps: request.steps)
        return .json(201, WireEmulatorRunToken(runToken: runToken))
    }

    func purchase(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireEmulatorPurchaseRequest.self, from: body)
        guard var order = state.orders[request.orderId] else {
            throw APIFailure(.notFound, "No order '\(request.orderId)'.")
        }
        if let key = order.transactionKey, let existing = state.purchases[key] {
            return .json(200, existing.wire)
        }
        let key: String
        let wire: WireEmulatorPurchase
        if order.step.store == Vocabulary.Store.apple {
            key = counters.transactionId()
            let jws: String
            do {
                jws = try signer.sign(applePayload(order: order, transactionId: key))
            } catch {
                throw APIFailure(.unavailable, "The emulator could not sign the transaction: \(error)")
            }
            wire = WireEmulatorPurchase(transactionId: key, signedTransaction: jws, purchaseToken: nil)
        } else {
            key = RandomText.base62(count: 48)
            wire = WireEmulatorPurchase(transactionId: nil, signedTransaction: nil, purchaseToken: key)
        }
        state.purchases[key] = EmulatorState.Purchase(orderId: order.orderId, store: order.step.store,
                                                      productId: order.step.productId, wire: wire)
        state.purchaseOrder.append(key)
        order.transactionKey = key
        if order.status == Vocabulary.OrderStatus.created {
            order.status = Vocabulary.OrderStatus.pending
        }
        state.orders[order.orderId] = order
        return .json(201, wire)
    }

    func refund(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireEmulatorRefundRequest.self, from: body)
        guard let order = applyRefund(transactionKey: request.transactionId) else {
            throw APIFailure(.notFound, "The store has no purchase with that transactionId.")
        }
        return .json(200, wireOrder(order))
    }

    func setFault(body: Data) throws(APIFailure) -> Reply {
        let request = try decode(WireEmulatorFault.self, from: body)
        guard request.path.hasPrefix("/"), !request.path.hasPrefix(Wire.Path.emulatorPrefix) else {
            throw APIFailure(.invalidRequest, "'path' must be an API path such as '\(Wire.Path.holdings)'; \(Wire.Path.emulatorPrefix) paths cannot be faulted.")
        }
        var fault = state.faults[request.path] ?? EmulatorState.Fault()
        if let delay = request.delayMs {
            guard (0...60_000).contains(delay) else {
                throw APIFailure(.invalidRequest, "'delayMs' must be from 0 to 60000.")
            }
            fault.delayMs = delay
        }
        if let count = request.failNext {
            guard (0...10_000).contains(count) else {
                throw APIFailure(.invalidRequest, "'failNext' must be from 0 to 10000.")
            }
            fault.failNext = count
        }
        if let status = request.status {
            guard [429, 500, 502, 503, 504].contains(status) else {
                throw APIFailure(.invalidRequest, "'status' must be 429, 500, 502, 503 or 504.")
            }
            fault.status = status
        } else if request.failNext != nil {
            fault.status = 503
        }
        state.faults[request.path] = (fault.delayMs == 0 && fault.failNext == 0) ? nil : fault
        return .json(200, WireEmulatorFault(path: request.path, delayMs: fault.delayMs, failNext: fault.failNext, status: fault.status))
    }

    func reset() -> Reply {
        state = EmulatorState()
        return .json(200, [String: String]())
    }

    private func applePayload(order: EmulatorState.Order, transactionId: String) -> AppleTransactionPayload {
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
