import Evidence
import Foundation
import Testing
import TestSupport
@testable import Services

/// Timestamping the journal head, called directly with a timestamp authority in the test process.
@Suite struct AnchorServiceTests {
    /// The test authority (`TestTimestampAuthority`) answering each query in this process: no server, no network.
    struct OpenSSLAuthority: TimestampPoster {
        let tsa: TestTimestampAuthority
        var caPEM: String { tsa.caPEM }

        init() throws { tsa = try TestTimestampAuthority() }

        /// The authority's answer to `query`, as the HTTP body it would send.
        func answer(_ query: [UInt8]) throws -> [UInt8] { try tsa.answer(query) }

        func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) { (200, try answer(body)) }
    }

    /// An authority that answers a fixed body.
    struct Fixed: TimestampPoster {
        var status = 200
        var body: [UInt8]
        func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) { (status, self.body) }
    }

    struct Unreachable: TimestampPoster {
        struct Refused: Error, CustomStringConvertible { var description: String { "connection refused" } }
        func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) { throw Refused() }
    }

    static let tsa = URL(string: "http://tsa.example/tsr")!

    @Test("An anchor stores a token over the journal head, which verify accepts with the authority's CA")
    func anAnchorTimestampsTheHead() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let authority = try OpenSSLAuthority()
        let head = try #require(try s.store.journalHead())
        let anchor = try await AnchorService(store: s.store, poster: authority).anchor(tsa: Self.tsa)
        #expect(anchor.headSeq == head.seq && anchor.headHash == head.hash && anchor.tsaURL == Self.tsa.absoluteString)
        #expect(try s.store.anchors().map(\.id) == [anchor.id])
        let pem = try String(contentsOfFile: authority.caPEM, encoding: .utf8)
        let token = try #require(Data(base64Encoded: anchor.token))
        var verifier = try s.verifier()
        verifier.tsaCA = (authority.caPEM, pem)
        verifier.tokens = [("token.der", [UInt8](token))]
        let problems = try verifier.run().problems
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("An authority that cannot be reached, answers an error, or answers what is not a granted response stores nothing")
    func aRefusedAnswerStoresNothing() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let before = try s.journalState()
        let url = Self.tsa.absoluteString
        await #expect(throws: ServiceError.timestampAuthorityUnreachable(url: url, reason: "connection refused")) {
            _ = try await AnchorService(store: s.store, poster: Unreachable()).anchor(tsa: Self.tsa)
        }
        await #expect(throws: ServiceError.timestampAuthorityStatus(url: url, status: 503)) {
            _ = try await AnchorService(store: s.store, poster: Fixed(status: 503, body: [])).anchor(tsa: Self.tsa)
        }
        await #expect(throws: ServiceError.timestampAnswerRefused(url: url, reason: "\(TimestampToken.Failure.notATimestampResponse)")) {
            _ = try await AnchorService(store: s.store, poster: Fixed(body: Array("<html>".utf8))).anchor(tsa: Self.tsa)
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.anchors().isEmpty)
    }

    @Test("An answer replayed from another query (another nonce) is refused, and nothing is stored")
    func aReplayedAnswerIsRefused() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let authority = try OpenSSLAuthority()
        let head = try #require(try s.store.journalHead())
        let earlier = try authority.answer(try TimestampToken.request(head: head.hash).der)
        await #expect(throws: ServiceError.timestampAnswerRefused(url: Self.tsa.absoluteString, reason: "\(TimestampToken.Failure.nonceMismatch)")) {
            _ = try await AnchorService(store: s.store, poster: Fixed(body: earlier)).anchor(tsa: Self.tsa)
        }
        #expect(try s.store.anchors().isEmpty)
    }

    @Test("An answer the authority gave for another head is refused, and a granted token checks only against its own request and head")
    func anAnswerForAnotherHeadIsRefused() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let authority = try OpenSSLAuthority()
        let elsewhere = String(repeating: "a5", count: 32)
        let answer = try authority.answer(try TimestampToken.request(head: elsewhere).der)
        await #expect(throws: ServiceError.timestampAnswerRefused(url: Self.tsa.absoluteString, reason: "\(TimestampToken.Failure.imprintMismatch)")) {
            _ = try await AnchorService(store: s.store, poster: Fixed(body: answer)).anchor(tsa: Self.tsa)
        }
        #expect(try s.store.anchors().isEmpty)

        // The token checks themselves: its own request passes; another nonce, another head or a page that is no answer do not.
        let head = String(repeating: "5a", count: 32)
        let sent = try TimestampToken.request(head: head)
        let granted = try TimestampToken.check(response: try authority.answer(sent.der), for: sent)
        let pem = try String(contentsOfFile: authority.caPEM, encoding: .utf8)
        #expect(try TimestampToken.verify(token: granted.token, head: head, caPEM: pem).serial == granted.serial)
        let reply = try authority.answer(sent.der)
        #expect(throws: TimestampToken.Failure.nonceMismatch) { try TimestampToken.check(response: reply, for: try TimestampToken.request(head: head)) }
        #expect(throws: TimestampToken.Failure.imprintMismatch) { try TimestampToken.check(response: reply, for: try TimestampToken.request(head: elsewhere)) }
        #expect(throws: TimestampToken.Failure.imprintMismatch) { try TimestampToken.verify(token: granted.token, head: elsewhere) }
        #expect(throws: TimestampToken.Failure.notATimestampResponse) { try TimestampToken.check(response: Array("<html>".utf8), for: sent) }
    }

    @Test("A stored token whose signature an insider altered (payload and row, chain recomputed) is found by verify")
    func aTamperedTokenIsFound() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let anchor = try await AnchorService(store: s.store, poster: try OpenSSLAuthority()).anchor(tsa: Self.tsa)
        var der = try #require(Data(base64Encoded: anchor.token))
        der[der.count - 1] ^= 0x01  // the last byte of the signature value
        let forged = der.base64EncodedString()
        try s.rewriteChain(edit: { e in
            if e.kind == "anchor.add" { e.payload = e.payload.replacingOccurrences(of: anchor.token, with: forged) }
        }, tableSQL: { _ in "DROP TRIGGER anchors_no_update; UPDATE anchors SET token='\(forged)' WHERE id='\(anchor.id)';" })
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems.contains { $0.hasPrefix("entry \(anchor.seq): anchor \(anchor.id): the token's signature does not verify with its embedded certificate (") },
                "\(problems)")
    }

    @Test("Stored tokens are checked against the auditor's timestamp CA: another CA's is refused, naming the anchor")
    func aTokenFromAnotherCAIsFound() async throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let anchor = try await AnchorService(store: s.store, poster: try OpenSSLAuthority()).anchor(tsa: Self.tsa)
        let other = try OpenSSLAuthority()
        var verifier = try s.verifier()
        verifier.tsaCA = (other.caPEM, try String(contentsOfFile: other.caPEM, encoding: .utf8))
        let problems = try verifier.run().problems.map(\.description)
        #expect(problems.count == 1 && problems[0].hasPrefix("entry \(anchor.seq): anchor \(anchor.id): the token does not verify to the given timestamp CA ("),
                "\(problems)")
    }

    @Test("Finding 5: a token over the head after a REJECT; the tail and the anchor deleted pass a plain verify, but the token kept outside names a head the journal lacks")
    func anAnchoredHeadWithItsTailDeletedIsFound() async throws {
        let s = try ServiceScratch()
        let (head, failed, _) = try SignoffBindingServiceTests.rejectedAfterFailure(s)
        let authority = try OpenSSLAuthority()
        let anchor = try await AnchorService(store: s.store, poster: authority).anchor(tsa: Self.tsa)
        #expect(anchor.headHash == head)
        try SignoffBindingServiceTests.deleteTail(s, failed: failed, rowsSQL: "DELETE FROM anchors;")
        #expect(try s.verifier().run().problems.isEmpty, "the deletion is expected to pass a plain verify")
        var verifier = try s.verifier()
        verifier.tokens = [("token.der", [UInt8](try #require(Data(base64Encoded: anchor.token))))]
        verifier.tsaCA = (authority.caPEM, try String(contentsOfFile: authority.caPEM, encoding: .utf8))
        #expect(try verifier.run().problems.map(\.description) == [
            "timestamp token 'token.der': the head it timestamps (\(head)) is not an entry of the journal: entries were deleted, or the chain was rebuilt",
        ])
    }
}
