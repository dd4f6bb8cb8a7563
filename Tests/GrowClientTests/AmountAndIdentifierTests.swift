import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct AmountAndIdentifierTests {
    @Test(arguments: ["0.1", "12.50", "12345678901234567.89", "-10.5"])
    func amountsRoundTripExactlyAsTheServerSpelledThem(_ text: String) async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session
                ? Fixture.json(200, Fixture.session("c_A"))
                : Fixture.json(200, Fixture.holdings("c_A", amount: "\"\(text)\""))
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        let holdings = try await client.readHoldings()
        let amount = try #require(holdings.balances.first?.amount)
        #expect(amount.text == text)
        let encoded = String(decoding: try JSONEncoder().encode(amount), as: UTF8.self)
        #expect(encoded == "\"\(text)\"")
    }

    @Test func equalAmountsCompareEqualWhateverTheirTrailingZeros() throws {
        #expect(ExactDecimal("12.50") == ExactDecimal("12.5"))
        #expect(ExactDecimal("12345678901234567.89")! < ExactDecimal("12345678901234567.9")!)
        #expect(ExactDecimal("10.5")?.negated.text == "-10.5")
        #expect(ExactDecimal("-0")?.negated.isNegative == false)
    }

    @Test func aLargeAllDigitIdentifierStaysExact() async throws {
        let body = #"{"entries": [{"eventId": "9007199254740993", "customerId": "c_A", "kind": "grant", "orderId": "o_1", "receiptId": "r_1", "currency": "points", "amount": "10.5", "occurredAt": "2026-11-30T08:01:00Z"}], "nextAfter": null}"#
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(200, body)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        let entries = try await client.ledger()
        #expect(entries.map(\.eventId) == ["9007199254740993"])
    }

    @Test(arguments: [
        Fixture.holdings("c_A", amount: "12.5"),
        Fixture.holdings("c_A", amount: "\"1e3\""),
        #"{"customerId": 9007199254740993, "asOf": "x", "memberships": [], "balances": []}"#,
        #"{"customerId": "c_A", "asOf": "x", "memberships": []}"#,
        "not json",
    ])
    func aNumberOrMissingFieldWhereTheContractSaysStringIsAnInvalidResponse(_ body: String) async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(200, body)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        await #expect {
            try await client.readHoldings()
        } throws: { error in
            guard case GrowClientError.invalidResponse = error else { return false }
            return true
        }
        #expect(await client.snapshot == nil)
    }

    @Test func anInvalidResponseSaysWhichFieldWasWrong() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(200, Fixture.holdings("c_A", amount: "12.5"))
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        do {
            try await client.readHoldings()
            Issue.record("expected invalidResponse")
        } catch let error as GrowClientError {
            #expect(error.description.contains("balances[0].amount"))
            #expect(error.description.contains("amount must be a decimal string"))
        }
    }
}
