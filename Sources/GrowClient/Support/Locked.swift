import Foundation

/// A value guarded by a lock, for the few reference types that are shared across tasks.
///
/// `@unchecked Sendable` is sound because every read and write of `value`
/// goes through `withLock`, which holds `lock` for the whole access.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
