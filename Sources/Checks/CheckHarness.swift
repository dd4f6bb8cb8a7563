import GrowClient
import HTTPCore

/// What a check leaves for its result: the exchanges it recorded, the secrets it handled (scrubbed again
/// from everything it returns) and the vendor acceptance it observed, if any.
package protocol CheckHarness: Sendable {
    /// Every exchange of the check, in send order.
    var transcript: [TranscriptEntry] { get }
    /// Every secret the check handled.
    var secrets: [String] { get }
    /// The acceptance (GrooveGrow: the delivered order) the check observed, recorded as a `receipt` item when it passes.
    var receipt: ObservedReceipt? { get }
}
