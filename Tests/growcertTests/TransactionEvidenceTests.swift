import Foundation
import Testing

@Suite("growcert end to end: recording store transactions")
struct TransactionEvidenceTests {
    static let xcodeAppId = "com.example.naturelab.backyardbirds.example"
    static var xcodeJWS: String { Growcert.fixture("xcode-signed-transaction.jws") }

    @Test("An Xcode StoreKit Testing JWS is verified and recorded as xcode-local, with what it proves")
    func xcodeTransactionIsRecordedAsXcodeLocal() throws {
        let g = try Growcert()
        try g.seed(appId: Self.xcodeAppId)
        try #require(FileManager.default.fileExists(atPath: Self.xcodeJWS), "no JWS at \(Self.xcodeJWS)")
        let item = try #require(try g.json(["evidence", "add", "transaction", "--run", "r1", "--jws-file", Self.xcodeJWS, "--order-id", "o_5001"]) as? [String: Any])
        #expect(item["id"] as? String == "e1")
        #expect(item["type"] as? String == "transaction")
        #expect(item["provenance"] as? String == "xcode-local")
        let proof = try #require(item["proof"] as? [String: Any])
        #expect(proof["provenance"] as? String == "xcode-local")
        #expect(proof["canCertify"] as? Bool == false)
        #expect(proof["environment"] as? String == "Xcode")
        #expect(proof["transactionId"] as? String == "0")
        #expect(proof["productId"] as? String == "pass.premium")
        #expect(proof["bundleId"] as? String == Self.xcodeAppId)
        #expect(proof["chainSubjects"] as? [String] == ["CN=StoreKit Testing in Xcode, O=StoreKit Testing in Xcode"])
        let details = try #require(item["details"] as? [String: Any])
        #expect(details["orderId"] as? String == "o_5001")
        let jws = String(decoding: try #require(FileManager.default.contents(atPath: Self.xcodeJWS)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(details["signedPayload"] as? String == jws, "the JWS is not stored verbatim")
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test("The same JWS read from stdin (--jws-file -) is recorded the same way, with its warning on stderr")
    func xcodeTransactionFromStdin() throws {
        let g = try Growcert()
        try g.seed(appId: Self.xcodeAppId)
        let jws = String(decoding: try #require(FileManager.default.contents(atPath: Self.xcodeJWS)), as: UTF8.self)
        let o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", "-"], stdin: jws)
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e1\n")
        #expect(o.stderr.contains("recorded e1: provenance xcode-local (never certifies"), "\(o)")
        #expect(o.stderr.contains("warning: signed by StoreKit Testing in Xcode"), "\(o)")
        let item = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        #expect(item["provenance"] as? String == "xcode-local")
        #expect((item["details"] as? [String: Any])?["transactionId"] as? String == "0")
    }

    @Test("A JWS for another app exits 65, names the bundle-id rule, and writes nothing")
    func jwsForAnotherAppIsRefused() throws {
        let g = try Growcert()
        try g.seed(appId: "com.example.app")
        let before = try g.journalState()
        let o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", Self.xcodeJWS])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr.contains("bundleId '\(Self.xcodeAppId)' differs from the expected app id 'com.example.app'"), "\(o)")
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.isEmpty == true)
    }

    @Test("A Google Play test purchase that is not acknowledged is recorded as manual, with the refund warning on stderr")
    func googleTestPurchaseIsManualAndWarned() throws {
        let g = try Growcert()
        try g.seed()
        let purchase = """
            {"kind": "androidpublisher#productPurchase", "purchaseTimeMillis": "1764460800000", "purchaseState": 0,
             "consumptionState": 0, "developerPayload": "", "orderId": "GPA.3312-5555-0001-77777", "purchaseType": 0,
             "acknowledgementState": 0, "purchaseToken": "opaque-purchase-token-4e1f", "productId": "gold_monthly",
             "quantity": 1, "regionCode": "US"}
            """
        try purchase.write(toFile: g.path("purchase.json"), atomically: true, encoding: .utf8)
        let o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--google-purchase-file", g.path("purchase.json"),
                           "--product-id", "gold_monthly", "--order-id", "o_5001"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e1\n")
        #expect(o.stderr.contains("recorded e1: provenance manual (never certifies"), "\(o)")
        #expect(o.stderr.contains("warning: Google refunds an unacknowledged purchase after three days; the vendor's backend must acknowledge it"), "\(o)")
        let item = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        #expect(item["provenance"] as? String == "manual")
        let details = try #require(item["details"] as? [String: Any])
        #expect(details["store"] as? String == "google")
        #expect(details["transactionId"] as? String == "GPA.3312-5555-0001-77777")
        #expect(details["purchaseType"] as? String == "test")
        #expect(details["acknowledgementState"] as? String == "pending")
        #expect(details["orderId"] as? String == "o_5001")
        #expect(details["provenance"] as? String == "manual")
        #expect(details["canCertify"] as? Bool == false)
        #expect(details["note"] as? String == "provenance manual: the Play Developer API JSON carries no store signature; it certifies only when the server receipt check confirms it live")
        #expect(g.databaseBytes().range(of: Data("opaque-purchase-token-4e1f".utf8)) == nil, "the purchase token is stored in clear")

        let wrongProduct = try g.run(["evidence", "add", "transaction", "--run", "r1", "--google-purchase-file", g.path("purchase.json"), "--product-id", "silver"])
        #expect(wrongProduct.code == 65, "\(wrongProduct)")
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.count == 1)
    }
}
