/// What the host needs of a backend's configuration to serve it.
package protocol EmulatorHostSettings: Sendable {
    /// The port on 127.0.0.1; 0 picks any free port.
    var port: UInt16 { get }
    /// The largest request body accepted.
    var maxBodyBytes: Int { get }
    /// How injected delays wait.
    var sleeper: any EmulatorSleeper { get }
    /// The settings of an emulator made without any (`GrooveGrowEmulator()`).
    static var standard: Self { get }
}
