import Foundation

/// Remembered answers per idempotency scope and key; the vendor decides the scope (credential, path) and which
/// answers are kept.
///
/// A request matches a remembered one when its fingerprint (the vendor's choice of method, path and
/// canonical body, see `JSONBody.canonical`) is equal.
struct IdempotencyStore<Value: Sendable>: Sendable {
    /// What a lookup found.
    enum Lookup {
        /// Never seen: run the request.
        case fresh
        /// Seen with the same fingerprint: answer the remembered value.
        case replay(Value)
        /// Seen with another fingerprint.
        case conflict
    }

    private struct Entry: Sendable {
        var fingerprint: Data
        var value: Value
    }

    private var entries: [String: Entry] = [:]

    /// What is remembered for `key` in `scope`, compared with `fingerprint`.
    func lookup(scope: String, key: String, fingerprint: Data) -> Lookup {
        guard let entry = entries[scope + "\n" + key] else { return .fresh }
        return entry.fingerprint == fingerprint ? .replay(entry.value) : .conflict
    }

    /// Remembers `value` for `key` in `scope`.
    mutating func keep(_ value: Value, scope: String, key: String, fingerprint: Data) {
        entries[scope + "\n" + key] = Entry(fingerprint: fingerprint, value: value)
    }
}
