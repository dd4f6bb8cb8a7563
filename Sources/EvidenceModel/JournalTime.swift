/// How a recorded time is judged against the journal entry that recorded it, and the journal's own order: one home for
/// `verify` (which refuses a row whose time its entry contradicts, and warns of a clock going backwards) and the report
/// (which warns of the same around the runs it judges).
///
/// A row's time (a run's `started_at`, an item's `recorded_at`) is written from the same clock, in the same command,
/// as its entry's `at`. The two may differ by the command's own duration, never by more than the profile's skew
/// (`outsideClockSkewSeconds`): a row edited after the fact to move a run in time disagrees with the entry it hides in.
/// A journal whose `at` goes backwards by more than the skew had a clock moved between two commands (`faketime` on
/// one of them): every entry is genuine, so it is a warning, but the reader is told.
package enum JournalTime {
    /// How many seconds `time` lies away from its entry's `at`, when that is more than `skewSeconds`; nil when they
    /// agree (or either cannot be read: the schema check reports an unreadable time).
    package static func disagreement(time: String, entryAt: String, skewSeconds: Int) -> Int64? {
        guard let t = Timestamp.milliseconds(time), let at = Timestamp.milliseconds(entryAt) else { return nil }
        let apart = abs(t - at) / 1000
        return apart > Int64(skewSeconds) ? apart : nil
    }

    /// How many seconds an entry dated `at` lies before the entry before it (dated `previousAt`), when that is more than
    /// `skewSeconds`; nil otherwise.
    package static func backwards(previousAt: String, at: String, skewSeconds: Int) -> Int64? {
        guard let previous = Timestamp.milliseconds(previousAt), let now = Timestamp.milliseconds(at) else { return nil }
        let back = (previous - now) / 1000
        return back > Int64(skewSeconds) ? back : nil
    }
}
