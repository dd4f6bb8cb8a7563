import Foundation

/// What a target is, and therefore whether evidence gathered from it can count as live.
///
/// Evidence is `live-hosted` only when the connection was HTTPS to a
/// non-loopback host *and* the server declared `GrooveGrow-Sandbox-Kind: hosted`.
/// Anything on loopback, over plain HTTP, from an emulator or without the
/// header is not. The Checks module maps this to evidence provenance.
public struct TargetClassification: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How the target is reached.
    public enum Channel: String, Sendable, Hashable, Codable {
        /// HTTPS to a host that is not loopback.
        case httpsRemote = "https"
        /// Any scheme to 127.0.0.0/8, ::1 or localhost.
        case loopback
        /// Plain HTTP to a host that is not loopback (the client refuses to send to it).
        case plainHTTP = "http"
    }

    public var channel: Channel
    public var sandboxKind: SandboxKind

    /// A classification from known parts.
    public init(channel: Channel, sandboxKind: SandboxKind) {
        self.channel = channel
        self.sandboxKind = sandboxKind
    }

    /// Classifies `url` together with a response's `GrooveGrow-Sandbox-Kind` header value (nil when absent).
    public init(url: URL, sandboxKindHeader: String?) {
        self.init(channel: Self.channel(of: url), sandboxKind: SandboxKind(header: sandboxKindHeader))
    }

    /// The channel of `url`: loopback wins over the scheme; otherwise https or plain http.
    public static func channel(of url: URL) -> Channel {
        if let host = url.host, Loopback.isLoopback(host: host) { return .loopback }
        return url.scheme?.lowercased() == "https" ? .httpsRemote : .plainHTTP
    }

    /// Whether evidence from this target may be recorded as `live-hosted`.
    public var isLiveHosted: Bool { channel == .httpsRemote && sandboxKind == .hosted }

    /// Why evidence from this target is not live-hosted; nil when it is.
    public var notLiveReason: String? {
        switch (channel, sandboxKind) {
        case (.httpsRemote, .hosted): return nil
        case (.loopback, _): return "the target is a loopback address"
        case (.plainHTTP, _): return "the target is not reached over HTTPS"
        case (_, .emulator): return "the target declares itself an emulator (GrooveGrow-Sandbox-Kind: emulator)"
        case (_, _): return "the target did not declare GrooveGrow-Sandbox-Kind: hosted"
        }
    }

    public var description: String {
        "\(channel.rawValue), sandbox kind \(sandboxKind.rawValue)" + (isLiveHosted ? " (live-hosted)" : " (not live-hosted)")
    }
}
