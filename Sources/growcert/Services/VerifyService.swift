import Evidence
import StoreProof

/// The one full check of an evidence database: what `growcert verify` runs, and what
/// `report render`, `report verify`, `signoff` and `demo` run before they trust the evidence.
///
/// `EvidenceStore.verify` checks what the store alone can know (schema, chain, tables, blobs,
/// reports, sign-off signatures); checks that need other modules (store proof, signers,
/// anchors) are added here, so that every caller gets all of them.
struct VerifyService {
    let store: EvidenceStore
    /// Re-verifies stored App Store transactions (Apple Root CA - G3 unless a test injects its own root).
    var jwsVerifier = JWSVerifier()

    /// The provenances only a verified App Store JWS can give: an item claiming one must hold the JWS that proves it.
    static let jwsProvenances: Set<Provenance> = [.storeSignedSandbox, .storeSignedProduction, .xcodeLocal, .emulatorSigned]

    /// Runs every check; `progress` is called with the number of journal entries read so far.
    func run(progress: ((Int) -> Void)? = nil) throws -> VerificationResult {
        var result = try store.verify(progress: progress)
        result.problems += try storeProofProblems()
        return result
    }

    /// Re-verifies every stored store-signed transaction and compares what its JWS proves with what is stored.
    ///
    /// The chain has no secret: whoever holds the file can edit an item's provenance or details and
    /// recompute every hash, and the chain check alone then passes. The JWS is the one part nobody
    /// can forge, so the stored provenance and details must be exactly what `TransactionEvidence.apple`
    /// makes of it today. The verifier judges certificate validity at the transaction's own
    /// `signedDate`, never at the time of checking, so evidence recorded months ago still verifies.
    /// Only transaction items are read.
    func storeProofProblems() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        for (item, appId) in try store.evidence(type: .transaction) {
            if let message = check(item, appId: appId) {
                problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (transaction): \(message)"))
            }
        }
        return problems
    }

    /// What is wrong with one transaction item, or nil.
    private func check(_ item: EvidenceItem, appId: String) -> String? {
        let jws = item.details["signedPayload"]
        let claimsJWS = Self.jwsProvenances.contains(item.provenance) || jws != nil || item.details["source"]?.stringValue == "jws"
        guard claimsJWS else { return nil }
        guard let token = jws?.stringValue else {
            return "provenance '\(item.provenance.rawValue)' is recorded, but the item holds no App Store JWS that proves it"
        }
        let verified: VerifiedAppleTransaction
        do {
            verified = try jwsVerifier.verify(token, expectedBundleId: appId)
        } catch {
            return "its stored App Store JWS does not verify: \(error)"
        }
        let expected = TransactionEvidence.apple(verified, runId: item.runId, orderId: item.details["orderId"]?.stringValue)
        if expected.provenance != item.provenance {
            return "provenance is recorded as '\(item.provenance.rawValue)', but its JWS proves '\(expected.provenance.rawValue)'"
        }
        let stored = item.details.objectValue ?? [:]
        let proven = expected.details.objectValue ?? [:]
        let differing = Set(stored.keys).union(proven.keys).filter { stored[$0] != proven[$0] }.sorted()
        if !differing.isEmpty {
            return "the stored details differ from what its JWS proves: \(differing.joined(separator: ", "))"
        }
        return nil
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
