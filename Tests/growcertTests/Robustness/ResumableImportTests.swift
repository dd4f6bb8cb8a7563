import Foundation
import Testing
import TestSupport

/// Issue 23, finding 7: a commit whose acknowledgement is lost must never lead to a line recorded
/// twice. Each imported line carries its import key (the file's SHA-256 and the line's number),
/// recorded once at most; `evidence import --resume` skips the lines already recorded.
@Suite("Resumable imports: a lost commit acknowledgement is never recorded twice")
struct ResumableImportTests {
    static let lines = 40

    static func text(_ i: Int) -> String { "import line #\(i)#" }

    /// A file of `lines` notes on run r1, numbered from 1 like the file's lines.
    static func writeFile(_ g: Growcert) throws -> String {
        let file = g.path("bulk.jsonl")
        let body = (1...lines).map { #"{"run":"r1","type":"note","text":"\#(text($0))"}"# }.joined(separator: "\n") + "\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    static func texts(_ g: Growcert) throws -> [String] {
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        return items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String }
    }

    /// The words of a command line printed in single quotes where needed, as a POSIX shell reads them.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var inWord = false
        for c in line {
            if quoted {
                if c == "'" { quoted = false } else { word.append(c) }
            } else if c == "'" {
                quoted = true
                inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    @Test("The connection dropped at COMMIT (after the server committed, and before): the line 'may or may not' be written, and the command the message gives resumes with no line doubled and none lost",
          arguments: [CommitDropProxy.Drop.afterCommitAnswer, .beforeCommit])
    func lostCommitAnswerResumesExactly(drop: CommitDropProxy.Drop) throws {
        let (proxy, g) = try CommitDropProxy.seededThroughProxy()
        defer { proxy.stop() }
        let file = try Self.writeFile(g)

        proxy.arm(marker: Self.text(20), drop: drop)
        let first = try g.run(["evidence", "import", "--file", file])
        #expect(proxy.dropped == 1)
        #expect(first.code == 74, "\(first)")
        let committed = drop == .afterCommitAnswer
        let command = "growcert --db '\(g.db)' evidence import --file \(file) --resume"
        #expect(first.stderr == """
            growcert: Line 20 of '\(file)': the connection to the database '\(g.db)' was lost while the line was being committed (server closed the connection unexpectedly): the line may or may not have been written; the 19 items before it were recorded (e1…e19). When the database is back, finish the import with this command: it skips every line already recorded (this one too, if it was), so none is recorded twice:
              \(command)

            """, "\(first)")
        #expect(!first.stderr.contains("--from-line"), "the lost acknowledgement must not advise --from-line, which records the line twice")
        #expect(try Self.texts(g) == (1...(committed ? 20 : 19)).map(Self.text))

        // The insider's shortcut: the same file again without --resume is refused, and writes nothing.
        let again = try g.run(["evidence", "import", "--file", file])
        #expect(again.code == 65)
        #expect(again.stderr == "growcert: '\(file)' was imported before: \(committed ? 20 : 19) of its lines are already recorded (each line is recorded once at most). Nothing was written. To record only the lines not yet recorded, import it with --resume.\n")

        // The command as given, word for word.
        let words = Self.shellWords(command)
        #expect(words.first == "growcert")
        let resumed = try g.run(Array(words.dropFirst()), db: false)
        #expect(resumed.code == 0, "\(resumed)")
        let skipped = committed ? 20 : 19
        #expect(resumed.stdout == "Recorded \(Self.lines - skipped) items (e\(skipped + 1)…e\(Self.lines)); skipped \(skipped) lines already recorded.\n")
        #expect(try Self.texts(g) == (1...Self.lines).map(Self.text), "each line of the file once, in order")
        #expect(try g.run(["verify"]).code == 0)
        // Resuming a finished import records nothing.
        let done = try g.run(["evidence", "import", "--file", file, "--resume"])
        #expect(done.stdout == "Recorded nothing: skipped \(Self.lines) lines already recorded; '\(file)' has no other items.\n", "\(done)")
    }

    @Test("A pipe (read once) is imported without import keys, and --resume from a pipe or stdin is a usage error")
    func pipesCarryNoKey() throws {
        let g = try Growcert()
        try g.seed()
        let file = try Self.writeFile(g)
        let piped = try g.shell("mkfifo '\(g.path("pipe"))' && (cat '\(file)' > '\(g.path("pipe"))' &) && \"$G\" --db \"$DB\" --quiet evidence import --file '\(g.path("pipe"))'")
        #expect(piped.code == 0, "\(piped)")
        #expect(piped.stdout == "Recorded \(Self.lines) items (e1…e\(Self.lines)).\n")
        #expect(try g.sqlite("SELECT COUNT(*) FROM evidence_imports;").stdout == "0\n")
        let usage = "growcert: Resuming an import needs a regular file: lines read from stdin or a pipe carry no import key (their SHA-256 is not known before the end). Save the input to a file and import that.\nSee 'growcert evidence import --help'.\n"
        let fromStdin = try g.run(["evidence", "import", "--file", "-", "--resume"], stdin: "")
        #expect(fromStdin.code == 64)
        #expect(fromStdin.stderr == usage)
    }

    @Test("The same import key can never be recorded twice, on either backend: the store refuses it, and so does the database's UNIQUE rule behind the tool's back",
          arguments: ["sqlite", "postgresql"])
    func importKeyIsUnique(backend: String) throws {
        let server = backend == "postgresql" ? try PostgresTestServer.shared() : nil
        let g = try server.map { try Growcert(db: try $0.newDatabase()) } ?? Growcert()
        try g.seed()
        let file = try Self.writeFile(g)
        #expect(try g.run(["evidence", "import", "--file", file, "--quiet"]).code == 0)
        // Line 1's key again, for a note recorded without one, planted in SQL: refused by UNIQUE(file_sha256, line).
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", Self.text(1)]).code == 0)
        let key = "INSERT INTO evidence_imports(id, seq, file_sha256, line) SELECT 'e\(Self.lines + 1)', 999, file_sha256, 1 FROM evidence_imports WHERE line = 1"
        if let server {
            let database = String(try #require(g.db.split(separator: "?").first?.split(separator: "/").last))
            let refused = #expect(throws: PostgresTestServerError.self) { try server.psql(database, "\(key);") }
            #expect(refused?.message.contains("duplicate key value violates unique constraint \"evidence_imports_file_sha256_line_key\"") == true, "\(String(describing: refused))")
        } else {
            let planted = try g.sqlite("\(key);")
            #expect(planted.code != 0 && planted.stderr.contains("UNIQUE constraint failed: evidence_imports.file_sha256, evidence_imports.line"), "\(planted)")
        }
        #expect(try Self.texts(g).count == Self.lines + 1)
        #expect(try g.run(["verify"]).code == 0)
    }
}
