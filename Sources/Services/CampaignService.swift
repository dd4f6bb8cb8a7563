import Evidence
import Foundation
import StoreProof

/// How a campaign and what it is tested with are recorded: `campaign create`, `campaign update`, `device add` and
/// `account add` take this one path, and the commands only read their options and files.
package struct CampaignService {
    /// The evidence store recorded into.
    package let store: EvidenceStore

    /// A service recording into `store` as its actor.
    package init(store: EvidenceStore) {
        self.store = store
    }

    /// Creates campaign `new`. A Play license key (`playLicenseKeyFile`: the file's contents, base64 as Play Console shows
    /// it, or PEM) is verified and kept as canonical base64; `requireRunBinding` is journaled as the campaign's first
    /// update, so that the requirement reads, and is reported, like any later change.
    package func create(_ new: NewCampaign, playLicenseKeyFile: Data?, requireRunBinding: Bool) throws -> Campaign {
        var new = new
        if let playLicenseKeyFile {
            new.playLicenseKey = try playLicenseKey(playLicenseKeyFile, profile: try store.profileNamed(new.profile))
        }
        let campaign = try store.createCampaign(new)
        guard requireRunBinding else { return campaign }
        _ = try store.updateCampaign(id: campaign.id, changes: [.requireRunBinding: "yes"], note: "required at creation")
        return try store.campaign(campaign.id)
    }

    /// Journals `changes` to campaign `id`, with a new Play license key when `playLicenseKeyFile` is given.
    package func update(id: String, changes: [CampaignField: String], playLicenseKeyFile: Data?, note: String?) throws -> CampaignUpdate {
        var changes = changes
        if let playLicenseKeyFile {
            changes[.playLicenseKey] = try playLicenseKey(playLicenseKeyFile, profile: try store.profileNamed(try store.campaign(id).profile))
        }
        return try store.updateCampaign(id: id, changes: changes, note: note)
    }

    /// Records a device runs are made on.
    package func addDevice(_ new: NewDevice) throws -> Device { try store.addDevice(new) }

    /// Records a store sandbox account (kept only masked and as a keyed hash).
    package func addAccount(_ new: NewAccount) throws -> StoreAccount { try store.addAccount(new) }

    /// A Play license key file's contents as canonical base64, once `profile` accepts signed Google Play purchases in
    /// some scenario; `ServiceError.profileTakesNoPlayKey` otherwise.
    func playLicenseKey(_ contents: Data, profile: Profile) throws -> String {
        guard profile.acceptsAnywhere(.storeSignedGoogle) else {
            throw ServiceError.profileTakesNoPlayKey(profile: profile.id, proofs: profile.rules.storeProofs.accepted.map(\.rawValue))
        }
        return try GooglePlayLicenseKey(fileContents: contents).base64
    }
}
