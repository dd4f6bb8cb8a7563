import Foundation
import StrictJSON

/// One app build under certification.
package struct Campaign: Sendable, Equatable {
    /// The campaign's id.
    package var id: String
    /// The journal seq of the entry that created it.
    package var seq: Int64
    /// The name of the profile it is certified under.
    package var profile: String
    /// A name for people.
    package var name: String
    /// The app's id (bundle id or application id).
    package var appId: String
    /// The app's version.
    package var appVersion: String
    /// The app's build.
    package var build: String
    /// The name of the in-app-purchase SDK under test.
    package var sdkName: String
    /// That SDK's version.
    package var sdkVersion: String
    /// The vendor's target the app speaks to (a project UUID or a publishable key; the profile's `TargetField` says which, and JSON labels it by that field's name).
    package var project: String
    /// The Sandbox base URL the campaign targets.
    package var baseURL: String
    /// The actor who created it.
    package var createdBy: String
    /// When it was created (RFC 3339 UTC).
    package var createdAt: String
    /// The campaign's own Sandbox public-key pins (`sha256//BASE64`), added to the profile's; empty for none.
    package var sandboxPins: [String] = []
    /// The app's Google Play license key (base64 DER SubjectPublicKeyInfo, as Play Console shows it), recorded by
    /// a `campaign.update`; nil: none, and no signed Google Play purchase can be recorded.
    package var playLicenseKey: String?

    /// The SHA-256 of the license key's DER SubjectPublicKeyInfo, lowercase hex: how reports, `campaign show` and
    /// sign-off statements name the key for the release manager to compare with Play Console. The one home of it.
    package var playLicenseKeyFingerprint: String? { playLicenseKey.flatMap(Self.fingerprint(ofPlayLicenseKey:)) }

    /// The fingerprint of a base64 license key (SHA-256 of its DER, lowercase hex); nil when it is not base64.
    package static func fingerprint(ofPlayLicenseKey key: String) -> String? {
        Data(base64Encoded: key).map { Digest.sha256Hex($0) }
    }
    /// Whether only run-bound proof certifies this campaign's purchases (`campaign create|update --require-run-binding`,
    /// journaled as a `campaign.update` of `require_run_binding` to `yes`).
    package var requireRunBinding = false

    /// The campaign as JSON (the target column labelled by the profile's target field: `project`, `publishableKey`);
    /// `sandboxPins` appears only when the campaign has pins (older output is unchanged).
    package var json: JSONValue {
        var o: [String: JSONValue] = ["id": .string(id), "profile": .string(profile), "name": .string(name), "appId": .string(appId),
         "appVersion": .string(appVersion), "build": .string(build), "sdkName": .string(sdkName),
         "sdkVersion": .string(sdkVersion), TargetField.of(profile: profile).name: .string(project), "baseUrl": .string(baseURL),
         "createdBy": .string(createdBy), "createdAt": .string(createdAt)]
        if !sandboxPins.isEmpty { o["sandboxPins"] = .array(sandboxPins.map(JSONValue.string)) }
        if let fingerprint = playLicenseKeyFingerprint { o["playLicenseKeySha256"] = .string(fingerprint) }
        if requireRunBinding { o["requireRunBinding"] = .bool(true) }
        return .object(o)
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, profile: String, name: String, appId: String, appVersion: String, build: String, sdkName: String, sdkVersion: String, project: String, baseURL: String, createdBy: String, createdAt: String, sandboxPins: [String] = []) {
        self.id = id
        self.seq = seq
        self.profile = profile
        self.name = name
        self.appId = appId
        self.appVersion = appVersion
        self.build = build
        self.sdkName = sdkName
        self.sdkVersion = sdkVersion
        self.project = project
        self.baseURL = baseURL
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.sandboxPins = sandboxPins
    }
}

/// `physical` or `simulator`.
package enum DeviceKind: String, Sendable, CaseIterable { case physical, simulator }
/// `ios` or `android`.
package enum Platform: String, Sendable, CaseIterable { case ios, android }
/// `apple` or `google`.
package enum Store: String, Sendable, CaseIterable { case apple, google }
/// A run's outcome as the tester recorded it.
package enum RunOutcome: String, Sendable, CaseIterable { case pass, fail, blocked }

/// A device that runs the test app.
package struct Device: Sendable, Equatable {
    /// The device's id.
    package var id: String
    /// The journal seq of the entry that added it.
    package var seq: Int64
    /// The campaign it belongs to.
    package var campaignId: String
    /// The tester's label for it, unique in the campaign.
    package var label: String
    /// `physical` or `simulator`.
    package var kind: DeviceKind
    /// `ios` or `android`.
    package var platform: Platform
    /// The device model, as the tester gave it.
    package var model: String
    /// The OS version, as the tester gave it.
    package var osVersion: String
    /// A keyed hash of the device identifier, never the identifier itself.
    package var identifierHash: String?
    /// When it was added (RFC 3339 UTC).
    package var createdAt: String

    /// The device as JSON (`campaign` for the campaign id; `identifierHash` is `null` when none was given).
    package var json: JSONValue {
        ["id": .string(id), "campaign": .string(campaignId), "label": .string(label), "kind": .string(kind.rawValue),
         "platform": .string(platform.rawValue), "model": .string(model), "osVersion": .string(osVersion),
         "identifierHash": .optional(identifierHash), "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, campaignId: String, label: String, kind: DeviceKind, platform: Platform, model: String, osVersion: String, identifierHash: String? = nil, createdAt: String) {
        self.id = id
        self.seq = seq
        self.campaignId = campaignId
        self.label = label
        self.kind = kind
        self.platform = platform
        self.model = model
        self.osVersion = osVersion
        self.identifierHash = identifierHash
        self.createdAt = createdAt
    }
}

/// A store sandbox account; the address is kept only masked and as a keyed hash.
package struct StoreAccount: Sendable, Equatable {
    /// The account's id.
    package var id: String
    /// The journal seq of the entry that added it.
    package var seq: Int64
    /// The campaign it belongs to.
    package var campaignId: String
    /// The tester's label for it, unique in the campaign.
    package var label: String
    /// `apple` or `google`.
    package var store: Store
    /// The account address with most of it masked (`s***r@icloud.com`).
    package var accountMasked: String
    /// The keyed hash (HMAC-SHA-256 with the masking key) of the address, to recognise the account again.
    package var accountHash: String
    /// The store's storefront (`USA`), when given.
    package var storefront: String?
    /// When it was added (RFC 3339 UTC).
    package var createdAt: String

    /// The account as JSON: masked address and hash only (`account`, `accountHash`).
    package var json: JSONValue {
        ["id": .string(id), "campaign": .string(campaignId), "label": .string(label), "store": .string(store.rawValue),
         "account": .string(accountMasked), "accountHash": .string(accountHash), "storefront": .optional(storefront),
         "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, campaignId: String, label: String, store: Store, accountMasked: String, accountHash: String, storefront: String? = nil, createdAt: String) {
        self.id = id
        self.seq = seq
        self.campaignId = campaignId
        self.label = label
        self.store = store
        self.accountMasked = accountMasked
        self.accountHash = accountHash
        self.storefront = storefront
        self.createdAt = createdAt
    }
}

/// One execution of one scenario.
package struct Run: Sendable, Equatable {
    /// The run's id.
    package var id: String
    /// The journal seq of the entry that started it.
    package var seq: Int64
    /// The campaign it belongs to.
    package var campaignId: String
    /// The scenario it executes (an id of the profile's scenarios).
    package var scenario: String
    /// The device it ran on.
    package var deviceId: String
    /// The store account it used, if any.
    package var accountId: String?
    /// Who ran it.
    package var tester: String
    /// When it started (RFC 3339 UTC).
    package var startedAt: String
    /// When it was finished (nil: still open).
    package var finishedAt: String?
    /// The outcome the tester recorded at the finish (nil: still open).
    package var outcome: RunOutcome?
    /// The tester's note at the finish.
    package var note: String?
    /// The journal seq of the run's finish (nil: open, or a database older than `run_finishes`).
    package var finishSeq: Int64?
    /// When and why the run was abandoned as started by mistake (nil: it was not): it is never judged.
    package var abandonedAt: String?
    /// Why the run was abandoned (nil when it was not, or when no reason was given).
    package var abandonReason: String?

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, campaignId: String, scenario: String, deviceId: String, accountId: String?, tester: String,
                startedAt: String, finishedAt: String?, outcome: RunOutcome?, note: String?,
                finishSeq: Int64? = nil, abandonedAt: String? = nil, abandonReason: String? = nil) {
        self.id = id
        self.seq = seq
        self.campaignId = campaignId
        self.scenario = scenario
        self.deviceId = deviceId
        self.accountId = accountId
        self.tester = tester
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.outcome = outcome
        self.note = note
        self.finishSeq = finishSeq
        self.abandonedAt = abandonedAt
        self.abandonReason = abandonReason
    }

    /// Whether the run has been finished.
    package var isFinished: Bool { finishedAt != nil }
    /// Whether the run was abandoned (it is never judged).
    package var isAbandoned: Bool { abandonedAt != nil }

    /// Whether `item` of this run was recorded after the run was finished (a late note or attachment):
    /// told by the journal's order, never by a label.
    package func isLate(_ item: EvidenceItem) -> Bool {
        guard let finishSeq else { return false }
        return item.seq > finishSeq
    }

    /// The run as JSON; `abandonedAt` and `abandonReason` appear only on an abandoned run.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "campaign": .string(campaignId), "scenario": .string(scenario), "device": .string(deviceId),
            "account": .optional(accountId), "tester": .string(tester), "startedAt": .string(startedAt),
            "finishedAt": .optional(finishedAt), "outcome": .optional(outcome?.rawValue), "note": .optional(note)]
        if let abandonedAt {
            object["abandonedAt"] = .string(abandonedAt)
            object["abandonReason"] = .optional(abandonReason)
        }
        return .object(object)
    }
}

/// The kinds of evidence item.
package enum EvidenceType: String, Sendable, CaseIterable {
    case transaction
    case receipt
    case attachment
    case note
    case checkResult = "check-result"
}

/// One piece of evidence on a run. `details` holds the type's fields, read and written through the
/// type's typed details (`details(as:)`): `TransactionDetails`, `ReceiptDetails`, `AttachmentDetails`
/// (the bytes are in the blob store under `attachmentSHA256`), `NoteDetails`, `CheckResultDetails`.
package struct EvidenceItem: Sendable, Equatable {
    /// The item's id.
    package var id: String
    /// The journal seq of the entry that recorded it; its place in the journal's order.
    package var seq: Int64
    /// The run it is on.
    package var runId: String
    /// Its kind.
    package var type: EvidenceType
    /// Where it came from.
    package var provenance: Provenance
    /// The type's fields as JSON; read them with `details(as:)`.
    package var details: JSONValue
    /// An attachment's SHA-256 (lowercase hex), naming its bytes in the blob store; nil for other types.
    package var attachmentSHA256: String?
    /// An attachment's media type; nil for other types.
    package var mediaType: String?
    /// An attachment's size in bytes; nil for other types.
    package var size: Int64?
    /// The actor who recorded it.
    package var recordedBy: String
    /// When it was recorded (RFC 3339 UTC).
    package var recordedAt: String
    /// The journal seq of its retraction (nil: not retracted).
    package var retractedSeq: Int64?
    /// Why it was retracted.
    package var retractedReason: String?

    /// Whether it was retracted (it stays in the journal but counts for no verdict).
    package var isRetracted: Bool { retractedSeq != nil }

    /// The item as JSON (`run` for the run id; `retracted` as a boolean).
    package var json: JSONValue {
        ["id": .string(id), "run": .string(runId), "type": .string(type.rawValue), "provenance": .string(provenance.rawValue),
         "details": details, "attachmentSha256": .optional(attachmentSHA256), "mediaType": .optional(mediaType),
         "size": size.map { .number(String($0)) } ?? .null, "recordedBy": .string(recordedBy), "recordedAt": .string(recordedAt),
         "retracted": .bool(isRetracted), "retractedReason": .optional(retractedReason)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, runId: String, type: EvidenceType, provenance: Provenance, details: JSONValue, attachmentSHA256: String? = nil, mediaType: String? = nil, size: Int64? = nil, recordedBy: String, recordedAt: String, retractedSeq: Int64? = nil, retractedReason: String? = nil) {
        self.id = id
        self.seq = seq
        self.runId = runId
        self.type = type
        self.provenance = provenance
        self.details = details
        self.attachmentSHA256 = attachmentSHA256
        self.mediaType = mediaType
        self.size = size
        self.recordedBy = recordedBy
        self.recordedAt = recordedAt
        self.retractedSeq = retractedSeq
        self.retractedReason = retractedReason
    }
}

/// One entry of the append-only journal.
package struct JournalEntry: Sendable, Equatable {
    /// Its place in the journal, from 1.
    package var seq: Int64
    /// What the entry does (`campaign.create`, `evidence.add`, …).
    package var kind: String
    /// Who wrote it.
    package var actor: String
    /// When it was written (RFC 3339 UTC).
    package var at: String
    /// Canonical JSON text.
    package var payload: String
    /// The previous entry's hash (64 zeros for the first entry).
    package var prevHash: String
    /// SHA-256 (lowercase hex) of the canonical envelope of `actor`, `at`, `kind`, `payload`, `prev` and `seq`.
    package var hash: String

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(seq: Int64, kind: String, actor: String, at: String, payload: String, prevHash: String, hash: String) {
        self.seq = seq
        self.kind = kind
        self.actor = actor
        self.at = at
        self.payload = payload
        self.prevHash = prevHash
        self.hash = hash
    }
}

/// The newest journal entry that counts as evidence (report renders do not).
package struct EvidenceHead: Sendable, Equatable {
    /// The entry's seq.
    package var seq: Int64
    /// The entry's hash.
    package var hash: String
    /// When it was written (RFC 3339 UTC).
    package var at: String

    /// A head from its parts.
    package init(seq: Int64, hash: String, at: String) {
        self.seq = seq
        self.hash = hash
        self.at = at
    }
}

extension JournalEntry {
    /// The record the entry concerns, for people reading the journal: the row's id, with the run,
    /// report or campaign it belongs to (`e5 (run r1)`, `r1`, `s1 (report rp1)`); nil when it
    /// concerns no record (`store.init`).
    package var concerns: String? {
        guard let payload = try? JSONValue.parse(self.payload), let id = payload["id"]?.stringValue else { return nil }
        for (key, what) in [("run_id", "run"), ("report_id", "report"), ("campaign_id", "campaign")] {
            if let parent = payload[key]?.stringValue { return "\(id) (\(what) \(parent))" }
        }
        return id
    }
}

/// A campaign value that may change after the campaign is created (`campaign.update`).
///
/// The app id, version and build are not among them: they define what is certified, so a change of
/// them is a new campaign. Each case's raw value is its `campaigns` column.
package enum CampaignField: String, Sendable, CaseIterable {
    case name
    case sdkName = "sdk_name"
    case sdkVersion = "sdk_version"
    case project
    case baseURL = "base_url"
    /// The campaign's own Sandbox public-key pins, space-separated (the update replaces the list).
    case sandboxPins = "sandbox_pins"
    /// The app's Google Play license key (base64 DER SubjectPublicKeyInfo). Not a `campaigns` column: it lives in
    /// the campaign's journaled updates only (`campaign create --play-license-key` writes one with the campaign).
    case playLicenseKey = "play_license_key"
    /// `yes` when only run-bound proof certifies the campaign's purchases, else `no`.
    case requireRunBinding = "require_run_binding"

    /// The field's name as people read it.
    package var label: String {
        switch self {
        case .name: return "name"
        case .sdkName: return "SDK name"
        case .sdkVersion: return "SDK version"
        case .project: return "project"
        case .baseURL: return "base URL"
        case .sandboxPins: return "Sandbox pins"
        case .playLicenseKey: return "Play license key"
        case .requireRunBinding: return "run binding required"
        }
    }
}

extension Campaign {
    /// The campaign's current value of `field`.
    package func value(of field: CampaignField) -> String {
        switch field {
        case .name: return name
        case .sdkName: return sdkName
        case .sdkVersion: return sdkVersion
        case .project: return project
        case .baseURL: return baseURL
        case .sandboxPins: return sandboxPins.joined(separator: " ")
        case .playLicenseKey: return playLicenseKey ?? ""
        case .requireRunBinding: return requireRunBinding ? "yes" : "no"
        }
    }

    /// Sets `field` to `value`.
    package mutating func set(_ field: CampaignField, to value: String) {
        switch field {
        case .name: name = value
        case .sdkName: sdkName = value
        case .sdkVersion: sdkVersion = value
        case .project: project = value
        case .baseURL: baseURL = value
        case .sandboxPins: sandboxPins = value.split(separator: " ").map(String.init)
        case .playLicenseKey: playLicenseKey = value.isEmpty ? nil : value
        case .requireRunBinding: requireRunBinding = value == "yes"
        }
    }
}

/// One recorded change of a campaign: which values changed, from what to what, who and when.
package struct CampaignUpdate: Sendable, Equatable {
    /// One field's change.
    package struct Change: Sendable, Equatable {
        /// The field's column name (`CampaignField`'s raw value; kept as text so that a newer growcert's field still reads).
        package var field: String
        /// The value before (nil: the field had none).
        package var from: String?
        /// The value after.
        package var to: String

        /// The field's name as people read it (its column name when this growcert does not know it).
        package var label: String { CampaignField(rawValue: field)?.label ?? field }

        /// A value as a line shows it: a license key by its SHA-256 fingerprint, anything else as recorded.
        package func shown(_ value: String?) -> String {
            guard field == CampaignField.playLicenseKey.rawValue, let value, !value.isEmpty else { return value ?? "" }
            return "SHA-256 " + (Campaign.fingerprint(ofPlayLicenseKey: value) ?? "?")
        }

        /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
        package init(field: String, from: String? = nil, to: String) {
            self.field = field
            self.from = from
            self.to = to
        }
    }

    /// The update's id.
    package var id: String
    /// The journal seq of the `campaign.update` entry.
    package var seq: Int64
    /// The campaign it changes.
    package var campaignId: String
    /// In the order of the columns' names.
    package var changes: [Change]
    /// Why the change was made, if the actor said.
    package var note: String?
    /// The actor who made it.
    package var updatedBy: String
    /// When it was made (RFC 3339 UTC).
    package var updatedAt: String

    /// What changed, as one line: `base URL 'a' → 'b'; SDK version '1' → '2'`.
    package var summary: String {
        changes.map { "\($0.label) '\($0.shown($0.from))' → '\($0.shown($0.to))'" }.joined(separator: "; ")
    }

    /// The update as JSON (`campaign` for the campaign id; `from` is `null` when there was no value).
    package var json: JSONValue {
        ["id": .string(id), "campaign": .string(campaignId),
         "changes": .array(changes.map { ["field": .string($0.field), "from": .optional($0.from), "to": .string($0.to)] }),
         "note": .optional(note), "updatedBy": .string(updatedBy), "updatedAt": .string(updatedAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, campaignId: String, changes: [Change], note: String? = nil, updatedBy: String, updatedAt: String) {
        self.id = id
        self.seq = seq
        self.campaignId = campaignId
        self.changes = changes
        self.note = note
        self.updatedBy = updatedBy
        self.updatedAt = updatedAt
    }
}
