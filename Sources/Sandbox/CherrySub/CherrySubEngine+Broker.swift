import RFC3339Time
import CherryClient
import Foundation

// Broker endpoints (secret key). Called under the backend's mutex.
extension CherrySubEngine {
    mutating func issueToken(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryTokenRequest.self, from: body)
        try requireIdentifier(request.appUserId, "appUserId")
        guard CherryWire.tokenTTLRange.contains(request.ttlSeconds) else {
            throw CherrySubFailure(.invalidRequest,
                                   "'ttlSeconds' must be from \(CherryWire.tokenTTLRange.lowerBound) to \(CherryWire.tokenTTLRange.upperBound).")
        }
        let token = RandomText.base62(count: 43)
        let tokenId = counters.sequences.make(CherrySubCounters.tokenIdPrefix)
        let expiresAt = now.addingTimeInterval(TimeInterval(request.ttlSeconds))
        state.tokens[token] = CherrySubState.Token(tokenId: tokenId, appUserId: request.appUserId,
                                                   publishableKey: publishableKey, expiresAt: expiresAt)
        state.tokenById[tokenId] = token
        return CherrySubReply.json(201, CherryIssuedToken(customerToken: token, tokenId: tokenId, appUserId: request.appUserId,
                                                          expiresAt: RFC3339.format(expiresAt)))
    }

    mutating func revokeToken(tokenId: String) throws(CherrySubFailure) -> Reply {
        guard let token = state.tokenById[tokenId] else {
            throw CherrySubFailure(.notFound, "No customer token with tokenId '\(tokenId)'.")
        }
        state.tokens[token]?.revoked = true
        return CherrySubReply.noContent
    }
}
