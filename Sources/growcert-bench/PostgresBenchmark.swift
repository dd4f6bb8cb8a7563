import Evidence
import Foundation

/// `postgresql`: the team store on a real server (`GROWCERT_BENCH_PG_URL`, a fresh database that
/// `make bench` makes on a temporary server): ingest through the Evidence API against plain
/// prepared inserts on the same server, and eight writers recording at once.
struct PostgresBenchmark: Benchmark {
    let name = "postgresql"
    static let writers = 8

    func run(_ context: BenchContext) async throws -> BenchResult {
        try await runAll(context)[0]
    }

    func runAll(_ context: BenchContext) async throws -> [BenchResult] {
        guard let url = ProcessInfo.processInfo.environment["GROWCERT_BENCH_PG_URL"] else {
            let why = "GROWCERT_BENCH_PG_URL is not set ('make bench' starts a temporary server and sets it)"
            return [BenchResult.notRun("postgresql ingest", unit: "rows/s", target: "ratio >= 0.3", why: why),
                    BenchResult.notRun("postgresql 8 writers", unit: "entries/s", target: "ratio >= 0.3, verify ok", why: why)]
        }
        // A PostgreSQL store's masking key file is NAME.key in the current folder: keep it in the bench's own
        // folder, not in the checkout `make bench` runs from.
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(context.path(""))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        return [try ingest(context, url: url), try writers(context, url: url)]
    }

    private func ingest(_ context: BenchContext, url: String) throws -> BenchResult {
        let count = context.options.n(20_000)
        let store = try BenchStore.seed(url)
        let seconds = try time { try IngestBenchmark.record(count, into: store) }
        let payloadSize = try store.journalHead()?.payload.utf8.count ?? 300
        let raw = try RawPostgres(url: url)
        let rawSeconds = try time { try raw.insert(count: count, payloadSize: payloadSize, batch: IngestBenchmark.batch) }
        let value = Double(count) / seconds, baseline = Double(count) / rawSeconds
        context.log("postgresql ingest: \(count) entries in \(String(format: "%.2f", seconds)) s; prepared inserts \(String(format: "%.2f", rawSeconds)) s")
        return BenchResult(name: "postgresql ingest", value: value, baseline: baseline, ratio: value / baseline, unit: "rows/s", target: "ratio >= 0.3",
                           met: value / baseline >= 0.3, extra: [("entries", Double(count))])
    }

    /// Eight writers, each its own connection, one entry per transaction (as eight QA machines would), against
    /// the same eight writers doing plain prepared inserts of journal-sized rows, one transaction per row, on the
    /// same server (no journal lock: their commits overlap, which is the floor a chain's single head cannot reach).
    /// A write rate: on each side the clock starts once every writer has its connection open (the baseline's
    /// connected with its insert prepared, growcert's store opened, which checks the schema and the catalog), as
    /// `pgbench` counts without its connections; the opening is timed on its own (`openSeconds`, every writer's at
    /// once), and the rate with it is reported too (`withOpening`). Three rounds, the baseline then growcert, as
    /// `ingest` takes them: each side's figure is its median round (one round of the baseline lasts under half a
    /// second, and single runs of it moved between 4,900 and 11,800 rows/s). growcert's rounds append to the same
    /// store, which is verified at the end.
    private func writers(_ context: BenchContext, url: String) throws -> BenchResult {
        let each = context.options.n(500)
        let payloadSize = try EvidenceStore.openForReading(at: url, actor: "bench").journalHead()?.payload.utf8.count ?? 300
        var timings: [Timing] = []
        var rawTimings: [Timing] = []
        for round in 1...IngestBenchmark.rounds {
            _ = try RawPostgres(url: url, table: .writers)
            rawTimings.append(try Self.concurrently(Self.writers, "baseline writers", open: { _ in try RawPostgres(url: url, table: .writers, create: false) }) { w, raw in
                try raw.insert(count: each, payloadSize: payloadSize, batch: 1, firstSeq: w * each)
            })
            timings.append(try Self.concurrently(Self.writers, "writers", open: { w in try EvidenceStore.open(at: url, actor: "bench\(w)") }) { _, store in
                for i in 0..<each { _ = try store.addEvidence(NewEvidence(runId: "r1", type: .note, provenance: .manual, details: ["text": .string(BenchStore.noteText(i))])) }
            })
            context.log("postgresql 8 writers, round \(round): \(each * Self.writers) entries in \(String(format: "%.2f", timings[round - 1].writing)) s after opening in \(String(format: "%.3f", timings[round - 1].opening)) s; 8 writers of prepared inserts \(String(format: "%.2f", rawTimings[round - 1].writing)) s after connecting in \(String(format: "%.3f", rawTimings[round - 1].opening)) s")
        }
        let verified = try EvidenceStore.openForReading(at: url, actor: "bench").verify().ok
        let total = Double(each * Self.writers)
        let seconds = timings.map(\.writing), rawSeconds = rawTimings.map(\.writing)
        let value = total / median(seconds), baseline = total / median(rawSeconds)
        context.log("postgresql 8 writers: verify \(verified ? "ok" : "FAILED")")
        return BenchResult(name: "postgresql 8 writers", value: value, baseline: baseline, ratio: value / baseline, unit: "entries/s",
                           target: "ratio >= 0.3, verify ok", met: verified && value / baseline >= 0.3,
                           extra: [("entries", total)] + IngestBenchmark.roundFigures(seconds, rawSeconds)
                               + [("openSeconds", median(timings.map(\.opening))), ("baselineOpenSeconds", median(rawTimings.map(\.opening))),
                                  ("withOpening", total / median(timings.map { $0.opening + $0.writing })),
                                  ("baselineWithOpening", total / median(rawTimings.map { $0.opening + $0.writing }))])
    }

    /// One round of writers: the seconds until every one had opened its connection, and from then until all had written.
    struct Timing {
        var opening: Double
        var writing: Double
    }

    /// Runs `open(w)` on `count` threads at once, `w` from 0, and once every thread has opened, `body(w, opened)` on
    /// each; returns the seconds until all had opened, and from then until all had ended. Throws when any failed
    /// (`what` names them).
    private static func concurrently<Opened>(_ count: Int, _ what: String, open: @escaping @Sendable (Int) throws -> Opened,
                                             _ body: @escaping @Sendable (Int, Opened) throws -> Void) throws -> Timing {
        let failures = FailureCount()
        let opened = DispatchGroup(), ended = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let began = monotonicSeconds()
        for w in 0..<count {
            opened.enter()
            ended.enter()
            Thread {
                defer { ended.leave() }
                let connection: Opened
                do { connection = try open(w) } catch { failures.add(); opened.leave(); return }
                opened.leave()
                start.wait()
                do { try body(w, connection) } catch { failures.add() }
            }.start()
        }
        opened.wait()
        let writing = monotonicSeconds()
        for _ in 0..<count { start.signal() }
        ended.wait()
        let done = monotonicSeconds()
        guard failures.value == 0 else { throw BenchError.failed("\(failures.value) of \(count) \(what) failed") }
        return Timing(opening: writing - began, writing: done - writing)
    }
}

import Synchronization

/// Writers that failed, counted across threads.
final class FailureCount: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
