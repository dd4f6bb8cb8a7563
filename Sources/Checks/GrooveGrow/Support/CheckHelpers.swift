import GrowClient

/// Runs `body` and returns what happened as a value, so a check can inspect an expected failure.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

/// How an error reads in a failure reason: the contract status and code where there is one.
func summary(_ error: any Error) -> String {
    guard let error = error as? GrowClientError else { return String(describing: error) }
    switch error {
    case .unauthorized(let code): return "401 " + (code == .unspecified ? "(no code)" : code.rawValue)
    case .scopeMismatch: return "403 scope_mismatch"
    case .forbidden: return "403 forbidden"
    case .notFound: return "404 not_found"
    case .conflict: return "409 idempotency_conflict"
    case .invalidRequest: return "400 invalid_request"
    case .retryable(.server(let status)): return "\(status) unavailable"
    case .retryable(.rateLimited): return "429 rate_limited"
    case .notAuthenticated: return "a local refusal (no customer identified)"
    default: return error.description
    }
}

/// What a session client still holds: the names of the non-empty parts.
func leftovers(of client: any SessionClient) async -> [String] {
    var found: [String] = []
    if await client.hasCustomerToken { found.append("the customer token") }
    if await client.currentSession != nil { found.append("the session") }
    if await client.snapshot != nil { found.append("the holdings snapshot") }
    return found
}
