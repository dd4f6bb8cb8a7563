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
        "campaignColumns", "Self.deviceColumns", "Self.accountColumns", "Self.runColumns", "Self.evidenceColumns", "Self.reportColumns",
        "Self.signoffColumns", "spec.table", "cols.joined(separator: \",\")", "cols.map { _ in \"?\" }.joined(separator: \",\")",
        "columns.map { \"\\($0)=?\" }.joined(separator: \",\")", "$0", "spec.columns.joined(separator: \",\")", "Schema.applicationId", "current + 1",
        "Self.signerColumns", "Self.anchorColumns", "kinds.map { _ in \"?\" }.joined(separator: \",\")",
        "bookkeeping.map { _ in \"?\" }.joined(separator: \",\")", "Self.journalColumns",
        // The PostgreSQL schema, generated from the SQLite migrations' own table, index and column names.
        "functionName", "t.name", "table.name", "parts.joined(separator: \", \")", "index.name", "index.table",
        "index.columns.joined(separator: \", \")", "i.name", "i.table", "i.columns.joined(separator: \", \")",
        // The catalog's `current_schema()`, in the expected text of a trigger (compared, never run).
        "schema",
        // Role names in `db init-roles`' DDL, which cannot bind an identifier: `PostgresRoles.checked` lets through
        // only lower-case letters, digits and '_' (a test below feeds it quotes and semicolons).
        "recorder", "auditor",
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

    @Test("The scan finds an interpolated value, so a regression would fail")
    func theScanSeesInterpolation() {
        #expect(Self.interpolations(in: #"try db.query("SELECT * FROM runs WHERE id='\(id)' AND x=\(f(a, (b)))")"#) == ["id", "f(a, (b))"])
    }
}
