import ArgumentsKit
import Evidence
import Services

/// `growcert campaign update`: change what may change about a campaign, journaled as `campaign.update`.
enum CampaignUpdateCommand {
    /// The options that change a value, and the value each changes. The target (`.project`) has each profile's own
    /// flag: `--project` (GrooveGrow) or `--publishable-key` (CherrySub), as `campaign create` takes it.
    static func fields(_ o: OptionValues<CampaignUpdateOptions>) -> [(option: String, values: [String], field: CampaignField)] {
        func change<V>(_ key: KeyPath<CampaignUpdateOptions, Option<V>>, _ field: CampaignField) -> (String, [String], CampaignField) {
            (o.name(key), o.texts(key), field)
        }
        return [change(\.baseURL, .baseURL), change(\.sdkVersion, .sdkVersion), change(\.sdkName, .sdkName), change(\.project, .project),
                change(\.publishableKey, .project), change(\.name, .name), change(\.sandboxPin, .sandboxPins)]
    }

    /// What defines the build under certification: never changed, only refused with an explanation. Each option's name,
    /// and whether it was given.
    static func fixed(_ o: OptionValues<CampaignUpdateOptions>) -> [(option: String, given: Bool)] {
        [(o.name(\.appId), o.given(\.appId)), (o.name(\.appVersion), o.given(\.appVersion)), (o.name(\.build), o.given(\.build)),
         (o.name(\.profile), o.given(\.profile))]
    }

    static let command = Command(
        path: ["campaign", "update"], summary: "change a campaign's base URL, SDK version, target (project or publishable key), name, Sandbox pins or Play license key (journaled)", positionals: ["ID"],
        options: CampaignUpdateOptions.self,
        discussion: """
        Records one 'campaign.update' journal entry with each changed value (before and after), who and when;
        the campaign's own record is never rewritten. Every read (campaign show, check run, reports) uses the
        latest values, and the report's campaign section lists each update. The app id, app version and build
        cannot change: they define the build under certification. For another build, create a new campaign.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<CampaignUpdateOptions>) async throws -> Int32 {
        let given = fixed(o).filter(\.given).map(\.option)
        if !given.isEmpty {
            throw CLIError.usage("\(given.joined(separator: ", ")) cannot be changed: the app id, app version and build define the build under certification, and the profile the scenarios its runs were recorded against. For another build, create a new campaign (growcert campaign create). Nothing was changed.", command: "campaign update")
        }
        var changes: [CampaignField: String] = [:]
        let fields = Self.fields(o)
        for (_, values, field) in fields {
            if !values.isEmpty { changes[field] = values.joined(separator: " ") }
        }
        if o[\.requireRunBinding] { changes[.requireRunBinding] = "yes" }
        guard !changes.isEmpty || o[\.playLicenseKey] != nil else {
            throw CLIError.usage("Nothing to change: give at least one of \((fields.map(\.option) + [o.name(\.playLicenseKey), o.name(\.requireRunBinding)]).joined(separator: ", ")).", command: "campaign update")
        }
        let store = try inv.openStore()
        let id = try inv.positional(0, "campaign ID")
        let targetFlags = [\CampaignUpdateOptions.project, \.publishableKey].filter { o.given($0) }.map { o.name($0) }
        if let given = targetFlags.first {
            let profile = try store.campaign(id).profile
            let flag = CampaignCommand.flag(for: TargetField.of(profile: profile))
            guard targetFlags == [flag] else {
                throw CLIError.usage("Profile '\(profile)' names its target with \(flag), not \(targetFlags.first { $0 != flag } ?? given). Nothing was changed.",
                                     command: "campaign update")
            }
        }
        let update = try CampaignService(store: store).update(id: id, changes: changes, playLicenseKeyFile: try CampaignCommand.playLicenseKeyFile(inv, path: o[\.playLicenseKey]),
                                                              note: o[\.note])
        inv.printRecord(update.id, update.json, human: "\(update.id): campaign \(update.campaignId) \(update.summary)")
        return ExitCode.success
    }
}

extension CampaignUpdateCommand {
    /// `campaign update`'s options.
    struct CampaignUpdateOptions: OptionGroup {
        let baseURL = Option.string("--base-url", "URL", help: "Sandbox base URL, https://HOST[/PREFIX]")
        let sdkVersion = Option.string("--sdk-version", "V", help: "GrooveGrow SDK version")
        let sdkName = Option.string("--sdk-name", "NAME", help: "SDK name")
        let project = Option.string("--project", "UUID", help: "groovegrow: GrooveGrow project (App UUID)")
        let publishableKey = Option.string("--publishable-key", "iap_pk_…", help: "cherrysub: the app's CherrySub publishable key")
        let name = Option.string("--name", "TEXT", help: "the campaign's name")
        let sandboxPin = Option.repeatable("--sandbox-pin", "sha256//BASE64", help: "the campaign's own Sandbox public-key pins: replaces its list (repeatable)")
        let playLicenseKey = Option.string("--play-license-key", "FILE", help: "the app's Google Play license key (base64 as Play Console shows it, or PEM)")
        let requireRunBinding = Option.flag("--require-run-binding", help: "from now on only run-bound proof (the run's nonce as the purchase's appAccountToken) certifies a purchase")
        let note = Option.string("--note", "TEXT", help: "why it changed (shown in the report's history)")
        let appId = Option.string("--app-id", "ID", help: "refused: the app id defines what is certified")
        let appVersion = Option.string("--app-version", "V", help: "refused: the app version defines what is certified")
        let build = Option.string("--build", "B", help: "refused: the build defines what is certified")
        let profile = Option.string("--profile", "NAME", help: "refused: the runs were recorded against its scenarios")
    }
}
