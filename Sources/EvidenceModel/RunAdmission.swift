/// Which evidence a run still takes: the one home of the rule recording applies
/// (`EvidenceStore.requireAccepts`) and `verify` replays, so an entry no growcert command could
/// have written is found.
///
/// An open run takes everything. A finished run takes notes and attachments only, which are
/// late (recorded after its finish, told by the journal's order) and change no verdict; what
/// certifies (transactions, receipts, check results) needs an open run. An abandoned run, open
/// or finished, is never judged, and takes notes and attachments only, to say what happened.
package enum RunAdmission {
    /// The evidence types a finished or abandoned run still takes, as late evidence.
    package static let lateTypes: Set<EvidenceType> = [.note, .attachment]

    /// Whether a run that is `finished` or `abandoned` (or neither) takes an item of `type`.
    package static func accepts(_ type: EvidenceType, finished: Bool, abandoned: Bool) -> Bool {
        (!finished && !abandoned) || lateTypes.contains(type)
    }
}
