/// How a backend writes the statements both backends share: a `RowQuery`, a row's insert and
/// update, and the shape of a transaction. The two dialects differ only in their placeholders
/// (SQLite `?`, PostgreSQL `$1`, `$2`, …), which each gets natively: nothing renumbers SQL text.
///
/// With `Schema`, `Connection…` and `PostgreSQL/`, the only place SQL text is written.
struct SQLDialect: Sendable {
    /// The placeholder of the `n`th value (1-based).
    let placeholder: @Sendable (Int) -> String
    /// Whether a table read without `ORDER BY` comes in the order its rows were inserted: SQLite reads a rowid table
    /// in rowid order, and a row keeps its rowid (no update moves it); PostgreSQL's heap order moves as rows are updated.
    let scansInInsertOrder: Bool

    static let sqlite = SQLDialect(placeholder: { _ in "?" }, scansInInsertOrder: true)
    static let postgres = SQLDialect(placeholder: { "$\($0)" }, scansInInsertOrder: false)

    /// A query's text and the values to bind to it, in order.
    func select(_ query: RowQuery) -> (sql: String, values: [SQLValue]) {
        var values: [SQLValue] = []
        func bind(_ value: SQLValue) -> String {
            values.append(value)
            return placeholder(values.count)
        }
        func name(_ c: RowQuery.Column) -> String { c.table.map { $0 + "." + c.name } ?? c.name }
        // Every value is named (`AS`): the name of an unaliased expression is unspecified in SQLite,
        // and rows are read by name. The names are lowercase, as PostgreSQL folds an unquoted one.
        let columns = query.selection.map { selected -> String in
            switch selected {
            case .column(let c, _): return name(c) + " AS " + selected.resultName
            case .null: return "NULL AS " + selected.resultName
            case .count: return "COUNT(*) AS " + selected.resultName
            }
        }
        var sql = "SELECT " + columns.joined(separator: ", ") + " FROM " + query.table + (query.alias.map { " " + $0 } ?? "")
        for join in query.joins {
            sql += (join.keepsUnmatched ? " LEFT JOIN " : " JOIN ") + join.table + " " + join.alias
                + " ON " + join.alias + "." + join.column + " = " + name(join.equals)
        }
        let conditions = query.conditions.map { condition -> String in
            switch condition {
            case .equals(let c, let v): return name(c) + " = " + bind(v)
            case .greater(let c, let v): return name(c) + " > " + bind(v)
            case .greaterOrEqual(let c, let v): return name(c) + " >= " + bind(v)
            case .lessOrEqual(let c, let v): return name(c) + " <= " + bind(v)
            case .isNotNull(let c): return name(c) + " IS NOT NULL"
            // An empty list: nothing is in it (PostgreSQL has no `IN ()`).
            case .isIn(let c, let list): return list.isEmpty ? "1 = 0" : name(c) + " IN (" + list.map(bind).joined(separator: ", ") + ")"
            case .notIn(let c, let list): return list.isEmpty ? "1 = 1" : name(c) + " NOT IN (" + list.map(bind).joined(separator: ", ") + ")"
            }
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if let order = query.order, order != .asWritten || !scansInInsertOrder {
            sql += " ORDER BY " + (query.alias.map { $0 + "." } ?? "") + "seq" + (order == .seqDescending ? " DESC" : "")
        }
        if let limit = query.limit { sql += " LIMIT " + bind(.integer(Int64(limit))) }
        return (sql, values)
    }

    /// Inserts `rows` rows (one unless said): `columns`' values, in order, row after row.
    func insert(into table: String, _ columns: [String], rows: Int = 1) -> String {
        "INSERT INTO " + table + "(" + columns.joined(separator: ",") + ") VALUES "
            + (0..<rows).map { row in "(" + columns.indices.map { placeholder(row * columns.count + $0 + 1) }.joined(separator: ",") + ")" }.joined(separator: ",")
    }

    /// Inserts one query-table row: seq, then `spec.columns`.
    func insert(_ spec: TableSpec) -> String { insert(into: spec.table, ["seq"] + spec.columns) }

    /// Sets `columns` of the row whose id is the last value (the update entries of schemas before `Schema.stateRowsVersion`).
    func update(_ spec: TableSpec, columns: [String]) -> String {
        "UPDATE " + spec.table + " SET " + columns.enumerated().map { $1 + "=" + placeholder($0 + 1) }.joined(separator: ",")
            + " WHERE id=" + placeholder(columns.count + 1)
    }
}

/// `begin`, `body`, `COMMIT`; `ROLLBACK` and rethrow the first error on any throw: the one
/// transaction shape of both backends (`execute` runs a statement on the backend's connection).
/// A failed `COMMIT`'s error is passed through `commitFailed` first: a backend whose commit can be
/// acknowledged or lost (a server over a connection) marks it so.
func committed<T>(begin: String, execute: (String) throws -> Void, commitFailed: (Error) -> Error = { $0 },
                  _ body: () throws -> T) throws -> T {
    try execute(begin)
    do {
        let result = try body()
        do { try execute("COMMIT") } catch { throw commitFailed(error) }
        return result
    } catch {
        try? execute("ROLLBACK")
        throw error
    }
}
