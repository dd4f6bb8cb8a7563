import Evidence
import Foundation

/// `ingest`: evidence entries through the Evidence API in batches of 1,000, against plain SQLite inserts.
struct IngestBenchmark: Benchmark {
    let name = "ingest"
    static let batch = 1_000

    func run(_ context: BenchContext) async throws -> BenchResult {
        let count = context.options.n(100_000)
        let store = try BenchStore.seed(context.path("ingest.sqlite"))
        let evidenceSeconds = try time { try Self.record(count, into: store) }
        let payloadSize = try store.journalHead()?.payload.utf8.count ?? 300
        let raw = try RawSQLite(path: context.path("ingest-raw.sqlite"))
        let rawSeconds = try time { try raw.insert(count: count, payloadSize: payloadSize, batch: Self.batch) }
        let value = Double(count) / evidenceSeconds
        let baseline = Double(count) / rawSeconds
        context.log("ingest: \(count) entries in \(String(format: "%.2f", evidenceSeconds)) s; raw SQLite \(String(format: "%.2f", rawSeconds)) s (payload \(payloadSize) bytes)")
        return BenchResult(name: name, value: value, baseline: baseline, ratio: value / baseline, unit: "rows/s", target: "ratio >= 0.5",
                           met: value / baseline >= 0.5, extra: [("entries", Double(count)), ("payloadBytes", Double(payloadSize))])
    }
}

extension IngestBenchmark {
    /// Records `count` notes on run `r1`, `batch` to a transaction.
    static func record(_ count: Int, into store: EvidenceStore) throws {
        var i = 0
        while i < count {
            let n = min(batch, count - i)
            try store.batch {
                for k in 0..<n {
                    _ = try store.addEvidence(NewEvidence(runId: "r1", provenance: .manual, details: NoteDetails(text: BenchStore.noteText(i + k))))
                }
            }
            i += n
        }
    }
}

/// Wall time of `body` in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return monotonicSeconds() - start
}
