import EvidenceModel

/// One scenario's verdict and everything it was judged on.
package struct ScenarioReport: Sendable, Equatable {
    /// The scenario's id.
    package var id: String
    /// Its title, from the profile.
    package var title: LocalizedText
    /// What the vendor's table expects of it, from the profile.
    package var expected: LocalizedText
    /// The scenario's verdict.
    package var verdict: Verdict
    /// Every reason that keeps the scenario from CERTIFIED, worst first; `[certified]` when none.
    package var reasons: [Reason]
    /// The run the verdict is judged on: the latest finished run of the scenario.
    package var judgedRun: RunSummary?
    /// The scenario's other runs, newest first; they do not count.
    package var history: [RunSummary]
    /// The scenario's checks, in catalog order.
    package var checks: [CheckReport]
    /// The evidence the scenario's profile requires besides checks.
    package var requirements: [RequirementReport]
    /// Every evidence item on the judged run, retracted ones included and marked.
    package var evidence: [EvidenceSummary]
    /// Things to notice on the judged run that do not change the verdict.
    package var warnings: [Reason]
    /// Warnings a reader must see beside the verdict itself, not only in the details: live evidence from a host the
    /// vendor does not name (`unknown-hosted-host`), live evidence without pins (`unpinned`); only on a CERTIFIED verdict. The
    /// details behind them (each check's host, trust basis and certificate) are in the check results.
    package var marks: [Reason] = []

    /// The reason for the summary table: the first, worst one.
    package var summaryReason: Reason { reasons.first ?? Reason(.certified) }
}

/// A run as a report shows it.
package struct RunSummary: Sendable, Equatable {
    /// The run's id.
    package var id: String
    /// Who ran it.
    package var tester: String
    /// When it started (RFC 3339 UTC).
    package var startedAt: String
    /// When it was finished; nil while open.
    package var finishedAt: String?
    /// The outcome the tester recorded; nil while open.
    package var outcome: RunOutcome?
    /// The tester's note at the finish.
    package var note: String?
    /// The device it ran on; nil when the device is not among the campaign's.
    package var device: DeviceSummary?
    /// The store account, masked (never the address itself).
    package var accountMasked: String?
    /// The store account's label.
    package var accountLabel: String?
    /// The store account's store (`apple`, `google`).
    package var accountStore: String?
    /// The app build under test (the campaign's version and build).
    package var appBuild: String
}

/// A device as a report shows it (no identifier, not even hashed).
package struct DeviceSummary: Sendable, Equatable {
    /// The tester's label.
    package var label: String
    /// `physical` or `simulator`.
    package var kind: DeviceKind
    /// `ios` or `android`.
    package var platform: Platform
    /// The device model.
    package var model: String
    /// The OS version.
    package var osVersion: String
}

/// What happened to one check of a scenario on the judged run.
package struct CheckReport: Sendable, Equatable {
    /// How a check stands.
    package enum Status: String, Sendable {
        /// The latest result passed.
        case passed
        /// The latest result failed.
        case failed
        /// No result, or the latest one was retracted (`not-run`).
        case notRun = "not-run"
        /// The latest result's outcome is neither `passed` nor `failed`.
        case unknown
    }

    /// The check's id.
    package var id: String
    /// Its title from the profile's catalog; nil when the catalog does not list it.
    package var title: LocalizedText?
    /// How it stands.
    package var status: Status
    /// The check-result evidence item judged (the latest non-retracted one for this check).
    package var evidenceId: String?
    /// The result's provenance; nil when no result was recorded.
    package var provenance: Provenance?
    /// Whether the result's provenance is the one the profile requires for check results.
    package var certifying: Bool
    /// As recorded, in milliseconds (number text).
    package var durationMs: String?
    /// The failure reason the result recorded, if any.
    package var reason: String?
    /// The first few exchanges: `METHOD path → status`.
    package var transcriptExcerpt: [String]
    /// How many exchanges the transcript has in all.
    package var transcriptCount: Int
}

/// One piece of required evidence besides checks: a device, a physical device, a store account,
/// a store transaction, the vendor's acceptance of it (a server receipt), or that it is an auto-renewable subscription.
package struct RequirementReport: Sendable, Equatable {
    /// What is required.
    package enum Kind: String, Sendable, CaseIterable {
        case device
        case physicalDevice = "physical-device"
        case storeAccount = "store-account"
        case storeTransaction = "store-transaction"
        case serverReceipt = "server-receipt"
        case autoRenewable = "auto-renewable"
        case storeRefund = "store-refund"
    }

    /// How it stands.
    package enum Status: String, Sendable {
        case met
        case missing
        case notCertifying = "not-certifying"
    }

    /// What is required.
    package var kind: Kind
    /// How it stands.
    package var status: Status
    /// What satisfies it, e.g. a device label, a masked account, a transaction id; empty when missing.
    package var subject: String
    /// The evidence item that satisfies it, if any.
    package var evidenceId: String?
    /// That item's provenance.
    package var provenance: Provenance?
    /// Why it is missing or not certifying.
    package var reasons: [Reason]
}

/// An evidence item as a report lists it.
package struct EvidenceSummary: Sendable, Equatable {
    /// The item's id.
    package var id: String
    /// Its kind.
    package var type: EvidenceType
    /// Where it came from.
    package var provenance: Provenance
    /// Whether this provenance can ever certify (`Provenance.canCertify`).
    package var certifyingProvenance: Bool
    /// Selected fields of the item's details, in a fixed order; long values shortened.
    package var fields: [Field]
    /// The actor who recorded it.
    package var recordedBy: String
    /// When it was recorded (RFC 3339 UTC).
    package var recordedAt: String
    /// Whether it was retracted.
    package var retracted: Bool
    /// Why it was retracted.
    package var retractedReason: String?
    /// The attached file, when the item is an attachment.
    package var attachment: AttachmentSummary? = nil

    /// One named value.
    package struct Field: Sendable, Equatable {
        /// The field's name.
        package var name: String
        /// Its value, shortened when long.
        package var value: String
    }
}

/// An attachment as a report shows it: what it is, and for a small PNG or JPEG screenshot its bytes,
/// so the HTML report can show it as a thumbnail without reading any file.
package struct AttachmentSummary: Sendable, Equatable {
    /// The SHA-256 of its bytes (lowercase hex).
    package var sha256: String
    /// The media type recorded with the file (what the tester said it is).
    package var mediaType: String?
    /// Its size in bytes.
    package var size: Int?
    /// The file name recorded.
    package var filename: String?
    /// The image to show inline, set by `ReportBuilder` for a PNG or JPEG within `ThumbnailBudget`; nil otherwise.
    package var inlineImage: InlineImage? = nil
    /// Why it is not shown inline, when it is not.
    package var notInline: NotInline = .notImage

    /// Why an attachment is not shown inline.
    package enum NotInline: String, Sendable {
        /// Larger than `ThumbnailBudget.perImage`.
        case tooLarge
        /// It would take the report past `ThumbnailBudget.total`.
        case overBudget
        /// Not a PNG or JPEG by its recorded media type or its bytes, empty, or its bytes could not be read.
        case notImage
        /// The item was retracted.
        case retracted
    }

    /// Whether the recorded media type says PNG or JPEG (the bytes decide whether it is shown).
    package var isImage: Bool { ThumbnailBudget.imageTypes.contains((mediaType ?? "").lowercased()) }
}

/// The bytes of an image a report shows inline, with the media type its bytes really have.
package struct InlineImage: Sendable, Equatable {
    /// `image/png` or `image/jpeg`, from the file's first bytes, never from what was recorded.
    package var mediaType: String
    /// The image's bytes.
    package var bytes: [UInt8]
}
