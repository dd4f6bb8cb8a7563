internal import CSQLite
import Foundation
import Synchronization

/// Journal rows copied out of SQLite by verify's replay, a chunk at a time, and what a second thread finds of each
/// while the replay reads the next chunk and replays the one before: the checks of an entry that need nothing before
/// it (its text is valid UTF-8, its envelope hashes to its hash, its kind is known, its payload is canonical).
///
/// The replay decides each entry on the copied bytes themselves, which are the row's as SQLite gave them: it accepts
/// an entry the second thread found good only once the entry's seq and chain link (which depend on the entries before
/// it) hold too, and hands any other entry to the original checks, as the journal read in place did. Only the replay's
/// thread touches SQLite; the second thread (`ChunkChecker`) touches only a chunk it was handed, until its `wait`
/// returns.
final class JournalChunk: @unchecked Sendable {
    /// How many entries a chunk holds.
    static let size = 1_024

    struct Entry {
        var seq: Int64
        /// Where its six text columns' ranges start in `columns` (kind, actor, at, payload, prev_hash, hash).
        var firstColumn: Int
        /// A row whose types are not an integer seq and six text columns, read whole (none of the checks apply).
        var row: Row?
        /// What the second thread found: every text column but the payload is valid UTF-8…
        var validText = false
        /// …and the envelope hashes to its hash, the kind is known (`plan`) and the payload is canonical (`fields`).
        var accepted = false
        var plan = 0
        var fields: Range<Int> = 0..<0
    }

    private(set) var entries: [Entry] = []
    private(set) var bytes: [UInt8] = []
    private(set) var columns: [Range<Int>] = []
    private(set) var fields: [CanonicalCheck.Field] = []

    var isEmpty: Bool { entries.isEmpty }

    /// Copies up to `size` rows of the journal cursor `statement` (seq, kind, actor, at, payload, prev_hash, hash);
    /// false once the cursor has no more.
    func fill(from statement: Statement) throws -> Bool {
        // Worked on as locals: a class's stored property is checked for exclusive access at every use.
        var (entries, bytes, columns) = (take(&self.entries), take(&self.bytes), take(&self.columns))
        defer { (self.entries, self.bytes, self.columns) = (entries, bytes, columns) }
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        while entries.count < Self.size {
            guard try statement.step() else { return false }
            guard let h = statement.handle, sqlite3_column_type(h, 0) == SQLITE_INTEGER,
                  (1...6).allSatisfy({ sqlite3_column_type(h, Int32($0)) == SQLITE_TEXT && sqlite3_column_text(h, Int32($0)) != nil })
            else {
                entries.append(Entry(seq: 0, firstColumn: columns.count, row: statement.row))
                continue
            }
            entries.append(Entry(seq: sqlite3_column_int64(h, 0), firstColumn: columns.count))
            for c in Int32(1)...6 {
                let start = bytes.count
                bytes.append(contentsOf: UnsafeBufferPointer(start: sqlite3_column_text(h, c), count: Int(sqlite3_column_bytes(h, c))))
                columns.append(start..<bytes.count)
            }
        }
        return true
    }

    /// Checks every entry; `kinds` are the known kinds' texts, an entry's `plan` the index of its own.
    func check(kinds: [[UInt8]]) {
        var canonical = CanonicalCheck()
        var envelope: [UInt8] = []
        var (entries, fields) = (take(&self.entries), take(&self.fields))
        defer { (self.entries, self.fields) = (entries, fields) }
        let columns = self.columns
        bytes.withUnsafeBufferPointer { all in
            for n in entries.indices where entries[n].row == nil {
                let c = entries[n].firstColumn
                func column(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[columns[c + i]]) }
                let (kind, actor, at, payload, prev, hash) = (column(0), column(1), column(2), column(3), column(4), column(5))
                guard CanonicalCheck.isValidUTF8(kind), CanonicalCheck.isValidUTF8(actor), CanonicalCheck.isValidUTF8(at),
                      CanonicalCheck.isValidUTF8(prev), CanonicalCheck.isValidUTF8(hash) else { continue }
                entries[n].validText = true
                envelope.removeAll(keepingCapacity: true)
                Chain.appendEnvelope(seq: entries[n].seq, kind: kind, actor: actor, at: at, payload: payload, prev: prev, into: &envelope)
                guard Digest.sha256(of: envelope, isHex: hash),
                      let plan = kinds.firstIndex(where: { TableReplay.bytes(kind, equal: $0) }),
                      canonical.check(payload)
                else { continue }
                entries[n].accepted = true
                entries[n].plan = plan
                entries[n].fields = fields.count..<fields.count + canonical.fields.count
                fields.append(contentsOf: canonical.fields)
            }
        }
    }
}

/// The second thread of verify's journal read: checks the chunks it is handed, one at a time, on a thread of its own
/// (not a dispatch queue's: a caller waiting for it could hold the few threads such a queue has).
final class ChunkChecker: Sendable {
    private let handed = Mutex<JournalChunk?>(nil)
    private let work = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread; `kinds` are the known kinds' texts (`JournalChunk.check`).
    init(kinds: [[UInt8]]) {
        let thread = Thread { [self] in
            while true {
                work.wait()
                guard let chunk = handed.withLock({ handed in defer { handed = nil }; return handed }) else { return }
                chunk.check(kinds: kinds)
                done.signal()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Hands `chunk` to the thread; call `wait` before touching it again.
    func check(_ chunk: JournalChunk) {
        handed.withLock { $0 = chunk }
        work.signal()
    }

    /// Waits for the chunk handed last.
    func wait() { done.wait() }

    /// Ends the thread once it has checked what it holds.
    func stop() {
        handed.withLock { $0 = nil }
        work.signal()
    }
}

/// `value`'s contents, leaving it empty with its storage gone with them (no copy when the caller writes them back).
private func take<T>(_ value: inout [T]) -> [T] {
    var taken: [T] = []
    swap(&taken, &value)
    return taken
}
