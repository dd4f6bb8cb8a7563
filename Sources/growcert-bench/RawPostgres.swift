internal import CPostgres
import Foundation

/// The PostgreSQL ingest baseline: plain prepared inserts over libpq into one table shaped like
/// the journal (without its hash index), in transactions of the same size, on the same server (in a
/// schema of its own, `baseline`, so the evidence schema stays as verify expects it).
final class RawPostgres {
    private let conn: OpaquePointer

    /// The baseline's tables: one for the ingest row, one for the 8 writers.
    enum Table {
        case rows, writers

        var createSQL: String {
            switch self {
            case .rows: return "CREATE SCHEMA IF NOT EXISTS baseline; DROP TABLE IF EXISTS baseline.raw_rows; CREATE TABLE baseline.raw_rows(seq bigint PRIMARY KEY, kind text NOT NULL, actor text NOT NULL, at text NOT NULL, payload text NOT NULL, prev_hash text NOT NULL, hash text NOT NULL)"
            case .writers: return "CREATE SCHEMA IF NOT EXISTS baseline; DROP TABLE IF EXISTS baseline.raw_writers; CREATE TABLE baseline.raw_writers(seq bigint PRIMARY KEY, kind text NOT NULL, actor text NOT NULL, at text NOT NULL, payload text NOT NULL, prev_hash text NOT NULL, hash text NOT NULL)"
            }
        }

        var insertSQL: String {
            switch self {
            case .rows: return "INSERT INTO baseline.raw_rows(seq, kind, actor, at, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7)"
            case .writers: return "INSERT INTO baseline.raw_writers(seq, kind, actor, at, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7)"
            }
        }
    }

    /// Connects; `table` (in schema `baseline`) is made afresh when `create`, else it must exist.
    init(url: String, table: Table = .rows, create: Bool = true) throws {
        guard let conn = PQconnectdb(url), PQstatus(conn) == CONNECTION_OK else {
            throw BenchError.failed("cannot connect to the PostgreSQL benchmark database")
        }
        self.conn = conn
        if create { try exec(table.createSQL) }
        let prepared = PQprepare(conn, "raw_insert", table.insertSQL, 7, nil)
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else { throw BenchError.failed("PostgreSQL: cannot prepare the baseline insert") }
    }

    deinit { PQfinish(conn) }

    func exec(_ sql: String) throws {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        guard [PGRES_COMMAND_OK, PGRES_TUPLES_OK].contains(PQresultStatus(result)) else {
            throw BenchError.failed("PostgreSQL: \(String(cString: PQerrorMessage(conn))) (\(sql))")
        }
    }

    /// Inserts `count` rows with a payload of `payloadSize` bytes, `batch` rows per transaction; the
    /// rows' seq numbers follow `firstSeq`.
    func insert(count: Int, payloadSize: Int, batch: Int, firstSeq: Int = 0) throws {
        let payloadBase = String(repeating: "x", count: max(0, payloadSize - 8))
        let hash = String(repeating: "a", count: 64)
        var seq = firstSeq
        while seq < firstSeq + count {
            try exec("BEGIN")
            for _ in 0..<min(batch, firstSeq + count - seq) {
                seq += 1
                let values = [String(seq), "evidence.add", "bench", "2026-11-30T08:00:00.000Z", payloadBase + String(seq), hash, hash + String(seq)]
                var buffers: [UnsafeMutablePointer<CChar>?] = values.map { strdup($0) }
                defer { buffers.forEach { free($0) } }
                let result = buffers.withUnsafeMutableBufferPointer { pointers in
                    pointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { PQexecPrepared(conn, "raw_insert", 7, $0.baseAddress, nil, nil, 0) }
                }
                defer { PQclear(result) }
                guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw BenchError.failed("PostgreSQL: \(String(cString: PQerrorMessage(conn)))") }
            }
            try exec("COMMIT")
        }
    }
}
