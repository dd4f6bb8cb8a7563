import Evidence

/// Writes a report as JSON (`growcert-report/v1`, documented in `docs/report-json.md`).
///
/// Keys are sorted and indentation is fixed, so the same model gives the same
/// bytes. Reasons carry their code, parameters and English text, plus the text
/// in the report language when that is not English.
struct JSONReportWriter {
    let model: ReportModel
    let english: ReportStrings
    let localized: ReportStrings?
    let lang: Language
    /// The template SHA-256 when the strings used are not the built-in ones; nil for the built-in ones.
    var customTemplatesSHA256: String? = nil

    func render() -> String {
        let h = model.header
        var header: JSONValue = [
            "campaignId": s(h.campaignId), "campaignName": s(h.campaignName), "profile": s(h.profileId), "appId": s(h.appId),
            "appVersion": s(h.appVersion), "build": s(h.build), "sdkName": s(h.sdkName), "sdkVersion": s(h.sdkVersion),
            "project": s(h.project), "baseUrl": s(h.baseURL), "toolVersion": s(h.toolVersion), "evidenceAsOf": s(h.evidenceAsOf),
        ]
        // Only a campaign that was updated has `updates`, so every other report keeps its bytes.
        if !h.updates.isEmpty, case .object(var o) = header {
            o["updates"] = .array(h.updates.map(\.json))
            header = .object(o)
        }
        let doc: JSONValue = [
            "format": "growcert-report/v1",
            "lang": s(lang.rawValue),
            "header": header,
            "journalHead": ["seq": .number(String(h.evidenceSeq)), "hash": s(h.journalHead), "at": s(h.evidenceAsOf)],
            "verdict": s(model.campaignVerdict.rawValue),
            "templates": customTemplatesSHA256.map { sha in
                ["builtIn": false, "templateSha256": s(sha), "notice": s(FixedWords.customTemplatesNotice(templateSHA256: sha, lang: .en))]
            } ?? ["builtIn": true],
            "scenarios": .array(model.scenarios.map(scenario)),
            "warnings": .array(model.warnings.map(reason)),
            "signoffs": .array(model.signoffs.map { so in
                ["id": s(so.id), "report": s(so.reportId), "role": s(so.role), "name": s(so.name), "decision": s(so.decision),
                 "comment": opt(so.comment), "acceptRisk": opt(so.acceptRisk), "keyId": s(so.keyId), "signedAt": s(so.createdAt),
                 "current": .bool(so.isCurrent), "newerEntries": .number(String(so.newerEntries)), "signedVerdict": s(so.signedVerdict),
                 "trustedSigner": .bool(so.trustedSigner)]
            }),
        ]
        return doc.prettyText + "\n"
    }

    private func s(_ text: String) -> JSONValue { .string(TextSafety.visible(text)) }

    /// A JSON number when the text is one, else the text as a string.
    private func number(_ text: String) -> JSONValue {
        if case .number? = try? JSONValue.parse(text) { return .number(text) }
        return s(text)
    }
    private func opt(_ text: String?) -> JSONValue { text.map(s) ?? .null }

    private func reason(_ r: Reason) -> JSONValue {
        var o: [String: JSONValue] = [
            "code": s(r.code.rawValue),
            "verdict": r.verdict.map { s($0.rawValue) } ?? .null,
            "parameters": .object(r.parameters.mapValues(s)),
            "text": s(english.reason(r)),
        ]
        if let localized { o["localizedText"] = s(localized.reason(r)) }
        return .object(o)
    }

    private func scenario(_ sc: ScenarioReport) -> JSONValue {
        [
            "id": s(sc.id), "title": s(sc.title.en), "verdict": s(sc.verdict.rawValue), "summary": reason(sc.summaryReason),
            "reasons": .array(sc.reasons.map(reason)),
            "judgedRun": sc.judgedRun.map(run) ?? .null,
            "history": .array(sc.history.map(run)),
            "checks": .array(sc.checks.map { c in
                ["id": s(c.id), "status": s(c.status.rawValue), "evidence": opt(c.evidenceId), "provenance": opt(c.provenance?.rawValue),
                 "certifying": .bool(c.certifying), "durationMs": c.durationMs.map(number) ?? .null, "reason": opt(c.reason),
                 "transcriptExcerpt": .array(c.transcriptExcerpt.map(s)), "transcriptCount": .number(String(c.transcriptCount))]
            }),
            "requirements": .array(sc.requirements.map { r in
                ["kind": s(r.kind.rawValue), "status": s(r.status.rawValue), "subject": s(r.subject), "evidence": opt(r.evidenceId),
                 "provenance": opt(r.provenance?.rawValue), "reasons": .array(r.reasons.map(reason))]
            }),
            "evidence": .array(sc.evidence.map { e in
                ["id": s(e.id), "type": s(e.type.rawValue), "provenance": s(e.provenance.rawValue),
                 "certifyingProvenance": .bool(e.certifyingProvenance), "retracted": .bool(e.retracted),
                 "retractedReason": opt(e.retractedReason), "recordedBy": s(e.recordedBy), "recordedAt": s(e.recordedAt),
                 "fields": .array(e.fields.map { ["name": s($0.name), "value": s($0.value)] })]
            }),
            "warnings": .array(sc.warnings.map(reason)),
        ]
    }

    private func run(_ r: RunSummary) -> JSONValue {
        [
            "id": s(r.id), "tester": s(r.tester), "startedAt": s(r.startedAt), "finishedAt": opt(r.finishedAt),
            "outcome": opt(r.outcome?.rawValue), "note": opt(r.note), "appBuild": s(r.appBuild),
            "device": r.device.map { d in
                ["label": s(d.label), "kind": s(d.kind.rawValue), "platform": s(d.platform.rawValue), "model": s(d.model), "osVersion": s(d.osVersion)]
            } ?? .null,
            "account": r.accountMasked.map { m in ["masked": s(m), "label": opt(r.accountLabel), "store": opt(r.accountStore)] } ?? .null,
        ]
    }
}
