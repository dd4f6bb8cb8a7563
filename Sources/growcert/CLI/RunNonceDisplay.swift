/// How `run start` shows a run's nonce to the tester: the value to give the test app, which puts it into the store
/// purchase (StoreKit's `appAccountToken`), so the signed purchase names the run it was made in.
enum RunNonceDisplay {
    /// The lines `run start` prints on stderr for one run.
    static func text(runId: String, nonce: String) -> String {
        "Run \(runId) nonce: \(nonce)\n"
            + "  Give it to the test app as the purchase's appAccountToken: the store-signed purchase then names this run.\n"
    }
}
