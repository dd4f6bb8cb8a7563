import Synchronization
import Foundation

/// Imposes network faults on chosen requests, passing all others straight through.
///
/// This is product code: the live checks wrap the real Sandbox transport in
/// it to provoke timeouts, lost responses and refused connections. Faults are
/// matched in the order they were added; the first live match applies. Safe
/// to use from many tasks at once.
package final class FaultInjectingTransport: HTTPTransport {
    /// Identifies an injected fault so it can be removed or inspected.
    package struct FaultID: Sendable, Hashable { let raw: Int }

    private struct Rule {
        let id: FaultID
        let matcher: RequestMatcher
        let fault: Fault
        var remaining: Int?  // nil: always
    }

    private let base: any HTTPTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    // Guards the rule list, the id counter and fired counts of removed rules.
    private let state = Mutex<(rules: [Rule], nextID: Int, firedByID: [FaultID: Int])>(([], 1, [:]))

    /// Wraps `base`. `sleep` waits for delays and timeouts; tests pass one that records instead of waiting.
    package init(wrapping base: any HTTPTransport,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.base = base
        self.sleep = sleep
    }

    /// Adds a fault for requests chosen by `matcher`, applying `repetition` times.
    @discardableResult
    package func inject(_ fault: Fault, when matcher: RequestMatcher, repetition: FaultRepetition = .once) -> FaultID {
        state.withLock { s in
            let id = FaultID(raw: s.nextID)
            s.nextID += 1
            let remaining: Int?
            switch repetition {
            case .once: remaining = 1
            case .times(let n): remaining = max(0, n)
            case .always: remaining = nil
            }
            s.rules.append(Rule(id: id, matcher: matcher, fault: fault, remaining: remaining))
            s.firedByID[id] = 0
            return id
        }
    }

    /// Removes one fault; requests it would have matched pass through again.
    package func remove(_ id: FaultID) {
        state.withLock { s in s.rules.removeAll { $0.id == id } }
    }

    /// Removes every fault.
    package func removeAll() {
        state.withLock { s in s.rules.removeAll() }
    }

    /// How many requests fault `id` has been applied to so far.
    package func firedCount(_ id: FaultID) -> Int {
        state.withLock { $0.firedByID[id] ?? 0 }
    }

    /// Whether fault `id` still applies to future requests.
    package func isPending(_ id: FaultID) -> Bool {
        state.withLock { s in s.rules.contains { $0.id == id } }
    }

    /// Applies the first live matching fault, or passes the request straight through.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let fault = take(for: request) else {
            return try await base.send(request)
        }
        switch fault {
        case .delayResponse(let delay):
            let response = try await base.send(request)
            try await sleep(delay)
            return response
        case .loseResponse:
            _ = try await base.send(request)
            throw TransportError.connectionLost
        case .refuseConnection:
            throw TransportError.connectionRefused
        case .timeout(let after):
            if after > .zero { try await sleep(after) }
            throw TransportError.timeout
        }
    }

    /// Finds the first live rule matching `request`, consumes one use of it and returns its fault.
    private func take(for request: HTTPRequest) -> Fault? {
        state.withLock { s in
            guard let index = s.rules.firstIndex(where: { ($0.remaining ?? 1) > 0 && $0.matcher.matches(request) }) else {
                return nil
            }
            s.firedByID[s.rules[index].id, default: 0] += 1
            let fault = s.rules[index].fault
            if let remaining = s.rules[index].remaining {
                if remaining <= 1 { s.rules.remove(at: index) } else { s.rules[index].remaining = remaining - 1 }
            }
            return fault
        }
    }
}
