import Evidence
import Foundation
import Services
import Testing

/// The services are a library: a test calls them directly, with no `growcert` process and no argv,
/// and gets their domain errors, which name no flag and no command line.
@Suite struct ServicesWithoutAProcessTests {
    func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-services-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aCheckRunNamingARunAndACampaignIsRefusedBeforeAnythingIsRead() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let request = CheckRunRequest(runId: "r1", campaignId: "c1", customerId: "c_1")
        await #expect(throws: ServiceError.runOrCampaign) {
            _ = try await CheckRunService(store: store).runAll(request) { _ in }
        }
    }

    @Test func theDemoRefusesAnUnknownProfileAndAnExistingDatabase() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let unknown = DemoService(outDirectory: dir, actor: "test", clock: { Date() }, profile: "acme") { _ in }
        await #expect(throws: ServiceError.demoUnknownProfile("acme", known: ["groovegrow", "cherrysub"])) {
            _ = try await unknown.run()
        }
        _ = FileManager.default.createFile(atPath: dir + "/growcert.sqlite", contents: Data())
        let again = DemoService(outDirectory: dir, actor: "test", clock: { Date() }) { _ in }
        await #expect(throws: ServiceError.demoDatabaseExists(path: dir + "/growcert.sqlite")) {
            _ = try await again.run()
        }
    }

    /// A timestamp authority that answers every query with HTTP 500.
    struct FailingAuthority: TimestampPoster {
        func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) { (500, []) }
    }

    @Test func aFreshDatabaseIsIntactAndAnAnchorTheAuthorityRefusesStoresNothing() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        try VerifyService(store: store).requireIntact(before: "judged")
        let tsa = URL(string: "http://127.0.0.1:9/tsa")!
        let expected: ServiceError = try store.journalHead() == nil ? .journalEmpty : .timestampAuthorityStatus(url: tsa.absoluteString, status: 500)
        await #expect(throws: expected) {
            _ = try await AnchorService(store: store, poster: FailingAuthority()).anchor(tsa: tsa)
        }
        #expect(try store.anchors().isEmpty)
    }

    /// Every case but `tokenCommandCannotRevoke`, whose words are a failed check's recorded reason (see its description).
    @Test("A service's own words name no flag, no exit code and no growcert command line",
          arguments: ServiceErrorSamples.all.filter { $0 != .tokenCommandCannotRevoke })
    func wordsNameNoCommandLine(error: ServiceError) {
        let text = error.description
        #expect(!text.contains("--"), "\(text)")
        #expect(!text.contains("growcert ") || text.contains("growcert mints"), "\(text)")
        #expect(!text.contains("GROWCERT_"), "\(text)")
        #expect(!text.contains("exit 6") && !text.contains("exit 7"), "\(text)")
    }
}
