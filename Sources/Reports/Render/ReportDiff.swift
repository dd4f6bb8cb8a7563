import EvidenceModel
import StrictJSON

/// What changed between two reports or two campaigns: verdicts per scenario, checks whose outcome
/// changed, and evidence added.
///
/// Both sides are `ReportDiff.Side` values, made from a `ReportModel` (a campaign judged now) or
/// read back from a stored JSON report (`growcert-report/v1`), so a diff needs no process and
/// no clock. Same inputs, same bytes.
package struct ReportDiff: Sendable, Equatable {
    /// One side of a comparison.
    package struct Side: Sendable, Equatable {
        /// What the user named: a campaign id or a stored report id.
        package var label: String
        /// The campaign's id.
        package var campaignId: String
        /// The campaign's name.
        package var campaignName: String
        /// The app's version.
        package var appVersion: String
        /// The app's build.
        package var build: String
        /// The campaign's verdict (`CERTIFIED`, …).
        package var verdict: String
        /// The journal entry the evidence ends at.
        package var evidenceSeq: Int64
        /// The scenarios, in the side's catalog order.
        package var scenarios: [Scenario]

        /// A scenario as the diff compares it.
        package struct Scenario: Sendable, Equatable {
            /// The scenario's id.
            package var id: String
            /// Its English title.
            package var title: String
            /// Its verdict (`CERTIFIED`, …).
            package var verdict: String
            /// Check id → outcome: `passed`, `passed (PROVENANCE)` for a pass that cannot certify, `failed`, `not-run`, `unknown`.
            package var checks: [(id: String, outcome: String)]
            /// The judged runs' evidence that is not retracted, in report order.
            package var evidence: [(id: String, type: String, provenance: String)]

            /// Field by field, as tuples are not `Equatable`; evidence compared by id only.
            package static func == (a: Scenario, b: Scenario) -> Bool {
                a.id == b.id && a.title == b.title && a.verdict == b.verdict && a.checks.map(\.id) == b.checks.map(\.id)
                    && a.checks.map(\.outcome) == b.checks.map(\.outcome) && a.evidence.map(\.id) == b.evidence.map(\.id)
            }
        }

        /// The side of a campaign judged now.
        package init(label: String, model: ReportModel) {
            let h = model.header
            self.label = label
            campaignId = h.campaignId
            campaignName = h.campaignName
            appVersion = h.appVersion
            build = h.build
            verdict = model.campaignVerdict.rawValue
            evidenceSeq = h.evidenceSeq
            scenarios = model.scenarios.map { s in
                Scenario(id: s.id, title: s.title.en, verdict: s.verdict.rawValue,
                         checks: s.checks.map { c in (c.id, Side.outcome(status: c.status.rawValue, certifying: c.certifying, provenance: c.provenance?.rawValue)) },
                         evidence: s.evidence.filter { !$0.retracted }.map { ($0.id, $0.type.rawValue, $0.provenance.rawValue) })
            }
        }

        /// The side of a stored JSON report (`growcert-report/v1`).
        ///
        /// - Throws: `ReportError.notAJSONReport` when the bytes are not one.
        package init(label: String, jsonReport bytes: [UInt8]) throws {
            guard let doc = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)), doc["format"]?.stringValue == "growcert-report/v1",
                  let scenarios = doc["scenarios"]?.arrayValue else {
                throw ReportError.notAJSONReport(label)
            }
            let h = doc["header"]
            self.label = label
            campaignId = h?["campaignId"]?.stringValue ?? ""
            campaignName = h?["campaignName"]?.stringValue ?? ""
            appVersion = h?["appVersion"]?.stringValue ?? ""
            build = h?["build"]?.stringValue ?? ""
            verdict = doc["verdict"]?.stringValue ?? ""
            evidenceSeq = doc["journalHead"]?["seq"]?.scalarText.flatMap { Int64($0) } ?? 0
            self.scenarios = scenarios.map { s in
                Scenario(id: s["id"]?.stringValue ?? "", title: s["title"]?.stringValue ?? "", verdict: s["verdict"]?.stringValue ?? "",
                         checks: (s["checks"]?.arrayValue ?? []).map { c in
                             (c["id"]?.stringValue ?? "", Side.outcome(status: c["status"]?.stringValue ?? "", certifying: c["certifying"]?.boolValue ?? false,
                                                                      provenance: c["provenance"]?.stringValue))
                         },
                         evidence: (s["evidence"]?.arrayValue ?? []).filter { $0["retracted"]?.boolValue != true }.map { e in
                             (e["id"]?.stringValue ?? "", e["type"]?.stringValue ?? "", e["provenance"]?.stringValue ?? "")
                         })
            }
        }

        static func outcome(status: String, certifying: Bool, provenance: String?) -> String {
            status == "passed" && !certifying ? "passed (\(provenance ?? "not certifying"))" : status
        }
    }

    /// A scenario's verdict on each side (nil where the scenario is not in that side's catalog).
    package struct VerdictChange: Sendable, Equatable {
        /// The scenario's id.
        package var scenarioId: String
        /// Its English title (the `to` side's when both have it).
        package var title: String
        /// The verdict on the `from` side.
        package var from: String?
        /// The verdict on the `to` side.
        package var to: String?
        /// Whether the two verdicts differ.
        package var changed: Bool { from != to }
    }

    /// A check whose outcome differs.
    package struct CheckChange: Sendable, Equatable {
        /// The scenario's id.
        package var scenarioId: String
        /// The check's id.
        package var checkId: String
        /// The outcome on the `from` side (nil: not there).
        package var from: String?
        /// The outcome on the `to` side (nil: not there).
        package var to: String?
    }

    /// Evidence on the `to` side's judged runs that the `from` side does not have.
    package struct AddedEvidence: Sendable, Equatable {
        /// The scenario's id.
        package var scenarioId: String
        /// The item's id.
        package var id: String
        /// Its type (`transaction`, `note`, …).
        package var type: String
        /// Its provenance.
        package var provenance: String
    }

    /// The side compared from.
    package var from: Side
    /// The side compared to.
    package var to: Side
    /// Every scenario's verdicts, changed or not, in the `to` side's order, then any only the `from` side has.
    package var verdicts: [VerdictChange]
    /// The checks whose outcome differs.
    package var checks: [CheckChange]
    /// The evidence the `to` side adds.
    package var evidenceAdded: [AddedEvidence]

    /// Compares two sides, scenarios in the `to` side's order, then any only the `from` side has.
    package init(from: Side, to: Side) {
        self.from = from
        self.to = to
        let ids = to.scenarios.map(\.id) + from.scenarios.map(\.id).filter { id in !to.scenarios.contains { $0.id == id } }
        var verdicts: [VerdictChange] = []
        var checks: [CheckChange] = []
        var added: [AddedEvidence] = []
        let fromEvidence = Set(from.scenarios.flatMap { $0.evidence.map(\.id) })
        for id in ids {
            let a = from.scenarios.first { $0.id == id }, b = to.scenarios.first { $0.id == id }
            verdicts.append(VerdictChange(scenarioId: id, title: b?.title ?? a?.title ?? id, from: a?.verdict, to: b?.verdict))
            let checkIds = (b?.checks.map(\.id) ?? []) + (a?.checks.map(\.id) ?? []).filter { c in !(b?.checks.contains { $0.id == c } ?? false) }
            for c in checkIds {
                let x = a?.checks.first { $0.id == c }?.outcome, y = b?.checks.first { $0.id == c }?.outcome
                if x != y { checks.append(CheckChange(scenarioId: id, checkId: c, from: x, to: y)) }
            }
            for e in b?.evidence ?? [] where !fromEvidence.contains(e.id) {
                added.append(AddedEvidence(scenarioId: id, id: e.id, type: e.type, provenance: e.provenance))
            }
        }
        self.verdicts = verdicts
        self.checks = checks
        self.evidenceAdded = added
    }

    /// The diff as Markdown (English), values escaped for Markdown.
    package func markdown() -> String {
        let m = TextSafety.markdown
        func side(_ s: Side) -> String {
            "\(m(s.label)): \(m(s.campaignName)) \(m(s.appVersion)) (\(m(s.build))), campaign \(m(s.campaignId)), evidence to journal entry \(s.evidenceSeq)"
        }
        var out = "# Report diff: \(m(from.label)) → \(m(to.label))\n\n"
        out += "- From \(side(from))\n- To \(side(to))\n\n"
        out += "**Campaign verdict: \(m(from.verdict)) → \(m(to.verdict))**\(from.verdict == to.verdict ? " (unchanged)" : "")\n\n"
        out += "## Verdicts per scenario\n\n| Scenario | From | To | |\n|---|---|---|---|\n"
        for v in verdicts {
            out += "| \(m(v.title)) (\(m(v.scenarioId))) | \(m(v.from ?? "—")) | \(m(v.to ?? "—")) | \(v.changed ? "changed" : "unchanged") |\n"
        }
        out += "\n## Checks whose outcome changed\n\n"
        if checks.isEmpty { out += "None.\n" } else {
            out += "| Scenario | Check | From | To |\n|---|---|---|---|\n"
            for c in checks { out += "| \(m(c.scenarioId)) | \(m(c.checkId)) | \(m(c.from ?? "—")) | \(m(c.to ?? "—")) |\n" }
        }
        out += "\n## Evidence added\n\n"
        if evidenceAdded.isEmpty { out += "None.\n" } else {
            out += "| Scenario | Item | Type | Provenance |\n|---|---|---|---|\n"
            for e in evidenceAdded { out += "| \(m(e.scenarioId)) | \(m(e.id)) | \(m(e.type)) | \(m(e.provenance)) |\n" }
        }
        return out
    }

    /// The diff as JSON (`growcert-report-diff/v1`), keys sorted.
    package func json() -> JSONValue {
        func side(_ x: Side) -> JSONValue {
            ["label": JSONValue.visible(x.label), "campaignId": JSONValue.visible(x.campaignId), "campaignName": JSONValue.visible(x.campaignName), "appVersion": JSONValue.visible(x.appVersion),
             "build": JSONValue.visible(x.build), "verdict": JSONValue.visible(x.verdict), "evidenceSeq": .number(String(x.evidenceSeq))]
        }
        return [
            "format": "growcert-report-diff/v1",
            "from": side(from), "to": side(to),
            "verdictChanged": .bool(from.verdict != to.verdict),
            "scenarios": .array(verdicts.map { ["id": JSONValue.visible($0.scenarioId), "title": JSONValue.visible($0.title), "from": JSONValue.visibleOrNull($0.from), "to": JSONValue.visibleOrNull($0.to), "changed": .bool($0.changed)] }),
            "checksChanged": .array(checks.map { ["scenario": JSONValue.visible($0.scenarioId), "check": JSONValue.visible($0.checkId), "from": JSONValue.visibleOrNull($0.from), "to": JSONValue.visibleOrNull($0.to)] }),
            "evidenceAdded": .array(evidenceAdded.map { ["scenario": JSONValue.visible($0.scenarioId), "id": JSONValue.visible($0.id), "type": JSONValue.visible($0.type), "provenance": JSONValue.visible($0.provenance)] }),
        ]
    }
}
