import Synchronization
import Foundation

/// Records every exchange through another transport as a redacted `TranscriptEntry`.
///
/// The vendor's dialect says which headers fill the entry's scope and kind
/// fields and what is redacted. Failures are recorded too (`error: timeout`) and then rethrown unchanged.
/// Entries are kept in memory in send order and can also be streamed to
/// `onEntry` as they complete.
package final class RecordingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let dialect: SandboxDialect
    private let onEntry: (@Sendable (TranscriptEntry) -> Void)?
    private let now: @Sendable () -> ContinuousClock.Instant
    // Guards the recorded entries and the sequence counter.
    private let state = Mutex<(entries: [TranscriptEntry], next: Int)>(([], 1))

    /// Wraps `base`, recording in the vendor's `dialect`; `onEntry` is called (on the sending task) with each entry as it completes.
    ///
    /// `now` is the clock for durations; tests pass a fixed one.
    package init(wrapping base: any HTTPTransport, dialect: SandboxDialect,
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
                onEntry: (@Sendable (TranscriptEntry) -> Void)? = nil) {
        self.base = base
        self.dialect = dialect
        self.now = now
        self.onEntry = onEntry
    }

    /// The entries recorded so far, in the order their requests were sent.
    package var entries: [TranscriptEntry] {
        state.withLock { $0.entries }.sorted { $0.sequence < $1.sequence }
    }

    /// Returns the entries recorded so far and forgets them (sequence numbers keep counting).
    package func drain() -> [TranscriptEntry] {
        state.withLock { s in
            defer { s.entries.removeAll() }
            return s.entries.sorted { $0.sequence < $1.sequence }
        }
    }

    /// Sends through the wrapped transport and records the exchange or the failure.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sequence = state.withLock { s in
            defer { s.next += 1 }
            return s.next
        }
        let redactor = dialect.redactor
        let secrets = redactor.secrets(in: request.headers)
        var entry = TranscriptEntry(
            sequence: sequence,
            method: request.method.rawValue,
            path: redactor.redact(request.pathAndQuery, secrets: secrets),
            project: dialect.projectHeader.flatMap { request.headers[$0] },
            environment: dialect.environmentHeader.flatMap { request.headers[$0] },
            requestHeaders: request.headers.map {
                HTTPHeader(name: $0.name, value: redactor.redactHeader(name: $0.name, value: $0.value, secrets: secrets))
            },
            requestBody: redactor.redactBody(request.body, secrets: secrets),
            status: nil, sandboxKind: nil, retryAfter: nil, responseBody: nil, error: nil,
            durationMilliseconds: 0)
        let start = now()
        do {
            let response = try await base.send(request)
            entry.durationMilliseconds = Self.milliseconds(now() - start)
            entry.status = response.status
            entry.sandboxKind = response.headers[dialect.kindHeader]
            entry.retryAfter = response.headers[dialect.retryAfterHeader]
            entry.responseBody = redactor.redactBody(response.body, secrets: secrets)
            entry.connection = response.connection
            entry.date = response.headers["Date"]
            record(entry)
            return response
        } catch {
            entry.durationMilliseconds = Self.milliseconds(now() - start)
            entry.error = (error as? TransportError)?.code ?? (error is CancellationError ? "cancelled" : "failed")
            record(entry)
            throw error
        }
    }

    private func record(_ entry: TranscriptEntry) {
        state.withLock { $0.entries.append(entry) }
        onEntry?(entry)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
