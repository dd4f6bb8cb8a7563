import ArgumentsKit
import Evidence

/// `growcert __complete KIND`: the ids the completion scripts offer, one per line, from the database of this
/// folder's workspace (or `--db`). Hidden: not in `--help`, the man page or the command list of the scripts.
enum CompleteCommand {
    /// The kinds of recorded ids the scripts complete.
    enum Kind: String, CaseIterable {
        case campaigns, runs, scenarios, devices, accounts
    }

    static let command = Command(
        path: ["__complete"], summary: "list recorded ids for shell completion (hidden)", positionals: ["KIND"]) { inv in
        guard let kind = Kind(rawValue: try inv.positional(0, "kind")) else {
            throw CLIError.usage("Unknown kind. Kinds: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).", command: "__complete")
        }
        let store = try inv.openStoreForReading()
        let campaign = try? store.campaign(try inv.campaignId(store, given: nil))
        let words: [String]
        switch kind {
        case .campaigns: words = try store.campaigns().map(\.id)
        case .runs: words = try campaign.map { try store.runs(campaignId: $0.id).map(\.id) } ?? []
        case .scenarios: words = try campaign.map { try store.profileNamed($0.profile).scenarios.map(\.id) } ?? []
        case .devices: words = try campaign.map { try store.devices(campaignId: $0.id).map(\.label) } ?? []
        case .accounts: words = try campaign.map { try store.accounts(campaignId: $0.id).map(\.label) } ?? []
        }
        inv.console.out(words.map { $0 + "\n" }.joined())
        return ExitCode.success
    }
}
