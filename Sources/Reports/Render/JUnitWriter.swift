import EvidenceModel

/// Writes a report as JUnit XML for CI dashboards.
///
/// One `<testsuite>` per scenario, with a `verdict` `<testcase>` first, then one
/// for the run, one per check and one per required piece of evidence. The
/// `verdict` case is a `<failure>` for every scenario that is not CERTIFIED
/// (FAILED, INCOMPLETE or NOT CERTIFIABLE), with all its reasons, so a CI
/// dashboard never shows an uncertified campaign green. Below it, a failed check
/// or run is `<failure>`; anything missing or not certifying is `<skipped>` with
/// the reason. Valid against the common JUnit 10 schema (Surefire's `junit-10.xsd`).
struct JUnitWriter {
    let model: ReportModel
    let strings: ReportStrings
    let lang: Language
    /// The template SHA-256 when the strings used are not the built-in ones; nil for the built-in ones.
    var customTemplatesSHA256: String? = nil

    private struct Case {
        var name: String
        var time: String?
        var failure: (type: String, message: String)?
        var skipped: (type: String, message: String)?
    }

    func render() -> String {
        var suites: [(ScenarioReport, [Case])] = []
        for s in model.scenarios { suites.append((s, cases(s))) }
        let total = suites.reduce(0) { $0 + $1.1.count }
        let failures = suites.reduce(0) { $0 + $1.1.filter { $0.failure != nil }.count }
        let totalMs = model.scenarios.reduce(Int64(0)) { $0 + milliseconds($1) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(TextSafety.xml("growcert " + model.header.campaignId + ": " + model.header.campaignName))\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"0\" time=\"\(seconds(totalMs))\">\n"
        for (s, cs) in suites {
            let f = cs.filter { $0.failure != nil }.count
            let sk = cs.filter { $0.skipped != nil }.count
            var attrs = "name=\"\(TextSafety.xml(s.id))\" tests=\"\(cs.count)\" failures=\"\(f)\" errors=\"0\" skipped=\"\(sk)\" time=\"\(seconds(milliseconds(s)))\""
            if let r = s.judgedRun { attrs += " timestamp=\"\(TextSafety.xml(r.startedAt))\"" }
            attrs += " package=\"\(TextSafety.xml("growcert." + model.header.campaignId))\""
            out += "  <testsuite \(attrs)>\n"
            out += "    <properties>\n"
            var props: [(String, String)] = [("verdict", s.verdict.rawValue), ("reason", strings.reason(s.summaryReason)),
                                             ("title", s.title.text(lang))]
            if let r = s.judgedRun { props.append(("run", r.id)) }
            props += [("appId", model.header.appId), ("appVersion", model.header.appVersion), ("build", model.header.build),
                      ("journalHead", model.header.journalHead), ("evidenceAsOf", model.header.evidenceAsOf),
                      ("toolVersion", model.header.toolVersion), ("rulesSha256", model.header.rulesSHA256),
                      ("databaseId", model.header.databaseId)]
            if let sha = customTemplatesSHA256 {
                props.append(("templates", "custom \(sha): " + FixedWords.customTemplatesNotice(templateSHA256: sha, lang: lang)))
            }
            for (k, v) in props { out += "      <property name=\"\(TextSafety.xml(k))\" value=\"\(TextSafety.xml(v))\"/>\n" }
            out += "    </properties>\n"
            for c in cs {
                var a = "name=\"\(TextSafety.xml(c.name))\" classname=\"\(TextSafety.xml("growcert." + s.id))\""
                if let t = c.time { a += " time=\"\(t)\"" }
                if let fl = c.failure {
                    out += "    <testcase \(a)>\n      <failure type=\"\(TextSafety.xml(fl.type))\" message=\"\(TextSafety.xml(fl.message))\"/>\n    </testcase>\n"
                } else if let skp = c.skipped {
                    out += "    <testcase \(a)>\n      <skipped type=\"\(TextSafety.xml(skp.type))\" message=\"\(TextSafety.xml(skp.message))\"/>\n    </testcase>\n"
                } else {
                    out += "    <testcase \(a)/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }



    private func cases(_ s: ScenarioReport) -> [Case] {
        var out: [Case] = []
        // The scenario's verdict: anything but CERTIFIED fails, whatever the cases below say.
        var verdict = Case(name: "verdict")
        if s.verdict != .certified {
            verdict.failure = (s.verdict.rawValue, s.verdict.rawValue + ": " + s.reasons.filter { $0.verdict != nil }.map(strings.reason)
                .joined(separator: strings.text("p.semicolon")))
        }
        out.append(verdict)
        // The run itself.
        var run = Case(name: "run")
        if let r = s.reasons.first(where: { $0.code == .runFailed }) {
            run.failure = (r.code.rawValue, strings.reason(r))
        } else if let r = s.reasons.first(where: { $0.code == .runBlocked || $0.code == .noFinishedRun }) {
            run.skipped = (r.code.rawValue, strings.reason(r))
        }
        out.append(run)
        for c in s.checks {
            var k = Case(name: "check \(c.id)", time: c.durationMs.map { seconds(ms($0)) })
            let reason = s.reasons.first { $0.parameters["check"] == c.id && $0.verdict != nil }
            switch c.status {
            case .failed: k.failure = ("check-failed", reason.map(strings.reason) ?? c.id)
            case .passed where c.certifying: break
            default:
                if let reason { k.skipped = (reason.code.rawValue, strings.reason(reason)) }
            }
            out.append(k)
        }
        for r in s.requirements {
            var k = Case(name: "requirement \(r.kind.rawValue)")
            if r.status != .met, let first = r.reasons.first {
                k.skipped = (first.code.rawValue, r.reasons.map(strings.reason).joined(separator: "; "))
            }
            out.append(k)
        }
        return out
    }

    private func milliseconds(_ s: ScenarioReport) -> Int64 {
        s.checks.reduce(Int64(0)) { $0 + ($1.durationMs.map(ms) ?? 0) }
    }

    /// Milliseconds from recorded number text; 0 for anything unreadable or negative.
    private func ms(_ text: String) -> Int64 {
        guard let d = Double(text), d.isFinite, d > 0, d < 1e15 else { return 0 }
        return Int64(d.rounded())
    }

    /// `S.mmm`, which matches the schema's SUREFIRE_TIME.
    private func seconds(_ ms: Int64) -> String {
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
}
