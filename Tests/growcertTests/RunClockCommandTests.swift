import Foundation
import QRCode
import Testing
@testable import growcert

/// `run start` reads the Sandbox's clock and gives the tester the run's nonce (issue 21).
@Suite("growcert end to end: run start reads the Sandbox's clock and prints the run's nonce")
struct RunClockCommandTests {
    @Test("Against a running emulator: the nonce on stderr, stdout only the id, and run show names the readings")
    func runStartAgainstTheEmulator() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        // seedLive starts r1; a second run is the one looked at.
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let o = try g.run(["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"])
        #expect(o.code == 0, "\(o)")
        let id = o.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.hasPrefix("r") && !id.contains("\n"), "\(o)")
        let nonceLine = try #require(o.stderr.components(separatedBy: "\n").first { $0.hasPrefix("Run \(id) nonce: ") }, "\(o)")
        let nonce = String(nonceLine.dropFirst("Run \(id) nonce: ".count))
        #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased(), "\(nonce)")

        #expect(try g.run(["run", "finish", id, "--outcome", "pass"]).code == 0)
        let shown = try #require(try g.json(["run", "show", id]) as? [String: Any])
        let clocks = try #require(shown["clocks"] as? [[String: Any]])
        #expect(clocks.map { $0["event"] as? String } == ["start", "finish"])
        #expect(clocks.first?["nonce"] as? String == nonce)
        let reading = try #require(clocks.first?["reading"] as? [String: Any])
        // The emulator is on this machine: its clock is read and kept, and never counts as outside.
        #expect(reading["provenance"] as? String == "live-emulator")
        #expect((reading["sandboxTime"] as? String)?.hasSuffix("Z") == true)
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test func onATerminalTheNonceComesWithAQRCodeOfIt() throws {
        let nonce = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        let plain = RunNonceDisplay.text(runId: "r1", nonce: nonce)
        #expect(plain == "Run r1 nonce: \(nonce)\n  Give it to the test app as the purchase's appAccountToken: the store-signed purchase then names this run.\n")
        let terminal = RunNonceDisplay.text(runId: "r1", nonce: nonce, qr: true)
        #expect(terminal == plain + (try QRCode(encoding: Array(nonce.utf8)).terminalText()))
    }
}
