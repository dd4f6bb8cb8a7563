/// What a `batch` transaction remembers between its writes instead of asking SQLite again.
///
/// A batch holds SQLite's write lock from `BEGIN IMMEDIATE` to its end, so no other
/// connection can append to the journal or add rows meanwhile: the journal head and each
/// table's largest rowid change only through this store's own appends, which keep them up
/// to date here. A run, once found, stays (rows are never deleted). Any error inside the
/// batch empties the cache, since what reached the file is then not known here, and so does
/// the end of the batch, commit or rollback.
struct BatchCache {
    /// The newest journal entry: its seq and hash (nil while the batch's writer holds it: `BatchWriter.appendChained`).
    var head: (seq: Int64, hash: String?)?
    /// The largest rowid of each query table, by table name.
    var lastRowid = TableCounts()
    /// Runs known to be unfinished (a finish inside the batch removes its run).
    var openRuns: Set<String> = []
    /// Runs found by id, keyed by the id as the caller spelled it.
    private var runIds: [String: (spelled: String, id: String)] = [:]

    /// The stored id of a run already found under this exact spelling (compared byte for byte:
    /// the lookup in SQLite is by bytes, `String` equality is by Unicode equivalence).
    func runId(spelled: String) -> String? {
        guard let hit = runIds[spelled], hit.spelled.utf8.elementsEqual(spelled.utf8) else { return nil }
        return hit.id
    }

    mutating func remember(runId: String, spelled: String) {
        runIds[spelled] = (spelled, runId)
    }

    /// A row was inserted into `table`.
    mutating func inserted(into table: String) {
        lastRowid.increment(table)
    }
}

/// A count for each of a few tables, by name: a batch writes to a handful of the schema's tables, so they are found by a
/// look along an array, where a table's short name compares in a word or two, rather than by hashing the name at every
/// append (docs/performance.md, "thirteenth round").
struct TableCounts {
    private var tables: [String] = []
    private var counts: [Int64] = []

    subscript(table: String) -> Int64? { tables.firstIndex(of: table).map { counts[$0] } }

    mutating func set(_ table: String, _ count: Int64) {
        if let i = tables.firstIndex(of: table) {
            counts[i] = count
        } else {
            tables.append(table)
            counts.append(count)
        }
    }

    /// One more for `table`, when it has a count.
    mutating func increment(_ table: String) {
        if let i = tables.firstIndex(of: table) { counts[i] += 1 }
    }
}
