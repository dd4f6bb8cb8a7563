import ArgumentsKit
import Evidence
import Services

/// `growcert campaign update`: change what may change about a campaign, journaled as `campaign.update`.
enum CampaignUpdateCommand {
    /// The options that change a value, and the value each changes. The target (`.project`) has each profile's own
    /// flag: `--project` (GrooveGrow) or `--publishable-key` (CherrySub), as `campaign create` takes it.
    static let fields: [(option: String, field: CampaignField)] = [
        ("--base-url", .baseURL), ("--sdk-version", .sdkVersion), ("--sdk-name", .sdkName), ("--project", .project),
        ("--publishable-key", .project), ("--name", .name), ("--sandbox-pin", .sandboxPins),
    ]
    /// What defines the build under certification: never changed, only refused with an explanation.
    static let fixed = ["--app-id", "--app-version", "--build", "--profile"]

    static let command = Command(
        path: ["campaign", "update"], summary: "change a campaign's base URL, SDK version, target (project or publishable key), name, Sandbox pins or Play license key (journaled)", positionals: ["ID"],
        options: [
            OptionSpec(name: "--base-url", value: "URL", help: "Sandbox base URL, https://HOST[/PREFIX]"),
            OptionSpec(name: "--sdk-version", value: "V", help: "GrooveGrow SDK version"),
            OptionSpec(name: "--sdk-name", value: "NAME", help: "SDK name"),
            OptionSpec(name: "--project", value: "UUID", help: "groovegrow: GrooveGrow project (App UUID)"),
            OptionSpec(name: "--publishable-key", value: "iap_pk_…", help: "cherrysub: the app's CherrySub publishable key"),
            OptionSpec(name: "--name", value: "TEXT", help: "the campaign's name"),
            OptionSpec(name: "--sandbox-pin", value: "sha256//BASE64", help: "the campaign's own Sandbox public-key pins: replaces its list (repeatable)",
                       repeatable: true),
            OptionSpec(name: "--play-license-key", value: "FILE", help: "the app's Google Play license key (base64 as Play Console shows it, or PEM)"),
            OptionSpec(name: "--require-run-binding", value: nil,
                       help: "from now on only run-bound proof (the run's nonce as the purchase's appAccountToken) certifies a purchase"),
            OptionSpec(name: "--note", value: "TEXT", help: "why it changed (shown in the report's history)"),
            OptionSpec(name: "--app-id", value: "ID", help: "refused: the app id defines what is certified"),
            OptionSpec(name: "--app-version", value: "V", help: "refused: the app version defines what is certified"),
            OptionSpec(name: "--build", value: "B", help: "refused: the build defines what is certified"),
            OptionSpec(name: "--profile", value: "NAME", help: "refused: the runs were recorded against its scenarios"),
        ],
        discussion: """
        Records one 'campaign.update' journal entry with each changed value (before and after), who and when;
        the campaign's own record is never rewritten. Every read (campaign show, check run, reports) uses the
        latest values, and the report's campaign section lists each update. The app id, app version and build
        cannot change: they define the build under certification. For another build, create a new campaign.
        """,
        run: run)

    static func run(_ inv: Invocation) async throws -> Int32 {
        let given = fixed.filter { inv.optional($0) != nil }
        if !given.isEmpty {
            throw CLIError.usage("\(given.joined(separator: ", ")) cannot be changed: the app id, app version and build define the build under certification, and the profile the scenarios its runs were recorded against. For another build, create a new campaign (growcert campaign create). Nothing was changed.", command: "campaign update")
        }
        var changes: [CampaignField: String] = [:]
        for (option, field) in fields {
            let values = inv.args.values(option)
            if !values.isEmpty { changes[field] = values.joined(separator: " ") }
        }
        if inv.args.has("--require-run-binding") { changes[.requireRunBinding] = "yes" }
        guard !changes.isEmpty || inv.optional("--play-license-key") != nil else {
            throw CLIError.usage("Nothing to change: give at least one of \((fields.map(\.option) + ["--play-license-key", "--require-run-binding"]).joined(separator: ", ")).", command: "campaign update")
        }
        let store = try inv.openStore()
        let id = try inv.positional(0, "campaign ID")
        let targetFlags = ["--project", "--publishable-key"].filter { inv.optional($0) != nil }
        if let given = targetFlags.first {
            let profile = try store.campaign(id).profile
            let flag = CampaignCommand.flag(for: TargetField.of(profile: profile))
            guard targetFlags == [flag] else {
                throw CLIError.usage("Profile '\(profile)' names its target with \(flag), not \(targetFlags.first { $0 != flag } ?? given). Nothing was changed.",
                                     command: "campaign update")
            }
        }
        let update = try CampaignService(store: store).update(id: id, changes: changes, playLicenseKeyFile: try CampaignCommand.playLicenseKeyFile(inv),
                                                              note: inv.optional("--note"))
        inv.printRecord(update.id, update.json, human: "\(update.id): campaign \(update.campaignId) \(update.summary)")
        return ExitCode.success
    }
}
