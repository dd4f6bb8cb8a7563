import Evidence
import Foundation
import Testing

@Suite("growcert end to end: on a hosted target the purchase checks examine the run's store-signed transaction")
struct HostedPurchaseTests {
    @Test("check run --transaction-id naming an Xcode transaction on a hosted target exits 65, says what to do, and runs nothing")
    func transactionIdNamingAnotherTransactionIsRefused() throws {
        let g = try Growcert()
        try g.seed(appId: TransactionEvidenceTests.xcodeAppId)
        let added = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", TransactionEvidenceTests.xcodeJWS, "--order-id", "o_5001"])
        try #require(added.code == 0, "\(added)")
        let before = try g.journalState()
        for transactionId in ["0", "2000000847061981"] {
            let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--order-id", "o_5001", "--transaction-id", transactionId],
                              env: ["GROWCERT_SERVER_KEY": "gg_sk_TestTestTestTestTest0123"])
            #expect(o.code == 65, "\(o)")
            #expect(o.stdout == "")
            #expect(o.stderr == "growcert: Transaction '\(transactionId)' is not a store-signed transaction recorded on run 'r1' (none is recorded). On a hosted Sandbox the purchase checks examine the run's recorded store-signed transaction: record the purchase's signed transaction on the run, then run the checks without naming a transaction. Nothing was run or recorded. Record the purchase's JWS with 'growcert evidence add transaction --run r1 --jws-file FILE --order-id ORDER', then leave out --transaction-id.\n")
        }
        #expect(try g.journalState() == before)
    }

    @Test("With a store-signed transaction on the run, --transaction-id naming another one is refused and names the recorded one")
    func transactionIdOtherThanTheRecordedStoreSignedOneIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        // As `evidence add transaction --jws-file` records a verified App Store Sandbox JWS (the verifier is tested in StoreProofTests).
        let store = try EvidenceStore.open(at: g.db, actor: "qa@example.com")
        _ = try store.addEvidence(NewEvidence(runId: "r1", type: .transaction, provenance: .storeSignedSandbox, details: [
            "store": "apple", "source": "jws", "transactionId": "2000000123456789", "orderId": "o_5001", "productId": "gold_monthly",
            "bundleId": "com.example.app", "environment": "Sandbox",
        ]))
        _ = try g.run(["evidence", "add", "transaction", "--run", "r1", "--store", "apple", "--transaction-id", "2000000999999999", "--order-id", "o_6001"])
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--order-id", "o_6001", "--transaction-id", "2000000999999999"],
                          env: ["GROWCERT_SERVER_KEY": "gg_sk_TestTestTestTestTest0123"])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: Transaction '2000000999999999' is not a store-signed transaction recorded on run 'r1' (recorded: 2000000123456789). "), "\(o)")
        #expect(try g.journalState() == before)
    }
}
