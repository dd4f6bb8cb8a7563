import Evidence
import Reports
import HTTPCore
import StoreProof

/// Signs a campaign's evidence state (`signoff --campaign`) or one stored report (`signoff --report`).
///
/// Either way the database is verified first (which re-judges every stored report), the state signed is
/// judged again with this growcert's rules, and the statement (`growcert-signoff/v3`) records each
/// scenario's verdict, the rules' SHA-256, the growcert version and the database's identity.
package struct SignoffService {
    /// The evidence store verified, judged and signed.
    package let store: EvidenceStore
    /// Re-verifies the recorded store transactions while the database is verified.
    package var jwsVerifier: JWSVerifier

    /// What `verify` re-validates recorded server chains against (this machine's trust store unless a test injects one).
    package var serverTrust: ServerChainTrust

    /// Sign-offs in `store`.
    package init(store: EvidenceStore, jwsVerifier: JWSVerifier = JWSVerifier(), serverTrust: ServerChainTrust = ServerChainTrust()) {
        self.serverTrust = serverTrust
        self.store = store
        self.jwsVerifier = jwsVerifier
    }

    /// What is signed: the campaign's evidence state as it is now, or one stored report.
    package enum Subject: Sendable, Equatable {
        case campaign(String)
        case report(String)
    }

    /// What a sign-off says about its signer.
    package struct Signer {
        /// The signer's role, a `SignoffRole` (refused otherwise).
        package var role: String
        /// The signer's name as the statement records it.
        package var name: String
        /// The decision, a `SignoffDecision` (refused otherwise).
        package var decision: String
        /// A free comment; nil for none.
        package var comment: String?
        /// The risk accepted in words: needed to approve a verdict that is not CERTIFIED.
        package var acceptRisk: String?
        /// Whether to sign a report with evidence recorded after it (the statement records it).
        package var acceptStale: Bool
        package var privateKeyPEM: String
        /// Asked once the database verified, so that a refused sign-off asks for nothing.
        package var passphrase: () throws -> String?

        /// A signer; see the properties.
        package init(role: String, name: String, decision: String, comment: String?, acceptRisk: String?, acceptStale: Bool,
                    privateKeyPEM: String, passphrase: @escaping () throws -> String?) {
            self.role = role
            self.name = name
            self.decision = decision
            self.comment = comment
            self.acceptRisk = acceptRisk
            self.acceptStale = acceptStale
            self.privateKeyPEM = privateKeyPEM
            self.passphrase = passphrase
        }
    }

    /// Registers a trusted signer: a name, a role and an Ed25519 public key (SPKI PEM).
    package func addSigner(name: String, role: String, publicKeyPEM: String) throws -> SignerRecord {
        try store.addSigner(name: name, role: role, publicKeyPEM: publicKeyPEM)
    }

    /// Verifies the database, judges the subject with this growcert's rules, and signs.
    ///
    /// A campaign's state is anchored to a stored report of it (its JSON report, rendered and stored now
    /// when no report of that state has those bytes yet), which the statement names.
    package func sign(_ subject: Subject, by signer: Signer) throws -> SignoffRecord {
        try VerifyService(store: store, jwsVerifier: jwsVerifier, serverTrust: serverTrust).requireIntact(before: "signed")
        let passphrase = try signer.passphrase()
        let report: ReportRecord
        let scope: String
        switch subject {
        case .campaign(let id):
            let service = ReportService(store: store)
            let model = try service.model(campaignId: try store.campaign(id).id)
            report = try service.render(model, format: .json, lang: .en, out: nil).record
            scope = SignoffStatement.scopeCampaign
        case .report(let id):
            report = try store.report(id)
            scope = SignoffStatement.scopeReport
        }
        let judgment = try ReportReader(store: store).judgment(campaignId: report.campaignId, asOf: report.evidenceSeq)
        guard judgment.campaignVerdict.rawValue == report.verdict else {
            throw ServiceError.verdictNotReproduced(reportId: report.id, stored: report.verdict, judged: judgment.campaignVerdict.rawValue)
        }
        return try store.addSignoff(
            reportId: report.id, role: signer.role, name: signer.name, decision: signer.decision, comment: signer.comment,
            acceptRisk: signer.acceptRisk, acceptStale: signer.acceptStale, privateKeyPEM: signer.privateKeyPEM, passphrase: passphrase,
            judgment: SignoffJudgment(scope: scope, scenarioVerdicts: Dictionary(judgment.scenarios.map { ($0.id, $0.verdict.rawValue) }) { a, _ in a },
                                      campaignVerdict: judgment.campaignVerdict.rawValue, rulesSha256: judgment.rulesSHA256,
                                      growcertVersion: GrowcertVersion.current))
    }

    /// The sign-offs that cover a stored report: those of that file (`signoff --report`) and those of its
    /// campaign's evidence state (`signoff --campaign`) when no campaign evidence was recorded between
    /// the state signed and the state the report was judged at.
    package static func signoffs(covering report: ReportRecord, in store: EvidenceStore) throws -> [SignoffRecord] {
        try store.signoffs(campaignId: report.campaignId).filter { s in
            guard let st = s.signed, st.coversCampaignState else { return s.reportId == report.id }
            let signedAt = st.journalSeq ?? 0
            let (from, to) = (min(signedAt, report.evidenceSeq), max(signedAt, report.evidenceSeq))
            return try store.newerEvidence(campaignId: report.campaignId, after: from, through: to) == 0
        }
    }
}
