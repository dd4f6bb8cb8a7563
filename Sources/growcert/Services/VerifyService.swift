import Evidence

/// The one full check of an evidence database: what `growcert verify` runs, and what
/// `report render`, `report verify`, `signoff` and `demo` run before they trust the evidence.
///
/// `EvidenceStore.verify` checks what the store alone can know (schema, chain, tables, blobs,
/// reports, sign-off signatures); checks that need other modules (store proof, signers,
/// anchors) are added here, so that every caller gets all of them.
struct VerifyService {
    let store: EvidenceStore

    /// Runs every check; `progress` is called with the number of journal entries read so far.
    func run(progress: ((Int) -> Void)? = nil) throws -> VerificationResult {
        try store.verify(progress: progress)
    }

    /// Runs every check and refuses to go on (`NotIntact`, exit 2) when any fails: what judging
    /// evidence (`report render`, `signoff`) does first, so that no verdict or approval rests on
    /// a database edited behind the tool's back.
    func requireIntact(before action: String) throws {
        let result = try run()
        guard let first = result.problems.first else { return }
        throw NotIntact(action: action, first: first, count: result.problems.count)
    }

    /// The database did not verify, so `action` was not done.
    struct NotIntact: ServiceError {
        let action: String
        let first: VerificationProblem
        let count: Int

        var exitCode: Int32 { ExitCode.tampered }
        var description: String {
            "The evidence database does not verify, so nothing was \(action): \(first)"
                + (count > 1 ? " (and \(count - 1) more problem\(count > 2 ? "s" : ""))" : "")
                + ". Run 'growcert verify' to see every problem."
        }
    }
}
