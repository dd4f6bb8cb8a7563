import StrictJSON

/// What `createCampaign` needs.
public struct NewCampaign: Sendable {
    public var profile: String
    public var name: String?
    public var appId: String
    public var appVersion: String
    public var build: String
    public var sdkName: String
    public var sdkVersion: String
    public var project: String
    public var baseURL: String
    /// Sandbox public-key pins (`sha256//BASE64`) for this campaign; each is validated.
    public var sandboxPins: [String]
    /// The app's Google Play license key, canonical base64 DER (StoreProof's `GooglePlayLicenseKey.base64`); nil: none.
    public var playLicenseKey: String?

    public init(profile: String, name: String?, appId: String, appVersion: String, build: String, sdkName: String = "GrooveGrow SDK",
                sdkVersion: String, project: String, baseURL: String, sandboxPins: [String] = [], playLicenseKey: String? = nil) {
        self.sandboxPins = sandboxPins
        self.playLicenseKey = playLicenseKey
        self.profile = profile
        self.name = name
        self.appId = appId
        self.appVersion = appVersion
        self.build = build
        self.sdkName = sdkName
        self.sdkVersion = sdkVersion
        self.project = project
        self.baseURL = baseURL
    }
}

/// What `addDevice` needs. `identifier` is hashed, never stored.
public struct NewDevice: Sendable {
    public var campaignId: String
    public var label: String
    public var kind: String
    public var platform: String
    public var model: String
    public var osVersion: String
    public var identifier: String?

    public init(campaignId: String, label: String, kind: String, platform: String, model: String, osVersion: String, identifier: String? = nil) {
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
public struct NewAccount: Sendable {
    public var campaignId: String
    public var label: String
    public var store: String
    public var account: String
    public var storefront: String?

    public init(campaignId: String, label: String, store: String, account: String, storefront: String? = nil) {
        self.campaignId = campaignId
        self.label = label
        self.store = store
        self.account = account
        self.storefront = storefront
    }
}

/// What `startRun` needs: devices and accounts by label.
public struct NewRun: Sendable {
    public var campaignId: String
    public var scenario: String
    public var deviceLabel: String
    public var accountLabel: String?
    public var tester: String
    /// The Sandbox's clock read as the run starts (`run.clock`, with a run nonce the store mints); nil records none.
    public var clock: ClockReading?

    public init(campaignId: String, scenario: String, deviceLabel: String, accountLabel: String?, tester: String, clock: ClockReading? = nil) {
        self.campaignId = campaignId
        self.scenario = scenario
        self.deviceLabel = deviceLabel
        self.accountLabel = accountLabel
        self.tester = tester
        self.clock = clock
    }
}

/// Bytes to store once, by SHA-256, with an evidence item.
public struct NewAttachment: Sendable {
    public var bytes: [UInt8]
    public var mediaType: String
    public var filename: String

    public init(bytes: [UInt8], mediaType: String, filename: String) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.filename = filename
    }
}

/// What `addEvidence` needs.
public struct NewEvidence: Sendable {
    public var runId: String
    public var type: EvidenceType
    public var provenance: Provenance
    public var details: JSONValue
    public var attachment: NewAttachment?
    /// Keys of `details` whose values are store-signed payloads (JWS), not credentials:
    /// the secret scan passes over them.
    public var signedPayloadKeys: Set<String>

    public init(runId: String, type: EvidenceType, provenance: Provenance, details: JSONValue, attachment: NewAttachment? = nil,
                signedPayloadKeys: Set<String> = []) {
        self.runId = runId
        self.type = type
        self.provenance = provenance
        self.details = details
        self.attachment = attachment
        self.signedPayloadKeys = signedPayloadKeys
    }
}
