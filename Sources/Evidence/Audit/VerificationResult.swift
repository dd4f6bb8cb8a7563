import Foundation

/// One thing `verify` found wrong.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The journal entry concerned, when there is one.
    public var seq: Int64?
    public var message: String
    public var description: String { seq.map { "entry \($0): \(message)" } ?? message }

    /// A problem found by a check outside this module (store proof, signers, anchors).
    public init(seq: Int64?, message: String) {
        self.seq = seq
        self.message = message
    }
}

/// What `verify` found.
public struct VerificationResult: Sendable {
    public var entries: Int
    public var headHash: String?
    public var integrityCheck: String
    public var problems: [VerificationProblem]
    /// Counts of what was cross-checked, by table.
    public var rowsChecked: [String: Int]
    /// What a reader must notice that is not tampering (a recording clock that went backwards); never fails `verify`.
    public var warnings: [VerificationProblem] = []
    public var ok: Bool { problems.isEmpty }
}
