/// How a recorded time is judged against the journal entry that recorded it, and the journal's own order: one home for
/// `verify` (which refuses a row whose time its entry contradicts, and warns of a clock going backwards) and the report
/// (which warns of the same around the runs it judges).
///
/// A row's time (a run's `started_at`, an item's `recorded_at`) is written from the same clock, in the same command,
/// as its entry's `at`. The two may differ by the command's own duration, never by more than the profile's skew
/// (`outsideClockSkewSeconds`): a row edited after the fact to move a run in time disagrees with the entry it hides in.
/// A journal whose `at` goes backwards by more than the skew had a clock moved between two commands (`faketime` on
/// one of them): every entry is genuine, so it is a warning, but the reader is told.
///
/// Both answers skip the parse where its result is known without it (verify asks a million times): the shortcuts
/// answer exactly as the parse would, for every text, and `JournalTimeShortcutTests` holds them to that.
package enum JournalTime {
    /// How many seconds `time` lies away from its entry's `at`, when that is more than `skewSeconds`; nil when they
    /// agree (or either cannot be read: the schema check reports an unreadable time).
    package static func disagreement(time: String, entryAt: String, skewSeconds: Int) -> Int64? {
        // The same bytes are 0 s apart when they parse, and nil when they do not: nil either way, for any skew from 0.
        if skewSeconds >= 0, sameBytes(time, entryAt) { return nil }
        guard let t = Timestamp.milliseconds(time), let at = Timestamp.milliseconds(entryAt) else { return nil }
        let apart = abs(t - at) / 1000
        return apart > Int64(skewSeconds) ? apart : nil
    }

    /// How many seconds an entry dated `at` lies before the entry before it (dated `previousAt`), when that is more than
    /// `skewSeconds`; nil otherwise.
    package static func backwards(previousAt: String, at: String, skewSeconds: Int) -> Int64? {
        // Two times in the form growcert writes, the later not sorting before the earlier, are not a second apart
        // backwards (a leap second, `23:59:60.999`, sorts before the next day's `00:00:00.000` and lies under a second
        // after it), or do not parse: nil either way, for any skew from 0.
        if skewSeconds >= 0, inWrittenOrder(previousAt, at) == true { return nil }
        guard let previous = Timestamp.milliseconds(previousAt), let now = Timestamp.milliseconds(at) else { return nil }
        let back = (previous - now) / 1000
        return back > Int64(skewSeconds) ? back : nil
    }

    /// Whether `later` does not sort before `earlier` when both have the shape growcert writes,
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` (digits where the digits go, 24 bytes), whose byte order is their time order; nil
    /// when either has another shape (or its bytes are not at hand). The shape alone: the dates need not exist.
    static func inWrittenOrder(_ earlier: String, _ later: String) -> Bool? {
        let inPlace: Bool??? = earlier.utf8.withContiguousStorageIfAvailable { e in
            later.utf8.withContiguousStorageIfAvailable { l in inWrittenOrder(e, l) }
        }
        return (inPlace ?? nil) ?? nil
    }

    /// `inWrittenOrder` of two times' bytes (a time whose bytes are not valid UTF-8 does not have the shape either).
    package static func inWrittenOrder(_ earlier: UnsafeBufferPointer<UInt8>, _ later: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard hasWrittenShape(earlier), hasWrittenShape(later) else { return nil }
        return !later.lexicographicallyPrecedes(earlier)
    }

    /// Whether `a` and `b` are the same bytes (not merely canonically equivalent, as `==` has it).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let inPlace: Bool?? = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
        }
        return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, a `0` standing for any digit.
    private static let writtenShape: [UInt8] = Array("0000-00-00T00:00:00.000Z".utf8)

    /// Whether `bytes` have `writtenShape`.
    private static func hasWrittenShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == writtenShape.count else { return false }
        for (b, s) in zip(bytes, writtenShape) {
            if s == UInt8(ascii: "0") {
                guard b &- UInt8(ascii: "0") < 10 else { return false }
            } else {
                guard b == s else { return false }
            }
        }
        return true
    }
}
