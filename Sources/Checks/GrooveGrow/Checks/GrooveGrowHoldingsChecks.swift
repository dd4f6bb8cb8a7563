import GrowClient

/// First connection: what `readHoldings` shows is the console's truth, for one customer only.
enum GrooveGrowHoldingsChecks {
    static let all: [CheckDefinition<GrooveGrowHarness>] = [
        CheckDefinition(id: "holdings.match-console", body: matchConsole),
        CheckDefinition(id: "holdings.single-customer", body: singleCustomer),
    ]

    static func matchConsole(_ run: GrooveGrowHarness) async throws {
        let customerId = run.customerId
        let server = try run.serverClient(for: "for the console customer detail (GET /v1/server/customers/{id})")
        try await run.seedHoldingsIfEmulator(customerId)
        let (client, _) = try await run.identifiedSessionClient(customerId)
        let holdings = try await step("read holdings") { try await client.readHoldings() }
        let console = try await step("read the console customer detail of '\(customerId)'") { try await server.consoleCustomer(id: customerId) }
        let differences = Self.differences(holdings: holdings, console: console)
        try require(differences.isEmpty,
                    "readHoldings differs from the console customer detail: " + differences.prefix(5).joined(separator: "; ")
                        + (differences.count > 5 ? "; and \(differences.count - 5) more." : "."))
    }

    static func singleCustomer(_ run: GrooveGrowHarness) async throws {
        let customerId = run.customerId
        try await run.seedHoldingsIfEmulator(customerId)
        let (client, _) = try await run.identifiedSessionClient(customerId)
        let holdings = try await step("read holdings") { try await client.readHoldings() }
        var strangers: [String] = []
        if holdings.customerId != customerId { strangers.append("the holdings document names '\(holdings.customerId)'") }
        for m in holdings.memberships where m.customerId != customerId {
            strangers.append("membership '\(m.membershipId)' names '\(m.customerId)'")
        }
        for b in holdings.balances where b.customerId != customerId {
            strangers.append("the '\(b.currency)' balance names '\(b.customerId)'")
        }
        try require(strangers.isEmpty, "Holdings of '\(customerId)' contain another customer's data: "
                        + strangers.prefix(5).joined(separator: "; ") + ".")
    }

    /// Every way the client's holdings and the console's detail disagree; amounts compared as exact decimals.
    static func differences(holdings: GrowWireHoldings, console: GrowWireHoldings) -> [String] {
        var out: [String] = []
        if holdings.customerId != console.customerId {
            out.append("readHoldings names customer '\(holdings.customerId)', the console '\(console.customerId)'")
        }
        let mine = Dictionary(holdings.memberships.map { ($0.membershipId, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Dictionary(console.memberships.map { ($0.membershipId, $0) }, uniquingKeysWith: { first, _ in first })
        if mine.count != holdings.memberships.count { out.append("readHoldings lists a membership id twice") }
        for c in console.memberships {
            guard let m = mine[c.membershipId] else {
                out.append("membership '\(c.membershipId)' is in the console but not in readHoldings")
                continue
            }
            for (field, a, b) in [("customerId", m.customerId, c.customerId), ("tier", m.tier, c.tier), ("status", m.status, c.status),
                                  ("expiresAt", m.expiresAt ?? "null", c.expiresAt ?? "null")] where a != b {
                out.append("membership '\(c.membershipId)' \(field) is '\(a)' in readHoldings, '\(b)' in the console")
            }
        }
        for m in holdings.memberships where theirs[m.membershipId] == nil {
            out.append("membership '\(m.membershipId)' is in readHoldings but not in the console")
        }
        func key(_ b: GrowWireBalance) -> String { b.customerId + "\u{0}" + b.currency }
        let myBalances = Dictionary(holdings.balances.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let theirBalances = Dictionary(console.balances.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        for c in console.balances {
            guard let b = myBalances[key(c)] else {
                out.append("the '\(c.currency)' balance is in the console but not in readHoldings")
                continue
            }
            if b.amount != c.amount {
                out.append("the '\(c.currency)' balance is \(b.amount.text) in readHoldings, \(c.amount.text) in the console")
            }
        }
        for b in holdings.balances where theirBalances[key(b)] == nil {
            out.append("the '\(b.currency)' balance is in readHoldings but not in the console")
        }
        return out
    }
}
