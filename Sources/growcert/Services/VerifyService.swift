import Evidence

/// The one full check of an evidence database: what `growcert verify` runs, and what
/// `report render`, `report verify`, `signoff` and `demo` run before they trust the evidence.
///
/// `EvidenceStore.verify` checks what the store alone can know (chain, tables, blobs,
/// reports, sign-off signatures); checks that need other modules (store proof, signers,
/// anchors) are added here, so that every caller gets all of them.
struct VerifyService {
    let store: EvidenceStore

    /// Runs every check; `progress` is called with the number of journal entries read so far.
    func run(progress: ((Int) -> Void)? = nil) throws -> VerificationResult {
        try store.verify(progress: progress)
    }
}
