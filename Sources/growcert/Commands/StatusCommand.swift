import ArgumentsKit
import Evidence
import Reports
import Services
import StrictJSON

/// `growcert status`: what is missing before a campaign can ship, without recording anything.
enum StatusCommand {
    static let command = Command(
        path: ["status"], summary: "per scenario: the judged run, its verdict, open runs and the next steps (records nothing)",
        options: StatusOptions.self,
        discussion: """
        Judges each scenario as 'report render' would (docs/verdicts.md) and prints, per scenario, the run it is
        judged on, its verdict, the runs still open, and what to do about each reason. The database is opened
        read-only: nothing is recorded, not even a report. --json prints the same as an array of campaigns.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<StatusOptions>) async throws -> Int32 {
        let store = try inv.openStoreForReading()
        let campaigns = try inv.chosenCampaignId(given: o[\.campaign]).map { [try store.campaign($0)] } ?? store.campaigns()
        var json: [JSONValue] = []
        var text = ""
        // On a colour terminal the verdicts are painted, and every other piece is made safe here (written raw below).
        let colour = inv.terminal.colourOut
        func safe(_ piece: String) -> String { colour ? TextSafety.terminal(piece) : piece }
        for status in try StatusService(store: store).status(of: campaigns) {
            let campaign = status.campaign
            var rows: [[String]] = []
            var steps: [(scenarios: [String], line: String)] = []
            var openFailures: [String] = []
            for s in status.scenarios {
                for (run, ids) in s.failedOnOpenRuns {
                    openFailures.append("  \(s.id): open run \(run) has failed checks: \(ids.joined(separator: ", "))")
                }
                rows.append([s.id, s.verdict.rawValue, s.judgedRun ?? "-", s.openRuns.isEmpty ? "-" : s.openRuns.joined(separator: ", ")])
                // A step that reads the same for several scenarios is printed once, naming them all.
                for (step, text) in s.nextSteps {
                    let line = "\(text)" + (step.checks.isEmpty ? "" : " (\(step.checks.joined(separator: ", ")))") + "\n      \(step.command)"
                    if let i = steps.firstIndex(where: { $0.line == line }) { steps[i].scenarios.append(s.id) } else { steps.append(([s.id], line)) }
                }
            }
            json.append(status.json)
            text += safe("Campaign \(campaign.id): \(campaign.name) — ") + TerminalStyle.paint(status.verdict.rawValue, on: colour) + "\n"
            text += Self.paintVerdicts(TextTable.render(header: ["SCENARIO", "VERDICT", "JUDGED RUN", "OPEN RUNS"], rows: rows), on: colour)
            if !openFailures.isEmpty { text += safe("Failed checks on open runs:\n" + openFailures.joined(separator: "\n") + "\n") }
            text += safe(steps.isEmpty ? "Next steps: none, every scenario is CERTIFIED.\n"
                : "Next steps:\n" + steps.map { "  \($0.scenarios.joined(separator: ", ")): \($0.line)" }.joined(separator: "\n") + "\n")
            text += "\n"
        }
        if inv.json {
            inv.console.out(JSONValue.array(json).prettyText + "\n")
        } else {
            let out = campaigns.isEmpty ? "No campaign yet: growcert campaign create …\n" : String(text.dropLast())
            if colour { inv.console.outPainted(out) } else { inv.console.out(out) }
        }
        return ExitCode.success
    }

    /// The table with each row's verdict painted (when `on`), every other character made safe for a terminal.
    static func paintVerdicts(_ table: String, on: Bool) -> String {
        guard on else { return table }
        let lines = table.components(separatedBy: "\n")
        guard let header = lines.first, let column = header.range(of: "VERDICT") else { return TextSafety.terminal(table) }
        let offset = header.distance(from: header.startIndex, to: column.lowerBound)
        let words = [Verdict.notCertifiable, .certified, .failed, .incomplete].map(\.rawValue)
        return lines.enumerated().map { n, line in
            guard n > 0, line.count > offset else { return TextSafety.terminal(line) }
            let start = line.index(line.startIndex, offsetBy: offset)
            guard let word = words.first(where: { line[start...].hasPrefix($0) }) else { return TextSafety.terminal(line) }
            return TextSafety.terminal(String(line[..<start])) + TerminalStyle.paint(word, on: true)
                + TextSafety.terminal(String(line[start...].dropFirst(word.count)))
        }.joined(separator: "\n")
    }
}

extension StatusCommand {
    /// `status`'s options.
    struct StatusOptions: OptionGroup {
        let campaign = Option.string("--campaign", "ID", help: "only this campaign (default: the workspace's current one, else every campaign)")
    }
}
