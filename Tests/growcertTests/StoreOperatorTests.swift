import Foundation
import Testing

/// The auditor's path and the team store against their own operators (issue 23), and late evidence
/// and abandoned runs (issue 22), through the built binary.
@Suite struct StoreOperatorTests {
    /// Runs `growcert --db DB ARGS` as `nobody` (uid 65534), as a second user of a shared folder.
    static func asNobody(_ g: Growcert, _ db: String, _ args: [String]) throws -> Outcome {
        try g.execute("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Growcert.binary, "--db", db] + args, env: [:])
    }

    /// A database in a shared folder (mode 1777), made and seeded by `nobody`: its owner.
    static func sharedDatabase(_ g: Growcert) throws -> String {
        let folder = g.path("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: g.dir.path)
        let db = folder + "/growcert.sqlite"
        for args in [
            ["init"],
            ["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
             "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
            ["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"],
        ] {
            let o = try asNobody(g, db, args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        return db
    }

    static func logFiles(_ db: String) -> [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: db + $0) }
    }

    @Test("Another user's verify and lists leave no -wal/-shm beside a database in a shared folder, and its owner goes on recording")
    func readsByAnotherUserLeaveNothing() throws {
        let g = try Growcert()
        let db = try Self.sharedDatabase(g)
        #expect(Self.logFiles(db) == [])
        for args in [["verify"], ["journal", "list"], ["status"], ["evidence", "list", "--run", "r1"], ["campaign", "list"],
                     ["run", "list", "--campaign", "c1"], ["report", "list"], ["report", "render", "--campaign", "c1", "--format", "md", "--no-store"]] {
            let o = try g.execute(Growcert.binary, ["--db", db] + args, env: [:])
            #expect([0, 1].contains(o.code), "\(args): \(o)")
            #expect(Self.logFiles(db) == [], "\(args) left \(Self.logFiles(db))")
        }
        let o = try Self.asNobody(g, db, ["evidence", "add", "note", "--run", "r1", "--text", "after the audit"])
        #expect(o.code == 0, "\(o)")
    }

    @Test("A -wal and -shm another user left beside the database block a write with a message naming them and their owner")
    func foreignLogFilesAreNamed() throws {
        let g = try Growcert()
        let db = try Self.sharedDatabase(g)
        for suffix in ["-wal", "-shm"] {
            #expect(FileManager.default.createFile(atPath: db + suffix, contents: nil, attributes: [.posixPermissions: 0o644]))
        }
        let o = try Self.asNobody(g, db, ["evidence", "add", "note", "--run", "r1", "--text", "blocked"])
        #expect(o.code == 74, "\(o)")
        #expect(o.stderr == "growcert: Cannot write the database '\(db)': SQLite's log files beside it, '\(db)-wal' (0 bytes, owned by uid 0 'root') and '\(db)-shm' (0 bytes, owned by uid 0 'root'), are another user's and this user (uid 65534 'nobody') cannot write them. A read by an older growcert or another SQLite tool leaves them. Nothing was written. When nobody is using the database, their owner or an administrator can remove them if '-wal' is 0 bytes; otherwise its owner opens the database once to fold the log in.\n", "\(o)")
    }

    // An empty --db or GROWCERT_DB is a usage error: WorkspaceTests ("An empty --db or GROWCERT_DB is a usage error (64)
    // that changes nothing") holds the one rule's test, word for word.

    @Test("A device or a FIFO given as a file is refused as such (65), and a size limit counts megabytes and names an option the command has")
    func edgesOfInputFiles() throws {
        let g = try Growcert()
        try g.seed()
        let zero = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", "/dev/zero"])
        #expect(zero.code == 65, "\(zero)")
        #expect(zero.stderr == "growcert: '/dev/zero' is a character device, not a regular file: growcert reads input from regular files, or from stdin with '-'. Nothing was written.\n", "\(zero)")
        let fifo = g.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", fifo])
        #expect(piped.code == 65, "\(piped)")
        #expect(piped.stderr == "growcert: '\(fifo)' is a FIFO (named pipe), not a regular file: growcert reads input from regular files, or from stdin with '-'. Nothing was written.\n", "\(piped)")

        let big = g.path("big.log")
        try Data(repeating: 0x41, count: 1_572_864).write(to: URL(fileURLWithPath: big))
        let attachment = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", big, "--max-size", "1"])
        #expect(attachment.code == 65, "\(attachment)")
        #expect(attachment.stderr == "growcert: '\(big)' is 1.5 MiB (1572864 bytes), over the limit of 1 MiB (1048576 bytes). Nothing was written. Trim it, or raise the limit with --max-size MIB (a whole number from 1 to 900).\n", "\(attachment)")
        let token = try g.run(["verify", "--token", big])
        #expect(token.code == 65, "\(token)")
        #expect(token.stderr == "growcert: '\(big)' is 1.5 MiB (1572864 bytes), over the limit of 1 MiB (1048576 bytes). Nothing was written.\n", "\(token)")
    }

    @Test("run show marks evidence taken after the finish as late, run list shows an abandoned run, and run abandon needs --reason (64) (what late evidence and an abandonment do to the verdict: ClosedRunTests)")
    func lateEvidenceAndAbandonedRunsAreShown() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail", "--note", "refund never arrived"]).code == 0)
        let shot = g.path("screen.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: shot))
        let o = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", shot, "--note", "the refund screen"])
        #expect(o.code == 0, "\(o)")
        let shown = try g.run(["run", "show", "r1"])
        #expect(shown.stdout.contains("(late: after the finish)"), "\(shown)")
        #expect(try g.run(["run", "start", "--campaign", "c1", "--scenario", "purchase-restore-refund", "--device", "iphone15", "--account", "tester1", "--tester", "Ann"]).code == 0)
        let missing = try g.run(["run", "abandon", "r2"])
        #expect(missing.code == 64, "\(missing)")
        let abandoned = try g.run(["run", "abandon", "r2", "--reason", "started by mistake"])
        #expect(abandoned.code == 0, "\(abandoned)")
        let list = try g.run(["run", "list", "--campaign", "c1"])
        #expect(list.stdout.contains("abandoned"), "\(list)")
        #expect(try g.run(["verify"]).code == 0)
    }
}

extension StoreOperatorTests {
    @Test("An error quoting a 5 KB value back is a few lines on the terminal; --json carries the whole message")
    func longErrorsAreShortened() throws {
        let g = try Growcert()
        try g.seed()
        let id = String(repeating: "x", count: 5_000)
        let o = try g.run(["run", "show", id])
        #expect(o.code != 0, "\(o)")
        #expect(o.stderr.count < 1_100, "\(o.stderr.count) characters")
        #expect(o.stderr.contains(" … (4"), "\(o)")
        #expect(o.stderr.contains(" characters left out: --json prints the whole message) … "), "\(o)")
        let json = try g.run(["run", "show", id, "--json"])
        #expect(json.stdout.count + json.stderr.count > 5_000, "\(json)")
    }
}
