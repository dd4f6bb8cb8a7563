import Foundation

/// Why the emulator could not be set up or started.
package enum SandboxError: Error, CustomStringConvertible, Equatable {
    /// A configuration value is unusable; the text says which and what to use instead.
    case invalidConfiguration(String)
    /// The listening socket could not be created or bound.
    case bindFailed(port: UInt16, reason: String)
    /// libmicrohttpd refused to start the daemon.
    case serverStartFailed(String)
    /// The emulator is already running.
    case alreadyStarted
    /// OpenSSL failed while making the signing key, certificate or a signature.
    case crypto(String)

    /// What went wrong and what to do about it.
    package var description: String {
        switch self {
        case .invalidConfiguration(let text):
            return "Invalid emulator configuration: \(text)"
        case .bindFailed(let port, let reason):
            return "Could not listen on 127.0.0.1:\(port) (\(reason)). Choose another port, or 0 for any free port."
        case .serverStartFailed(let reason):
            return "Could not start the emulator's HTTP server: \(reason)."
        case .alreadyStarted:
            return "The emulator is already running; call stop() before starting it again."
        case .crypto(let reason):
            return "OpenSSL failed in the emulator's store signer: \(reason)."
        }
    }
}
