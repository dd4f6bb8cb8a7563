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
}
