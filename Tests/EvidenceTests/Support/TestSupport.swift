import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// A fixed instant, so journal timestamps (and so hashes) are reproducible.
let fixedDate = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T08:00:00Z
let fixedClock: Clock = { fixedDate }

let projectUUID = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"
let baseURL = "https://sandbox.groovegrow.example"

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTempDir<T>(_ body: (URL) throws -> T) throws -> T {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    return try body(dir)
}

func newCampaign(project: String = projectUUID, baseURL: String = baseURL, name: String? = nil, appId: String = "com.example.app",
                 profile: String = "groovegrow") -> NewCampaign {
    NewCampaign(profile: profile, name: name, appId: appId, appVersion: "2.4.0", build: "311", sdkVersion: "0.0.1", project: project, baseURL: baseURL)
}

/// A store with one campaign (`c1`), one device (`iphone15`), one account (`tester1`) and one running run (`r1`).
struct Seeded {
    let path: String
    let store: EvidenceStore
    let campaign: Campaign
    let device: Device
    let account: StoreAccount
    let run: Run
}

/// A fixed masking key, for tests that compare the chains of two databases (the first entry records the key's id).
let testMaskKey = MaskKey(hex: String(repeating: "5a", count: 32))!

/// The two stores behind the storage seam, for the tests that run over both.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    /// Where a new, empty store goes: a file in `dir`, or a new database on the test server.
    func newLocation(in dir: URL, name: String) throws -> String {
        switch self {
        case .sqlite: return dir.appendingPathComponent(name).path
        case .postgresql: return try PostgresTestServer.shared().newDatabase()
        }
    }

    /// The masking key a new store gets: SQLite's goes in a key file beside it; a PostgreSQL
    /// database's would go in the current folder, so the tests give theirs.
    var maskKey: MaskKey? { self == .postgresql ? testMaskKey : nil }
}

func makeStore(in dir: URL, name: String = "evidence.sqlite", actor: String = "qa", clock: @escaping Clock = fixedClock,
               maskKey: MaskKey? = nil, backend: Backend = .sqlite) throws -> EvidenceStore {
    let (store, created) = try EvidenceStore.create(at: try backend.newLocation(in: dir, name: name), actor: actor, clock: clock,
                                                    maskKey: maskKey ?? backend.maskKey)
    #expect(created)
    return store
}

func seeded(in dir: URL, name: String = "evidence.sqlite", clock: @escaping Clock = fixedClock, backend: Backend = .sqlite) throws -> Seeded {
    let store = try makeStore(in: dir, name: name, clock: clock, backend: backend)
    let campaign = try store.createCampaign(newCampaign())
    let device = try store.addDevice(NewDevice(campaignId: campaign.id, label: "iphone15", kind: "physical", platform: "ios",
                                               model: "iPhone 15", osVersion: "18.1", identifier: "00008120-001A2B3C4D5E6F70"))
    let account = try store.addAccount(NewAccount(campaignId: campaign.id, label: "tester1", store: "apple", account: "sandbox.tester@icloud.com",
                                                  storefront: "USA"))
    let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "purchase-restore-refund", deviceLabel: "iphone15",
                                        accountLabel: "tester1", tester: "Ann"))
    return Seeded(path: store.path, store: store, campaign: campaign, device: device, account: account, run: run)
}

func note(_ runId: String, _ text: String) -> NewEvidence {
    NewEvidence(runId: runId, type: .note, provenance: .manual, details: ["text": .string(text)])
}

// MARK: Raw SQL, behind the store's back

/// Runs SQL on the file (or, for a PostgreSQL URL, with `psql` as the superuser) directly, no
/// growcert checks, as a tamperer would.
func rawExecute(_ path: String, _ sql: String) throws {
    if let database = postgresDatabase(path) {
        try PostgresTestServer.shared().psql(database, postgresDialect(sql))
        return
    }
    let c = try Connection(path: path, create: false)
    try c.execute(sql)
}

/// The rows of a query run on the database directly, each column as text (nil for NULL).
func rawQuery(_ path: String, _ sql: String) throws -> [[String?]] {
    if let database = postgresDatabase(path) {
        let out = try PostgresTestServer.shared().psql(database, postgresDialect(sql))
        return out.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }.map { line in
            line.split(separator: PostgresTestServer.fieldSeparator, omittingEmptySubsequences: false).map { $0 == PostgresTestServer.null ? nil : String($0) }
        }
    }
    let c = try Connection(path: path, create: false)
    return try c.query(sql).map { row in row.values.map { $0.columnText } }
}

/// The test server's database a PostgreSQL URL names; nil for a file.
func postgresDatabase(_ location: String) -> String? {
    guard location.hasPrefix("postgresql://") else { return nil }
    return URLComponents(string: location).map { String($0.path.dropFirst()) }
}

/// SQLite's blob literals (`X'00'`) as PostgreSQL's `bytea` ones: the only difference the tampering SQL meets.
func postgresDialect(_ sql: String) -> String {
    sql.replacing(/X'([0-9A-Fa-f]*)'/) { "'\\x\($0.1)'::bytea" }
}

/// Runs `sql` on the file with the append-only triggers of `tables` dropped first and put back
/// after, exactly as they were: so that only the edit itself is left for verify to find. On
/// PostgreSQL, the session's triggers are off (`session_replication_role = replica`) instead.
func rawExecuteBehindTriggers(_ path: String, tables: [String], _ sql: String) throws {
    if postgresDatabase(path) != nil {
        try rawExecute(path, "SET session_replication_role = replica; " + sql)
        return
    }
    let c = try Connection(path: path, create: false)
    var triggers: [(name: String, sql: String)] = []
    for table in tables {
        triggers += try c.query("SELECT name, sql FROM sqlite_master WHERE type='trigger' AND tbl_name=? ORDER BY name", [.text(table)])
            .map { (try $0.string("name"), try $0.string("sql")) }
    }
    try c.execute(triggers.map { "DROP TRIGGER \($0.name);" }.joined() + sql + ";" + triggers.map { $0.sql + ";" }.joined())
}

func rawScalar(_ path: String, _ sql: String) throws -> String? {
    try rawQuery(path, sql).first?.first ?? nil
}

/// Everything a refused write must leave as it was: the journal's length and head, and every table's row count.
struct StoreSnapshot: Equatable, CustomStringConvertible {
    var journalCount: Int
    var head: String?
    var rowCounts: [String: Int]

    init(_ store: EvidenceStore) throws {
        journalCount = try store.journalCount()
        head = try store.journalHead()?.hash
        var counts: [String: Int] = [:]
        for table in ["campaigns", "devices", "accounts", "runs", "evidence", "blobs", "meta"] {
            counts[table] = Int(try rawScalar(store.path, "SELECT COUNT(*) FROM \(table)") ?? "") ?? -1
        }
        rowCounts = counts
    }

    var description: String { "journal \(journalCount) entries, head \(head ?? "nil"), rows \(rowCounts.sorted { $0.key < $1.key })" }
}

/// Expects `body` to throw an `EvidenceError` (equal to `expected` and/or described as `message`, when given),
/// and the store to be exactly as it was before.
func expectRefused(_ store: EvidenceStore, _ expected: EvidenceError? = nil, message: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
    let before = try StoreSnapshot(store)
    do {
        try body()
        Issue.record("expected the write to be refused, but it succeeded", sourceLocation: sourceLocation)
    } catch let error as EvidenceError {
        if let expected { #expect(error == expected, sourceLocation: sourceLocation) }
        if let message { #expect(error.description == message, sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected an EvidenceError, got \(error)", sourceLocation: sourceLocation)
    }
    let after = try StoreSnapshot(store)
    #expect(after == before, "a refused write changed the store", sourceLocation: sourceLocation)
}

/// The bytes of the database file and its WAL, for "nothing at rest" checks.
func fileBytes(_ path: String) -> [UInt8] {
    var out: [UInt8] = []
    for p in [path, path + "-wal"] {
        if let d = FileManager.default.contents(atPath: p) { out += d }
    }
    return out
}

/// Whether the database file or its WAL holds `needle`'s UTF-8 bytes anywhere.
func fileContains(_ path: String, _ needle: String) -> Bool { fileBytes(path).contains(needle) }

/// The SHA-256 of the database file and its WAL, to check a file was left untouched.
func fileDigest(_ path: String) -> String { Digest.sha256Hex(fileBytes(path)) }

extension Array where Element == UInt8 {
    func contains(_ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard !n.isEmpty, n.count <= count else { return false }
        for i in 0...(count - n.count) where self[i] == n[0] && Array(self[i..<(i + n.count)]) == n { return true }
        return false
    }
}

/// Runs `body(i)` for i in 0..<count, each on its own thread, and waits for all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let t = Thread {
            body(i)
            group.leave()
        }
        t.start()
    }
    group.wait()
}

/// Collects values from several threads.
final class Collector<T: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched with `lock` held.
    private let lock = NSLock()
    private var items: [T] = []

    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}
