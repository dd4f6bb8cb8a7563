/// The campaign that recorded a store transaction first.
package struct TransactionOwner: Sendable, Equatable {
    /// The store transaction id as recorded.
    package var transactionId: String
    /// The id of the campaign that recorded it first.
    package var campaignId: String
    /// That campaign's name.
    package var campaignName: String
    /// The evidence item that recorded it first.
    package var evidenceId: String

    /// An owner from its parts.
    package init(transactionId: String, campaignId: String, campaignName: String, evidenceId: String) {
        self.transactionId = transactionId
        self.campaignId = campaignId
        self.campaignName = campaignName
        self.evidenceId = evidenceId
    }
}
