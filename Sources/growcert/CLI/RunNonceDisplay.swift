import QRCode

/// How `run start` shows a run's nonce to the tester: the value to give the test app, which puts it into the store
/// purchase (StoreKit's `appAccountToken`), so the signed purchase names the run it was made in.
enum RunNonceDisplay {
    /// The lines `run start` prints on stderr for one run; on a terminal (`qr`) with a QR code of the nonce to scan
    /// with the phone.
    static func text(runId: String, nonce: String, qr: Bool = false) -> String {
        var text = "Run \(runId) nonce: \(nonce)\n"
            + "  Give it to the test app as the purchase's appAccountToken: the store-signed purchase then names this run.\n"
        if qr, let code = try? QRCode(encoding: Array(nonce.utf8)) { text += code.terminalText() }
        return text
    }
}
