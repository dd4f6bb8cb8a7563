/// The campaign that recorded a store transaction first.
public struct TransactionOwner: Sendable, Equatable {
    /// The store transaction id as recorded.
    public var transactionId: String
    public var campaignId: String
    public var campaignName: String
    /// The evidence item that recorded it first.
    public var evidenceId: String
}

extension EvidenceStore {
    /// For every store transaction id a campaign's runs recorded, the campaign of the database that
    /// recorded that id first (lowest journal sequence), when that is another campaign.
    ///
    /// Retracted items count: a retraction does not hand a transaction to another campaign. One query,
    /// one pass over the database's transaction items, whatever the number of runs.
    public func transactionsOwnedElsewhere(campaignId: String) throws -> [String: TransactionOwner] {
        let key = campaignId.lowercased()
        let rows = try read {
            try db.query("""
                WITH tx(tid, campaign_id, evidence_id, seq) AS (
                    SELECT CAST(json_extract(e.details, '$.transactionId') AS TEXT), r.campaign_id, e.id, e.seq
                    FROM evidence e JOIN runs r ON r.id = e.run_id
                    WHERE e.type = 'transaction' AND json_valid(e.details)),
                first(tid, seq) AS (SELECT tid, MIN(seq) FROM tx WHERE tid IS NOT NULL AND tid <> '' GROUP BY tid)
                SELECT tx.tid, tx.campaign_id, c.name, tx.evidence_id
                FROM first JOIN tx ON tx.tid = first.tid AND tx.seq = first.seq JOIN campaigns c ON c.id = tx.campaign_id
                WHERE tx.campaign_id <> ?1 AND tx.tid IN (SELECT tid FROM tx WHERE campaign_id = ?1)
                ORDER BY tx.seq
                """, [.text(key)])
        }
        var out: [String: TransactionOwner] = [:]
        for r in rows {
            out[r.string(0)] = TransactionOwner(transactionId: r.string(0), campaignId: r.string(1), campaignName: r.string(2), evidenceId: r.string(3))
        }
        return out
    }
}
