import ArgumentsKit
import Evidence
import Services
import StrictJSON
import StoreProof
import Foundation

/// `growcert campaign create | use | list | show`.
enum CampaignCommand {
    static let all = [
        Command(path: ["campaign", "create"], summary: "record an app build under certification",
                options: CampaignCreateOptions.self) { inv, o in
            let store = try inv.openStore()
            let profileId = try o.value(\.profile)
            let profile = try store.profileNamed(profileId)
            let created = try CampaignService(store: store).create(NewCampaign(
                profile: profileId, name: o[\.name], appId: try o.value(\.appId),
                appVersion: try o.value(\.appVersion), build: try o.value(\.build),
                sdkName: o[\.sdkName], sdkVersion: try o.value(\.sdkVersion),
                project: try targetValue([(o.group.project.name, o[\.project]), (o.group.publishableKey.name, o[\.publishableKey])], profile: profile), baseURL: try o.value(\.baseURL),
                sandboxPins: o[\.sandboxPin]),
                playLicenseKeyFile: try playLicenseKeyFile(inv, path: o[\.playLicenseKey]), requireRunBinding: o[\.requireRunBinding])
            inv.printRecord(created.id, created.json)
            return ExitCode.success
        },
        Command(path: ["campaign", "use"], summary: "make a campaign the workspace's current one: --campaign may then be left out", positionals: ["ID"],
                discussion: """
                As 'kubectl config use-context': writes the campaign into this workspace's growcert.workspace (the file
                'growcert init' left), so every command run in the workspace's folder or below acts on it without
                --campaign. An explicit --campaign still wins. Nothing is recorded in the evidence database. Without a
                current campaign, a database with one campaign needs no --campaign either.
                """) { inv in
            let location = try inv.location
            guard location.isWorkspaceDatabase, var workspace = location.workspace else {
                throw WorkspaceError.noWorkspace(database: location.database)
            }
            let c = try inv.openStoreForReading().campaign(try inv.positional(0, "campaign ID"))
            workspace.campaign = c.id
            try workspace.write()
            inv.printRecord(c.id, ["campaign": .string(c.id), "name": .string(c.name), "workspace": .string(workspace.path)],
                            human: "Current campaign: \(c.id) (\(c.name)), for growcert commands run in \(workspace.folder) or below.")
            return ExitCode.success
        },
        Command(path: ["campaign", "list"], summary: "list campaigns", options: CampaignListOptions.self) { inv, o in
            let cs = try inv.openStoreForReading().campaigns()
            inv.printList(cs.map(\.json), header: ["ID", "NAME", "APP", "VERSION", "BUILD", "PROFILE", "CREATED"],
                          rows: cs.map { [$0.id, $0.name, $0.appId, $0.appVersion, $0.build, $0.profile, $0.createdAt] }, csv: o[\.csv])
            return ExitCode.success
        },
        Command(path: ["campaign", "show"], summary: "show a campaign with its devices, accounts and runs", positionals: ["ID"]) { inv in
            let store = try inv.openStoreForReading()
            let c = try store.campaign(try inv.positional(0, "campaign ID"))
            let devices = try store.devices(campaignId: c.id)
            let accounts = try store.accounts(campaignId: c.id)
            let runs = try store.runs(campaignId: c.id)
            let updates = try store.campaignUpdates(campaignId: c.id)
            if inv.json {
                var o = c.json.objectValue ?? [:]
                o["updates"] = .array(updates.map(\.json))
                o["devices"] = .array(devices.map(\.json))
                o["accounts"] = .array(accounts.map(\.json))
                o["runs"] = .array(runs.map(\.json))
                inv.console.out(JSONValue.object(o).prettyText + "\n")
                return ExitCode.success
            }
            var out = """
            Campaign \(c.id): \(c.name)
              profile      \(c.profile)
              app          \(c.appId) \(c.appVersion) (build \(c.build))
              SDK          \(c.sdkName) \(c.sdkVersion)
              \(targetLabel(c.profile)) \(c.project)
              Sandbox      \(c.baseURL)
              Sandbox pins \(c.sandboxPins.isEmpty ? "(none: the system trust store decides)" : c.sandboxPins.joined(separator: " "))
              Play key     \(c.playLicenseKeyFingerprint.map { "SHA-256 \($0) (compare with Play Console)" } ?? "(none: no signed Google Play purchase can be recorded)")
              created      \(c.createdAt) by \(c.createdBy)

            Devices:

            """
            out += devices.isEmpty ? "  (none)\n" : devices.map { "  \($0.id)  \($0.label)  \($0.kind.rawValue) \($0.platform.rawValue)  \($0.model)  \($0.osVersion)" }.joined(separator: "\n") + "\n"
            out += "\nStore accounts:\n"
            out += accounts.isEmpty ? "  (none)\n" : accounts.map { "  \($0.id)  \($0.label)  \($0.store.rawValue)  \($0.accountMasked)  \($0.storefront ?? "")" }.joined(separator: "\n") + "\n"
            if !updates.isEmpty {
                out += "\nUpdates:\n" + updates.map { "  \($0.id)  \($0.updatedAt) by \($0.updatedBy)  \($0.summary)" + ($0.note.map { " — \($0)" } ?? "") }.joined(separator: "\n") + "\n"
            }
            out += "\nRuns:\n"
            out += runs.isEmpty ? "  (none)\n" : runs.map { "  \($0.id)  \($0.scenario)  \($0.outcome?.rawValue ?? "running")  \($0.tester)  \($0.startedAt)" }.joined(separator: "\n") + "\n"
            inv.console.out(out)
            return ExitCode.success
        },
    ]

    /// The contents of `--play-license-key`'s file (`path`); nil without the option.
    static func playLicenseKeyFile(_ inv: Invocation, path: String?) throws -> Data? {
        try path.map { Data(try inv.readInput($0, limit: GooglePlayLicenseKey.maximumBytes + 1)) }
    }

    /// The target field's name, padded to the other labels' width of `campaign show`.
    static func targetLabel(_ profileId: String) -> String {
        let name = TargetField.of(profile: profileId).name
        return name.count >= 12 ? name : name.padding(toLength: 12, withPad: " ", startingAt: 0)
    }

    /// The flag of each profile target field (`project` → `--project`, `publishableKey` → `--publishable-key`).
    static func flag(for field: TargetField) -> String {
        "--" + field.name.reduce(into: "") { out, c in out += c.isUppercase ? "-" + c.lowercased() : String(c) }
    }

    /// The value of the target flag `profile` declares, among the target options `given` (each flag with its value,
    /// nil when not given); a usage error for a missing one or another profile's.
    static func targetValue(_ given: [(flag: String, value: String?)], profile: Profile) throws -> String {
        let flag = flag(for: profile.target)
        for other in given.map(\.flag) where other != flag && given.first(where: { $0.flag == other })?.value != nil {
            throw CLIError.usage("Profile '\(profile.id)' names its target with \(flag), not \(other).", command: "campaign create")
        }
        guard let value = given.first(where: { $0.flag == flag })?.value else {
            throw CLIError.usage("Profile '\(profile.id)' needs \(flag) (its \(profile.target.name)).", command: "campaign create")
        }
        return value
    }
}

extension CampaignCommand {
    /// `campaign create`'s options.
    struct CampaignCreateOptions: OptionGroup {
        let profile = Option.requiredString("--profile", "NAME", help: "scenario catalog (built in: groovegrow, cherrysub)")
        let appId = Option.requiredString("--app-id", "ID", help: "bundle id / application id, e.g. com.example.app")
        let appVersion = Option.requiredString("--app-version", "V", help: "app version, e.g. 2.4.0")
        let build = Option.requiredString("--build", "B", help: "build number")
        let sdkVersion = Option.requiredString("--sdk-version", "V", help: "the vendor SDK's version")
        let sdkName = Option.string("--sdk-name", "NAME", help: "SDK name (default: the profile's vendor, e.g. GrooveGrow SDK)")
        let project = Option.string("--project", "UUID", help: "groovegrow: the GrooveGrow project (App UUID)")
        let publishableKey = Option.string("--publishable-key", "iap_pk_…", help: "cherrysub: the app's CherrySub publishable key")
        let baseURL = Option.requiredString("--base-url", "URL", help: "Sandbox base URL, https://HOST[/PREFIX]")
        let name = Option.string("--name", "TEXT", help: "a name for the campaign (default: app id, version and build)")
        let sandboxPin = Option.repeatable("--sandbox-pin", "sha256//BASE64", help: "a public-key pin the hosted Sandbox must match (repeatable)")
        let playLicenseKey = Option.string("--play-license-key", "FILE", help: "the app's Google Play license key (base64 as Play Console shows it, or PEM)")
        let requireRunBinding = Option.flag("--require-run-binding", help: "only run-bound proof (the run's nonce as the purchase's appAccountToken) certifies a purchase (journaled)")
    }

    /// `campaign list`'s options.
    struct CampaignListOptions: OptionGroup {
        let csv = CommonOptions.csv
    }
}
