import Evidence
import Foundation

/// `render`: `growcert report render` (HTML and Markdown) for a campaign of 1,000 runs × 20 evidence items,
/// against the same at 10,000 runs: time must grow linearly, memory and size stay bounded.
struct RenderBenchmark: Benchmark {
    let name = "render"
    static let itemsPerRun = 20

    func run(_ context: BenchContext) async throws -> BenchResult {
        let small = try measure(context, runs: context.options.n(1_000))
        let large = try measure(context, runs: context.options.n(10_000))
        let ratio = large.seconds / small.seconds
        let rssMiB = Double(large.peakRSS) / 1_048_576
        let htmlMiB = Double(large.htmlBytes) / 1_048_576
        let met = ratio <= 11 && rssMiB <= 256 && htmlMiB <= 50 && large.attachmentsByHash
        return BenchResult(name: name, value: large.seconds, baseline: small.seconds, ratio: ratio, unit: "s",
                           target: "ratio <= 11, RSS <= 256 MiB, HTML <= 50 MiB", met: met,
                           extra: [("runs", Double(context.options.n(10_000))), ("peakRSSMiB", rssMiB), ("htmlMiB", htmlMiB),
                                   ("markdownMiB", Double(large.mdBytes) / 1_048_576), ("smallPeakRSSMiB", Double(small.peakRSS) / 1_048_576)],
                           note: large.attachmentsByHash ? nil : "attachment bytes appear in the HTML (expected references by SHA-256)")
    }

    struct Measurement {
        var seconds: Double
        var peakRSS: Int
        var htmlBytes: Int
        var mdBytes: Int
        var attachmentsByHash: Bool

        init(seconds: Double, peakRSS: Int, htmlBytes: Int, mdBytes: Int, attachmentsByHash: Bool) {
            (self.seconds, self.peakRSS, self.htmlBytes, self.mdBytes, self.attachmentsByHash) = (seconds, peakRSS, htmlBytes, mdBytes, attachmentsByHash)
        }

        /// Rounds of the same render: the median time, the highest peak RSS, the first round's sizes, and attachments
        /// referenced by hash only if they were in every round.
        init(medianOf rounds: [Measurement]) {
            self.init(seconds: median(rounds.map(\.seconds)), peakRSS: rounds.map(\.peakRSS).max() ?? 0, htmlBytes: rounds[0].htmlBytes,
                      mdBytes: rounds[0].mdBytes, attachmentsByHash: rounds.allSatisfy(\.attachmentsByHash))
        }
    }

    /// Builds a database with `runs` finished runs of 19 notes and 1 attachment each, then renders it twice.
    ///
    /// With `keptIn`, the database is built there once and kept (a `.built` file beside it says it is whole), and
    /// each run renders a copy of it in the scratch folder: rendering records the report (its bytes as a blob and a
    /// journal entry), so rendering the kept file itself would measure a larger database at every run, and the copy
    /// reads the kept file once, so both sizes are rendered with their file in the page cache.
    /// Scratch files are named `<prefix>-<runs>.…`: `render-100k` measures 10,000 runs too, after `render` did, in the same
    /// scratch folder.
    func measure(_ context: BenchContext, runs: Int, keptIn folder: String? = nil, prefix: String = "render") throws -> Measurement {
        let db = folder.map { "\($0)/render-\(runs).sqlite" } ?? context.path(Self.scratchName(prefix, runs: runs, ext: "sqlite"))
        let built = db + ".built"
        // The first run's id: a database seeded without a run starts its runs at r1.
        var marker = folder != nil && FileManager.default.fileExists(atPath: built) ? "attachment-bytes-of-r1-" : ""
        if marker.isEmpty {
            if let folder {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for suffix in ["", "-wal", "-shm", ".key"] { try? FileManager.default.removeItem(atPath: db + suffix) }
                try? FileManager.default.removeItem(atPath: MaskKey.filePath(forDatabase: db))
            }
            try build(db, runs: runs, marker: &marker, context: context)
            if folder != nil { _ = FileManager.default.createFile(atPath: built, contents: Data()) }
        } else {
            context.log("render: \(runs) runs kept in \(db)")
        }
        guard folder != nil else { return try render(db, runs: runs, marker: marker, context: context, prefix: prefix) }
        let copy = context.path(Self.scratchName(prefix, runs: runs, ext: "sqlite"))
        for path in [copy, MaskKey.filePath(forDatabase: copy)] { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        try FileManager.default.copyItem(atPath: MaskKey.filePath(forDatabase: db), toPath: MaskKey.filePath(forDatabase: copy))
        return try render(copy, runs: runs, marker: marker, context: context, prefix: prefix)
    }

    /// `runs` finished runs of 19 notes and 1 attachment each, in batches of 500 runs.
    private func build(_ db: String, runs: Int, marker: inout String, context: BenchContext) throws {
        let store = try BenchStore.seed(db, run: false)
        let build = try time {
            var r = 0
            while r < runs {
                try store.batch {
                    for _ in 0..<min(500, runs - r) {
                        let run = try store.startRun(NewRun(campaignId: "c1", scenario: BenchStore.scenarios[r % 4], deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
                        for k in 0..<(Self.itemsPerRun - 1) {
                            _ = try store.addEvidence(NewEvidence(runId: run.id, provenance: .manual, details: NoteDetails(text: BenchStore.noteText(k))))
                        }
                        let bytes = Array("attachment-bytes-of-\(run.id)-".utf8) + [UInt8](repeating: 0xAB, count: 1024)
                        if marker.isEmpty { marker = "attachment-bytes-of-\(run.id)-" }
                        _ = try store.addEvidence(NewEvidence(runId: run.id, provenance: .manual, details: AttachmentDetails(filename: "screen.png", note: "paywall"),
                                                              attachment: NewAttachment(bytes: bytes, mediaType: "image/png", filename: "screen.png")))
                        _ = try store.finishRun(id: run.id, outcome: "pass", note: nil)
                        r += 1
                    }
                }
            }
        }
        context.log("render: built \(runs) runs in \(String(format: "%.1f", build)) s")
    }

    /// The scratch file of a measure at `runs` runs: `render-10000.html`, `render-100k-10000.html`.
    static func scratchName(_ prefix: String, runs: Int, ext: String) -> String { "\(prefix)-\(runs).\(ext)" }

    /// Renders `db` as HTML and as Markdown, each in a `growcert` process (which verifies the database first).
    private func render(_ db: String, runs: Int, marker: String, context: BenchContext, prefix: String) throws -> Measurement {
        let html = context.path(Self.scratchName(prefix, runs: runs, ext: "html"))
        let md = context.path(Self.scratchName(prefix, runs: runs, ext: "md"))
        let err = context.path("render.err")
        let a = try ChildProcess.check(context.options.growcert, ["--db", db, "--actor", "bench", "--quiet", "report", "render", "--campaign", "c1", "--format", "html", "--out", html], stderr: err)
        let b = try ChildProcess.check(context.options.growcert, ["--db", db, "--actor", "bench", "--quiet", "report", "render", "--campaign", "c1", "--format", "md", "--out", md], stderr: err)
        let htmlBytes = (try? FileManager.default.attributesOfItem(atPath: html)[.size] as? Int) ?? 0
        let mdBytes = (try? FileManager.default.attributesOfItem(atPath: md)[.size] as? Int) ?? 0
        let htmlText = (try? String(contentsOfFile: html, encoding: .utf8)) ?? ""
        context.log("render: \(runs) runs: html \(String(format: "%.2f", a.seconds)) s \(a.peakRSS / 1_048_576) MiB, md \(String(format: "%.2f", b.seconds)) s \(b.peakRSS / 1_048_576) MiB")
        return Measurement(seconds: a.seconds + b.seconds, peakRSS: max(a.peakRSS, b.peakRSS), htmlBytes: htmlBytes, mdBytes: mdBytes,
                           attachmentsByHash: !htmlText.contains(marker))
    }
}

/// `render-100k` (part of every full run): the render row at 100,000 runs × 20 items against 10,000,
/// and `growcert verify` alone on the 100,000-run database. The large database is built once into
/// `bench/cache/` and kept for later runs (delete the folder to rebuild it).
struct RenderLargeBenchmark: Benchmark {
    let name = "render-100k"
    static let cacheFolder = "bench/cache"

    static let rounds = 3

    func run(_ context: BenchContext) async throws -> BenchResult {
        let render = RenderBenchmark()
        let runs = context.options.n(100_000)
        // Three rounds, each rendering a database of its own at both sizes: a 10,000-run render lasts under a second
        // a format, and one such render moved the ratio by a tenth either way between runs of the same code.
        var smalls: [RenderBenchmark.Measurement] = []
        var larges: [RenderBenchmark.Measurement] = []
        for round in 1...Self.rounds {
            let prefix = "\(name)-\(round)"
            smalls.append(try render.measure(context, runs: context.options.n(10_000), prefix: prefix))
            larges.append(try render.measure(context, runs: runs, keptIn: Self.cacheFolder, prefix: prefix))
            // Each round's copies go once measured: the large one is about 2 GB.
            for size in [context.options.n(10_000), runs] {
                let db = context.path(RenderBenchmark.scratchName(prefix, runs: size, ext: "sqlite"))
                for path in [db, db + "-wal", db + "-shm", MaskKey.filePath(forDatabase: db)] { try? FileManager.default.removeItem(atPath: path) }
            }
        }
        let verify = try ChildProcess.check(context.options.growcert, ["--db", "\(Self.cacheFolder)/render-\(runs).sqlite", "--actor", "bench", "--quiet", "verify"])
        context.log("render-100k: verify alone \(String(format: "%.2f", verify.seconds)) s, \(verify.peakRSS / 1_048_576) MiB")
        let (small, large) = (RenderBenchmark.Measurement(medianOf: smalls), RenderBenchmark.Measurement(medianOf: larges))
        let ratio = large.seconds / small.seconds
        let rssMiB = Double(large.peakRSS) / 1_048_576
        let verifyMiB = Double(verify.peakRSS) / 1_048_576
        let met = ratio <= 11 && rssMiB <= 256 && verifyMiB <= 256 && large.attachmentsByHash
        return BenchResult(name: name, value: large.seconds, baseline: small.seconds, ratio: ratio, unit: "s",
                           target: "ratio <= 11, RSS <= 256 MiB (render and verify)", met: met,
                           extra: [("runs", Double(runs)), ("peakRSSMiB", rssMiB), ("verifySeconds", verify.seconds), ("verifyPeakRSSMiB", verifyMiB),
                                   ("htmlMiB", Double(large.htmlBytes) / 1_048_576), ("markdownMiB", Double(large.mdBytes) / 1_048_576),
                                   ("smallPeakRSSMiB", Double(small.peakRSS) / 1_048_576)]
                               + IngestBenchmark.roundFigures(smalls.map(\.seconds), larges.map(\.seconds)),
                           note: large.attachmentsByHash ? nil : "attachment bytes appear in the HTML (expected references by SHA-256)")
    }
}
