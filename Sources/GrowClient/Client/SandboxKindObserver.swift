import Synchronization

/// Remembers which `GrooveGrow-Sandbox-Kind` values a client's responses declared.
final class SandboxKindObserver: Sendable {
    // Guards the set of kinds seen so far.
    private let seen = Mutex<Set<SandboxKind>>([])

    func observe(_ kind: SandboxKind) { seen.withLock { _ = $0.insert(kind) } }

    /// `hosted` only if every response said hosted; `emulator` if any said emulator; else unknown.
    var kind: SandboxKind {
        seen.withLock { kinds in
            if kinds == [.hosted] { return .hosted }
            if kinds.contains(.emulator) { return .emulator }
            return .unknown
        }
    }
}
