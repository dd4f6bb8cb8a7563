import StrictJSON

/// What `createCampaign` needs.
package struct NewCampaign: Sendable {
    package var profile: String
    package var name: String?
    package var appId: String
    package var appVersion: String
    package var build: String
    package var sdkName: String
    package var sdkVersion: String
    package var project: String
    package var baseURL: String
    /// Sandbox public-key pins (`sha256//BASE64`) for this campaign; each is validated.
    package var sandboxPins: [String]
    /// The app's Google Play license key, canonical base64 DER (StoreProof's `GooglePlayLicenseKey.base64`); nil: none.
    package var playLicenseKey: String?

    package init(profile: String, name: String?, appId: String, appVersion: String, build: String, sdkName: String? = nil,
                sdkVersion: String, project: String, baseURL: String, sandboxPins: [String] = [], playLicenseKey: String? = nil) {
        self.sandboxPins = sandboxPins
        self.playLicenseKey = playLicenseKey
        self.profile = profile
        self.name = name
        self.appId = appId
        self.appVersion = appVersion
        self.build = build
        // The SDK is named after the profile's vendor unless given (`campaign create --sdk-name`).
        self.sdkName = sdkName ?? ((try? Profile.named(profile)).map { $0.vendor + " SDK" } ?? "SDK")
        self.sdkVersion = sdkVersion
        self.project = project
        self.baseURL = baseURL
    }
}

/// What `addDevice` needs. `identifier` is hashed, never stored.
package struct NewDevice: Sendable {
    package var campaignId: String
    package var label: String
    package var kind: String
    package var platform: String
    package var model: String
    package var osVersion: String
    package var identifier: String?

    package init(campaignId: String, label: String, kind: String, platform: String, model: String, osVersion: String, identifier: String? = nil) {
        self.campaignId = campaignId
        self.label = label
        self.kind = kind
        self.platform = platform
        self.model = model
        self.osVersion = osVersion
        self.identifier = identifier
    }
}

/// What `addAccount` needs. `account` is stored masked and as a keyed hash only.
package struct NewAccount: Sendable {
    package var campaignId: String
    package var label: String
    package var store: String
    package var account: String
    package var storefront: String?

    package init(campaignId: String, label: String, store: String, account: String, storefront: String? = nil) {
        self.campaignId = campaignId
        self.label = label
        self.store = store
        self.account = account
        self.storefront = storefront
    }
}

/// What `startRun` needs: devices and accounts by label.
package struct NewRun: Sendable {
    package var campaignId: String
    package var scenario: String
    package var deviceLabel: String
    package var accountLabel: String?
    package var tester: String
    /// The Sandbox's clock read as the run starts (`run.clock`, with a run nonce the store mints); nil records none.
    package var clock: ClockReading?

    package init(campaignId: String, scenario: String, deviceLabel: String, accountLabel: String?, tester: String, clock: ClockReading? = nil) {
        self.campaignId = campaignId
        self.scenario = scenario
        self.deviceLabel = deviceLabel
        self.accountLabel = accountLabel
        self.tester = tester
        self.clock = clock
    }
}

/// Bytes to store once, by SHA-256, with an evidence item.
package struct NewAttachment: Sendable {
    package var bytes: [UInt8]
    package var mediaType: String
    package var filename: String

    package init(bytes: [UInt8], mediaType: String, filename: String) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.filename = filename
    }
}

/// What `addEvidence` needs.
package struct NewEvidence: Sendable {
    package var runId: String
    package var type: EvidenceType
    package var provenance: Provenance
    package var details: JSONValue
    package var attachment: NewAttachment?
    /// Keys of `details` whose values are store-signed payloads (JWS), not credentials:
    /// the secret scan passes over them.
    package var signedPayloadKeys: Set<String>

    package init(runId: String, type: EvidenceType, provenance: Provenance, details: JSONValue, attachment: NewAttachment? = nil,
                signedPayloadKeys: Set<String> = []) {
        self.runId = runId
        self.type = type
        self.provenance = provenance
        self.details = details
        self.attachment = attachment
        self.signedPayloadKeys = signedPayloadKeys
    }
}
