import Evidence
import Foundation

/// Timestamps the journal head with an RFC 3161 authority and stores the token: for `growcert anchor`.
struct AnchorService {
    let store: EvidenceStore
    var poster: TimestampPoster = CurlTimestampPoster()

    /// Requests a token over the current head from `tsa`, checks the answer, and stores it.
    func anchor(tsa: URL) async throws -> AnchorRecord {
        guard let head = try store.journalHead() else { throw CLIError.data("The journal is empty: there is no head to timestamp.") }
        let request = try TimestampToken.request(head: head.hash)
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await poster.post(request.der, to: tsa)
        } catch {
            throw CLIError.unavailable("Cannot reach the timestamp authority '\(tsa.absoluteString)': \(error). Nothing was stored.")
        }
        guard answer.status == 200 else {
            throw CLIError.unavailable("The timestamp authority '\(tsa.absoluteString)' answered HTTP \(answer.status). Nothing was stored.")
        }
        let granted: TimestampToken.Granted
        do {
            granted = try TimestampToken.check(response: answer.body, for: request)
        } catch let failure as TimestampToken.Failure {
            throw CLIError.data("The answer of the timestamp authority '\(tsa.absoluteString)' was refused: \(failure). Nothing was stored.")
        }
        return try store.addAnchor(headSeq: head.seq, headHash: head.hash, tsaURL: tsa.absoluteString, token: granted.token)
    }
}
