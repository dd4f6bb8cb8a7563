import Foundation

extension EvidenceStore {
    /// Stores a rendered report. Identical bytes for the same campaign, format and language
    /// are stored once: the existing record is returned with `reused: true`.
    public func storeReport(_ new: NewReport) throws -> (ReportRecord, reused: Bool) {
        let campaign = try self.campaign(new.campaignId)
        let sha = Digest.sha256Hex(new.bytes)
        // Looked up inside the write lock, so two processes rendering the same bytes store them once.
        let (id, reused): (String, Bool) = try write {
            if let existing = try db.query("SELECT id FROM reports WHERE campaign_id=? AND format=? AND lang=? AND sha256=? ORDER BY seq LIMIT 1",
                                           [.text(campaign.id), .text(new.format), .text(new.lang), .text(sha)]).first {
                return (existing.string(0), true)
            }
            try db.run("INSERT OR IGNORE INTO blobs(sha256, bytes) VALUES (?, ?)", [.text(sha), .blob(new.bytes)])
            let id = try nextId(Tables.reports)
            try append(.reportRender) { _, at in
                ["id": .string(id), "campaign_id": .string(campaign.id), "format": .string(new.format), "lang": .string(new.lang),
                 "template_sha256": .string(new.templateSHA256), "sha256": .string(sha), "size": .number(String(new.bytes.count)),
                 "evidence_seq": .number(String(new.evidenceHead.seq)), "evidence_head": .string(new.evidenceHead.hash),
                 "verdict": .string(new.verdict), "created_by": .string(actor), "created_at": .string(at)]
            }
            return (id, false)
        }
        return (try report(id), reused)
    }

    static let reportColumns = "id, seq, campaign_id, format, lang, template_sha256, sha256, size, evidence_seq, evidence_head, verdict, created_by, created_at"

    static func report(_ r: Row) -> ReportRecord {
        ReportRecord(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), format: r.string(3), lang: r.string(4), templateSHA256: r.string(5),
                     sha256: r.string(6), size: r.int(7) ?? 0, evidenceSeq: r.int(8) ?? 0, evidenceHead: r.string(9), verdict: r.string(10),
                     createdBy: r.string(11), createdAt: r.string(12))
    }

    /// Stored reports, oldest first; all campaigns' when `campaignId` is nil.
    public func reports(campaignId: String? = nil) throws -> [ReportRecord] {
        try read {
            if let campaignId {
                return try db.query("SELECT \(Self.reportColumns) FROM reports WHERE campaign_id=? ORDER BY seq", [.text(campaignId.lowercased())]).map(Self.report)
            }
            return try db.query("SELECT \(Self.reportColumns) FROM reports ORDER BY seq").map(Self.report)
        }
    }

    /// The stored report with this id.
    public func report(_ id: String) throws -> ReportRecord {
        guard let r = try read({ try db.query("SELECT \(Self.reportColumns) FROM reports WHERE id=?", [.text(id.lowercased())]).first }) else {
            throw EvidenceError.unknown(what: "report", value: id, known: try reports().suffix(10).map(\.id))
        }
        return Self.report(r)
    }

    /// A stored report's exact bytes.
    public func reportBytes(_ id: String) throws -> [UInt8] {
        let r = try report(id)
        guard let bytes = try blob(sha256: r.sha256) else {
            throw EvidenceError.io("The bytes of report \(r.id) are missing from the database. Run 'growcert verify'.")
        }
        return bytes
    }

    /// Signs a stored report with an Ed25519 key and records the sign-off.
    ///
    /// Approving a report whose campaign verdict is not CERTIFIED needs `acceptRisk`.
    public func addSignoff(reportId: String, role: String, name: String, decision: String, comment: String?, acceptRisk: String?,
                           privateKeyPEM: String) throws -> SignoffRecord {
        let report = try self.report(reportId)
        let role = try Validate.choice(role, SignoffRole.self, field: "role")
        let decision = try Validate.choice(decision, SignoffDecision.self, field: "decision")
        try Validate.nonEmpty(name, field: "name")
        if let acceptRisk { try Validate.nonEmpty(acceptRisk, field: "accepted risk") }
        try Validate.noSecrets([("name", name), ("comment", comment ?? ""), ("accepted risk", acceptRisk ?? "")])
        if decision == .approve, report.verdict != "CERTIFIED", acceptRisk == nil {
            throw EvidenceError.conflict("Report \(report.id) says the campaign is \(report.verdict), not CERTIFIED. To approve it anyway, state the risk you accept with --accept-risk TEXT; it is shown prominently in the report. Nothing was signed.")
        }
        let publicKey = try Ed25519.publicKeyPEM(privateKeyPEM: privateKeyPEM)
        let signedAt = Timestamp.string(clock())
        let statement: JSONValue = [
            "type": "growcert-signoff/v1", "campaign": .string(report.campaignId), "reportId": .string(report.id),
            "reportSha256": .string(report.sha256), "journalHead": .string(report.evidenceHead), "role": .string(role.rawValue),
            "name": .string(name), "decision": .string(decision.rawValue), "comment": .optional(comment),
            "acceptRisk": .optional(acceptRisk), "signedAt": .string(signedAt),
        ]
        let text = statement.canonicalText
        let signature = try Ed25519.sign(Array(text.utf8), privateKeyPEM: privateKeyPEM)
        let id: String = try write {
            let id = try nextId(Tables.signoffs)
            try append(.signoffAdd) { _, at in
                ["id": .string(id), "report_id": .string(report.id), "campaign_id": .string(report.campaignId), "role": .string(role.rawValue),
                 "name": .string(name), "decision": .string(decision.rawValue), "statement": .string(text),
                 "signature": .string(Data(signature).base64EncodedString()), "public_key": .string(publicKey),
                 "key_id": .string(Ed25519.keyId(publicKeyPEM: publicKey)), "created_at": .string(at)]
            }
            return id
        }
        return try signoff(id)
    }

    static let signoffColumns = "id, seq, report_id, campaign_id, role, name, decision, statement, signature, public_key, key_id, created_at"

    static func signoff(_ r: Row) -> SignoffRecord {
        SignoffRecord(id: r.string(0), seq: r.int(1) ?? 0, reportId: r.string(2), campaignId: r.string(3), role: r.string(4), name: r.string(5),
                      decision: r.string(6), statement: r.string(7), signature: r.string(8), publicKey: r.string(9), keyId: r.string(10),
                      createdAt: r.string(11))
    }

    /// The sign-off with this id.
    public func signoff(_ id: String) throws -> SignoffRecord {
        guard let r = try read({ try db.query("SELECT \(Self.signoffColumns) FROM signoffs WHERE id=?", [.text(id.lowercased())]).first }) else {
            throw EvidenceError.unknown(what: "sign-off", value: id, known: [])
        }
        return Self.signoff(r)
    }

    /// A campaign's sign-offs (all campaigns' when nil), oldest first.
    public func signoffs(campaignId: String? = nil) throws -> [SignoffRecord] {
        try read {
            if let campaignId {
                return try db.query("SELECT \(Self.signoffColumns) FROM signoffs WHERE campaign_id=? ORDER BY seq", [.text(campaignId.lowercased())]).map(Self.signoff)
            }
            return try db.query("SELECT \(Self.signoffColumns) FROM signoffs ORDER BY seq").map(Self.signoff)
        }
    }

    /// Problems with stored reports and sign-offs: a report's evidence head not in the chain,
    /// a sign-off whose signature or statement does not hold.
    func verifyReportsAndSignoffs() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        var reportsById: [String: ReportRecord] = [:]
        for r in try reports() {
            reportsById[r.id] = r
            let hash = try db.scalarText("SELECT hash FROM journal WHERE seq=?", [.integer(r.evidenceSeq)])
            if hash != r.evidenceHead {
                problems.append(VerificationProblem(seq: r.seq, message: "report \(r.id) names journal head \(r.evidenceHead.prefix(12))… at entry \(r.evidenceSeq), which the journal does not have"))
            }
        }
        for s in try signoffs() {
            let statement = s.statementJSON
            guard let sig = Data(base64Encoded: s.signature),
                  Ed25519.verify([UInt8](sig), message: Array(s.statement.utf8), publicKeyPEM: s.publicKey) else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signature does not verify with its public key"))
                continue
            }
            guard let report = reportsById[s.reportId], statement["reportSha256"]?.stringValue == report.sha256,
                  statement["reportId"]?.stringValue == report.id, statement["journalHead"]?.stringValue == report.evidenceHead else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement does not match report \(s.reportId)"))
                continue
            }
        }
        return problems
    }
}
