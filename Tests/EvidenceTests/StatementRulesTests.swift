import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// What GRDB does that is easy to forget (STYLE.md, issue 14): one statement per call, every parameter
/// bound, a failed statement never reused, rows decoded or refused, transactions that say they do not nest.
@Suite("SQLite statements and rows follow the wrapper's rules")
struct StatementRulesTests {
    @Test("SQL after the first statement is refused, not silently ignored")
    func trailingStatementIsRefused() throws {
        try withTempDir { dir in
            let c = try Connection(path: dir.appendingPathComponent("t.sqlite").path, create: true)
            try c.execute("CREATE TABLE t(x INTEGER)")
            #expect(throws: SQLiteError.self) { try c.run("INSERT INTO t VALUES (1); DROP TABLE t") }
            do {
                try c.run("INSERT INTO t VALUES (1); DROP TABLE t")
            } catch let e as SQLiteError {
                #expect(e.message == "more than one statement in one call: 'DROP TABLE t' follows the first")
            }
            // Nothing of it ran, and the table is still there.
            #expect(try c.scalarInt("SELECT COUNT(*) FROM t") == 0)
            // A trailing semicolon and white space are one statement.
            try c.run("INSERT INTO t VALUES (2);  \n")
            #expect(try c.scalarInt("SELECT COUNT(*) FROM t") == 1)
        }
    }

    @Test("The number of values must be the number of parameters", arguments: [0, 1, 3])
    func bindCountIsChecked(_ count: Int) throws {
        try withTempDir { dir in
            let c = try Connection(path: dir.appendingPathComponent("t.sqlite").path, create: true)
            try c.execute("CREATE TABLE t(a INTEGER, b INTEGER)")
            let values = [SQLValue?](repeating: .integer(1), count: count)
            do {
                try c.run("INSERT INTO t VALUES (?, ?)", values)
                Issue.record("\(count) values for 2 parameters were accepted")
            } catch let e as SQLiteError {
                #expect(e.message == "\(count) values for 2 parameters")
            }
            #expect(try c.scalarInt("SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test("A statement that failed is dropped from the cache and the next call works")
    func failedStatementIsNotReused() throws {
        try withTempDir { dir in
            let c = try Connection(path: dir.appendingPathComponent("t.sqlite").path, create: true)
            try c.execute("CREATE TABLE t(x INTEGER UNIQUE)")
            let sql = "INSERT INTO t VALUES (?)"
            try c.run(sql, [.integer(1)])
            let first = try c.statement(sql)
            #expect(throws: SQLiteError.self) { try c.run(sql, [.integer(1)]) }  // UNIQUE fails
            let second = try c.statement(sql)
            #expect(first !== second, "the failed statement was kept in the cache")
            try c.run(sql, [.integer(2)])
            #expect(try c.scalarInt("SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test("Nesting a transaction is an explicit error, and the outer one is unharmed")
    func nestedTransactionIsAnExplicitError() throws {
        try withTempDir { dir in
            let c = try Connection(path: dir.appendingPathComponent("t.sqlite").path, create: true)
            try c.execute("CREATE TABLE t(x INTEGER)")
            var message: String?
            try c.transaction {
                try c.run("INSERT INTO t VALUES (1)")
                do { try c.transaction { try c.run("INSERT INTO t VALUES (2)") } } catch let e as SQLiteError { message = e.message }
            }
            #expect(message == "a transaction is already open on this connection: transactions do not nest")
            #expect(try c.scalarInt("SELECT COUNT(*) FROM t") == 1)
        }
    }

    @Test("A row holding a value growcert never writes is refused, not read as a default",
          arguments: [("devices", "kind", "'virtual'", "devices.kind"), ("accounts", "store", "'amazon'", "accounts.store"),
                      ("evidence", "provenance", "'trusted'", "evidence.provenance")])
    func undecodableValueIsRefused(_ table: String, _ column: String, _ value: String, _ name: String) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.addEvidence(note(s.run.id, "hello"))
            try rawExecuteBehindTriggers(s.path, tables: [table], "UPDATE \(table) SET \(column)=\(value)")
            let store = try EvidenceStore.open(at: s.path, actor: "qa")
            do {
                switch table {
                case "devices": _ = try store.devices(campaignId: s.campaign.id)
                case "accounts": _ = try store.accounts(campaignId: s.campaign.id)
                default: _ = try store.evidence(runId: s.run.id)
                }
                Issue.record("\(name) = \(value) was read as something else")
            } catch let e as EvidenceError {
                #expect(e.description == "The database holds a value growcert never writes: \(name) is \(value.replacingOccurrences(of: "'", with: "'")). It was changed outside growcert; verify the database. Nothing was written.")
            }
        }
    }
}
