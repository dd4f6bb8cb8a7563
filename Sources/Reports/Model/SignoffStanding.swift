import EvidenceModel

/// How a sign-off stands against the evidence of the report being built.
package struct SignoffStanding: Sendable, Equatable {
    /// Campaign evidence recorded after the head the sign-off signed, up to the report's head (0: current).
    package var newerEntries: Int
    /// The verdict of the report the sign-off signed.
    package var signedVerdict: String
    /// Whether the sign-off's key is a registered trusted signer's.
    package var trustedSigner: Bool

    /// A standing from its parts.
    package init(newerEntries: Int, signedVerdict: String, trustedSigner: Bool) {
        self.newerEntries = newerEntries
        self.signedVerdict = signedVerdict
        self.trustedSigner = trustedSigner
    }

    /// A sign-off's standing: `newerEntries` counted after `judgedSeq(of:signedReport:)`, its verdict from its signed
    /// statement (or else the report it signed), trusted when its key is one of `trustedKeys`.
    package init(signoff: SignoffRecord, signedReport: ReportRecord?, newerEntries: Int, trustedKeys: Set<String>) {
        self.init(newerEntries: newerEntries, signedVerdict: signoff.signed?.reportVerdict ?? signedReport?.verdict ?? "",
                  trustedSigner: trustedKeys.contains(signoff.keyId))
    }

    /// The journal entry a sign-off's evidence was judged at: the one its signed statement names, else that of the
    /// report it signed. Evidence recorded after it is newer than the sign-off.
    package static func judgedSeq(of signoff: SignoffRecord, signedReport: ReportRecord?) -> Int64 {
        signoff.signed?.journalSeq ?? signedReport?.evidenceSeq ?? 0
    }
}
