/// `POST /_emulator/faults`, the fault-injection control both vendors' emulators take.
public struct EmulatorFaultBody: Codable, Sendable, Equatable {
    /// The path the fault applies to.
    public var path: String
    /// Delay before answering, in milliseconds.
    public var delayMs: Int?
    /// How many of the next requests fail.
    public var failNext: Int?
    /// The status those failures answer.
    public var status: Int?

    /// A fault from its parts.
    public init(path: String, delayMs: Int?, failNext: Int?, status: Int?) {
        self.path = path
        self.delayMs = delayMs
        self.failNext = failNext
        self.status = status
    }
}
