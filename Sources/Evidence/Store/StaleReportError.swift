/// A report that is not current: its campaign has newer evidence than the journal head it was judged at.
package struct StaleReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The report asked to be signed.
    package let reportId: String
    /// Its campaign.
    package let campaignId: String
    /// The journal entry the report was judged at.
    package let judgedAtSeq: Int64
    /// How many of the campaign's evidence entries were recorded after it.
    package let newerEntries: Int

    /// The only words of this error; the command line adds the flag that signs it anyway.
    package var description: String {
        "Report \(reportId) is not current: campaign \(campaignId) has \(newerEntries) newer evidence \(newerEntries == 1 ? "entry" : "entries") "
            + "since journal entry \(judgedAtSeq), where the report was judged. Render a new report and sign that one, or sign this one anyway "
            + "as stale (the statement records it). Nothing was signed."
    }
}
