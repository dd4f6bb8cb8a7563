import Foundation

/// One thing `verify` found wrong.
package struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The journal entry concerned, when there is one.
    package var seq: Int64?
    /// What is wrong, in words.
    package var message: String
    /// `entry SEQ: message`, or the message alone when no entry is concerned.
    package var description: String { seq.map { "entry \($0): \(message)" } ?? message }

    /// A problem found by a check outside this module (store proof, signers, anchors).
    package init(seq: Int64?, message: String) {
        self.seq = seq
        self.message = message
    }
}

/// What `verify` found.
package struct VerificationResult: Sendable {
    /// The journal entries read.
    package var entries: Int
    /// The journal head's hash as stored; nil for an empty journal.
    package var headHash: String?
    /// SQLite's `integrity_check` answer (`ok` when sound), or `not applicable (PostgreSQL)`.
    package var integrityCheck: String
    /// Everything found wrong; empty when the store verifies.
    package var problems: [VerificationProblem]
    /// Counts of what was cross-checked, by table.
    package var rowsChecked: [String: Int]
    /// What a reader must notice that is not tampering (a recording clock that went backwards); never fails `verify`.
    package var warnings: [VerificationProblem] = []
    /// Every two neighbouring journal entries (in the order read) whose times the replay could not tell are in order
    /// by their bytes (`JournalTime.inWrittenOrder`): the only ones whose time can go backwards by any skew from 0.
    /// Nil when they were not gathered (another backend, or a row read whole), and the journal's order must be read
    /// again to check its times.
    package var journalTimePairs: [JournalTimePair]?
    /// Whether the replay saw every row of the tables in `Tables.entryTimeColumns` match its journal entry, in journal
    /// order, with that column's bytes equal to the entry's `at`: then no such row's time is any second from its
    /// entry's, and the time check of the rows has nothing to find (for a skew from 0). False when the chain broke, a
    /// row was out of step or differed, or a time did not equal its entry's: the time check then reads every row.
    package var rowTimesMatchEntries = false
    /// Whether the store verifies: no problem found (warnings do not count).
    package var ok: Bool { problems.isEmpty }

    /// A verification that stopped before it counted anything, with the problems that stopped it.
    package static func stopped(_ problems: [VerificationProblem]) -> VerificationResult {
        VerificationResult(entries: 0, headHash: nil, integrityCheck: "not run", problems: problems, rowsChecked: [:])
    }
}

/// Two neighbouring journal entries' seqs and times, the earlier first.
package struct JournalTimePair: Sendable, Equatable {
    package var previousSeq: Int64
    package var previousAt: String
    package var seq: Int64
    package var at: String
}
