import Foundation
import StrictJSON

extension EvidenceStore {
    /// Stores a rendered report. Identical bytes for the same campaign, format and language
    /// are stored once: the existing record is returned with `reused: true`.
    package func storeReport(_ new: NewReport) throws -> (ReportRecord, reused: Bool) {
        let campaign = try self.campaign(new.campaignId)
        let sha = Digest.sha256Hex(new.bytes)
        // Looked up inside the write lock, so two processes rendering the same bytes store them once.
        let (id, reused): (String, Bool) = try write {
            let same = RowQuery(Tables.reports.table, select: ["id"], where: [
                .equals("campaign_id", .text(campaign.id)), .equals("format", .text(new.format)), .equals("lang", .text(new.lang)), .equals("sha256", .text(sha)),
            ], order: .seqAscending, limit: 1)
            if let existing = try db.first(same) {
                return (try existing.string("id"), true)
            }
            try db.putBlob(sha256: sha, bytes: new.bytes)
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

    static func report(_ r: Row) throws -> ReportRecord {
        ReportRecord(id: try r.string("id"), seq: try r.int64("seq"), campaignId: try r.string("campaign_id"), format: try r.string("format"),
                     lang: try r.string("lang"), templateSHA256: try r.string("template_sha256"), sha256: try r.string("sha256"),
                     size: try r.int64("size"), evidenceSeq: try r.int64("evidence_seq"), evidenceHead: try r.string("evidence_head"),
                     verdict: try r.string("verdict"), createdBy: try r.string("created_by"), createdAt: try r.string("created_at"))
    }

    /// Stored reports, oldest first; all campaigns' when `campaignId` is nil.
    package func reports(campaignId: String? = nil) throws -> [ReportRecord] {
        try read {
            if let campaignId {
                return try db.fetch(.rows(of: Tables.reports, where: [.equals("campaign_id", .text(campaignId.lowercased()))])).map(Self.report)
            }
            return try db.fetch(.rows(of: Tables.reports)).map(Self.report)
        }
    }

    /// The stored report with this id.
    package func report(_ id: String) throws -> ReportRecord {
        guard let r = try read({ try db.first(.rows(of: Tables.reports, where: [.equals("id", .text(id.lowercased()))], order: nil)) }) else {
            throw EvidenceError.unknown(what: "report", value: id, known: try reports().suffix(10).map(\.id))
        }
        return try Self.report(r)
    }

    /// A stored report's exact bytes.
    package func reportBytes(_ id: String) throws -> [UInt8] {
        let r = try report(id)
        guard let bytes = try blob(sha256: r.sha256) else {
            throw EvidenceError.reportBytesMissing(reportId: r.id)
        }
        return bytes
    }

    /// Signs a stored report with an Ed25519 key and records the sign-off.
    ///
    /// Approving a report whose campaign verdict is not CERTIFIED needs `acceptRisk`. A report that
    /// is not current (the campaign has evidence newer than the report's journal head) is refused
    /// with `StaleReportError` unless `acceptStale`, which the signed statement then records.
    package func addSignoff(reportId: String, role: String, name: String, decision: String, comment: String?, acceptRisk: String?,
                           acceptStale: Bool = false, privateKeyPEM: String, passphrase: String? = nil,
                           judgment: SignoffJudgment? = nil) throws -> SignoffRecord {
        let report = try self.report(reportId)
        let campaign = try self.campaign(report.campaignId)
        let role = try Validate.choice(role, SignoffRole.self, field: "role")
        let decision = try Validate.choice(decision, SignoffDecision.self, field: "decision")
        try Validate.nonEmpty(name, field: "name")
        if let acceptRisk { try Validate.nonEmpty(acceptRisk, field: "accepted risk") }
        try Validate.noSecrets([("name", name), ("comment", comment ?? ""), ("accepted risk", acceptRisk ?? "")])
        // The verdict signed is the one the caller's rules judged (v3), never only the stored label.
        let verdict = judgment?.campaignVerdict ?? report.verdict
        if let judgment, judgment.campaignVerdict != report.verdict {
            throw EvidenceError.conflict("Report \(report.id) is stored as \(report.verdict), but this growcert judges its evidence \(judgment.campaignVerdict). Nothing was signed.")
        }
        if decision == .approve, verdict != "CERTIFIED", acceptRisk == nil {
            throw EvidenceError.approvalNeedsAcceptedRisk(reportId: report.id, verdict: report.verdict)
        }
        let publicKey = try Ed25519.publicKeyPEM(privateKeyPEM: privateKeyPEM, passphrase: passphrase)
        // Inside the write lock: the staleness check and the database head signed belong to the
        // same state as the entry that records the sign-off.
        let id: String = try write {
            let newer = try newerEvidence(campaignId: campaign.id, after: report.evidenceSeq)
            if newer > 0, !acceptStale {
                throw StaleReportError(reportId: report.id, campaignId: campaign.id, judgedAtSeq: report.evidenceSeq, newerEntries: newer)
            }
            let head = try db.journalHead()
            var statement = SignoffStatement(
                campaign: campaign.id, appId: campaign.appId, appVersion: campaign.appVersion, build: campaign.build, reportId: report.id,
                reportSha256: report.sha256, reportVerdict: report.verdict, journalHead: report.evidenceHead, journalSeq: report.evidenceSeq,
                databaseHead: head?.hash, databaseSeq: head?.seq, role: role.rawValue, name: name, decision: decision.rawValue,
                comment: comment, acceptRisk: acceptRisk, acceptStale: newer > 0, signedAt: Timestamp.string(clock()))
            if let judgment {
                statement.type = SignoffStatement.typeV3
                statement.scope = judgment.scope
                statement.scenarioVerdicts = judgment.scenarioVerdicts
                statement.rulesSha256 = judgment.rulesSha256
                statement.growcertVersion = judgment.growcertVersion
                // The Play license key in force, by fingerprint, for the release manager to compare with Play Console.
                statement.playLicenseKeySha256 = try self.campaign(campaign.id).playLicenseKeyFingerprint
                statement.databaseId = try db.first(.journal(order: .seqAscending, limit: 1)).map(Self.entry)?.hash
            }
            let text = statement.json.canonicalText
            let signature = try Ed25519.sign(Array(text.utf8), privateKeyPEM: privateKeyPEM, passphrase: passphrase)
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

    /// The row a state entry (a run's finish, an item's retraction) is about, as an update of it or
    /// a state row of its own (`Tables.parent`): its payload `id` is that row's.
    func stateTable(of kind: JournalKind) -> TableSpec? {
        switch kind.effect(schemaVersion: schemaVersion) {
        case .update(let spec, _): return spec
        case .insert(let spec): return Tables.parent(of: spec)
        case .none: return nil
        }
    }

    /// The number of journal entries after `seq` (up to `through`, default the end) that are evidence
    /// of campaign `campaignId`: entries that can change its verdict (runs, their finishes, evidence,
    /// retractions, devices, accounts). Sign-offs, signers, renders and anchors do not count.
    ///
    /// A report judged at `seq` is current when this is 0.
    package func newerEvidence(campaignId: String, after seq: Int64, through last: Int64? = nil) throws -> Int {
        let kinds = JournalKind.allCases.filter(\.isCampaignEvidence)
        return try read {
            var runCampaign: [String: String] = [:]
            func campaign(ofRun id: String) throws -> String? {
                if let known = runCampaign[id] { return known }
                let c = try db.first(RowQuery(Tables.runs.table, select: ["campaign_id"], where: [.equals("id", .text(id))]))?.string("campaign_id")
                if let c { runCampaign[id] = c }
                return c
            }
            var count = 0
            let entries = RowQuery(Tables.journal, select: ["kind", "payload"], where: [
                .greater("seq", .integer(seq)), .lessOrEqual("seq", .integer(last ?? Int64.max)), .isIn("kind", kinds.map { .text($0.rawValue) }),
            ], order: .seqAscending)
            try db.forEach(entries) { r in
                guard let kind = JournalKind(rawValue: try r.string("kind")), let payload = try r.json("payload") else { return }
                var owner: String?
                if let c = payload["campaign_id"]?.stringValue {
                    owner = c
                } else if let run = payload["run_id"]?.stringValue {
                    owner = try campaign(ofRun: run)
                } else if let id = payload["id"]?.stringValue, let spec = stateTable(of: kind) {
                    if spec.table == Tables.runs.table {
                        owner = try campaign(ofRun: id)
                    } else if spec.table == Tables.evidence.table,
                              let run = try db.first(RowQuery(Tables.evidence.table, select: ["run_id"], where: [.equals("id", .text(id))]))?.string("run_id") {
                        owner = try campaign(ofRun: run)
                    }
                }
                if owner == campaignId { count += 1 }
            }
            return count
        }
    }

    static func signoff(_ r: Row) throws -> SignoffRecord {
        SignoffRecord(id: try r.string("id"), seq: try r.int64("seq"), reportId: try r.string("report_id"), campaignId: try r.string("campaign_id"),
                      role: try r.string("role"), name: try r.string("name"), decision: try r.string("decision"), statement: try r.string("statement"),
                      signature: try r.string("signature"), publicKey: try r.string("public_key"), keyId: try r.string("key_id"),
                      createdAt: try r.string("created_at"))
    }

    /// The sign-off with this id.
    package func signoff(_ id: String) throws -> SignoffRecord {
        guard let r = try read({ try db.first(.rows(of: Tables.signoffs, where: [.equals("id", .text(id.lowercased()))], order: nil)) }) else {
            throw EvidenceError.unknown(what: "sign-off", value: id, known: [])
        }
        return try Self.signoff(r)
    }

    /// A campaign's sign-offs (all campaigns' when nil), oldest first.
    package func signoffs(campaignId: String? = nil) throws -> [SignoffRecord] {
        try read {
            if let campaignId {
                return try db.fetch(.rows(of: Tables.signoffs, where: [.equals("campaign_id", .text(campaignId.lowercased()))])).map(Self.signoff)
            }
            return try db.fetch(.rows(of: Tables.signoffs)).map(Self.signoff)
        }
    }

    /// Problems with stored reports and sign-offs: a report's evidence head not in the chain,
    /// a sign-off whose signature or statement does not hold, or whose row says something its
    /// verified statement does not (decision, name, role, report, campaign, key id).
    func verifyReportsAndSignoffs() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        var reportsById: [String: ReportRecord] = [:]
        for r in try reports() {
            reportsById[r.id] = r
            let hash = try db.journalHash(seq: r.evidenceSeq)
            if hash != r.evidenceHead {
                problems.append(VerificationProblem(seq: r.seq, message: "report \(r.id) names journal head \(r.evidenceHead.prefix(12))… at entry \(r.evidenceSeq), which the journal does not have"))
            }
        }
        var campaignsById: [String: Campaign] = [:]
        for c in try campaigns() { campaignsById[c.id] = c }
        for s in try signoffs() {
            guard let sig = Data(base64Encoded: s.signature),
                  Ed25519.verify([UInt8](sig), message: Array(s.statement.utf8), publicKeyPEM: s.publicKey) else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signature does not verify with its public key"))
                continue
            }
            let keyId = Ed25519.keyId(publicKeyPEM: s.publicKey)
            if s.keyId != keyId {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): key id \(s.keyId) is not the id of its public key (\(keyId))"))
            }
            guard let statement = s.signed else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement is not a growcert sign-off statement"))
                continue
            }
            for (column, row, signed) in [("decision", s.decision, statement.decision), ("name", s.name, statement.name), ("role", s.role, statement.role),
                                          ("report_id", s.reportId, statement.reportId), ("campaign_id", s.campaignId, statement.campaign)]
            where row != signed {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): column \(column) says '\(row)', the signed statement says '\(signed)'"))
            }
            guard let report = reportsById[statement.reportId], statement.reportSha256 == report.sha256,
                  statement.journalHead == report.evidenceHead, statement.campaign == report.campaignId else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement does not match report \(statement.reportId)"))
                continue
            }
            guard statement.type != SignoffStatement.typeV1 else { continue }
            let campaign = campaignsById[statement.campaign]
            if statement.reportVerdict != report.verdict || statement.journalSeq != report.evidenceSeq || campaign == nil
                || statement.appId != campaign?.appId || statement.appVersion != campaign?.appVersion || statement.build != campaign?.build {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement does not match report \(report.id) or campaign \(statement.campaign)"))
            }
            if let head = statement.databaseHead, let at = statement.databaseSeq {
                let hash = try db.journalHash(seq: at)
                if hash != head || at >= s.seq {
                    problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the database head it signed (\(head.prefix(12))… at entry \(at)) is not in the chain before it"))
                }
            } else {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement names no database head"))
            }
            if statement.type == SignoffStatement.typeV3, let first = try db.journalHash(seq: 1), statement.databaseId != first {
                problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id): the signed statement names database \(statement.databaseId ?? "none"), not this one (\(first))"))
            }
        }
        problems += try verifySigners()
        problems += try verifyAnchors()
        return problems
    }
}
