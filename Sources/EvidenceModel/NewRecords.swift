import StrictJSON

/// What `createCampaign` needs.
package struct NewCampaign: Sendable {
    /// The name of the profile to certify under.
    package var profile: String
    /// A name for people; nil names the campaign `appId appVersion (build)`.
    package var name: String?
    /// The app's id (bundle id or application id).
    package var appId: String
    /// The app's version.
    package var appVersion: String
    /// The app's build.
    package var build: String
    /// The in-app-purchase SDK's name.
    package var sdkName: String
    /// The SDK's version.
    package var sdkVersion: String
    /// The vendor's target (the profile's `TargetField` says its shape).
    package var project: String
    /// The Sandbox base URL.
    package var baseURL: String
    /// Sandbox public-key pins (`sha256//BASE64`) for this campaign; each is validated.
    package var sandboxPins: [String]
    /// The app's Google Play license key, canonical base64 DER (StoreProof's `GooglePlayLicenseKey.base64`); nil: none.
    package var playLicenseKey: String?

    /// A campaign from its parts; `sdkName` nil names the SDK after the profile's vendor.
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
    /// The campaign to add the device to.
    package var campaignId: String
    /// The tester's label, unique in the campaign.
    package var label: String
    /// `physical` or `simulator` (checked when stored).
    package var kind: String
    /// `ios` or `android` (checked when stored).
    package var platform: String
    /// The device model.
    package var model: String
    /// The OS version.
    package var osVersion: String
    /// The device identifier, stored only as a keyed hash; nil for none.
    package var identifier: String?

    /// A device from its parts.
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
    /// The campaign to add the account to.
    package var campaignId: String
    /// The tester's label, unique in the campaign.
    package var label: String
    /// `apple` or `google` (checked when stored).
    package var store: String
    /// The account address, in the clear: stored only masked and as a keyed hash.
    package var account: String
    /// The store's storefront (`USA`), if known.
    package var storefront: String?

    /// An account from its parts.
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
    /// The campaign to run in.
    package var campaignId: String
    /// The scenario to execute (an id of the profile's scenarios).
    package var scenario: String
    /// The label of the device it runs on.
    package var deviceLabel: String
    /// The label of the store account it uses, if any.
    package var accountLabel: String?
    /// Who runs it.
    package var tester: String
    /// The Sandbox's clock read as the run starts (`run.clock`, with a run nonce the store mints); nil records none.
    package var clock: ClockReading?

    /// A run from its parts.
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
    /// The file's bytes.
    package var bytes: [UInt8]
    /// Its media type (`image/png`).
    package var mediaType: String
    /// Its file name, named in errors and checked for secrets.
    package var filename: String

    /// An attachment from its parts.
    package init(bytes: [UInt8], mediaType: String, filename: String) {
        self.bytes = bytes
        self.mediaType = mediaType
        self.filename = filename
    }
}

/// What `addEvidence` needs.
package struct NewEvidence: Sendable {
    /// The run to record on.
    package var runId: String
    /// The item's kind.
    package var type: EvidenceType
    /// Where it came from.
    package var provenance: Provenance
    /// The type's fields (encode them from its typed details).
    package var details: JSONValue
    /// The file of an `attachment` item; nil for other types.
    package var attachment: NewAttachment?
    /// Keys of `details` whose values are store-signed payloads (JWS), not credentials:
    /// the secret scan passes over them.
    package var signedPayloadKeys: Set<String>

    /// An item from its parts.
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
