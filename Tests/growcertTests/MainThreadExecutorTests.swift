import Dispatch
import Foundation
import Synchronization
import Testing
@testable import growcert

/// The command runs on the thread that called `MainThreadExecutor.run` (the binary's main thread), with its child
/// tasks, and comes back there after work done elsewhere resumes it.
@Suite("The command runs on the main thread")
struct MainThreadExecutorTests {
    /// This thread, as a number that can cross tasks.
    static func here() -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }

    @Test func theBodyItsChildTasksAndItsResumptionsRunOnTheCallingThread() {
        let caller = Self.here()
        let (seen, elsewhere) = MainThreadExecutor().run { () async -> ([UInt], UInt) in
            var threads = [Self.here()]
            // Resumed from a dispatch worker, as libcurl's transfers resume the waiting request.
            let elsewhere = await withCheckedContinuation { (c: CheckedContinuation<UInt, Never>) in
                DispatchQueue.global().async { c.resume(returning: Self.here()) }
            }
            threads.append(Self.here())
            async let child = Self.here()
            threads.append(await child)
            let group = await withTaskGroup(of: UInt.self) { group in
                for _ in 0..<4 { group.addTask { Self.here() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            threads += group
            return (threads, elsewhere)
        }
        #expect(seen.count == 7 && seen.allSatisfy { $0 == caller }, "\(seen) on \(caller)")
        #expect(elsewhere != caller, "the dispatch worker is another thread")
    }

    @Test func itReturnsWhatTheBodyReturnedAfterASleep() {
        let value = MainThreadExecutor().run { () async -> Int in
            try? await Task.sleep(for: .milliseconds(1))
            return 42
        }
        #expect(value == 42)
    }
}
