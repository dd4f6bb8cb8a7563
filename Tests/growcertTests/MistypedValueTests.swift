import Foundation
import Testing

/// A value of a type growcert never writes, put into a table with the sqlite3 shell (issue 26, item 4):
/// reads refuse it naming the column (exit 65), `verify` reports the tampering (exit 2); nothing reads it
/// as a silent "" or 0.
@Suite("growcert end to end: a column's value changed to another type outside growcert")
struct MistypedValueTests {
    @Test("A run whose seq was made text with the triggers dropped: run show names runs.seq, verify exits 2")
    func textSeqIsNamedByReadsAndFailsVerify() throws {
        let g = try Growcert()
        try g.seed()
        let edit = try g.sqlite("DROP TRIGGER runs_no_update; UPDATE runs SET seq = 'x' WHERE id = 'r1'")
        try #require(edit.code == 0, "\(edit)")

        let show = try g.run(["run", "show", "r1"])
        #expect(show.code == 65, "\(show)")
        #expect(show.stderr == "growcert: The database holds a value growcert never writes: runs.seq is the text 'x', where growcert writes an integer. It was changed outside growcert; verify the database. Nothing was written.\n", "\(show)")
        #expect(show.stdout == "")

        let verify = try g.run(["verify"])
        #expect(verify.code == 2, "\(verify)")
        #expect(verify.stdout.contains("TAMPERING FOUND"), "\(verify)")
        #expect(verify.stdout.contains("  - the append-only trigger 'runs_no_update' was removed from the database\n"), "\(verify)")
        #expect(verify.stdout.contains("  - runs.seq is the text 'x', where growcert writes an integer (changed behind the tool's back)\n"), "\(verify)")
        #expect(verify.stderr == "", "\(verify)")
    }
}
