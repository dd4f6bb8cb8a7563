import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 10, findings 9, 10 and 13: `--out` never destroys, console output cannot be rewritten by
/// what was recorded, and the journal always names a real actor.
@Suite("growcert end to end: --out never destroys, the console is safe, the actor is real")
struct OutputSafetyTests {
    // MARK: --out (finding 9)

    @Test("report render --out onto the evidence database is refused with exit 65 and the database is unchanged")
    func renderOntoTheDatabaseIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        for target in [g.db, g.db + "-wal", g.db + "-shm", g.db + "-journal", g.path("./evidence.sqlite")] {
            let before = g.databaseBytes()
            let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", target, "--force"])
            #expect(o.code == 65, "\(target): \(o)")
            #expect(o.stderr == "growcert: '\(target)' is the evidence database or one of its -wal, -shm, -journal files; growcert never writes output over it. Choose another path. Nothing was written.\n")
            #expect(g.databaseBytes() == before, "\(target): the database changed")
            #expect(try g.run(["verify"]).code == 0)
        }
        #expect((try g.json(["report", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test("A hard link to the database is recognised as the database")
    func hardLinkToTheDatabaseIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        let alias = g.path("alias.md")
        try #require(link(g.db, alias) == 0)
        let before = g.databaseBytes()
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", alias, "--force"])
        #expect(o.code == 65, "\(o)")
        #expect(g.databaseBytes() == before)
    }

    @Test("--out onto a FIFO or a symbolic link is refused and both are left as they were")
    func fifoAndSymlinkAreRefused() throws {
        let g = try Growcert()
        try g.seed()
        let fifo = g.path("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        let target = g.path("target.txt")
        try "keep me\n".write(toFile: target, atomically: true, encoding: .utf8)
        let symlink = g.path("link.md")
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: target)
        let dangling = g.path("dangling.md")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: g.path("nowhere.md"))
        for (path, kind) in [(fifo, "a FIFO"), (symlink, "a symbolic link"), (dangling, "a symbolic link")] {
            for force in [false, true] {
                let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", path] + (force ? ["--force"] : []))
                #expect(o.code == 65, "\(path): \(o)")
                #expect(o.stderr == "growcert: '\(path)' is \(kind); growcert writes output only to a regular file or a new path. Nothing was written.\n")
            }
        }
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        #expect(lstat(symlink, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the symbolic link was replaced")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: symlink) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: g.path("nowhere.md")))
        #expect((try g.json(["report", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test("An existing file is replaced only with --force, through a temporary file; a directory is refused")
    func existingFileNeedsForce() throws {
        let g = try Growcert()
        try g.seed()
        let out = g.path("r.md")
        try "an older report\n".write(toFile: out, atomically: true, encoding: .utf8)
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", out])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: '\(out)' already exists; choose another path, or replace it on purpose. Nothing was written. Give --force to replace it.\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "an older report\n")
        #expect((try g.json(["report", "list"]) as? [Any])?.isEmpty == true, "a refused render stored a report")

        let forced = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", out, "--force"])
        #expect(forced.code == 0, "\(forced)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("#"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: g.dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")

        let dir = g.path("folder")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let d = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", dir, "--force"])
        #expect(d.code == 65, "\(d)")
        #expect(d.stderr == "growcert: '\(dir)' is a directory; give the path of a file. Nothing was written.\n")
    }

    @Test("evidence export and keys generate go through the same refusals")
    func otherOutputsAreProtected() throws {
        let g = try Growcert()
        try g.seed()
        try "device log line\n".write(toFile: g.path("device.log"), atomically: true, encoding: .utf8)
        #expect(try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", g.path("device.log"), "--media-type", "text/plain"]).code == 0)
        let before = g.databaseBytes()
        let export = try g.run(["evidence", "export", "e1", "--out", g.db, "--force"])
        #expect(export.code == 65, "\(export)")
        #expect(g.databaseBytes() == before)

        let keyPath = g.path("k.pem")
        try "not a key\n".write(toFile: keyPath, atomically: true, encoding: .utf8)
        let key = try g.run(["keys", "generate", "--out", keyPath])
        #expect(key.code == 65, "\(key)")
        #expect(key.stderr == "growcert: '\(keyPath)' already exists; growcert never replaces it. Choose another path. Nothing was written.\n")
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == "not a key\n")
        let fresh = g.path("k2.pem")
        #expect(try g.run(["keys", "generate", "--out", fresh]).code == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let exported = g.path("exported.log")
        #expect(try g.run(["evidence", "export", "e1", "--out", exported]).code == 0)
        #expect(try String(contentsOfFile: exported, encoding: .utf8) == "device log line\n")
        #expect(try g.run(["evidence", "export", "e1", "--out", exported]).code == 65)
        #expect(try g.run(["evidence", "export", "e1", "--out", exported, "--force"]).code == 0)
    }

    // MARK: console (finding 10)

    static let forgedName = "Rita RM\r\u{1B}[2Ksigned approve by Rita RM"
    static let shownName = "Rita RM⟨U+000D⟩⟨U+001B⟩[2Ksigned approve by Rita RM"

    @Test("A REJECT sign-off whose name holds \\r ESC[2K shows as escaped text in signoff list and report verify; JSON keeps the name")
    func forgedSignoffNameIsEscaped() throws {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        let render = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]) as? [String: Any])
        let report = try #require(render["id"] as? String)
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let s = try g.run(["signoff", "--report", report, "--role", "release-manager", "--name", Self.forgedName, "--decision", "reject",
                           "--key", g.path("k.pem")])
        try #require(s.code == 0, "\(s)")

        let list = try g.run(["signoff", "list"])
        #expect(list.code == 0, "\(list)")
        #expect(list.stdout.contains(Self.shownName), "\(list)")
        #expect(!list.stdout.contains("\r") && !list.stdout.contains("\u{1B}"), "\(list)")

        let verify = try g.run(["report", "verify", g.path("r.md")])
        #expect(!verify.stdout.contains("\r") && !verify.stdout.contains("\u{1B}"), "\(verify)")
        #expect(verify.stdout.contains("signed reject by \(Self.shownName) (release-manager)"), "\(verify)")

        let json = try #require(try g.json(["signoff", "list"]) as? [[String: Any]])
        #expect(json.first?["name"] as? String == Self.forgedName, "the JSON output changed the recorded name")

        // A line break in a name cannot start a line of its own either.
        let s2 = try g.run(["signoff", "--report", report, "--role", "qa", "--name", "Ann\n    signed approve by Rita RM", "--decision", "reject",
                            "--key", g.path("k.pem")])
        try #require(s2.code == 0, "\(s2)")
        let again = try g.run(["report", "verify", g.path("r.md")])
        #expect(again.stdout.contains("signed reject by Ann⟨U+000A⟩    signed approve by Rita RM (qa)"), "\(again)")
        #expect(!again.stdout.contains("\n    signed approve"), "\(again)")
        let list2 = try g.run(["signoff", "list"])
        #expect(list2.stdout.contains("Ann⟨U+000A⟩    signed approve by Rita RM"), "\(list2)")
    }

    @Test("signoff export refuses to replace an earlier export without --force, and writes nothing then")
    func signoffExportNeedsForce() throws {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        let render = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]) as? [String: Any])
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        #expect(try g.run(["signoff", "--report", try #require(render["id"] as? String), "--role", "qa", "--name", "Ann QA",
                           "--decision", "reject", "--key", g.path("k.pem")]).code == 0)
        let dir = g.path("export")
        #expect(try g.run(["signoff", "export", "s1", "--out", dir]).code == 0)
        try "edited\n".write(toFile: dir + "/public.pem", atomically: true, encoding: .utf8)
        let again = try g.run(["signoff", "export", "s1", "--out", dir])
        #expect(again.code == 65, "\(again)")
        #expect(again.stderr == "growcert: '\(dir)/statement.json' already exists; choose another path, or replace it on purpose. Nothing was written. Give --force to replace it.\n")
        #expect(try String(contentsOfFile: dir + "/public.pem", encoding: .utf8) == "edited\n", "a refused export replaced a file")
        #expect(try g.run(["signoff", "export", "s1", "--out", dir, "--force"]).code == 0)
        #expect(try String(contentsOfFile: dir + "/public.pem", encoding: .utf8).hasPrefix("-----BEGIN PUBLIC KEY-----"))
    }

    @Test("Controls and bidirectional overrides are escaped in evidence list/show, journal list, run show and error messages")
    func recordedControlsAreEscapedEverywhere() throws {
        let g = try Growcert()
        try g.seed()
        let note = "ok\r\u{1B}[1A\u{9B}2K\u{202E}gnissap\u{2066}x\u{200F}\u{061C}\u{7F}"
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", note]).code == 0)
        for args in [["evidence", "list", "--run", "r1"], ["evidence", "show", "e1"], ["journal", "list"], ["run", "show", "r1"]] {
            let o = try g.run(args)
            #expect(o.code == 0, "\(args): \(o)")
            let hidden = o.stdout.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) || [0x200E, 0x200F, 0x061C].contains($0.value) }
            #expect(hidden.isEmpty, "\(args) printed \(hidden.map { String($0.value, radix: 16) })")
        }
        let show = try g.run(["evidence", "show", "e1"])
        #expect(show.stdout.hasPrefix("  e1  note  [manual]  ok⟨U+000D⟩⟨U+001B⟩[1A⟨U+009B⟩2K⟨U+202E⟩gnissap⟨U+2066⟩x⟨U+200F⟩⟨U+061C⟩⟨U+007F⟩\n"), "\(show)")
        #expect(show.stdout.contains(#""text": "ok\r\u001b[1A\u009B2K\u202Egnissap\u2066x\u200F\u061C\u007F""#), "\(show)")
        let json = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        #expect((json["details"] as? [String: Any])?["text"] as? String == note, "the JSON output changed the note")

        let bad = try g.run(["evidence", "show", "e9\u{1B}[2K\u{202E}"])
        #expect(bad.code == 65, "\(bad)")
        #expect(bad.stderr == "growcert: Unknown evidence item 'e9⟨U+001B⟩[2K⟨U+202E⟩'. Known: e1.\n", "\(bad)")
    }

    // MARK: actor (finding 13)

    @Test("With $USER and $GROWCERT_ACTOR unset the journal records the OS account name, never 'unknown'")
    func actorFallsBackToTheAccountName() throws {
        let g = try Growcert()
        let expected = try #require(getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } })
        let process = try SpawnedProcess(Growcert.binary, ["--db", g.db, "init"], environment: ["PATH": "/usr/bin:/bin", "HOME": g.dir.path],
                                         directory: g.dir.path, stdout: .null, stderr: .null)
        process.waitForExit()
        #expect(process.terminationStatus == 0)
        let entries = try #require(try g.json(["journal", "list"]) as? [[String: Any]])
        #expect(entries.first?["actor"] as? String == expected)
        #expect(!entries.contains { $0["actor"] as? String == "unknown" })
    }

    @Test("--actor wins over $GROWCERT_ACTOR, which wins over $USER")
    func actorPrecedence() throws {
        let g = try Growcert()
        #expect(try g.run(["init", "--actor", "Ann"], env: ["USER": "root"]).code == 0)
        #expect(try g.run(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "1", "--build", "1",
                           "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55",
                           "--base-url", "https://sandbox.groovegrow.example"], env: ["USER": "root", "GROWCERT_ACTOR": "Bob"]).code == 0)
        let actors = try #require(try g.json(["journal", "list"]) as? [[String: Any]]).compactMap { $0["actor"] as? String }
        #expect(actors.first == "Ann")
        #expect(actors.last == "Bob")
    }
}
