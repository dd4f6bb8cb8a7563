/// What a target declares itself to be, in its dialect's kind header (`SandboxDialect.kindHeader`).
package enum SandboxKind: String, Sendable, Codable {
    /// The vendor's hosted Sandbox or staging backend.
    case hosted
    /// A local emulator.
    case emulator
    /// The header was absent or said something else.
    case unknown

    /// The kind a header value names; `unknown` for nil or anything else.
    package init(header: String?) {
        self = header.flatMap { SandboxKind(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased()) } ?? .unknown
    }
}
