import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert sandbox serve`: the local emulator of the GrooveGrow Sandbox, until Ctrl-C.
enum SandboxCommand {
    static let all = [
        Command(path: ["sandbox", "serve"], summary: "serve the local Sandbox emulator on 127.0.0.1 (never certifying)",
                options: SandboxServeOptions.self,
                discussion: """
                Implements the whole GrooveGrow Sandbox v1 contract in memory, including the /_emulator controls.
                Every response carries 'GrooveGrow-Sandbox-Kind: emulator', and its store purchases are signed by its
                own key with environment 'Emulator': evidence from it is recorded as live-emulator / emulator-signed and
                never certifies. It prints its project, an 'export GROWCERT_SERVER_KEY=…' line and a ready-to-paste
                'growcert campaign create …' line for it; 'growcert sandbox purchase' makes a purchase on it and writes the
                transaction.jws and receipt.json to record. Stop it with Ctrl-C.

                With --profile cherrysub it emulates CherrySub's IAP staging backend instead (every response carries
                'CherrySub-Environment-Kind: emulator'); it prints its base URL, its publishable key, an
                'export GROWCERT_SERVER_KEY=…' line with its secret key (iap_sk_…) and a ready 'growcert campaign create
                --profile cherrysub …' line whose --app-id is the bundle id it accepts (--bundle-id, default
                com.example.app); 'growcert sandbox purchase' buys an emulator-signed transaction of that app on it.
                """) { inv, o in
            let port = try o.value(\.port).map { UInt16($0) }
            let profile = o[\.profile] ?? Vendors.standard.profileId
            guard let vendor = try? Vendors.vendor(for: profile) else {
                throw CLIError.usage("Unknown profile '\(profile)'.\(Suggestion.sentence(for: profile, among: Vendors.profileIds)) Known profiles: \(Vendors.profileIds.joined(separator: ", ")).", command: "sandbox serve")
            }
            let takes = vendor.emulatorSettings.map(\.name)
            var settings: [String: String] = [:]
            for (option, given) in o[\.settings] {
                let name = String(option.name.dropFirst(2))
                guard let value = given else { continue }
                guard takes.contains(name) else {
                    throw CLIError.usage("\(option.name) is not a setting of the \(vendor.name) emulator; --profile \(profile) takes \(takes.map { "--" + $0 }.joined(separator: ", ")).", command: "sandbox serve")
                }
                settings[name] = value
            }
            let emulator = try vendor.startEmulator(port: port ?? 0, settings: settings)
            let create = try campaignCreateLine(vendor: vendor, emulator: emulator)
            var info: [(String, JSONValue)] = [("baseUrl", .string(emulator.url.absoluteString))]
            info += emulator.facts.map { ($0.key, .string($0.value)) }
            info += [("kind", "emulator"), ("bundleId", .string(emulator.bundleId)), ("campaignCreate", .string(create))]
            if inv.json {
                inv.console.out(JSONValue.object(Dictionary(info, uniquingKeysWith: { a, _ in a })).canonicalText + "\n")
            } else {
                // The emulator's server key is a throwaway test key of this process: printing it is fine (it is never stored).
                let width = (emulator.facts.map(\.label.count).max() ?? 0) + 2
                let facts = emulator.facts.enumerated().map { index, fact in
                    "  " + fact.label.padding(toLength: width, withPad: " ", startingAt: 0) + fact.value
                        + (index == emulator.facts.count - 1 ? "   (a throwaway test key of this emulator)" : "")
                }
                let only = emulator.acceptsOnlyItsApp
                    ? "\nIt accepts transactions of the app \(emulator.bundleId) only (--bundle-id changes it); 'growcert sandbox purchase --out DIR'\nbuys one for a run."
                    : ""
                inv.console.out("""
                growcert \(emulator.title) (not certifying) listening on \(emulator.url.absoluteString)
                \(facts.joined(separator: "\n"))

                Paste into the terminal where you run growcert:
                  export GROWCERT_SERVER_KEY=\(emulator.serverKey)
                  \(create)\(only)
                Press Ctrl-C to stop.

                """)
            }
            await SignalWaiter.waitForInterrupt()
            emulator.stop()
            inv.progress("emulator stopped")
            return ExitCode.success
        },
    ]
}

extension SandboxCommand {
    /// Every vendor's emulator settings as options (`--NAME VALUE`), once each; a setting only some vendors take says
    /// whose it is. Made anew for each group that declares them (`OptionGroup.specs` collects the options a group makes).
    static var settingOptions: [Option<String?>] {
        var seen: [String] = []
        var options: [Option<String?>] = []
        for vendor in Vendors.all {
            for setting in vendor.emulatorSettings where !seen.contains(setting.name) {
                seen.append(setting.name)
                let owners = Vendors.all.filter { $0.emulatorSettings.contains { $0.name == setting.name } }
                let everyone = owners.count == Vendors.all.count
                let ofStandard = owners.contains { $0.profileId == Vendors.standard.profileId }
                let help = everyone || ofStandard ? setting.help : owners.map(\.profileId).joined(separator: ", ") + ": " + setting.help
                options.append(Option.string("--" + setting.name, setting.value, help: help, setsHelpColumn: everyone || ofStandard))
            }
        }
        return options
    }

    /// The `growcert campaign create …` line a tester pastes to aim a campaign at this emulator: its target under the
    /// profile's target flag, and its bundle id as the app id (so that its signed purchases are the campaign's app's).
    static func campaignCreateLine(vendor: any Vendor, emulator: RunningEmulator) throws -> String {
        let profile = try Profile.named(vendor.profileId)
        return "growcert campaign create --profile \(vendor.profileId) --app-id \(emulator.bundleId) --app-version 1.0.0 --build 1 "
            + "--sdk-version \(emulator.sdkVersion) \(CampaignCommand.flag(for: profile.target)) \(emulator.target) --base-url \(emulator.url.absoluteString)"
    }
}

/// Suspends until SIGINT or SIGTERM arrives.
enum SignalWaiter {
    static func waitForInterrupt() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let box = SignalSources()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            box.start(signals: [SIGINT, SIGTERM]) { c.resume() }
        }
    }
}

/// Holds the dispatch sources while waiting; resumes its continuation once.
private final class SignalSources: @unchecked Sendable {
    // @unchecked: `sources` and `fired` are touched only on `queue`.
    private let queue = DispatchQueue(label: "growcert.signals")
    private var sources: [DispatchSourceSignal] = []
    private var fired = false

    func start(signals: [Int32], onFirst: @escaping @Sendable () -> Void) {
        queue.sync {
            for s in signals {
                let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
                source.setEventHandler { [unowned self] in
                    guard !self.fired else { return }
                    self.fired = true
                    onFirst()
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}

extension SandboxCommand {
    /// `sandbox serve`'s options.
    struct SandboxServeOptions: OptionGroup {
        let profile = Option.string("--profile", "NAME", help: "which vendor's backend to emulate (default \(Vendors.standard.profileId))", choices: Vendors.profileIds)
        let port = Option.integer("--port", "N", help: "port on 127.0.0.1 (default 0: any free port, printed)", in: 0...65535,
                                  invalid: "--port takes a number from 0 to 65535.")
        let settings = SandboxCommand.settingOptions
    }
}
