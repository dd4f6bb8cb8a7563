import Evidence
import Foundation

/// Timestamps the journal head with an RFC 3161 authority and stores the token: for `growcert anchor`.
package struct AnchorService {
    /// The evidence store whose journal head is anchored and which keeps the token.
    package let store: EvidenceStore
    /// Posts the timestamp query to the authority.
    package var poster: TimestampPoster = CurlTimestampPoster()

    /// Anchors `store`'s journal head, posting through `poster`.
    package init(store: EvidenceStore, poster: TimestampPoster = CurlTimestampPoster()) {
        self.store = store
        self.poster = poster
    }

    /// Requests a token over the current head from `tsa`, checks the answer, and stores it.
    package func anchor(tsa: URL) async throws -> AnchorRecord {
        guard let head = try store.journalHead() else { throw ServiceError.journalEmpty }
        let request = try TimestampToken.request(head: head.hash)
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await poster.post(request.der, to: tsa)
        } catch {
            throw ServiceError.timestampAuthorityUnreachable(url: tsa.absoluteString, reason: "\(error)")
        }
        guard answer.status == 200 else {
            throw ServiceError.timestampAuthorityStatus(url: tsa.absoluteString, status: answer.status)
        }
        let granted: TimestampToken.Granted
        do {
            granted = try TimestampToken.check(response: answer.body, for: request)
        } catch let failure as TimestampToken.Failure {
            throw ServiceError.timestampAnswerRefused(url: tsa.absoluteString, reason: "\(failure)")
        }
        return try store.addAnchor(headSeq: head.seq, headHash: head.hash, tsaURL: tsa.absoluteString, token: granted.token)
    }
}
