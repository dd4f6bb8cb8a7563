/// A read of rows described as a value, not as SQL (GRDB's query interface is the model): the
/// table, the columns, the conditions, the order, the limit, and the few joins the store's reads
/// need. The store asks the seam with one (`StoreDatabase.fetch`); each backend renders it in its
/// own dialect (`SQLDialect`: SQLite's `?`, PostgreSQL's `$1`, `$2`, …). Values are always bound.
struct RowQuery {
    /// A column of the queried table, or of a joined one by its alias (`"r.campaign_id"`).
    struct Column: Equatable, ExpressibleByStringLiteral {
        var table: String?
        var name: String

        init(_ table: String?, _ name: String) {
            self.table = table
            self.name = name
        }

        /// `"name"` or `"alias.name"`.
        init(stringLiteral text: String) {
            if let dot = text.firstIndex(of: ".") {
                self.init(String(text[..<dot]), String(text[text.index(after: dot)...]))
            } else {
                self.init(nil, text)
            }
        }
    }

    /// One selected value, always named in the result (`AS`), so that rows are read by column name
    /// with the same names on SQLite and PostgreSQL.
    enum Selected: ExpressibleByStringLiteral {
        /// A column, named in the result by its own name or by `as`.
        case column(Column, as: String? = nil)
        /// A column an older schema does not have, read as NULL under its name.
        case null(as: String)
        /// The number of rows, named `count`.
        case count

        init(stringLiteral text: String) { self = .column(Column(stringLiteral: text)) }

        /// The column's name in the result.
        var resultName: String {
            switch self {
            case .column(let c, let alias): return alias ?? c.name
            case .null(let name): return name
            case .count: return "count"
            }
        }
    }

    enum Condition {
        case equals(Column, SQLValue)
        case isIn(Column, [SQLValue])
        case notIn(Column, [SQLValue])
        case greater(Column, SQLValue)
        case greaterOrEqual(Column, SQLValue)
        case lessOrEqual(Column, SQLValue)
        case isNotNull(Column)
    }

    /// Another table's rows beside each row: `column` of `table` (as `alias`) equals `equals`.
    struct Join {
        /// Whether a row without a match is kept (its joined columns NULL).
        var keepsUnmatched: Bool
        var table: String
        var alias: String
        var column: String
        var equals: Column

        static func left(_ table: String, as alias: String, on column: String, equals: Column) -> Join {
            Join(keepsUnmatched: true, table: table, alias: alias, column: column, equals: equals)
        }

        static func inner(_ table: String, as alias: String, on column: String, equals: Column) -> Join {
            Join(keepsUnmatched: false, table: table, alias: alias, column: column, equals: equals)
        }
    }

    /// Journal order of the queried table's rows (every table has `seq`).
    ///
    /// `asWritten` is journal order where a backend keeps rows so without sorting them (SQLite's rowid order: growcert
    /// inserts a table's rows in journal order), and `seqAscending` elsewhere. It is only for reads that are correct in
    /// any order and merely fastest in journal order (verify's `TableReplay`): a table sorted by seq, which has no index
    /// of its own, costs SQLite a temporary B-tree of the whole table on disk.
    enum Order { case seqAscending, seqDescending, asWritten }

    var table: String
    var alias: String?
    var selection: [Selected]
    var joins: [Join]
    var conditions: [Condition]
    var order: Order?
    var limit: Int?

    init(_ table: String, as alias: String? = nil, select selection: [Selected], joins: [Join] = [], where conditions: [Condition] = [],
         order: Order? = nil, limit: Int? = nil) {
        self.table = table
        self.alias = alias
        self.selection = selection
        self.joins = joins
        self.conditions = conditions
        self.order = order
        self.limit = limit
    }

    /// The rows of `spec` as the store's records read them (`TableSpec.readOrder`: id, seq, the rest);
    /// a column `present` (the table at the database's schema version) lacks reads as NULL.
    static func rows(of spec: TableSpec, present: TableSpec? = nil, where conditions: [Condition] = [], order: Order? = .seqAscending,
                     limit: Int? = nil) -> RowQuery {
        let columns = Set((present ?? spec).columns + ["seq"])
        return RowQuery(spec.table, select: spec.readOrder.map { columns.contains($0) ? .column(Column(nil, $0)) : .null(as: $0) },
                        where: conditions, order: order, limit: limit)
    }

    /// Journal entries, every column in the order `JournalEntry` and `Chain` read them.
    static func journal(where conditions: [Condition] = [], order: Order = .seqAscending, limit: Int? = nil) -> RowQuery {
        RowQuery(Tables.journal, select: Tables.journalColumns.map { .column(Column(nil, $0)) }, where: conditions, order: order, limit: limit)
    }
}
