import Foundation

/// `cli-add`: one `growcert evidence add note` process against one `sqlite3 DB "INSERT …"` process.
///
/// The two alternate, so both see the same machine load; each figure is a median of 50.
struct CLIAddBenchmark: Benchmark {
    let name = "cli-add"
    static let rounds = 50
    /// A constant statement: the baseline formats no values into SQL either.
    static let insertSQL = "PRAGMA synchronous=FULL; INSERT INTO rows(kind, actor, at, payload, prev_hash, hash) VALUES ('evidence.add', 'bench', "
        + "'2026-11-30T08:00:00.000Z', '{\"details\":{\"text\":\"Step 1: the purchase sheet showed the monthly plan at 4.99 USD; confirmed with the sandbox tester "
        + "account.\"},\"id\":\"e1\",\"provenance\":\"manual\",\"recorded_at\":\"2026-11-30T08:00:00.000Z\",\"recorded_by\":\"bench\",\"run_id\":\"r1\","
        + "\"type\":\"note\"}', 'ae0d2f5e4b1c3a79886e0f1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f7', "
        + "'5b9e8d7c6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c')"

    func run(_ context: BenchContext) async throws -> BenchResult {
        let db = context.path("cli-add.sqlite")
        _ = try BenchStore.seed(db)
        let rawDB = context.path("cli-add-raw.sqlite")
        _ = try RawSQLite(path: rawDB)
        let sqlite3 = "sqlite3"
        var growcertTimes: [Double] = []
        var sqliteTimes: [Double] = []
        let err = context.path("cli-add.err")
        for i in 0..<Self.rounds {
            let text = BenchStore.noteText(i)
            growcertTimes.append(try ChildProcess.check(context.options.growcert, ["--db", db, "--actor", "bench", "evidence", "add", "note", "--run", "r1", "--text", text], stderr: err).seconds)
            sqliteTimes.append(try ChildProcess.check(sqlite3, [rawDB, Self.insertSQL], stderr: err).seconds)
        }
        let value = median(growcertTimes) * 1000
        let baseline = median(sqliteTimes) * 1000
        return BenchResult(name: name, value: value, baseline: baseline, ratio: value / baseline, unit: "ms", target: "ratio <= 3",
                           met: value / baseline <= 3, extra: [("growcertMinMs", (growcertTimes.min() ?? 0) * 1000), ("sqlite3MinMs", (sqliteTimes.min() ?? 0) * 1000)])
    }
}
