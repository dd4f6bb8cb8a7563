import HTTPCore

/// Injected faults per API path: a delay on every request and/or failing the next N requests with a status.
///
/// The vendor turns a failure into its own error body (`rate_limited` for 429, `unavailable` otherwise).
struct FaultTable: Sendable {
    /// One path's fault.
    struct Fault: Sendable, Equatable {
        var delayMs: Int = 0
        var failNext: Int = 0
        var status: Int = 503
    }

    /// The statuses a fault may fail with.
    static let statuses = [429, 500, 502, 503, 504]

    private var faults: [String: Fault] = [:]

    /// What a request to `path` meets: the delay to wait, and the status to fail with (nil: serve normally).
    mutating func trip(path: String) -> (delayMs: Int, failStatus: Int?) {
        guard var fault = faults[path] else { return (0, nil) }
        guard fault.failNext > 0 else { return (fault.delayMs, nil) }
        fault.failNext -= 1
        faults[path] = fault
        return (fault.delayMs, fault.status)
    }

    /// Applies a `/_emulator/faults` body and returns the path's fault as the answer's body.
    mutating func apply(_ body: EmulatorFaultBody, controlPrefix: String, examplePath: String) throws(RequestProblem) -> EmulatorFaultBody {
        let fault = try set(path: body.path, delayMs: body.delayMs, failNext: body.failNext, status: body.status,
                            controlPrefix: controlPrefix, examplePath: examplePath)
        return EmulatorFaultBody(path: body.path, delayMs: fault.delayMs, failNext: fault.failNext, status: fault.status)
    }

    /// Sets the fault of `path` (nil values keep the current setting; `failNext` without `status` fails with 503)
    /// and returns it. Paths under `controlPrefix` cannot be faulted; `examplePath` names one that can.
    mutating func set(path: String, delayMs: Int?, failNext: Int?, status: Int?,
                      controlPrefix: String, examplePath: String) throws(RequestProblem) -> Fault {
        guard path.hasPrefix("/"), !path.hasPrefix(controlPrefix) else {
            throw RequestProblem("'path' must be an API path such as '\(examplePath)'; \(controlPrefix) paths cannot be faulted.")
        }
        var fault = faults[path] ?? Fault()
        if let delayMs {
            guard (0...60_000).contains(delayMs) else { throw RequestProblem("'delayMs' must be from 0 to 60000.") }
            fault.delayMs = delayMs
        }
        if let failNext {
            guard (0...10_000).contains(failNext) else { throw RequestProblem("'failNext' must be from 0 to 10000.") }
            fault.failNext = failNext
        }
        if let status {
            guard Self.statuses.contains(status) else { throw RequestProblem("'status' must be 429, 500, 502, 503 or 504.") }
            fault.status = status
        } else if failNext != nil {
            fault.status = 503
        }
        faults[path] = (fault.delayMs == 0 && fault.failNext == 0) ? nil : fault
        return fault
    }
}
