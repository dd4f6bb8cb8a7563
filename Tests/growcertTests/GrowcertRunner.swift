import Foundation
import Testing
import TestSupport

/// What one run of the built binary did.
struct Outcome: CustomStringConvertible {
    let code: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(code)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the built `growcert` binary in a temporary directory with its own database.
///
/// The binary is the one `swift build --build-tests` left in `.build/debug` of this package
/// (or `GROWCERT_BIN` when set). Output goes to files, so a large output cannot block the child.
final class Growcert: Sendable {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    static let binary: String = {
        if let b = ProcessInfo.processInfo.environment["GROWCERT_BIN"] { return b }
        return packageRoot.appendingPathComponent(".build/debug/growcert").path
    }()

    let dir: URL
    let db: String

    /// `db`: the database to use instead of this directory's `evidence.sqlite` (a PostgreSQL URL).
    init(db: String? = nil) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no growcert binary at \(Self.binary): run 'swift build --build-tests' first")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        self.db = db ?? dir.appendingPathComponent("evidence.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The environment the binary sees: no GROWCERT_DB unless given, a fixed actor.
    func environment(_ extra: [String: String]) -> [String: String] {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": dir.path, "GROWCERT_ACTOR": "qa", "LANG": "C.UTF-8"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs `growcert ARGS` with `--db` pointing at this directory's database (unless `db` is false).
    @discardableResult
    func run(_ args: [String], db: Bool = true, env: [String: String] = [:], stdin: String? = nil) throws -> Outcome {
        try execute(Self.binary, (db ? ["--db", self.db] : []) + args, env: env, stdin: stdin)
    }

    /// Runs `growcert ARGS` with no `--db`, in `folder` (a path relative to this directory, created if missing),
    /// as a tester who `cd`'d there would.
    @discardableResult
    func run(_ args: [String], in folder: String, env: [String: String] = [:]) throws -> Outcome {
        let url = dir.appendingPathComponent(folder, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return try Running(self, Self.binary, args, env: env, stdin: nil, in: url).finish()
    }

    /// Runs a shell command line with `$G` set to the binary and `$DB` to the database.
    @discardableResult
    func shell(_ script: String) throws -> Outcome {
        try execute("/bin/sh", ["-c", script], env: ["G": Self.binary, "DB": db])
    }

    /// Starts a shell command line without waiting; call `finish` on the result.
    func start(_ script: String) throws -> Running {
        try Running(self, "/bin/sh", ["-c", script], env: ["G": Self.binary, "DB": db], stdin: nil)
    }

    func execute(_ executable: String, _ args: [String], env: [String: String], stdin: String? = nil) throws -> Outcome {
        try Running(self, executable, args, env: env, stdin: stdin).finish()
    }

    /// Runs SQL on the database with the sqlite3 command-line tool, as a tamperer would.
    @discardableResult
    func sqlite(_ sql: String) throws -> Outcome {
        try sqlite(sql, database: db)
    }

    /// Runs SQL with the sqlite3 command-line tool on another database file.
    @discardableResult
    func sqlite(_ sql: String, database: String) throws -> Outcome {
        try execute("/usr/bin/env", ["sqlite3", database, sql], env: [:])
    }

    /// Copies a closed database (and its WAL, if one was left) to `to`, by default this directory's database.
    func copyDatabase(from source: String, to target: String? = nil) throws {
        let target = target ?? db
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try? FileManager.default.removeItem(atPath: target + suffix)
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
    }

    /// The raw bytes of a database and its WAL and shared-memory files, as a thief would read them.
    func databaseBytes(_ path: String? = nil) -> Data {
        let path = path ?? db
        return ["", "-wal", "-shm", "-journal"].reduce(into: Data()) { all, suffix in
            all += FileManager.default.contents(atPath: path + suffix) ?? Data()
        }
    }

    /// The path of an outside test file copied into this target's `Fixtures/` (origins in `Fixtures/ORIGIN.md`).
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)?.path ?? "Fixtures/\(name) is missing from the test bundle"
    }

    /// The full path of an outside tool from PATH; fails the test with what to install when it is missing.
    static func tool(_ names: [String], install: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        throw E2EFailure("\(names.joined(separator: " or ")) is not installed: \(install)")
    }

    /// Creates the database and a campaign `c1` (app `appId`) with device `iphone15`, account `tester1` and a running run `r1`.
    func seed(appId: String = "com.example.app") throws {
        for args in [
            ["init"],
            ["campaign", "create", "--profile", "groovegrow", "--app-id", appId, "--app-version", "2.4.0", "--build", "311",
             "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
            ["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
            ["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "apple", "--account", "sandbox.tester@icloud.com"],
            ["run", "start", "--campaign", "c1", "--scenario", "purchase-restore-refund", "--device", "iphone15", "--account", "tester1", "--tester", "Ann"],
        ] {
            let o = try run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
    }

    /// The number of journal entries and the head hash, read with `--json`.
    func journalState() throws -> (count: Int, head: String?) {
        let o = try run(["journal", "list", "--json", "--limit", "100000"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [[String: Any]], "\(o)")
        return (entries.count, entries.last?["hash"] as? String)
    }

    /// A parsed `--json` output.
    func json(_ args: [String]) throws -> Any {
        let o = try run(args + ["--json"])
        try #require(o.code == 0, "\(args): \(o)")
        return try JSONSerialization.jsonObject(with: Data(o.stdout.utf8))
    }
}

/// Why an end-to-end test could not go on; the test fails with this message.
struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A child process whose output goes to files (a `SpawnedProcess`: Foundation's `Process.waitUntilExit` can hang after
/// the child has exited).
final class Running {
    let process: SpawnedProcess
    let outPath: String
    let errPath: String
    let inPath: String?

    init(_ g: Growcert, _ executable: String, _ args: [String], env: [String: String], stdin: String?, in folder: URL? = nil) throws {
        let id = UUID().uuidString
        outPath = g.path(".out-\(id)")
        errPath = g.path(".err-\(id)")
        var input = SpawnedProcess.Input.null
        if let stdin {
            let p = g.path(".in-\(id)")
            _ = FileManager.default.createFile(atPath: p, contents: Data(stdin.utf8))
            input = .file(p)
            inPath = p
        } else {
            inPath = nil
        }
        process = try SpawnedProcess(executable, args, environment: g.environment(env), directory: (folder ?? g.dir).path,
                                     stdin: input, stdout: .file(outPath), stderr: .file(errPath))
    }

    /// Waits for the child's first line of standard output, and returns it without the newline.
    ///
    /// The deadline only guards against a child that never prints; it is not a speed assertion.
    func firstLine(waitingUpTo seconds: Double = 60) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
            if let newline = text.firstIndex(of: "\n") { return String(text[..<newline]) }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        throw E2EFailure("the child printed no line on stdout (running: \(process.isRunning)); stderr:\n\(stderr)")
    }

    func finish() throws -> Outcome {
        let code = process.waitForExit()
        defer {
            for p in [outPath, errPath, inPath].compactMap({ $0 }) { try? FileManager.default.removeItem(atPath: p) }
        }
        let stdout = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        return Outcome(code: code, stdout: stdout, stderr: stderr)
    }
}

/// A receipt as the Sandbox returns it.
let receiptJSON = #"{"orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "rejectReason": null, "ledgerEventIds": ["9007199254740993"]}"#
