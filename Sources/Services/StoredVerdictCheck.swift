import Evidence
import Reports

/// Re-judges stored reports: each at its `evidence_seq`, with this growcert's rules (the verdict engine over
/// the evidence as it stood at that entry, `ReportReader.judgment`). A stored verdict is a label; what
/// `verify`, `report verify` and `signoff` accept is the verdict this growcert reproduces from the evidence.
package struct StoredVerdictCheck {
    /// The evidence store whose reports are judged again.
    package let store: EvidenceStore

    /// Checks `store`'s reports.
    package init(store: EvidenceStore) {
        self.store = store
    }

    /// A stored report whose verdict this growcert does not reproduce.
    package struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        /// The report's id.
        package var reportId: String
        /// The journal entry the report was judged at (its `evidence_seq`).
        package var seq: Int64
        /// The campaign verdict the report stored.
        package var stored: String
        /// The campaign verdict this growcert judges from the same evidence.
        package var judged: String
        /// The rules' SHA-256 the report names (nil when it names none, or cannot be judged), and this growcert's.
        package var storedRules: String?
        /// This growcert's rules' SHA-256.
        package var rules: String

        /// `stored CERTIFIED, this growcert judges INCOMPLETE`, with the rules when they differ.
        package var description: String {
            var text = "stored \(stored), this growcert judges \(judged)"
            if let storedRules, storedRules != rules {
                text += " (the report names rules SHA-256 \(storedRules); this growcert's rules are \(rules))"
            }
            return text
        }
    }

    /// The mismatch of one report, or nil when this growcert judges its evidence as it is stored.
    package func mismatch(_ report: ReportRecord) throws -> Mismatch? {
        var cache: [String: Judgment] = [:]
        return try mismatch(report, cache: &cache)
    }

    /// Every stored report whose verdict this growcert does not reproduce; renditions judged at the same
    /// entry are judged once.
    package func mismatches() throws -> [Mismatch] {
        var cache: [String: Judgment] = [:]
        return try store.reports().compactMap { try mismatch($0, cache: &cache) }
    }

    private func mismatch(_ report: ReportRecord, cache: inout [String: Judgment]) throws -> Mismatch? {
        let key = "\(report.campaignId)@\(report.evidenceSeq)"
        let judgment: Judgment
        if let known = cache[key] {
            judgment = known
        } else {
            judgment = try ReportReader(store: store).judgment(campaignId: report.campaignId, asOf: report.evidenceSeq)
            cache[key] = judgment
        }
        guard judgment.campaignVerdict.rawValue != report.verdict else { return nil }
        let storedRules = (try? store.reportBytes(report.id)).flatMap { IntegrityCheck.rulesSHA256(ofReport: $0) }
        return Mismatch(reportId: report.id, seq: report.seq, stored: report.verdict, judged: judgment.campaignVerdict.rawValue,
                        storedRules: storedRules, rules: judgment.rulesSHA256)
    }
}
