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
            let h = statement.handle
            guard sqlite3_column_type(h, 0) == SQLITE_INTEGER,
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

    /// What the checks gather of the journal's times across chunks, in the order read: the last entry's seq and time,
    /// the pairs of neighbours whose order their bytes do not settle, and whether every row could be read so.
    struct TimeScan {
        var previous: (seq: Int64, at: [UInt8])?
        var pairs: [JournalTimePair] = []
        var complete = true
    }

    /// The known kinds' texts in one buffer, each found by its range (an array of arrays retained each one it was
    /// asked for): made once per verify.
    struct Kinds: Sendable {
        let bytes: [UInt8]
        let ranges: [Range<Int>]

        init(_ kinds: [[UInt8]]) {
            bytes = kinds.flatMap { $0 }
            var ranges: [Range<Int>] = []
            for k in kinds { ranges.append((ranges.last?.upperBound ?? 0)..<(ranges.last?.upperBound ?? 0) + k.count) }
            self.ranges = ranges
        }
    }

    /// Checks every entry, and adds the chunk's times to `times`; `kinds` are the known kinds' texts, an entry's
    /// `plan` the index of its own.
    func check(kinds: Kinds, times: inout TimeScan) {
        var canonical = CanonicalCheck()
        var envelope: [UInt8] = []
        var (entries, fields) = (take(&self.entries), take(&self.fields))
        defer { (self.entries, self.fields) = (entries, fields) }
        let (columns, kindRanges) = (self.columns, kinds.ranges)
        kinds.bytes.withUnsafeBufferPointer { known in
        bytes.withUnsafeBufferPointer { all in
            /// The time of the entry before the one at hand, when it is in this chunk.
            var previousAt: UnsafeBufferPointer<UInt8>?
            for n in entries.indices {
                guard entries[n].row == nil else {
                    // A row read whole: the journal's times are checked the original way.
                    times.complete = false
                    previousAt = nil
                    continue
                }
                let c = entries[n].firstColumn
                func column(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[columns[c + i]]) }
                let (kind, actor, at, payload, prev, hash) = (column(0), column(1), column(2), column(3), column(4), column(5))
                if times.complete {
                    func pair(after previousSeq: Int64, at earlier: UnsafeBufferPointer<UInt8>) {
                        guard JournalTime.inWrittenOrder(earlier, at) != true else { return }
                        times.pairs.append(JournalTimePair(previousSeq: previousSeq, previousAt: String(decoding: earlier, as: UTF8.self),
                                                           seq: entries[n].seq, at: String(decoding: at, as: UTF8.self)))
                    }
                    if let previousAt {
                        pair(after: entries[n - 1].seq, at: previousAt)
                    } else if let last = times.previous {
                        last.at.withUnsafeBufferPointer { pair(after: last.seq, at: $0) }
                    }
                    previousAt = at
                    if n == entries.count - 1 { times.previous = (entries[n].seq, Array(at)) }
                }
                guard CanonicalCheck.isValidUTF8(kind), CanonicalCheck.isValidUTF8(actor), CanonicalCheck.isValidUTF8(at),
                      CanonicalCheck.isValidUTF8(prev), CanonicalCheck.isValidUTF8(hash) else { continue }
                entries[n].validText = true
                envelope.removeAll(keepingCapacity: true)
                Chain.appendEnvelope(seq: entries[n].seq, kind: kind, actor: actor, at: at, payload: payload, prev: prev, into: &envelope)
                guard Digest.sha256(of: envelope, isHex: hash),
                      let plan = kindRanges.firstIndex(where: { TableReplay.bytes(kind, equal: UnsafeBufferPointer(rebasing: known[$0])) }),
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
}

/// The second thread of verify's journal read: checks the chunks it is handed, one at a time, on a thread of its own
/// (not a dispatch queue's: a caller waiting for it could hold the few threads such a queue has).
final class ChunkChecker: Sendable {
    private let handed = Mutex<JournalChunk?>(nil)
    /// The journal's times, scanned by the thread chunk after chunk.
    private let times = Mutex(JournalChunk.TimeScan())
    private let work = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread; `kinds` are the known kinds' texts (`JournalChunk.check`).
    init(kinds: [[UInt8]]) {
        let kinds = JournalChunk.Kinds(kinds)
        let thread = Thread { [self] in
            while true {
                work.wait()
                guard let chunk = handed.withLock({ handed in defer { handed = nil }; return handed }) else { return }
                times.withLock { chunk.check(kinds: kinds, times: &$0) }
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

    /// The pairs of neighbouring entries whose times' order their bytes do not settle, once every chunk was checked
    /// (`VerificationResult.journalTimePairs`); nil when a row was read whole.
    var journalTimePairs: [JournalTimePair]? {
        times.withLock { $0.complete ? $0.pairs : nil }
    }

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
