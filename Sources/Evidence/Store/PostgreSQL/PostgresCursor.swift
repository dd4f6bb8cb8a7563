/// The rows of one query read a batch at a time through a server-side cursor (`DECLARE … CURSOR`,
/// `FETCH`), so `verify` can read the journal and every table side by side in one snapshot with
/// memory that stays flat. Outside a transaction, where a cursor cannot live, and for a read with
/// values (a cursor's query takes none), all rows are read at once.
final class PostgresCursor: RowCursor {
    private let connection: PostgresConnection
    private let name: String?
    private var batch: [Row] = []
    private var index = -1
    private var exhausted = false
    static let batchSize = 2_000

    private let table: String?

    init(connection: PostgresConnection, sql: String, values: [SQLValue], table: String? = nil) throws {
        self.connection = connection
        self.table = table
        if connection.isInTransaction, values.isEmpty {
            let name = connection.nextCursorName()
            try connection.execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)")
            self.name = name
        } else {
            name = nil
            batch = try connection.query(sql, values, table: table)
            exhausted = true
        }
    }

    func step() throws -> Bool {
        index += 1
        if index < batch.count { return true }
        guard !exhausted, let name else { return false }
        batch = try connection.executeRows("FETCH \(Self.batchSize) FROM \(name)", table: table)
        index = 0
        exhausted = batch.count < Self.batchSize
        return !batch.isEmpty
    }

    var row: Row { batch[index] }

    func close() {
        guard let name, connection.isInTransaction else { return }
        exhausted = true
        batch = []
        try? connection.execute("CLOSE \(name)")
    }
}
