import CherryClient
import Foundation
import StoreProof
import Synchronization

/// The emulated CherrySub IAP staging backend, without HTTP: one request in, one response out.
///
/// An in-memory state machine under a `Mutex` that implements the whole CherrySub staging v1 contract
/// (publishable key, broker and customer credentials, idempotency, the four transaction checks, ownership
/// and restore transfers, subscribers, the ledger) plus the `/_emulator` controls. `CherrySubEmulator`
/// serves it over HTTP.
///
/// Every response, errors included, carries `CherrySub-Environment-Kind: emulator`. An injected delay is
/// returned in `HTTPServerResponse.delayMilliseconds` for the server to honour outside the lock.
package final class CherrySubBackend: EmulatedBackend {
    /// The publishable key (`iap_pk_…`) of the one app this backend serves.
    package let publishableKey: String
    /// The broker's secret key (`iap_sk_…`). A secret: never write it to disk or logs.
    package let secretKey: String
    /// The emulator's store-signing certificate (DER), the `x5c` leaf of every emulator purchase.
    package let signingCertificateDER: Data

    /// The kind every response declares (`emulator`, unless a test configured otherwise).
    private let declaredKind: String
    // MHD calls `handle` from many threads at once.
    private let engine: Mutex<CherrySubEngine>

    /// Creates an empty backend and its signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` for an unusable configuration,
    ///   `SandboxError.crypto` when OpenSSL cannot make the key or certificate.
    package init(configuration: CherrySubConfiguration) throws {
        try configuration.validate()
        publishableKey = configuration.publishableKey
        secretKey = configuration.secretKey
        declaredKind = configuration.declaredKind
        let signer = try StoreSigner(now: configuration.clock.now())
        signingCertificateDER = signer.certificateDER
        engine = Mutex(CherrySubEngine(
            publishableKey: configuration.publishableKey, secretKey: configuration.secretKey, bundleId: configuration.bundleId,
            baseClock: configuration.clock, storeVerifier: JWSVerifier(trustedRootDER: configuration.trustedStoreRootDER),
            signer: signer))
    }

    /// The emulator's time: its injected clock moved ahead by `/_emulator/clock`.
    package var now: Date { engine.withLock { $0.now } }

    /// Handles one request and returns the response, with the emulator's common headers.
    package func handle(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (reply, delay) = engine.withLock { $0.process(request) }
        return finish(reply, delay: delay)
    }

    /// The answer to a request body over the size limit.
    package func oversizeResponse(limit: Int) -> HTTPServerResponse {
        finish(CherrySubReply.failure(CherrySubFailure(.invalidRequest, "The request body is larger than \(limit) bytes; send a smaller body.")),
               delay: 0)
    }

    private func finish(_ reply: Reply, delay: Int) -> HTTPServerResponse {
        var headers: [(name: String, value: String)] = [(CherryWire.Header.environmentKind, declaredKind)]
        if !reply.body.isEmpty {
            headers.append((CherryWire.Header.contentType, CherryWire.jsonMediaType))
        }
        headers.append(contentsOf: reply.headers)
        return HTTPServerResponse(status: reply.status, headers: headers, body: reply.body, delayMilliseconds: delay)
    }
}
