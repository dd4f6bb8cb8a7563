import Evidence
import Foundation

/// `verify`: `growcert verify` over a large journal, in MB/s of journal checked, against `sqlite3 DB "PRAGMA integrity_check"`
/// on the same file, the floor for a full check (it reads every page once). Each is timed three times, alternating, and
/// the medians compared. `openssl dgst -sha256` over the same envelope bytes (every entry's hashed envelope, written to a
/// file) is kept as an extra figure.
struct VerifyBenchmark: Benchmark {
    let name = "verify"

    func run(_ context: BenchContext) async throws -> BenchResult {
        let count = context.options.n(1_000_000)
        let db = context.path("verify.sqlite")
        let store = try BenchStore.seed(db)
        let buildSeconds = try time {
            var i = 0
            while i < count {
                let n = min(10_000, count - i)
                try store.batch {
                    for k in 0..<n {
                        _ = try store.addEvidence(NewEvidence(runId: "r1", provenance: .manual, details: NoteDetails(text: BenchStore.noteText(i + k))))
                    }
                }
                i += n
            }
        }
        context.log("verify: built \(count) entries in \(String(format: "%.1f", buildSeconds)) s")
        let envelopes = context.path("verify-envelopes.bin")
        _ = FileManager.default.createFile(atPath: envelopes, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: envelopes))
        var bytes = 0
        var seq: Int64 = 1
        while true {
            let page = try store.journal(from: seq, limit: 10_000)
            guard let last = page.last else { break }
            var chunk = ""
            for e in page { chunk += Chain.envelope(seq: e.seq, kind: e.kind, actor: e.actor, at: e.at, payload: e.payload, prev: e.prevHash) }
            bytes += chunk.utf8.count
            try handle.write(contentsOf: Data(chunk.utf8))
            seq = last.seq + 1
        }
        try handle.close()
        let entries = try store.journalCount()
        var verifyTimes: [Double] = []
        var integrityTimes: [Double] = []
        var peakRSS = 0
        for _ in 0..<3 {
            let growcert = try ChildProcess.check(context.options.growcert, ["--db", db, "--actor", "bench", "verify", "--quiet"], stderr: context.path("verify.err"))
            verifyTimes.append(growcert.seconds)
            peakRSS = max(peakRSS, growcert.peakRSS)
            integrityTimes.append(try ChildProcess.check("sqlite3", [db, "PRAGMA integrity_check"]).seconds)
        }
        let openssl = try ChildProcess.check("openssl", ["dgst", "-sha256", envelopes])
        let mb = Double(bytes) / 1_000_000
        let value = mb / median(verifyTimes)
        let baseline = mb / median(integrityTimes)
        context.log("verify: \(entries) entries, \(String(format: "%.1f", mb)) MB: growcert \(String(format: "%.2f", median(verifyTimes))) s, integrity_check \(String(format: "%.2f", median(integrityTimes))) s, openssl \(String(format: "%.3f", openssl.seconds)) s")
        return BenchResult(name: name, value: value, baseline: baseline, ratio: value / baseline, unit: "MB/s", target: "ratio >= 0.5", met: value / baseline >= 0.5,
                           extra: [("entries", Double(entries)), ("journalMB", mb), ("verifySeconds", median(verifyTimes)),
                                   ("integrityCheckSeconds", median(integrityTimes)), ("opensslMBps", mb / openssl.seconds),
                                   ("verifyPeakRSSMiB", Double(peakRSS) / 1_048_576)])
    }
}
