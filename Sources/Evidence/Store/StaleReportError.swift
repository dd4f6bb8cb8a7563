/// A report that is not current: its campaign has newer evidence than the journal head it was judged at.
package struct StaleReportError: Error, Sendable, Equatable, CustomStringConvertible {
    package let reportId: String
    package let campaignId: String
    package let judgedAtSeq: Int64
    package let newerEntries: Int

    /// The only words of this error; the command line adds the flag that signs it anyway.
    package var description: String {
        "Report \(reportId) is not current: campaign \(campaignId) has \(newerEntries) newer evidence \(newerEntries == 1 ? "entry" : "entries") "
            + "since journal entry \(judgedAtSeq), where the report was judged. Render a new report and sign that one, or sign this one anyway "
            + "as stale (the statement records it). Nothing was signed."
    }
}
