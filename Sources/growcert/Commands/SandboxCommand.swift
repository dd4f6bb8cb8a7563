import ArgumentsKit
import Evidence
import Foundation
import Sandbox
import StrictJSON

/// `growcert sandbox serve`: the local emulator of the GrooveGrow Sandbox, until Ctrl-C.
enum SandboxCommand {
    static let all = [
        Command(path: ["sandbox", "serve"], summary: "serve the local Sandbox emulator on 127.0.0.1 (never certifying)",
                options: [
                    OptionSpec(name: "--profile", value: "NAME", help: "which vendor's backend to emulate (default groovegrow)",
                               choices: SandboxCommand.profiles),
                    OptionSpec(name: "--port", value: "N", help: "port on 127.0.0.1 (default 0: any free port, printed)"),
                    OptionSpec(name: "--project", value: "UUID", help: "the project (App UUID) it serves; give your campaign's to keep it (default: random, printed)"),
                    OptionSpec(name: "--server-key", value: "KEY", help: "its server key, gg_sk_… (default: random, printed)"),
                    OptionSpec(name: "--bundle-id", value: "ID", help: "bundle id in its signed purchases (default com.example.app)"),
                    OptionSpec(name: "--publishable-key", value: "KEY", help: "cherrysub: the app's publishable key, iap_pk_… (default: random, printed)",
                               setsHelpColumn: false),
                ],
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
                """) { inv in
            let port = try inv.optional("--port").map { v -> UInt16 in
                guard let p = UInt16(v) else { throw CLIError.usage("--port takes a number from 0 to 65535.", command: "sandbox serve") }
                return p
            } ?? 0
            switch inv.optional("--profile") ?? "groovegrow" {
            case "groovegrow":
                guard inv.optional("--publishable-key") == nil else {
                    throw CLIError.usage("--publishable-key is a CherrySub key; use it with --profile cherrysub.", command: "sandbox serve")
                }
            case "cherrysub":
                for option in ["--project", "--server-key"] where inv.optional(option) != nil {
                    throw CLIError.usage("\(option) is a GrooveGrow option; --profile cherrysub takes --publishable-key.", command: "sandbox serve")
                }
                return try await serveCherrySub(inv, port: port)
            case let other:
                throw CLIError.usage("Unknown profile '\(other)'.\(Suggestion.sentence(for: other, among: SandboxCommand.profiles)) Known profiles: \(SandboxCommand.profiles.joined(separator: ", ")).", command: "sandbox serve")
            }
            let project = try inv.optional("--project").map { v -> UUID in
                guard let u = UUID(uuidString: v) else { throw CLIError.usage("--project takes a UUID, e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55.", command: "sandbox serve") }
                return u
            }
            let emulator = try SandboxEmulator(configuration: SandboxConfiguration(
                projectId: project, serverKey: inv.optional("--server-key"), port: port, bundleId: inv.optional("--bundle-id") ?? "com.example.app"))
            let url = try emulator.start()
            let projectText = emulator.projectId.uuidString.lowercased()
            let bundleId = inv.optional("--bundle-id") ?? "com.example.app"
            let create = SandboxCommand.campaignCreateLine(baseURL: url.absoluteString, project: projectText, appId: bundleId)
            let info: JSONValue = ["baseUrl": .string(url.absoluteString), "project": .string(projectText),
                                   "serverKey": .string(emulator.serverKey), "kind": "emulator", "campaignCreate": .string(create)]
            if inv.json {
                inv.console.out(info.canonicalText + "\n")
            } else {
                // The emulator's server key is a throwaway test key of this process: printing it is fine (it is never stored).
                inv.console.out("""
                growcert Sandbox emulator (not certifying) listening on \(url.absoluteString)
                  project     \(projectText)
                  server key  \(emulator.serverKey)   (a throwaway test key of this emulator)

                Paste into the terminal where you run growcert:
                  export GROWCERT_SERVER_KEY=\(emulator.serverKey)
                  \(create)
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
    /// The vendors `sandbox serve --profile` emulates.
    static let profiles = ["groovegrow", "cherrysub"]

    /// `sandbox serve --profile cherrysub`: the CherrySub emulator until Ctrl-C.
    static func serveCherrySub(_ inv: Invocation, port: UInt16) async throws -> Int32 {
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(
            publishableKey: inv.optional("--publishable-key"), port: port, bundleId: inv.optional("--bundle-id") ?? "com.example.app"))
        let url = try emulator.start()
        let bundleId = inv.optional("--bundle-id") ?? "com.example.app"
        let create = cherrySubCampaignCreateLine(baseURL: url.absoluteString, publishableKey: emulator.publishableKey, appId: bundleId)
        let info: JSONValue = ["baseUrl": .string(url.absoluteString), "publishableKey": .string(emulator.publishableKey),
                               "secretKey": .string(emulator.secretKey), "kind": "emulator", "bundleId": .string(bundleId), "campaignCreate": .string(create)]
        if inv.json {
            inv.console.out(info.canonicalText + "\n")
        } else {
            // The secret key is a throwaway test key of this process: printing it is fine (it is never stored).
            inv.console.out("""
            growcert CherrySub emulator (not certifying) listening on \(url.absoluteString)
              publishable key  \(emulator.publishableKey)
              secret key       \(emulator.secretKey)   (a throwaway test key of this emulator)

            Paste into the terminal where you run growcert:
              export GROWCERT_SERVER_KEY=\(emulator.secretKey)
              \(create)
            It accepts transactions of the app \(bundleId) only (--bundle-id changes it); 'growcert sandbox purchase --out DIR'
            buys one for a run.
            Press Ctrl-C to stop.

            """)
        }
        await SignalWaiter.waitForInterrupt()
        emulator.stop()
        inv.progress("emulator stopped")
        return ExitCode.success
    }

    /// The `growcert campaign create …` line a tester pastes to aim a CherrySub campaign at this emulator: the app id is
    /// the bundle id the emulator accepts, so its transactions are the campaign's.
    static func cherrySubCampaignCreateLine(baseURL: String, publishableKey: String, appId: String) -> String {
        "growcert campaign create --profile cherrysub --app-id \(appId) --app-version 1.0.0 --build 1 --sdk-version 1.0.0 --publishable-key \(publishableKey) --base-url \(baseURL)"
    }

    /// The `growcert campaign create …` line a tester pastes to aim a campaign at this emulator.
    static func campaignCreateLine(baseURL: String, project: String, appId: String) -> String {
        "growcert campaign create --profile groovegrow --app-id \(appId) --app-version 1.0.0 --build 1 --sdk-version 0.0.1 --project \(project) --base-url \(baseURL)"
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
