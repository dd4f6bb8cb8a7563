import Foundation
import Testing
import TestSupport
@testable import Sandbox

/// App Store Server Notifications V2 on a hosted run (network namespace, test CA, App Store test PKI): Apple's signed
/// REFUND notification proves the refund of the run's own purchase; a TEST notification is recorded; a notification
/// with one changed byte is refused and writes nothing.
@Suite("growcert end to end: App Store Server Notifications V2 prove a refund by Apple's signature")
struct HostedStoreNotificationTests {
    @Test("A REFUND notification signed by the (test) App Store, naming the run's purchase, shows the refund proven by the store",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anAppleSignedRefundIsShownInTheRefundScenario() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let outcome = try await HostedEndToEndTests.certificationFlow(peerAddress: namespace.insideAddress, cables: [namespace.hostSide], afterRefund: { qa, run, purchase, appStore in
            let revoked = try appStore.signTransaction(transactionId: purchase.transactionId, bundleId: HostedSandbox.appId, productId: HostedSandbox.productId,
                                                       purchaseDate: Date().addingTimeInterval(-60), revocationDate: Date())
            let refund = try appStore.signNotification(type: "REFUND", bundleId: HostedSandbox.appId, signedTransactionInfo: revoked)
            let file = qa.dir.appendingPathComponent("refund.jws")
            // One changed byte in the payload: refused, nothing written.
            var bytes = Array(refund.utf8)
            let dot = try #require(bytes.firstIndex(of: UInt8(ascii: ".")))
            bytes[dot + 10] = bytes[dot + 10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            try Data(bytes).write(to: file)
            let before = try await qa.json(["journal", "list", "--limit", "100000"]) as? [Any]
            let tampered = try await qa.run(["evidence", "add", "store-notification", "--run", run, "--signed-payload", file.path])
            #expect(tampered.code == 65, "\(tampered)")
            #expect(tampered.stdout == "")
            #expect(tampered.stderr.hasPrefix("growcert: "), "\(tampered)")
            let after = try await qa.json(["journal", "list", "--limit", "100000"]) as? [Any]
            #expect(before?.count == after?.count)
            // The genuine notification, and a TEST notification.
            try Data(refund.utf8).write(to: file)
            let recorded = try await qa.ok(["evidence", "add", "store-notification", "--run", run, "--signed-payload", file.path, "--json"])
            let item = try #require(try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])
            #expect(item["provenance"] as? String == "store-signed-sandbox", "\(recorded)")
            let proof = try #require(item["proof"] as? [String: Any])
            #expect(proof["notificationType"] as? String == "REFUND")
            #expect(proof["transactionId"] as? String == purchase.transactionId)
            #expect(proof["revocationDate"] != nil)
            let test = try appStore.signNotification(type: "TEST", bundleId: HostedSandbox.appId, signedTransactionInfo: nil)
            try Data(test.utf8).write(to: file)
            try await qa.ok(["evidence", "add", "store-notification", "--run", run, "--signed-payload", file.path])
            let verify = try await qa.run(["verify"])
            #expect(verify.code == 0, "\(verify)")
        }) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        let purchase = try #require(outcome.scenarios.first { $0.id == "purchase-restore-refund" })
        #expect(purchase.verdict == "CERTIFIED", "\(purchase.summary)")
        #expect(outcome.report.contains("store-refund-proven"), "\(outcome.report.prefix(3000))")
        #expect(outcome.report.contains("REFUND notification"), "\(outcome.report.prefix(3000))")
    }
}
