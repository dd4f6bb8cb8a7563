import Evidence
import Foundation

/// `ingest`: evidence entries through the Evidence API in batches of 1,000, against plain SQLite inserts.
///
/// Three rounds, each writing fresh files, growcert then the baseline: each side's figure is its median round. One
/// round of the baseline lasts well under a second, and its speed alone moved by more than 2× between single runs
/// (a commit's `fdatasync` is most of it).
struct IngestBenchmark: Benchmark {
    let name = "ingest"
    static let batch = 1_000
    static let rounds = 3

    func run(_ context: BenchContext) async throws -> BenchResult {
        let count = context.options.n(100_000)
        var evidenceSeconds: [Double] = []
        var rawSeconds: [Double] = []
        var payloadSize = 300
        for round in 1...Self.rounds {
            let store = try BenchStore.seed(context.path("ingest-\(round).sqlite"))
            evidenceSeconds.append(try time { try Self.record(count, into: store) })
            payloadSize = try store.journalHead()?.payload.utf8.count ?? payloadSize
            let raw = try RawSQLite(path: context.path("ingest-raw-\(round).sqlite"))
            rawSeconds.append(try time { try raw.insert(count: count, payloadSize: payloadSize, batch: Self.batch) })
            context.log("ingest, round \(round): \(count) entries in \(String(format: "%.2f", evidenceSeconds[round - 1])) s; raw SQLite \(String(format: "%.2f", rawSeconds[round - 1])) s (payload \(payloadSize) bytes)")
        }
        let value = Double(count) / median(evidenceSeconds)
        let baseline = Double(count) / median(rawSeconds)
        return BenchResult(name: name, value: value, baseline: baseline, ratio: value / baseline, unit: "rows/s", target: "ratio >= 0.5",
                           met: value / baseline >= 0.5,
                           extra: [("entries", Double(count)), ("payloadBytes", Double(payloadSize))] + Self.roundFigures(evidenceSeconds, rawSeconds))
    }
}

extension IngestBenchmark {
    /// The extra figures of a row measured in rounds: how many, and the lowest and highest of the rounds' own ratios
    /// (a round's baseline seconds over growcert's).
    static func roundFigures(_ seconds: [Double], _ baselineSeconds: [Double]) -> [(String, Double)] {
        let ratios = zip(seconds, baselineSeconds).map { $1 / $0 }
        return [("rounds", Double(seconds.count)), ("roundRatioMin", ratios.min() ?? 0), ("roundRatioMax", ratios.max() ?? 0)]
    }

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
