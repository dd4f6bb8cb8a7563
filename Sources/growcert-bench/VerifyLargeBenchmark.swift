import Evidence
import Foundation

/// `verify-10m` (opt-in: `--only verify-10m`): `growcert verify` over a journal of 10,000,000 entries against the same
/// over 1,000,000, time and peak RSS: time must grow linearly and memory must not grow with the journal. Both databases
/// are built once into `bench/cache/` and kept for later runs (delete the folder to rebuild them).
struct VerifyLargeBenchmark: Benchmark {
    let name = "verify-10m"
    let optIn = true

    func run(_ context: BenchContext) async throws -> BenchResult {
        let small = try measure(context, entries: context.options.n(1_000_000))
        let large = try measure(context, entries: context.options.n(10_000_000))
        let ratio = large.seconds / small.seconds
        let rssMiB = Double(large.peakRSS) / 1_048_576
        let smallMiB = Double(small.peakRSS) / 1_048_576
        // Flat: the larger journal's verify may not take more than a quarter more memory than the smaller one's.
        let met = ratio <= 11 && rssMiB <= 256 && rssMiB <= smallMiB * 1.25
        return BenchResult(name: name, value: large.seconds, baseline: small.seconds, ratio: ratio, unit: "s",
                           target: "ratio <= 11, RSS <= 256 MiB and <= 1.25 x the smaller journal's", met: met,
                           extra: [("entries", Double(context.options.n(10_000_000))), ("peakRSSMiB", rssMiB), ("smallPeakRSSMiB", smallMiB)])
    }

    /// Builds (once, kept in `bench/cache/`; a `.built` file beside it says it is whole) a journal of `entries` notes
    /// on one run, in batches of 10,000, and times one `growcert verify` over it.
    private func measure(_ context: BenchContext, entries: Int) throws -> ChildProcess.Measurement {
        let folder = RenderLargeBenchmark.cacheFolder
        let db = "\(folder)/verify-\(entries).sqlite"
        let built = db + ".built"
        if FileManager.default.fileExists(atPath: built) {
            context.log("verify-10m: \(entries) entries kept in \(db)")
        } else {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try? FileManager.default.removeItem(atPath: MaskKey.filePath(forDatabase: db))
            let store = try BenchStore.seed(db)
            let seconds = try time {
                var i = 0
                while i < entries {
                    let n = min(10_000, entries - i)
                    try store.batch {
                        for k in 0..<n {
                            _ = try store.addEvidence(NewEvidence(runId: "r1", provenance: .manual, details: NoteDetails(text: BenchStore.noteText(i + k))))
                        }
                    }
                    i += n
                }
            }
            _ = FileManager.default.createFile(atPath: built, contents: Data())
            context.log("verify-10m: built \(entries) entries in \(String(format: "%.1f", seconds)) s")
        }
        let verify = try ChildProcess.check(context.options.growcert, ["--db", db, "--actor", "bench", "--quiet", "verify"], stderr: context.path("verify-10m.err"))
        context.log("verify-10m: \(entries) entries: verify \(String(format: "%.2f", verify.seconds)) s, \(verify.peakRSS / 1_048_576) MiB")
        return verify
    }
}
