import Foundation
import Testing

/// `growcert sandbox serve --json --port 0` running as a child process, as a tester would start it.
///
/// Reads the one JSON line the emulator prints on start; `stop()` sends SIGTERM and returns
/// what it printed. Dropping it without `stop()` still stops the child.
final class LocalSandbox {
    let running: Running
    let baseURL: String
    let project: String
    let serverKey: String
    private var stopped = false

    init(_ g: Growcert, extraArguments: [String] = []) throws {
        running = try Running(g, Growcert.binary, ["sandbox", "serve", "--json", "--port", "0"] + extraArguments, env: [:], stdin: nil)
        do {
            let line = try running.firstLine()
            let info = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let baseURL = info?["baseUrl"] as? String, let project = info?["project"] as? String,
                  let serverKey = info?["serverKey"] as? String, info?["kind"] as? String == "emulator" else {
                throw E2EFailure("sandbox serve --json printed an unexpected first line: \(line)")
            }
            self.baseURL = baseURL
            self.project = project
            self.serverKey = serverKey
        } catch {
            running.process.terminate()
            _ = try? running.finish()
            throw error
        }
    }

    /// Sends SIGTERM and waits for the emulator to exit.
    @discardableResult
    func stop() throws -> Outcome {
        stopped = true
        running.process.terminate()
        return try running.finish()
    }

    deinit {
        if !stopped {
            running.process.terminate()
            _ = try? running.finish()
        }
    }
}

extension Growcert {
    /// Creates the database and campaign `c1` aimed at `baseURL`, a simulator `sim` and a running run `r1`.
    func seedLive(baseURL: String, project: String, scenario: String = "first-connect", appId: String = "com.example.app") throws {
        for args in [
            ["init"],
            ["campaign", "create", "--profile", "groovegrow", "--app-id", appId, "--app-version", "2.4.0", "--build", "311",
             "--sdk-version", "0.0.1", "--project", project, "--base-url", baseURL],
            ["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone 15 Simulator", "--os-version", "18.1"],
            ["run", "start", "--campaign", "c1", "--scenario", scenario, "--device", "sim", "--tester", "Ann"],
        ] {
            let o = try run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
    }
}
