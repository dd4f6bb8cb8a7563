import Foundation
import Testing

@Suite("growcert end to end: help, verify, concurrency")
struct HelpAndVerifyTests {
    /// The command names listed under the task groups of `growcert --help` (each group a "Title:" line, then its
    /// commands indented), up to "Global options:".
    static func commandNames(_ g: Growcert) throws -> [String] {
        let o = try g.run(["--help"], db: false)
        #expect(o.code == 0)
        var names: [String] = []
        for line in o.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Global options:" { break }
            guard line.hasPrefix("  ") else { continue }
            let name = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            names.append(name.trimmingCharacters(in: .whitespaces))
        }
        return names
    }

    @Test("--help, -h and 'help' on every listed command exit 0 and print its usage")
    func everyCommandHasHelp() throws {
        let g = try Growcert()
        let names = try Self.commandNames(g)
        #expect(names.count >= 22)
        #expect(names.contains("evidence add attachment"))
        for name in names {
            let words = name.split(separator: " ").map(String.init)
            for args in [words + ["--help"], ["--help"] + words, words + ["-h"], ["help"] + words] {
                let o = try g.run(args, db: false)
                #expect(o.code == 0, "\(args): \(o)")
                #expect(o.stdout.contains("Usage:\n  growcert \(name)"), "\(args): \(o)")
                #expect(o.stderr == "", "\(args)")
            }
        }
        for group in ["campaign", "device", "account", "run", "evidence", "journal"] {
            let o = try g.run([group, "--help"], db: false)
            #expect(o.code == 0, "\(group): \(o)")
            #expect(o.stdout.hasPrefix("Commands of 'growcert \(group)':"))
        }
        let top = try g.run(["--help"], db: false)
        #expect(top.stdout.contains("Usage: growcert <command>"))
        #expect(try g.run(["--version"], db: false).stdout == "growcert 0.1.0\n")
    }

    @Test("verify exits 0 on a clean database and 2 after the journal is edited with the trigger dropped")
    func verifyFindsAnEditedPayload() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "hello"]).code == 0)
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "world"]).code == 0)
        let clean = try g.run(["verify"])
        #expect(clean.code == 0, "\(clean)")

        let blocked = try g.sqlite("UPDATE journal SET payload = replace(payload, 'hello', 'HELLO') WHERE seq = 6;")
        #expect(blocked.code != 0)
        #expect(blocked.stderr.contains("append-only"))
        #expect(try g.run(["verify"]).code == 0)

        let edit = try g.sqlite("DROP TRIGGER journal_no_update; UPDATE journal SET payload = replace(payload, 'hello', 'HELLO') WHERE seq = 6;")
        #expect(edit.code == 0, "\(edit)")
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout == """
            TAMPERING FOUND in \(g.db):
              - the append-only trigger 'journal_no_update' was removed from the database
              - entry 6: hash does not match its content (the entry was edited)
            First bad entry: 6

            """)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(["verify", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["ok"] as? Bool == false)
        #expect((json["problems"] as? [[String: Any]])?.count == 2)
    }

    @Test("verify exits 2 when a query table is edited, a row deleted or a journal row removed", arguments: [
        "DROP TRIGGER run_finishes_no_update; UPDATE run_finishes SET outcome = 'pass' WHERE id = 'r1';",
        "DROP TRIGGER evidence_no_delete; DELETE FROM evidence WHERE id = 'e1';",
        "INSERT INTO evidence VALUES ('e9', 99, 'r1', 'note', 'live-hosted', '{}', NULL, NULL, NULL, 'm', 'x', NULL, NULL);",
        "DROP TRIGGER journal_no_delete; DELETE FROM journal WHERE seq = 3;",
    ])
    func verifyFindsOtherTampering(sql: String) throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "hello"]).code == 0)
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        #expect(try g.run(["verify"]).code == 0)
        #expect(try g.sqlite(sql).code == 0)
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.hasPrefix("TAMPERING FOUND"))
    }

    @Test("Concurrent writer processes all succeed, every entry is present, and verify passes")
    func concurrentWritersAllSucceed() throws {
        let g = try Growcert()
        try g.seed()
        let writers = 3, notes = 25
        let running = try (0..<writers).map { w in
            try g.start(#"i=1; while [ $i -le \#(notes) ]; do "$G" --db "$DB" --quiet evidence add note --run r1 --text "writer \#(w) note $i" >/dev/null || exit $?; i=$((i+1)); done"#)
        }
        for r in running {
            let o = try r.finish()
            #expect(o.code == 0, "\(o)")
        }
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.count == writers * notes)
        let texts = Set(items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String })
        for w in 0..<writers { for i in 1...notes { #expect(texts.contains("writer \(w) note \(i)")) } }
        #expect(Set(items.compactMap { $0["id"] as? String }).count == writers * notes)
        let o = try g.run(["verify"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("OK: \(5 + writers * notes) journal entries"))
    }
}
