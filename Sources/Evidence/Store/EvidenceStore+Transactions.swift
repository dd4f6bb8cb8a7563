import StrictJSON

extension EvidenceStore {
    /// For every store transaction id a campaign's runs recorded, the campaign of the database that
    /// recorded that id first (lowest journal sequence), when that is another campaign.
    ///
    /// Retracted items count: a retraction does not hand a transaction to another campaign. One query,
    /// one pass over the database's transaction items, whatever the number of runs.
    package func transactionsOwnedElsewhere(campaignId: String) throws -> [String: TransactionOwner] {
        let key = campaignId.lowercased()
        // The transaction id is read from the details here rather than in SQL, so both backends read it the same way.
        let rows = try read {
            try db.fetch(RowQuery(Tables.evidence.table, as: "e", select: ["e.details", "r.campaign_id", "c.name", "e.id"], joins: [
                .inner(Tables.runs.table, as: "r", on: "id", equals: "e.run_id"), .inner(Tables.campaigns.table, as: "c", on: "id", equals: "r.campaign_id"),
            ], where: [.equals("e.type", .text(EvidenceType.transaction.rawValue))], order: .seqAscending))
        }
        var first: [String: TransactionOwner] = [:]
        var ours: Set<String> = []
        for r in rows {
            guard let tid = Self.transactionId(inDetails: try r.string("details")), !tid.isEmpty else { continue }
            let owner = try r.string("campaign_id")
            if owner == key { ours.insert(tid) }
            if first[tid] == nil {
                first[tid] = TransactionOwner(transactionId: tid, campaignId: owner, campaignName: try r.string("name"), evidenceId: try r.string("id"))
            }
        }
        return first.filter { ours.contains($0.key) && $0.value.campaignId != key }
    }

    /// The `transactionId` of a transaction item's details as SQLite's `CAST(json_extract(…) AS TEXT)`
    /// read it: a string as is, a number as its digits, nothing for other values or details that do not parse.
    private static func transactionId(inDetails text: String) -> String? {
        guard let value = try? JSONValue.parse(text), let id = value["transactionId"] else { return nil }
        switch id {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "1" : "0"
        case .null: return nil
        case .array, .object: return id.canonicalText
        }
    }
}
