import Foundation

extension EvidenceStore {
    // MARK: Timestamp anchors

    /// Stores a timestamp token over the journal entry `headSeq` (whose hash is `headHash`),
    /// after checking the token's signature and imprint.
    package func addAnchor(headSeq: Int64, headHash: String, tsaURL: String, token: [UInt8]) throws -> AnchorRecord {
        try Validate.noSecrets([("timestamp authority URL", tsaURL)])
        let granted = try TimestampToken.verify(token: token, head: headHash)
        let id: String = try write {
            guard try db.journalHash(seq: headSeq) == headHash else {
                throw EvidenceError.conflict("Journal entry \(headSeq) no longer has hash \(headHash); nothing was written.")
            }
            let id = try nextId(Tables.anchors)
            try append(.anchorAdd) { _, at in
                ["id": .string(id), "head_seq": .number(String(headSeq)), "head_hash": .string(headHash), "tsa_url": .string(tsaURL),
                 "token": .string(Data(token).base64EncodedString()), "gen_time": .string(granted.genTime), "serial": .string(granted.serial),
                 "created_by": .string(actor), "created_at": .string(at)]
            }
            return id
        }
        return try anchors().first { $0.id == id } ?? { throw EvidenceError.internalFailure("anchor \(id) was not recorded") }()
    }

    /// Stored timestamp anchors, oldest first.
    package func anchors() throws -> [AnchorRecord] {
        guard schemaVersion >= Schema.signersVersion else { return [] }
        return try read {
            try db.fetch(.rows(of: Tables.anchors)).map { r in
                AnchorRecord(id: try r.string("id"), seq: try r.int64("seq"), headSeq: try r.int64("head_seq"), headHash: try r.string("head_hash"),
                             tsaURL: try r.string("tsa_url"), token: try r.string("token"), genTime: try r.string("gen_time"), serial: try r.string("serial"),
                             createdBy: try r.string("created_by"), createdAt: try r.string("created_at"))
            }
        }
    }

    /// Problems with stored timestamp tokens: an imprint that is not its entry's hash, a head not in
    /// the chain, a signature that does not verify with the token's embedded certificate.
    func verifyAnchors() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        for a in try anchors() {
            let hash = try db.journalHash(seq: a.headSeq)
            if hash != a.headHash || a.headSeq >= a.seq {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): the head it timestamps (\(a.headHash.prefix(12))… at entry \(a.headSeq)) is not in the chain before it"))
                continue
            }
            guard let der = Data(base64Encoded: a.token) else {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): \(TimestampToken.Failure.notAToken)"))
                continue
            }
            do {
                let granted = try TimestampToken.verify(token: [UInt8](der), head: a.headHash)
                if granted.genTime != a.genTime || granted.serial != a.serial {
                    problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): gen_time or serial differ from the token's"))
                }
            } catch {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): \(error)"))
            }
        }
        return problems
    }

    // MARK: Anchors kept outside the file

    /// The journal entry whose hash is `hash`, if the journal has it.
    package func journalEntry(hash: String) throws -> JournalEntry? {
        try read {
            try db.first(.journal(where: [.equals("hash", .text(hash))])).map(Self.entry)
        }
    }
}
