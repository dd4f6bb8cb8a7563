import Foundation
import Testing

/// No SQL is ever built by formatting values: every value is bound. The only interpolations
/// allowed in SQL text are the constant table and column names of the store and its projection.
@Suite struct SQLConstructionTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    static let sqlMarkers = ["SELECT ", "INSERT INTO", "INSERT OR", "UPDATE ", "DELETE FROM", "CREATE TABLE", "CREATE INDEX", "CREATE TRIGGER",
                             "PRAGMA ", "DROP ", "ALTER TABLE", "REPLACE INTO", "ATTACH ", "VACUUM"]

    /// The files that may build SQL text from constants.
    static func mayInterpolate(_ relative: String) -> Bool {
        relative == "Sources/Evidence/Audit/Tables.swift" || relative.hasPrefix("Sources/Evidence/Store/")
    }

    /// Interpolated expressions known to be constant table or column names (or constant numbers).
    static let constantExpressions: Set<String> = [
        "spec.table", "$0", "Schema.applicationId", "current + 1",
        // The PostgreSQL schema, generated from the SQLite migrations' own table, index and column names.
        "functionName", "t.name", "table.name", "parts.joined(separator: \", \")", "index.name", "index.table",
        "index.columns.joined(separator: \", \")", "i.name", "i.table", "i.columns.joined(separator: \", \")",
        // The catalog's `current_schema()`, in the expected text of a trigger (compared, never run).
        "schema",
        // Role names in `db init-roles`' DDL, which cannot bind an identifier: `PostgresRoles.checked` lets through
        // only lower-case letters, digits and '_' (a test below feeds it quotes and semicolons).
        "recorder", "auditor",
        // PostgreSQL's append function (`appendFunctionSQL`): its name (`pg_temp.` and a table's), `rowCountQuery`'s
        // text (a table name and placeholders) and the start it is given (the same), a table's column names and their
        // types (`table.column%TYPE`), the `$n` placeholders of its row's values, and the journal's lock key.
        "probe", "start", "columnList", "rowValues", "name", "parameterTypes.joined(separator: \", \")", "placeholders",
        "journalLockKey",
    ]

    /// The expressions inside `\( … )` on a line, with nested parentheses.
    static func interpolations(in line: Substring) -> [String] {
        var out: [String] = []
        let chars = Array(line)
        var i = 0
        while i + 1 < chars.count {
            if chars[i] == "\\", chars[i + 1] == "(" {
                var depth = 1
                var j = i + 2
                while j < chars.count, depth > 0 {
                    if chars[j] == "(" { depth += 1 } else if chars[j] == ")" { depth -= 1 }
                    j += 1
                }
                out.append(String(chars[(i + 2)..<max(i + 2, j - 1)]))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    @Test("SQL text in Sources/ interpolates only constant table and column names")
    func noSQLIsBuiltFromValues() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        var sqlLines = 0
        for file in files.sorted() {
            let relative = "Sources/" + file
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where Self.sqlMarkers.contains(where: line.contains) {
                sqlLines += 1
                let found = Self.interpolations(in: line)
                guard !found.isEmpty else { continue }
                if !Self.mayInterpolate(relative) {
                    Issue.record("\(relative):\(n + 1) builds SQL with interpolation: \(line.trimmingCharacters(in: .whitespaces))")
                    continue
                }
                for expression in found where !Self.constantExpressions.contains(expression) {
                    Issue.record("\(relative):\(n + 1) interpolates '\(expression)' into SQL; bind it with '?' instead")
                }
            }
        }
        #expect(sqlLines > 20)
    }

    /// The files below the storage seam: the only ones in `Sources/Evidence` that may hold SQL text
    /// (SQLite's connection, statements, schema and integrity check, PostgreSQL's backend, and the
    /// dialect both render typed reads with).
    static func isBackend(_ relative: String) -> Bool {
        let name = URL(fileURLWithPath: relative).lastPathComponent
        return relative.hasPrefix("Sources/Evidence/Store/PostgreSQL/")
            || (relative.hasPrefix("Sources/Evidence/Store/")
                && (name.hasPrefix("Connection") || ["Statement.swift", "Schema.swift", "SQLDialect.swift"].contains(name)))
            || relative == "Sources/Evidence/Audit/ParallelIntegrityCheck.swift"
    }

    /// (`"BEGIN` with its quote: a PEM's `-----BEGIN PUBLIC KEY-----` is not SQL.)
    static let sqlKeywords = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", " FROM ", " WHERE ", "ORDER BY", " JOIN ", "CREATE ", "DROP ",
                              "ALTER ", "\"BEGIN", "COMMIT", "ROLLBACK", "LIMIT "]

    /// The SQL keywords in a line of code (a line that is only a comment has none).
    static func sqlKeywords(in line: Substring) -> [String] {
        guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return [] }
        return sqlKeywords.filter { line.contains($0) }
    }

    @Test("Above the storage seam no SQL is written: the store and verify ask typed reads and named methods")
    func noSQLAboveTheSeam() throws {
        // The store and the model it re-exports: the model, too, writes no SQL.
        var files: [String] = []
        for module in ["Evidence", "EvidenceModel"] {
            let dir = Self.packageRoot.appendingPathComponent("Sources/\(module)")
            files += try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }.map { "Sources/\(module)/" + $0 }
        }
        var above = 0
        var below = 0
        for relative in files.sorted() {
            guard !Self.isBackend(relative) else {
                below += 1
                continue
            }
            above += 1
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(relative), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let found = Self.sqlKeywords(in: line)
                if !found.isEmpty {
                    Issue.record("\(relative):\(n + 1) writes SQL (\(found.joined(separator: ", "))) above the storage seam; ask the seam with a RowQuery or a named method: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        // Both sides exist where they are expected, so a move of the folders cannot empty the scan.
        #expect(above > 30)
        #expect(below >= 8)
        #expect(files.contains("Sources/Evidence/Store/EvidenceStore+Reads.swift") && files.contains("Sources/Evidence/Audit/EvidenceStore+Verify.swift"))
    }

    @Test("The seam scan finds SQL in code and passes comments, so a regression would fail")
    func theSeamScanSeesSQL() {
        #expect(Self.sqlKeywords(in: #"try db.query("SELECT id FROM runs WHERE id=?", [.text(id)])"#) == ["SELECT ", " FROM ", " WHERE "])
        #expect(Self.sqlKeywords(in: #"    let sql = "DELETE FROM meta""#) == ["DELETE ", " FROM "])
        #expect(Self.sqlKeywords(in: "    /// runs `PRAGMA integrity_check` beside the replay").isEmpty)
        #expect(Self.isBackend("Sources/Evidence/Store/Connection+StoreDatabase.swift"))
        #expect(!Self.isBackend("Sources/Evidence/Store/EvidenceStore+Reads.swift"))
        #expect(!Self.isBackend("Sources/Evidence/Audit/EvidenceStore+Verify.swift"))
    }

    @Test("The scan finds an interpolated value, so a regression would fail")
    func theScanSeesInterpolation() {
        #expect(Self.interpolations(in: #"try db.query("SELECT * FROM runs WHERE id='\(id)' AND x=\(f(a, (b)))")"#) == ["id", "f(a, (b))"])
    }
}
