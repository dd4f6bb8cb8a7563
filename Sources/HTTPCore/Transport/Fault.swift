/// A fault `FaultInjectingTransport` can impose on a request.
package enum Fault: Sendable, Hashable {
    /// Forward the request, then hold the response back for this long before returning it.
    case delayResponse(Duration)
    /// Forward the request (the server acts on it), then throw `TransportError.connectionLost`.
    case loseResponse
    /// Throw `TransportError.connectionRefused` without sending anything.
    case refuseConnection
    /// Wait `after` (zero: not at all), then throw `TransportError.timeout` without sending anything.
    case timeout(after: Duration)
}

/// How many matching requests a fault applies to.
package enum FaultRepetition: Sendable, Hashable {
    /// The next matching request only.
    case once
    /// The next `n` matching requests.
    case times(Int)
    /// Every matching request until removed.
    case always
}
