import EvidenceModel

/// Everything a campaign's report is built from, read from one snapshot of the store.
///
/// A plain value: Services reads it (`ReportReader`), `ReportBuilder.build(facts:toolVersion:blob:)` judges and
/// shapes it, so Reports knows no store. Only the judged runs' evidence is held; earlier runs are listed by their
/// run record alone.
package struct ReportFacts: Sendable {
    /// The records the verdict engine judges (`EvidenceAsOf` applied).
    package var input: VerdictEngine.Input
    /// The campaign's built-in profile.
    package var profile: Profile
    /// The campaign's sign-offs.
    package var signoffs: [SignoffRecord]
    /// How each sign-off stands against `head`, by sign-off id.
    package var standing: [String: SignoffStanding]
    /// The journal head the report is judged at (nil: an empty journal).
    package var head: EvidenceHead?
    /// The campaign's recorded updates, oldest first.
    package var updates: [CampaignUpdate]
    /// The database's identity (`""` when it has none).
    package var databaseId: String
    /// The time (`at`) of the journal entries `ReportBuilder.journalTimeEntries(input:profile:)` names and of the
    /// entry before each, by seq. An entry the journal lacks is left out.
    package var journalTimes: [Int64: String]
    /// The head seq of each outside anchor (timestamp token) of the database.
    package var anchorHeadSeqs: [Int64]

    /// Facts from their parts.
    package init(input: VerdictEngine.Input, profile: Profile, signoffs: [SignoffRecord], standing: [String: SignoffStanding],
                head: EvidenceHead?, updates: [CampaignUpdate], databaseId: String, journalTimes: [Int64: String], anchorHeadSeqs: [Int64]) {
        self.input = input
        self.profile = profile
        self.signoffs = signoffs
        self.standing = standing
        self.head = head
        self.updates = updates
        self.databaseId = databaseId
        self.journalTimes = journalTimes
        self.anchorHeadSeqs = anchorHeadSeqs
    }
}
