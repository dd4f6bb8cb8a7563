import StrictJSON

/// A language of the catalog and the reports.
package enum Language: String, Sendable, CaseIterable {
    case en
    case zhHans = "zh-Hans"
}

/// Text in English and Simplified Chinese.
package struct LocalizedText: Sendable, Equatable {
    /// The English text.
    package var en: String
    /// The Simplified Chinese text (`zh-Hans` in JSON).
    package var zhHans: String

    /// The text in `lang`.
    package func text(_ lang: Language) -> String { lang == .en ? en : zhHans }

    init(_ json: JSONValue?, field: String) throws {
        guard let en = json?["en"]?.stringValue, let zh = json?["zh-Hans"]?.stringValue else {
            throw EvidenceError.invalidValue(field: "profile", value: field, why: "needs an 'en' and a 'zh-Hans' text")
        }
        self.en = en
        self.zhHans = zh
    }
}

/// One acceptance scenario of a vendor's table.
package struct Scenario: Sendable, Equatable {
    /// The scenario's id (`first-connect`), as runs name it.
    package var id: String
    /// Its title.
    package var title: LocalizedText
    /// What the vendor's table expects of it.
    package var expected: LocalizedText
    /// The live checks that must pass on the scenario's run, in order.
    package var checks: [String]
    /// What the scenario's run needs besides its checks, in the order a report lists it (`requires`).
    package var requirements: [RequirementID]
    /// The store proofs this scenario accepts and which certify, when it names its own (`storeProofs`); nil: the
    /// profile's (`VerdictRules.storeProofs`). `Profile.rules(for:)` gives the rules a scenario is judged by.
    package var storeProofs: StoreProofPolicy? = nil

    /// Whether the scenario requires `id`.
    package func requires(_ id: RequirementID) -> Bool { requirements.contains(id) }
}

/// A live check's catalog entry.
package struct CheckInfo: Sendable, Equatable {
    /// The check's id, as scenarios and check results name it.
    package var id: String
    /// Its title.
    package var title: LocalizedText
    /// What a pass of it proves.
    package var proves: LocalizedText
}

/// The store proofs a profile's scenarios accept, and which of them certify (`verdictRules.storeProofs`).
///
/// A store proof is named by its provenance (`store-signed-sandbox`: an App Store Sandbox JWS;
/// `store-signed-google`: a Play Billing purchase signed with the campaign's license key). A proof the profile does
/// not accept is refused when recorded; an accepted proof that is not certifying is recorded and reported only.
package struct StoreProofPolicy: Sendable, Equatable {
    /// The provenances a store transaction of this profile may have, in the profile's order.
    package var accepted: [Provenance]
    /// The accepted provenances that certify a store transaction, in the profile's order.
    package var certifying: [Provenance]

    /// A policy; `certifying` must be accepted and hold no fixture (`Profile.init` refuses it otherwise).
    package init(accepted: [Provenance], certifying: [Provenance]) {
        self.accepted = accepted
        self.certifying = certifying
    }

    /// Whether a store transaction of provenance `p` is accepted on this profile's campaigns.
    package func accepts(_ p: Provenance) -> Bool { accepted.contains(p) }

    /// Whether a store transaction of provenance `p` certifies: named certifying, and never a fixture.
    package func certifies(_ p: Provenance) -> Bool { certifying.contains(p) && !p.isFixture }
}

/// The verdict rules of a profile, stated as data next to its scenarios.
///
/// A profile says which provenance each kind of evidence needs and which store proofs certify; no profile can make
/// a fixture certify (`Provenance.isFixture`). `certifies(_:as:)` and `storeProofs.certifies(_:)` are the answers
/// to "does this certify".
package struct VerdictRules: Sendable, Equatable {
    /// The provenance a check result needs to certify (`checkResultProvenance`).
    package var checkResultProvenance: Provenance
    /// The store proofs the scenarios accept and which of them certify (`storeProofs`).
    package var storeProofs: StoreProofPolicy
    /// The provenance a server receipt needs to certify (`serverReceiptProvenance`).
    package var serverReceiptProvenance: Provenance
    /// How the vendor's acceptance of a store transaction is found and proven (`serverReceiptBinding`).
    package var serverReceiptBinding: AcceptanceRule
    /// Whether a store transaction's bundle id must equal the campaign's app id (`transactionBundleMustMatchAppId`; true when the profile omits it).
    package var transactionBundleMustMatchAppId: Bool
    /// The most days a store transaction's purchase date may lie before its run started, for it to certify.
    package var transactionMaxAgeDays: Int
    /// How far, in seconds, a store-signed purchase date or a Sandbox's verification time may lie outside the run's
    /// outside window (the Sandbox's clock read at the run's start and finish) and still count; also how far the QA
    /// machine's clock may differ from the Sandbox's before a report warns (`outsideClockSkewSeconds`, default 300).
    package var outsideClockSkewSeconds: Int = VerdictRules.defaultOutsideClockSkewSeconds

    /// The skew a profile that names none gets: five minutes.
    package static let defaultOutsideClockSkewSeconds = 300

    /// Whether evidence of provenance `p` certifies where the profile requires `required`: the one place that says so.
    package func certifies(_ p: Provenance, as required: Provenance) -> Bool {
        p == required && !p.isFixture
    }

}

/// A vendor's scenario catalog: one JSON file per profile under `profiles/`.
package struct Profile: Sendable, Equatable {
    /// The profile's id (its file name without `.json`), as campaigns name it.
    package var id: String
    /// The vendor's name, as people read it.
    package var vendor: String
    /// The catalog's title.
    package var title: LocalizedText
    /// Where the catalog comes from: the vendor's guide and table it transcribes.
    package var source: String
    /// The acceptance scenarios, in the profile's order.
    package var scenarios: [Scenario]
    /// The live checks' catalog, in the profile's order.
    package var checks: [CheckInfo]
    /// The verdict rules (`verdictRules`).
    package var rules: VerdictRules
    /// The vendor's hosted Sandbox public-key pins (`hostedSandbox.spkiPins`, `sha256//BASE64`); empty: none published.
    package var sandboxPins: [String]
    /// The host names the vendor documents for its hosted Sandbox (`hostedSandbox.hosts`, lowercase); empty when the
    /// vendor names none. A live-hosted result from any other host is marked beside its verdict.
    package var knownHostedHosts: [String] = []
    /// The field that names the campaign's target within the vendor (`target`; default: GrooveGrow's `project` UUID).
    package var target: TargetField = .project
    /// The SHA-256 of the profile's canonical JSON text: the rules that judge a campaign, named in every
    /// report and signed statement, so that a verdict judged by other rules is recognised as such.
    package var rulesSHA256: String = ""

    /// The scenario with this id.
    package func scenario(_ id: String) throws -> Scenario {
        guard let s = scenarios.first(where: { $0.id == id }) else {
            throw EvidenceError.unknown(what: "scenario", value: id, known: scenarios.map(\.id))
        }
        return s
    }

    /// The catalog entry of a check.
    package func check(_ id: String) -> CheckInfo? { checks.first { $0.id == id } }

    /// The rules scenario `scenarioId` is judged by: the profile's, with the scenario's own store proofs when it names
    /// them. An unknown scenario gets the profile's.
    package func rules(for scenarioId: String) -> VerdictRules {
        var out = rules
        if let own = scenarios.first(where: { $0.id == scenarioId })?.storeProofs { out.storeProofs = own }
        return out
    }

    /// Refuses a store proof of provenance `p` that scenario `scenarioId` does not accept, naming what it accepts.
    package func requireAccepted(_ p: Provenance, scenario scenarioId: String) throws {
        let policy = rules(for: scenarioId).storeProofs
        guard policy.accepts(p) else {
            throw EvidenceError.invalidValue(field: "store proof", value: p.rawValue,
                                             why: "scenario '\(scenarioId)' of profile '\(id)' does not accept it (it accepts \(policy.accepted.map(\.rawValue).joined(separator: ", "))). Nothing was written.")
        }
    }

    /// Whether any scenario (or the profile) accepts store proofs of provenance `p`.
    package func acceptsAnywhere(_ p: Provenance) -> Bool {
        rules.storeProofs.accepts(p) || scenarios.contains { $0.storeProofs?.accepts(p) == true }
    }

    /// Whether `host` (a URL's host, any case, a trailing dot allowed) is one the vendor documents for its hosted Sandbox.
    package func isKnownHostedHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return knownHostedHosts.contains(name)
    }

    /// The Sandbox pins in force for `campaign`: the profile's, then the campaign's own that the profile lacks.
    package func sandboxPins(for campaign: Campaign) -> [String] {
        sandboxPins + campaign.sandboxPins.filter { !sandboxPins.contains($0) }
    }

    /// Parses a profile file.
    package init(json: JSONValue) throws {
        rulesSHA256 = Digest.sha256Hex(json.canonicalText)
        func string(_ v: JSONValue?, _ field: String) throws -> String {
            guard let s = v?.stringValue, !s.isEmpty else {
                throw EvidenceError.invalidValue(field: "profile", value: field, why: "missing or not a string")
            }
            return s
        }
        func provenance(_ v: JSONValue?, _ field: String) throws -> Provenance {
            let s = try string(v, field)
            guard let p = Provenance(rawValue: s) else {
                throw EvidenceError.invalidValue(field: "profile", value: field, why: "'\(s)' is not a provenance")
            }
            return p
        }
        /// A `storeProofs` object (`accepts`, `certifying`) at `field`: every certifying proof accepted, none a fixture.
        func storeProofPolicy(_ proofs: JSONValue, _ field: String) throws -> StoreProofPolicy {
            func list(_ name: String) throws -> [Provenance] {
                guard let items = proofs[name]?.arrayValue, !items.isEmpty else {
                    throw EvidenceError.invalidValue(field: "profile", value: field + "." + name, why: "must list provenances")
                }
                return try items.map { try provenance($0, field + "." + name) }
            }
            let accepted = try list("accepts"), certifying = try list("certifying")
            for p in certifying {
                guard accepted.contains(p) else {
                    throw EvidenceError.invalidValue(field: "profile", value: field + ".certifying", why: "'\(p.rawValue)' is not accepted")
                }
                guard !p.isFixture else {
                    throw EvidenceError.invalidValue(field: "profile", value: field + ".certifying",
                                                     why: "'\(p.rawValue)' is a fixture and can never certify")
                }
            }
            return StoreProofPolicy(accepted: accepted, certifying: certifying)
        }
        func maxAge(_ v: JSONValue?) throws -> Int {
            guard let text = v?.numberText, let days = Int(text), (0...366).contains(days) else {
                throw EvidenceError.invalidValue(field: "profile", value: "verdictRules.transactionMaxAgeDays",
                                                 why: "missing or not a whole number of days from 0 to 366")
            }
            return days
        }
        func skew(_ v: JSONValue?) throws -> Int {
            guard let v else { return VerdictRules.defaultOutsideClockSkewSeconds }
            guard let text = v.numberText, let seconds = Int(text), (0...3600).contains(seconds) else {
                throw EvidenceError.invalidValue(field: "profile", value: "verdictRules.outsideClockSkewSeconds",
                                                 why: "not a whole number of seconds from 0 to 3600")
            }
            return seconds
        }
        id = try string(json["id"], "id")
        vendor = try string(json["vendor"], "vendor")
        title = try LocalizedText(json["title"], field: "title")
        source = try string(json["source"], "source")
        var checks: [CheckInfo] = []
        for c in json["checks"]?.arrayValue ?? [] {
            let cid = try string(c["id"], "checks.id")
            checks.append(CheckInfo(id: cid, title: try LocalizedText(c["title"], field: cid), proves: try LocalizedText(c["proves"], field: cid)))
        }
        self.checks = checks
        var scenarios: [Scenario] = []
        for s in json["scenarios"]?.arrayValue ?? [] {
            let sid = try string(s["id"], "scenarios.id")
            let ids = (s["checks"]?.arrayValue ?? []).compactMap(\.stringValue)
            for c in ids where !checks.contains(where: { $0.id == c }) {
                throw EvidenceError.invalidValue(field: "profile", value: sid, why: "check '\(c)' is not in the catalog's checks")
            }
            let requirements = try (s["requires"]?.arrayValue ?? []).map { r -> RequirementID in
                guard let name = r.stringValue, !name.isEmpty else {
                    throw EvidenceError.invalidValue(field: "profile", value: sid, why: "'requires' must list requirement names")
                }
                return RequirementID(rawValue: name)
            }
            if s["requires"] != nil, s["requires"]?.arrayValue == nil {
                throw EvidenceError.invalidValue(field: "profile", value: sid, why: "'requires' must list requirement names")
            }
            scenarios.append(Scenario(
                id: sid, title: try LocalizedText(s["title"], field: sid), expected: try LocalizedText(s["expected"], field: sid),
                checks: ids, requirements: requirements,
                storeProofs: try s["storeProofs"].map { try storeProofPolicy($0, sid + ".storeProofs") }))
        }
        guard !scenarios.isEmpty else { throw EvidenceError.invalidValue(field: "profile", value: id, why: "has no scenarios") }
        self.scenarios = scenarios
        sandboxPins = try (json["hostedSandbox"]?["spkiPins"]?.arrayValue ?? []).map { pin in
            guard let text = pin.stringValue else {
                throw EvidenceError.invalidValue(field: "profile", value: "hostedSandbox.spkiPins", why: "a pin is not a string")
            }
            return try Validate.sandboxPin(text)
        }
        knownHostedHosts = try (json["hostedSandbox"]?["hosts"]?.arrayValue ?? []).map { host in
            guard let text = host.stringValue, !text.isEmpty, text == text.lowercased(), !text.contains("/"), !text.contains(":") else {
                throw EvidenceError.invalidValue(field: "profile", value: "hostedSandbox.hosts", why: "a host is not a lowercase host name")
            }
            return text
        }
        func acceptance(_ a: JSONValue?) throws -> AcceptanceRule {
            let field = "verdictRules.serverReceiptBinding"
            let type = try string(a?["evidenceType"], field + ".evidenceType")
            let key = try string(a?["key"], field + ".key")
            guard let evidenceType = EvidenceType(rawValue: type) else {
                throw EvidenceError.invalidValue(field: "profile", value: field + ".evidenceType", why: "'\(type)' is not an evidence type")
            }
            guard let bindingKey = BindingKey(rawValue: key) else {
                throw EvidenceError.invalidValue(field: "profile", value: field + ".key",
                                                 why: "'\(key)' is not one of \(BindingKey.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var recordedBy: String?
            if let by = a?["recordedBy"] {
                let check = try string(by, field + ".recordedBy")
                guard checks.contains(where: { $0.id == check }) else {
                    throw EvidenceError.invalidValue(field: "profile", value: field + ".recordedBy", why: "check '\(check)' is not in the catalog's checks")
                }
                recordedBy = check
            }
            return AcceptanceRule(evidenceType: evidenceType, key: bindingKey, proof: try string(a?["proof"], field + ".proof"),
                                  recordedBy: recordedBy)
        }
        if let t = json["target"] {
            let name = try string(t["field"], "target.field")
            if let prefix = t["prefix"] {
                target = TargetField(name: name, shape: .prefix(try string(prefix, "target.prefix")))
            } else if t["shape"]?.stringValue == "uuid" {
                target = TargetField(name: name, shape: .uuid)
            } else {
                throw EvidenceError.invalidValue(field: "profile", value: "target", why: "give 'prefix' or 'shape': 'uuid'")
            }
        }
        func storeProofs(_ v: JSONValue?) throws -> StoreProofPolicy {
            guard let proofs = v?["storeProofs"] else {
                // The rules before store proofs were named: one provenance, accepted and certifying.
                let one = try provenance(v?["storeTransactionProvenance"], "verdictRules.storeTransactionProvenance")
                guard !one.isFixture else {
                    throw EvidenceError.invalidValue(field: "profile", value: "verdictRules.storeTransactionProvenance",
                                                     why: "'\(one.rawValue)' is a fixture and can never certify")
                }
                return StoreProofPolicy(accepted: [one], certifying: [one])
            }
            return try storeProofPolicy(proofs, "verdictRules.storeProofs")
        }
        let v = json["verdictRules"]
        rules = VerdictRules(
            checkResultProvenance: try provenance(v?["checkResultProvenance"], "verdictRules.checkResultProvenance"),
            storeProofs: try storeProofs(v),
            serverReceiptProvenance: try provenance(v?["serverReceiptProvenance"], "verdictRules.serverReceiptProvenance"),
            serverReceiptBinding: try acceptance(v?["serverReceiptBinding"]),
            transactionBundleMustMatchAppId: v?["transactionBundleMustMatchAppId"]?.boolValue ?? true,
            transactionMaxAgeDays: try maxAge(v?["transactionMaxAgeDays"]),
            outsideClockSkewSeconds: try skew(v?["outsideClockSkewSeconds"]))
    }

    /// Every built-in profile, by id (parsed once per process).
    package static func builtIn() throws -> [String: Profile] {
        try parsedBuiltIn.get()
    }

    private static let parsedBuiltIn = Result<[String: Profile], Error> {
        var out: [String: Profile] = [:]
        for (_, text) in EmbeddedProfiles.files {
            let p = try Profile(json: try JSONValue.parse(text))
            out[p.id] = p
        }
        return out
    }

    /// The built-in profile with this id.
    package static func named(_ id: String) throws -> Profile {
        let all = try builtIn()
        guard let p = all[id] else { throw EvidenceError.unknown(what: "profile", value: id, known: all.keys.sorted()) }
        return p
    }
}
