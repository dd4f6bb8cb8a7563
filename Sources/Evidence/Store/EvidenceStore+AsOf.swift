import StrictJSON

extension EvidenceStore {
    /// The database's identity: the hash of its journal's first entry (`store.init`), which every
    /// later entry chains to. A copy of the database (a backup, `db copy`) keeps it; another database
    /// has its own. Nil for a database with no journal yet.
    package func databaseId() throws -> String? {
        try read { try db.first(.journal(order: .seqAscending, limit: 1)).map(Self.entry)?.hash }
    }

    /// The journal entry with this sequence number, if any.
    package func journalEntry(seq: Int64) throws -> JournalEntry? {
        try read { try db.first(.journal(where: [.equals("seq", .integer(seq))], limit: 1)).map(Self.entry) }
    }

    /// The campaign with this id as it stood at journal entry `seq`: its creation and only the updates
    /// recorded up to `seq`. Unknown (thrown) when it was created after `seq`.
    package func campaign(_ id: String, asOf seq: Int64) throws -> Campaign {
        let key = id.lowercased()
        guard let r = try read({ try db.first(campaignRows(where: [.equals("id", .text(key))])) }), try r.int64("seq") <= seq else {
            throw EvidenceError.unknown(what: "campaign", value: id, known: try campaigns().filter { $0.seq <= seq }.map(\.id))
        }
        var c = try Self.campaign(r)
        for update in try campaignUpdates(campaignId: c.id) where update.seq <= seq {
            for change in update.changes {
                if let field = CampaignField(rawValue: change.field) { c.set(field, to: change.to) }
            }
        }
        return c
    }

    /// The ids of the runs whose finish was journaled after entry `seq`: at `seq` they were still open.
    /// The one place that knows which entry finishes a run, for reading the evidence as it stood at a seq.
    package func runsFinished(after seq: Int64) throws -> Set<String> {
        try read {
            var ids: Set<String> = []
            try db.forEach(RowQuery(Tables.journal, select: ["payload"], where: [
                .greater("seq", .integer(seq)), .equals("kind", .text(JournalKind.runFinish.rawValue)),
            ], order: .seqAscending)) { r in
                if let id = (try r.json("payload"))?["id"]?.stringValue { ids.insert(id) }
            }
            return ids
        }
    }
}
