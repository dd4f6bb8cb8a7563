import Evidence

/// One scenario's verdict and everything it was judged on.
public struct ScenarioReport: Sendable, Equatable {
    public var id: String
    public var title: LocalizedText
    public var expected: LocalizedText
    public var verdict: Verdict
    /// Every reason that keeps the scenario from CERTIFIED, worst first; `[certified]` when none.
    public var reasons: [Reason]
    /// The run the verdict is judged on: the latest finished run of the scenario.
    public var judgedRun: RunSummary?
    /// The scenario's other runs, newest first; they do not count.
    public var history: [RunSummary]
    /// The scenario's checks, in catalog order.
    public var checks: [CheckReport]
    /// The evidence the scenario's profile requires besides checks.
    public var requirements: [RequirementReport]
    /// Every evidence item on the judged run, retracted ones included and marked.
    public var evidence: [EvidenceSummary]
    /// Things to notice on the judged run that do not change the verdict.
    public var warnings: [Reason]
    /// Warnings a reader must see beside the verdict itself, not only in the details: live evidence from a host the
    /// vendor does not name (`unknown-hosted-host`), live evidence without pins (`unpinned`); only on a CERTIFIED verdict. The
    /// details behind them (each check's host, trust basis and certificate) are in the check results.
    public var marks: [Reason] = []

    /// The reason for the summary table: the first, worst one.
    public var summaryReason: Reason { reasons.first ?? Reason(.certified) }
}

/// A run as a report shows it.
public struct RunSummary: Sendable, Equatable {
    public var id: String
    public var tester: String
    public var startedAt: String
    public var finishedAt: String?
    public var outcome: RunOutcome?
    public var note: String?
    public var device: DeviceSummary?
    /// The store account, masked (never the address itself).
    public var accountMasked: String?
    public var accountLabel: String?
    public var accountStore: String?
    /// The app build under test (the campaign's version and build).
    public var appBuild: String
}

/// A device as a report shows it (no identifier, not even hashed).
public struct DeviceSummary: Sendable, Equatable {
    public var label: String
    public var kind: DeviceKind
    public var platform: Platform
    public var model: String
    public var osVersion: String
}

/// What happened to one check of a scenario on the judged run.
public struct CheckReport: Sendable, Equatable {
    /// How a check stands.
    public enum Status: String, Sendable {
        case passed, failed
        case notRun = "not-run"
        case unknown
    }

    public var id: String
    public var title: LocalizedText?
    public var status: Status
    /// The check-result evidence item judged (the latest non-retracted one for this check).
    public var evidenceId: String?
    public var provenance: Provenance?
    /// Whether the result's provenance is the one the profile requires for check results.
    public var certifying: Bool
    /// As recorded, in milliseconds (number text).
    public var durationMs: String?
    public var reason: String?
    /// The first few exchanges: `METHOD path → status`.
    public var transcriptExcerpt: [String]
    /// How many exchanges the transcript has in all.
    public var transcriptCount: Int
}

/// One piece of required evidence besides checks: a device, a physical device, a store account,
/// a store transaction, the vendor's acceptance of it (a server receipt), or that it is an auto-renewable subscription.
public struct RequirementReport: Sendable, Equatable {
    /// What is required.
    public enum Kind: String, Sendable, CaseIterable {
        case device
        case physicalDevice = "physical-device"
        case storeAccount = "store-account"
        case storeTransaction = "store-transaction"
        case serverReceipt = "server-receipt"
        case autoRenewable = "auto-renewable"
        case storeRefund = "store-refund"
    }

    /// How it stands.
    public enum Status: String, Sendable {
        case met
        case missing
        case notCertifying = "not-certifying"
    }

    public var kind: Kind
    public var status: Status
    /// What satisfies it, e.g. a device label, a masked account, a transaction id; empty when missing.
    public var subject: String
    public var evidenceId: String?
    public var provenance: Provenance?
    /// Why it is missing or not certifying.
    public var reasons: [Reason]
}

/// An evidence item as a report lists it.
public struct EvidenceSummary: Sendable, Equatable {
    public var id: String
    public var type: EvidenceType
    public var provenance: Provenance
    /// Whether this provenance can ever certify (`Provenance.canCertify`).
    public var certifyingProvenance: Bool
    /// Selected fields of the item's details, in a fixed order; long values shortened.
    public var fields: [Field]
    public var recordedBy: String
    public var recordedAt: String
    public var retracted: Bool
    public var retractedReason: String?
    /// The attached file, when the item is an attachment.
    public var attachment: AttachmentSummary? = nil

    /// One named value.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }
}

/// An attachment as a report shows it: what it is, and for a small PNG or JPEG screenshot its bytes,
/// so the HTML report can show it as a thumbnail without reading any file.
public struct AttachmentSummary: Sendable, Equatable {
    public var sha256: String
    /// The media type recorded with the file (what the tester said it is).
    public var mediaType: String?
    public var size: Int?
    public var filename: String?
    /// The image to show inline, set by `ReportBuilder` for a PNG or JPEG within `ThumbnailBudget`; nil otherwise.
    public var inlineImage: InlineImage? = nil
    /// Why it is not shown inline, when it is not.
    public var notInline: NotInline = .notImage

    /// Why an attachment is not shown inline.
    public enum NotInline: String, Sendable {
        case tooLarge, overBudget, notImage, retracted
    }

    /// Whether the recorded media type says PNG or JPEG (the bytes decide whether it is shown).
    public var isImage: Bool { ThumbnailBudget.imageTypes.contains((mediaType ?? "").lowercased()) }
}

/// The bytes of an image a report shows inline, with the media type its bytes really have.
public struct InlineImage: Sendable, Equatable {
    /// `image/png` or `image/jpeg`, from the file's first bytes, never from what was recorded.
    public var mediaType: String
    public var bytes: [UInt8]
}
