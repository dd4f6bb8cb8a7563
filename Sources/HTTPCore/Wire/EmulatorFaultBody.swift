/// `POST /_emulator/faults`, the fault-injection control both vendors' emulators take.
package struct EmulatorFaultBody: Codable, Sendable, Equatable {
    /// The path the fault applies to.
    package var path: String
    /// Delay before answering, in milliseconds.
    package var delayMs: Int?
    /// How many of the next requests fail.
    package var failNext: Int?
    /// The status those failures answer.
    package var status: Int?

    /// A fault from its parts.
    package init(path: String, delayMs: Int?, failNext: Int?, status: Int?) {
        self.path = path
        self.delayMs = delayMs
        self.failNext = failNext
        self.status = status
    }
}
